"""Issue 10 §5: the templates and static files ship inside the package, so a
normal (non-editable) install serves pages with their CSS and scripts — built
as a wheel, installed in a fresh virtual environment outside the source tree,
migrated and served."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import venv
from pathlib import Path

import httpx
import pytest
from tests.tables.liveserver import ROOT, free_port

pytestmark = [pytest.mark.slow]


def test_an_installed_wheel_serves_its_pages_css_and_scripts(tmp_path: Path) -> None:
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)],
                   check=True, timeout=300, env=clean)
    [wheel] = dist.glob("tavern-*.whl")
    env_dir = tmp_path / "venv"
    # The fresh environment sees the test environment's packages for the
    # dependencies (no network needed), but tavern itself only from the wheel.
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    py = env_dir / "bin" / "python"
    site = subprocess.run([sys.executable, "-c", "import fastapi, os; print(os.path.dirname(os.path.dirname(fastapi.__file__)))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True,
                   timeout=300, env=clean, cwd=tmp_path)
    home = tmp_path / "elsewhere"  # not the source tree: nothing found by accident
    home.mkdir()
    # The test environment's packages come after the standard library (a
    # .pth line, not PYTHONPATH): a test dependency's old backport there
    # (the poker package brings `pathlib` 1.0) must not shadow the stdlib.
    own_site = env_dir / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    (own_site / "zz_test_env.pth").write_text(site + "\n")
    env = dict(clean)
    env.update(TAVERN_DATA_DIR=str(home / "data"), TAVERN_SECRET_KEY="wheel-test")
    where = subprocess.run([str(py), "-c", "import tavern; print(tavern.__file__)"], cwd=home, env=env,
                           capture_output=True, text=True, check=True).stdout
    assert str(env_dir) in where and str(ROOT / "src") not in where, where
    # The schema comes with the project's migrations (alembic.ini and migrations/ are not package data).
    env_migrate = {**env, "TAVERN_DATABASE_URL": f"sqlite:///{home / 'data' / 'tavern.db'}"}
    (home / "data").mkdir()
    subprocess.run([str(py), "-m", "alembic", "-c", str(ROOT / "alembic.ini"), "upgrade", "head"], cwd=ROOT,
                   env=env_migrate, check=True, capture_output=True, timeout=120)
    port = free_port()
    server = subprocess.Popen([str(py), "-m", "uvicorn", "tavern.web.app:create_app", "--factory",
                               "--host", "127.0.0.1", "--port", str(port)], cwd=home, env=env_migrate,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        page = httpx.get(base + "/login")
        assert page.status_code == 200 and "/static/tavern.css" in page.text
        css = httpx.get(base + "/static/tavern.css")
        assert css.status_code == 200 and "text/css" in css.headers["content-type"] and len(css.text) > 100
        js = httpx.get(base + "/static/table.js")
        assert js.status_code == 200 and "WebSocket" in js.text
        part = httpx.get(base + "/static/table/seats.js")  # the shell's parts, a folder down, ship too
        assert part.status_code == 200 and "renderSeats" in part.text
    finally:
        server.terminate()
        server.wait(10)
