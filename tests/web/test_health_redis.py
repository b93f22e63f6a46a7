"""/healthz pings Redis when ``redis_url`` is configured (a real redis-server)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tavern.settings import get_settings
from tavern.web.app import create_app

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    exe = shutil.which("redis-server")
    assert exe, "redis-server is needed: scripts/system-deps.sh installs it"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis

    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        for _ in range(200):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        proc.terminate()
        proc.wait(10)


def test_healthz_reports_redis_up(db_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVERN_REDIS_URL", redis_url)
    get_settings.cache_clear()
    app = create_app()
    with TestClient(app) as client:
        r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"ok": True, "database": "ok", "redis": "ok"}
