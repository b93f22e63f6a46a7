"""Through a second worker the answer still comes first (issue 33, item 11;
docs/protocol.md "Order").

Two server processes on one database and one redis-server: the table lives
on the first (its first socket opened there), the player's socket is on the
second, whose commands travel to the owner and whose answers and states come
back apart, through Redis. The outside testers saw the ``ok`` of an action
arrive after the ``state`` that showed it done; now the ``ok`` always comes
first, as with the table in the socket's own process.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from tests.cluster.scaled import ScaledServer, two_servers, wait_for
from tests.tables.liveserver import seed_table
from websockets.asyncio.client import connect

pytestmark = [pytest.mark.db, pytest.mark.redis]

ROUNDS = 10  #: each failed before the fix: a few are plenty


@pytest.fixture
def two_workers(db_url, redis_url, tmp_path):
    table_id, _ = seed_table(db_url, ("ana", "bob"))
    with two_servers(db_url, redis_url, tmp_path) as (owner, other):
        yield table_id, owner, other


async def _socket(server: ScaledServer, table_id: int, name: str) -> Any:
    ws = await connect(f"{server.ws_base}/ws/tables/{table_id}",
                       additional_headers={"Cookie": server.login(name)}, origin=server.base)
    assert json.loads(await ws.recv())["type"] == "state"  # the snapshot
    return ws


async def _until_answer(ws: Any, msg_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The answer to command ``msg_id`` and the states received before it."""
    before = []
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["type"] == "state":
            before.append(msg)
        elif msg.get("id") == msg_id:
            return msg, before


def test_an_ok_through_another_worker_comes_before_the_state_it_caused(two_workers):
    table_id, owner, other = two_workers

    async def scenario() -> list[str]:
        bob = await _socket(owner, table_id, "bob")  # the table's first socket: it lives on ``owner``
        await wait_for(lambda: owner.owner_pid(table_id) == owner.proc.pid, 10, "the table's lease")
        ana = await _socket(other, table_id, "ana")
        await ana.send(json.dumps({"type": "sit", "seat": 0, "cave": 100, "id": 1}))
        answer, _ = await _until_answer(ana, 1)
        assert answer["type"] == "ok", answer
        late: list[str] = []
        # Her auto-action set and cleared, each shown by the next state's
        # ``you.auto``: never before its ``ok``.
        for n in range(2, 2 + ROUNDS):
            auto = "check_fold" if n % 2 == 0 else None
            await ana.send(json.dumps({"type": "auto", "auto": auto, "id": n}))
            answer, before = await _until_answer(ana, n)
            assert answer["type"] == "ok", answer
            early = [st["seq"] for st in before if st.get("you") and st["you"]["auto"] == auto]
            if early:
                late.append(f"command {n} ({auto}): state {early} before its ok")
                continue
            while True:  # the state that shows it follows
                st = json.loads(await asyncio.wait_for(ana.recv(), 10))
                if st["type"] == "state" and st["you"]["auto"] == auto:
                    break
        assert owner.owner_pid(table_id) == owner.proc.pid  # the table never moved: every command crossed
        for ws in (ana, bob):
            await ws.close()
        return late

    late = asyncio.run(scenario())
    assert not late, late
