"""The waiting list across server processes (issue 30 §3: "Works across
several server processes (the seat offers go through the cluster like any
table command)"): two workers on one database and one redis-server, the
table owned by the first. A player whose pages are on the second joins the
list there, his notice socket there receives the seat offered by the
owner, and he takes it there."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from tests.cluster.scaled import ScaledServer, two_servers, wait_for
from tests.tables.liveserver import PASSWORD, seed_table
from websockets.asyncio.client import connect

from tavern.services import seats
from tavern.store.db import make_engine, session_factory

pytestmark = [pytest.mark.db, pytest.mark.redis]

SEATED = ("ana", "bob", "cid", "dan", "eve", "fay")


@pytest.fixture
def full_table(db_url, redis_url, tmp_path):
    table_id, ids = seed_table(db_url, (*SEATED, "gus"))
    engine = make_engine(db_url)
    with session_factory(engine)() as s, s.begin():
        for i, name in enumerate(SEATED):  # sitting out: no deal, a seat frees at once
            seats.sit(s, table_id, ids[name], i, 100)
            seats.set_sitting_out(s, table_id, ids[name], True)
    engine.dispose()
    with two_servers(db_url, redis_url, tmp_path) as (owner, other):
        yield table_id, ids, db_url, owner, other


def _api(server: ScaledServer, name: str, method: str, path: str, body: dict | None = None) -> httpx.Response:
    with httpx.Client(base_url=server.base) as c:
        token = c.get("/api/auth/session").json()["csrf_token"]
        c.post("/api/auth/login", json={"username": name, "password": PASSWORD},
               headers={"X-CSRF-Token": token}).raise_for_status()
        token = c.get("/api/auth/session").json()["csrf_token"]
        return c.request(method, path, json=body, headers={"X-CSRF-Token": token})


async def _next(ws: Any, timeout: float = 10.0) -> dict[str, Any]:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


def test_the_offer_crosses_workers(full_table):
    table_id, ids, db_url, owner, other = full_table

    async def scenario() -> None:
        ana = await connect(f"{owner.ws_base}/ws/tables/{table_id}",
                            additional_headers={"Cookie": owner.login("ana")}, origin=owner.base)
        await wait_for(lambda: owner.owner_pid(table_id) == owner.proc.pid, 10, "the table's lease")
        notices = await connect(f"{other.ws_base}/ws/notices",
                                additional_headers={"Cookie": other.login("gus")}, origin=other.base)
        r = await asyncio.to_thread(_api, other, "gus", "POST", f"/api/tables/{table_id}/waiting")
        assert r.status_code == 200 and r.json() == {"place": 1}, r.text
        twice = await asyncio.to_thread(_api, other, "gus", "POST", f"/api/tables/{table_id}/waiting")
        assert twice.status_code == 400 and twice.json()["code"] == "waiting_twice"
        await ana.send(json.dumps({"type": "leave", "id": 1}))
        offer = await _next(notices)
        assert (offer["type"], offer["table_id"], offer["seat"]) == ("seat_offer", table_id, 0)
        r = await asyncio.to_thread(_api, other, "gus", "POST", f"/api/tables/{table_id}/offer/accept",
                                    {"cave": 60})
        assert r.status_code == 200 and r.json() == {"seat": 0, "chips": 60}, r.text
        assert (await _next(notices))["why"] == "seated"
        engine = make_engine(db_url)
        with session_factory(engine)() as s:
            assert seats.seat_of(s, table_id, ids["gus"]).seat_no == 0
        engine.dispose()
        await ana.close()
        await notices.close()

    asyncio.run(scenario())
