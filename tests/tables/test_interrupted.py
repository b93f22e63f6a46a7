"""Issue 12 §12: a deal voided by a crash gives back the daily hand it used,
in the same transaction that voids it (RULES.md "Daily hands": a hand is
counted when a player is dealt in; a deal that never happened cost nothing)."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from tavern.services import hands, ledger
from tavern.settings import Settings
from tavern.store.models import ArchivedHand, User
from tavern.tables.bank import SqlBank
from tavern.tables.commands import Act

pytestmark = pytest.mark.db


def _left(factory: sessionmaker[Session], uid: int, settings: Settings) -> hands.HandsLeft:
    with factory() as s:
        return hands.hands_left(s, uid, dt.datetime.now(dt.UTC), settings)


def test_a_voided_deal_gives_back_free_and_paid_hands(settings, session_factory, world) -> None:
    ana, bob = world.users["ana"], world.users["bob"]
    with session_factory() as s, s.begin():
        s.get(User, bob).level = 0  # no free hands: he plays from a pack
        ledger.issue(s, bob, 10, "tokens")
        hands.buy_pack(s, bob, settings)
    before = {u: _left(session_factory, u, settings) for u in (ana, bob)}
    bank = SqlBank(session_factory, settings)
    archive_id, _ = bank.begin_deal(world.table_id, world.tavern_id, {"ana": ana, "bob": bob},
                                    {"deck": ["As"]})
    assert archive_id is not None
    assert _left(session_factory, ana, settings).free == before[ana].free - 1
    assert _left(session_factory, bob, settings).paid == before[bob].paid - 1
    # The process dies here; at the restart the deal is voided.
    assert bank.void_interrupted() == [archive_id]
    assert {u: _left(session_factory, u, settings) for u in (ana, bob)} == before
    with session_factory() as s:
        row = s.scalars(select(ArchivedHand)).one()
        assert row.voided and row.result["hands_given_back"] is True
    # Voiding again (another restart) gives nothing twice.
    assert bank.void_interrupted() == []
    assert {u: _left(session_factory, u, settings) for u in (ana, bob)} == before


def test_act_with_an_unexpected_argument_is_refused_cleanly(session_factory, caplog) -> None:
    """Issue 12 §12: "`act` with an unexpected argument writes a traceback to
    the log: refuse it cleanly" — the table carries on, nothing changed."""
    import asyncio
    import logging

    from tests.tables.conftest import Harness, build_world

    from tavern.tables.actor import CommandError

    w = build_world(session_factory, game="rams", stakes={"unit": 1}, rake_percent=0)

    async def scenario() -> None:
        h = Harness(w)
        actor = await h.start(seated=("ana", "bob", "cid"))
        await h.settle()
        for _ in range(50):
            if actor.engine is not None and actor.engine.to_act():
                break
            await h.settle()
        name = actor.engine.to_act()[0]
        legal = actor.engine.legal_actions(name)
        before = actor.engine.view(name)
        with caplog.at_level(logging.WARNING, logger="tavern"):
            with pytest.raises(CommandError, match="Arguments invalides"):
                await actor.submit(Act(action=legal[0]["action"], args={"player": "bob"}), name)
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
        assert actor.engine.view(name) == before
        await actor.stop()

    asyncio.run(scenario())
