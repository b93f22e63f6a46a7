"""/healthz pings Redis when ``redis_url`` is configured (a real redis-server)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tavern.settings import get_settings
from tavern.web.app import create_app

pytestmark = [pytest.mark.db, pytest.mark.redis]


def test_healthz_reports_redis_up(db_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVERN_REDIS_URL", redis_url)
    get_settings.cache_clear()
    app = create_app()
    with TestClient(app) as client:
        r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"ok": True, "database": "ok", "redis": "ok"}
