"""The pages in a real browser: our Content-Security-Policy (self only, no
inline script or style) must not break any of them.

Runs a uvicorn process on a migrated temp database and drives Debian's
Chromium with Playwright (``scripts/system-deps.sh`` installs it).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.dbtools import session_scope
from webtools import PASSWORD, World

from tavern.services import taverns

pytestmark = [pytest.mark.db, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "TAVERN_DATABASE_URL": db_url, "TAVERN_DATA_DIR": str(tmp_path),
           "TAVERN_ALLOWED_ORIGINS": f"http://127.0.0.1:{port}"}
    log = open(tmp_path / "server.log", "ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "tavern.web.app:create_app", "--factory",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError((tmp_path / "server.log").read_text())
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_pages_work_under_the_csp_in_chromium(settings, server: str, world: World) -> None:
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (scripts/system-deps.sh installs it)")
    from playwright.sync_api import sync_playwright

    with session_scope() as s:
        deck = taverns.buy_item(s, world.owner_id, "deck52", settings)
        taverns.store_item(s, world.owner_id, deck.id, world.tavern_id)
        table = taverns.open_table(s, world.tavern_id, world.owner_id, {
            "game": "ramponneau", "stakes": {"small_blind": 1, "big_blind": 2}, "seats": 6}, settings)
        table_id = table.id

    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        page = browser.new_page()
        # What the CSP blocks is reported on the console; scripts' own exceptions as page errors.
        page.on("console", lambda m: problems.append(m.text)
                if m.type == "error" and "Content Security Policy" in m.text else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"{server}/")
        assert page.locator(f"#tavern-{world.tavern_id} h3").inner_text() == "Au Lapin Agile"
        # The stylesheet really applies (a blocked stylesheet leaves the default white body).
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(239, 228, 207)"

        page.goto(f"{server}/login")
        page.fill("input[name=username]", "owner")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{server}/")
        assert "Déconnexion (owner)" in page.content()

        page.click(f"a[href='/tables/{table_id}']")
        assert page.locator("#table-live").get_attribute("data-table-id") == str(table_id)
        for path in ("/compte", "/premium", "/docs"):
            page.goto(f"{server}{path}")
        page.goto(f"{server}/ma-taverne")
        assert page.url.endswith(f"/ma-taverne/{world.tavern_id}")
        page.click("form[action$='/acheter'] button >> nth=0")  # buy a deck through the real form
        page.wait_for_load_state()
        assert "acheté" in page.locator(".flash.ok").inner_text()
        browser.close()
    assert problems == [], problems
