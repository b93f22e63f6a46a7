"""The table chat across server processes (issue 30 §1: "Works across several server
processes"): two workers on one database and one redis-server, the table owned by the
first. A message written through the second reaches the first's sockets; an account's rate
is counted across both; an admin's mute and deletion, asked of either worker, reach the
sockets of the other at once."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from tests.cluster.scaled import ScaledServer, two_servers, wait_for
from tests.dbtools import harness_settings
from tests.tables.liveserver import PASSWORD, seed_table
from websockets.asyncio.client import connect

from tavern.services import users
from tavern.store.db import make_engine, session_factory

pytestmark = [pytest.mark.db, pytest.mark.redis]


@pytest.fixture
def two_workers(db_url, redis_url, tmp_path):
    table_id, _ = seed_table(db_url, ("ana", "bob", "cid"))
    engine = make_engine(db_url)
    with session_factory(engine)() as s, s.begin():
        users.create_user(s, "admin", PASSWORD, role="admin", settings=harness_settings())
    engine.dispose()
    with two_servers(db_url, redis_url, tmp_path) as (owner, other):
        yield table_id, owner, other


class Sock:
    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.n = 0

    async def until(self, pred, timeout: float = 10.0) -> dict[str, Any]:
        for m in self.seen:
            if pred(m):
                return m
        while True:
            m = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            self.seen.append(m)
            if pred(m):
                return m

    async def say(self, text: str) -> dict[str, Any]:
        self.n += 1
        n = self.n
        await self.ws.send(json.dumps({"type": "chat_say", "text": text, "id": n}))
        return await self.until(lambda m: m["type"] in ("ok", "error") and m.get("id") == n)


async def sock(server: ScaledServer, table_id: int, name: str) -> Sock:
    ws = await connect(f"{server.ws_base}/ws/tables/{table_id}",
                       additional_headers={"Cookie": server.login(name)}, origin=server.base)
    s = Sock(ws)
    await s.until(lambda m: m["type"] == "chat_log")
    return s


def admin_api(server: ScaledServer, method: str, path: str, body: dict | None = None) -> httpx.Response:
    with httpx.Client(base_url=server.base) as c:
        token = c.get("/api/auth/session").json()["csrf_token"]
        c.post("/api/auth/login", json={"username": "admin", "password": PASSWORD},
               headers={"X-CSRF-Token": token}).raise_for_status()
        token = c.get("/api/auth/session").json()["csrf_token"]
        return c.request(method, path, json=body, headers={"X-CSRF-Token": token})


def test_the_chat_crosses_workers(two_workers):
    table_id, owner, other = two_workers

    async def scenario() -> None:
        bob = await sock(owner, table_id, "bob")  # the table's first socket: it lives on ``owner``
        await wait_for(lambda: owner.owner_pid(table_id) == owner.proc.pid, 10, "the table's lease")
        ana, cid = await sock(other, table_id, "ana"), await sock(other, table_id, "cid")
        hello = await ana.say("salut")
        assert hello["type"] == "ok", hello
        mid = hello["result"]["message"]
        got = await bob.until(lambda m: m["type"] == "chat" and m["id"] == mid)
        assert (got["author"], got["text"]) == ("ana", "salut")
        # The rate is the account's, whichever worker holds the socket: 5 in 10 s.
        ana_there = await sock(owner, table_id, "ana")
        answers = [await ana.say("deux"), await ana_there.say("trois"), await ana_there.say("quatre"),
                   await ana.say("cinq"), await ana_there.say("six")]
        assert [a["type"] for a in answers[:4]] == ["ok"] * 4
        assert answers[4]["code"] == "chat_too_fast"
        # An admin's mute, asked of the owner worker, reaches cid's socket on the other.
        r = await asyncio.to_thread(admin_api, owner, "POST", "/api/admin/chat/mutes",
                                    {"username": "cid", "minutes": 10})
        assert r.status_code == 200, r.text
        muted = await cid.until(lambda m: m["type"] == "chat_muted")
        assert muted["message"].startswith("Vous ne pouvez plus écrire ici jusqu'au")
        refused = await cid.say("je parle")
        assert refused["code"] == "chat_muted"
        # A deletion asked of the other worker reaches bob's socket on the owner.
        r = await asyncio.to_thread(admin_api, other, "POST", f"/api/admin/chat/messages/{mid}/delete")
        assert r.status_code == 204, r.text
        await bob.until(lambda m: m["type"] == "chat_deleted" and m["id"] == mid)
        for s in (bob, ana, cid, ana_there):
            await s.ws.close()

    asyncio.run(scenario())
