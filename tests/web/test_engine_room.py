"""Issue 32 §4: « Salle des machines », an admin page "from the same figures,
live: players and tables by game, deals per minute, latency percentiles,
workers and the tables each holds, the last errors"."""

from __future__ import annotations

import asyncio
import logging

import pytest
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from tests.tables.conftest import Harness, build_world, passive
from webtools import World, login, make_user, page

from tavern import metrics
from tavern.store.db import get_engine, session_factory
from tavern.web import engine_room
from tavern.web.state import services

pytestmark = pytest.mark.db


def test_an_admin_sees_the_engine_room_with_live_figures(client: TestClient, world: World, db_url: str) -> None:
    # A deal played at a real table of this process, then an error logged at one.
    w = build_world(session_factory(get_engine(db_url)), names=("ana", "bob", "cid"))

    async def play() -> None:
        h = Harness(w)
        actor = await h.start(seated=("ana", "bob", "cid"))
        await h.settle()
        await h.play_deal(passive)
        services(client.app).tables.actors[w.table_id] = actor  # held by this worker, as the manager would
        logging.getLogger("tavern.tables.actor").error("table %s: tick failed (test)", w.table_id)

    asyncio.run(play())
    login(client, "admin")
    r = client.get("/admin/salle-des-machines")
    assert r.status_code == 200, r.text
    html = page(r)
    assert "Salle des machines" in html and "Donnes par minute" in html and "Délai entre une action" in html
    assert "Ramponneau" in html  # the table's game, by its French name
    assert "tick failed (test)" in html  # the last errors
    room = client.get("/api/admin/engine-room").json()
    ramponneau = next(g for g in room["tables"] if g["game"] == "ramponneau")
    assert ramponneau["tables"] >= 1 and room["tables_total"] >= 1
    assert room["actions_published"] >= 3 and room["latency_ms"]["p50"] is not None
    assert room["deals_per_minute"] >= 1  # settled a moment ago, in this process
    assert any(wk["tables"] >= 1 for wk in room["workers"])  # the worker and the tables it holds
    assert room["errors"][0]["message"].startswith(f"table {w.table_id}: tick failed")
    services(client.app).tables.actors.pop(w.table_id)


def test_players_are_refused_the_engine_room(client: TestClient, world: World) -> None:
    with session_scope() as s:
        make_user(s, "malo")
    assert client.get("/admin/salle-des-machines", follow_redirects=False).status_code == 303  # visitor → login
    assert client.get("/api/admin/engine-room").status_code == 401
    login(client, "malo")
    r = client.get("/admin/salle-des-machines")
    assert r.status_code == 403 and "Réservé aux administrateurs" in page(r) and "Joueurs connectés" not in page(r)
    assert client.get("/api/admin/engine-room").status_code == 403


def test_deals_per_minute_from_two_readings_a_minute_apart(monkeypatch) -> None:
    monkeypatch.setattr(engine_room, "_READINGS", type(engine_room._READINGS)(maxlen=200))
    assert engine_room._rate({"gin": 10.0}, 1000.0) is None  # one reading: no rate yet
    assert engine_room._rate({"gin": 12.0}, 1030.0) is None
    # The newest reading a minute old (1030) is the base: 28 deals in 60 s.
    assert engine_room._rate({"gin": 40.0}, 1090.0) == {"gin": pytest.approx(28.0)}
    assert metrics.quantile([(0.01, 10.0), (float("inf"), 10.0)], 0.99) == pytest.approx(0.0099)
