"""/healthz pings Redis when ``redis_url`` is configured (a real redis-server)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tavern.settings import Settings
from tavern.web.app import create_app

pytestmark = [pytest.mark.db, pytest.mark.redis]


def test_healthz_reports_redis_up(settings: Settings, redis_url: str) -> None:
    app = create_app(settings.model_copy(update={"redis_url": redis_url}))
    with TestClient(app) as client:
        r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"ok": True, "database": "ok", "redis": "ok"}
