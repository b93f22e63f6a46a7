"""The crash soak: a real server killed with SIGKILL 20 times at random
moments while simulated players play, cash in and cash out.

After each restart (which voids the interrupted deals, tavern.tables.bank):
nothing is lost — the ledger's audit balances (every écu and chip the house
issued is held by somebody, every cached balance equals its entries, every
table's chips are backed); no deal is left in progress; every finished deal
was settled exactly once (one ledger transfer per ``hand:<id>``), and no
voided deal moved anything.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from tests.tables.liveserver import LiveServer, seed_table
from websockets.asyncio.client import connect

from tavern.services import ledger
from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand, LedgerEntry

pytestmark = [pytest.mark.db, pytest.mark.slow]

PLAYERS = ("ana", "bob", "cid", "dan")
KILLS = int(os.environ.get("TAVERN_SOAK_KILLS", "20") or 20)


def _choose(legal: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    names = {a["action"]: a for a in legal}
    roll = rnd.random()
    if "raise" in names and roll < 0.2:
        return {"action": "raise", "args": {"amount": names["raise"]["min"]}}
    if "bet" in names and roll < 0.2:
        return {"action": "bet", "args": {"amount": names["bet"]["min"]}}
    if "fold" in names and roll < 0.3:
        return {"action": "fold", "args": {}}
    for choice in ("check", "call"):
        if choice in names:
            return {"action": choice, "args": {}}
    return {"action": legal[0]["action"], "args": {}}


async def player(srv: LiveServer, name: str, seat: int, cookie: str, rnd: random.Random,
                 stats: Counter[str]) -> None:
    """Plays until the connection dies: sits (cash in) when not seated, acts
    on his turn, and now and then leaves between deals (cash out)."""
    async with connect(f"{srv.ws_base}/ws/tables/{srv.table_id}",
                       additional_headers={"Cookie": cookie}, origin=srv.base) as ws:
        n = 0
        async for raw in ws:
            msg = json.loads(raw)
            if msg["type"] != "state":
                continue
            you, deal = msg.get("you"), msg.get("deal")
            n += 1
            if you is None:
                await ws.send(json.dumps({"type": "sit", "seat": seat, "cave": rnd.randint(100, 200), "id": n}))
                stats["sit"] += 1
            elif deal and deal.get("to_act") == name and you.get("legal"):
                move = _choose(you["legal"], rnd)
                await ws.send(json.dumps({"type": "act", "seq": msg["seq"], "id": n, **move}))
                stats["act"] += 1
            elif not deal and not you.get("leaving") and rnd.random() < 0.1:
                await ws.send(json.dumps({"type": "leave", "id": n}))
                stats["leave"] += 1


def check_books(db_url: str) -> dict[str, int]:
    """The invariants after a restart; returns the deal counts."""
    engine = make_engine(db_url)
    try:
        with session_factory(engine)() as s:
            audit = ledger.audit(s)
            assert audit.ok, audit
            hands = list(s.scalars(select(ArchivedHand)))
            assert not [h.id for h in hands if (h.result or {}).get("in_progress")]
            transfers: dict[str, set[str]] = {}
            for ref, tid in s.execute(select(LedgerEntry.reference, LedgerEntry.transfer_id)
                                      .where(LedgerEntry.reference.like("hand:%"))):
                transfers.setdefault(ref, set()).add(tid)
            settled = voided = 0
            for h in hands:
                moved = transfers.get(f"hand:{h.id}", set())
                if h.voided:
                    assert not moved, f"voided deal {h.id} moved money"
                    voided += 1 if "voided" in (h.result or {}) else 0
                else:
                    assert len(moved) <= 1, f"deal {h.id} settled {len(moved)} times"
                    settled += len(moved)
            return {"settled": settled, "voided": voided, "archived": len(hands)}
    finally:
        engine.dispose()


def run_soak(db_url: str, data_dir: Path, kills: int = KILLS, seed: int | None = None) -> dict[str, Any]:
    """The scenario, also run by ``make reliability``: returns its figures."""
    rnd = random.Random(seed)
    table_id, _ = seed_table(db_url, PLAYERS)
    srv = LiveServer(db_url, data_dir, extra_env={"TAVERN_FREE_HANDS_PER_DAY": "100000",
                                                  "TAVERN_DEAL_PAUSE_SECONDS": "0.05"})
    srv.table_id = table_id
    stats: Counter[str] = Counter()
    books: dict[str, int] = {}
    survived = 0
    for _ in range(kills):
        srv.start()  # a restart voids what the last kill interrupted
        books = check_books(db_url)
        cookies = {n: srv.login(n) for n in PLAYERS}

        async def round_(cookies: dict[str, str] = cookies) -> None:
            tasks = [asyncio.create_task(player(srv, n, i, cookies[n], random.Random(rnd.random()), stats))
                     for i, n in enumerate(PLAYERS)]
            await asyncio.sleep(rnd.uniform(0.3, 2.5))
            srv.kill()  # SIGKILL at a random moment: mid-deal, mid-settlement, mid-cave…
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run(round_())
        survived += 1
    srv.start()
    try:
        books = check_books(db_url)
    finally:
        srv.stop()
    return {"kills": survived, **books, **stats}


def test_twenty_sigkills_lose_nothing_and_settle_no_deal_twice(db_url, tmp_path) -> None:
    out = run_soak(db_url, tmp_path)
    print(out)
    assert out["kills"] == KILLS
    assert out["settled"] > 0 and out["act"] > 0 and out["sit"] > 0
