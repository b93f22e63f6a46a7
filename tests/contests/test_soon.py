"""A contest starting within 5 minutes is told to its registered players,
once each, on their own notice channel (issue 30 §4: "A small notice on any
page when … a contest starts in 5 minutes")."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker
from tests.contests.test_runtime import FAST, NOW, make_players
from tests.dbtools import harness_settings

from tavern.contest_rules import Settings
from tavern.contests.manager import ContestManager
from tavern.contests.table import ContestBank
from tavern.services import contests as svc
from tavern.tables.broadcast import LocalBroadcaster
from tavern.tables.manager import TableManager
from tavern.tables.waiting import NOTICES

pytestmark = pytest.mark.db


def _contest(factory: sessionmaker[Session], admin_id: int, name: str, start_in: dt.timedelta,
             players: list[int]) -> int:
    settings = Settings(name=name, starts_at=NOW + start_in, fee=10, house_prize=0, starting_chips=1000,
                        seats=6, min_players=2, max_players=9, structure=FAST, late_levels=0, action_timer=30,
                        payouts=None)
    with factory() as s, s.begin():
        cid = svc.create(s, admin_id, settings, NOW).id
        for uid in players:
            svc.register(s, cid, uid, NOW)
        return cid


def test_the_players_of_a_contest_starting_soon_are_told_once(session_factory: sessionmaker[Session]) -> None:
    admin_id, ids = make_players(session_factory, 3)
    p0, p1, p2 = ids.values()
    soon = _contest(session_factory, admin_id, "Bientôt", dt.timedelta(minutes=4, seconds=30), [p0, p1])
    _contest(session_factory, admin_id, "Plus tard", dt.timedelta(minutes=20), [p2])
    clock = {"now": NOW}
    heard: dict[str, list[dict[str, Any]]] = {}

    async def main() -> None:
        bank = ContestBank(session_factory, harness_settings())
        broadcaster = LocalBroadcaster()
        for name in ids:
            box = heard.setdefault(name, [])
            broadcaster.subscribe(NOTICES, name, lambda t, box=box: box.append(json.loads(t)))
        mgr = ContestManager(bank, TableManager(bank, broadcaster), now=lambda: clock["now"])
        try:
            await mgr.tick()
            clock["now"] += dt.timedelta(seconds=10)
            await mgr.tick()  # once: not again
            with session_factory() as s, s.begin():
                svc.register(s, soon, p2, clock["now"])  # a late registrant is told too
            clock["now"] += dt.timedelta(seconds=10)
            await mgr.tick()
        finally:
            await mgr.close()

    asyncio.run(main())
    assert heard["joueur00"] == [{"type": "contest_soon", "contest_id": soon, "contest": "Bientôt", "minutes": 5,
                                  "text": "Le concours « Bientôt » commence dans 5 min : soyez prêt."}]
    assert len(heard["joueur01"]) == 1
    assert [n["contest_id"] for n in heard["joueur02"]] == [soon]  # never the one in 20 minutes
