"""A table under a real fault of its store (issue 38): a deal that cannot
start is tried again and the table deals once the store is back; a
settlement that fails is tried again at a measured pace, and the log says
so once, then in summaries — not once a try.

The fault is real: one of the store's own tables is renamed away by another
connection (every statement on it fails in the database, as when the store
is away), then renamed back. The deal is heads-up with the button all-in
from his blind, so it is over as soon as dealt: nobody's move wakes the
table, only its own retry can (tests/tables/test_over_when_dealt.py).
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from sqlalchemy import Engine
from tests.tables.conftest import Harness, build_world

from tavern.tables.deals import DEAL_RETRY_SECONDS

pytestmark = pytest.mark.db

#: Generous for a loaded machine: the retries come every DEAL_RETRY_SECONDS.
WITHIN = 60.0


def _rename(engine: Engine, old: str, new: str) -> None:
    with engine.begin() as conn:
        conn.exec_driver_sql(f"ALTER TABLE {old} RENAME TO {new}")


async def _until(check, what: str) -> None:
    deadline = time.monotonic() + WITHIN
    while not check():
        assert time.monotonic() < deadline, f"not within {WITHIN:.0f} s: {what}"
        await asyncio.sleep(0.05)


def _tick_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "tavern.tables.actor" and "tick failed" in r.getMessage()]


def _world(session_factory):
    return build_world(session_factory, names=("ana", "bob"), stakes={"small_blind": 20, "big_blind": 40},
                       rake_percent=0)


def test_a_deal_that_could_not_start_is_dealt_once_the_store_is_back(session_factory, engine, caplog) -> None:
    """DEAL_RETRY_SECONDS (tables/deals.py): "a start that fails (the store
    away) is tried again": without it the table never dealt again."""
    caplog.set_level(logging.INFO, logger="tavern.tables.actor")
    world = _world(session_factory)
    h = Harness(world)

    async def scenario() -> tuple[int, int]:
        actor = await h.start()
        _rename(engine, "archived_hands", "archived_hands_away")  # every deal start writes its archive row
        try:
            await h.sit("ana", 0, 20)
            await h.sit("bob", 1, 200)
            await _until(lambda: actor.tick_failures.count >= 3, "the start failed and was tried again")
            assert actor.deals == 0 and actor.engine is None
        finally:
            _rename(engine, "archived_hands_away", "archived_hands")
        # No command from now on: only the table's own retry can deal.
        await _until(lambda: actor.last_result is not None, "the table dealt and settled once the store was back")
        failures = len(_tick_records(caplog))
        await actor.stop()
        return actor.deals, failures

    deals, records = asyncio.run(scenario())
    assert deals >= 1
    assert world.chips("ana") + world.chips("bob") == 220
    assert world.audit_ok()
    # Said once whole, then "works again" (the retries between: no line each).
    assert records <= 3, [r.getMessage() for r in _tick_records(caplog)]
    assert any("works again after" in r.getMessage() for r in _tick_records(caplog))


def test_a_failing_settlement_is_retried_at_a_pace_and_logged_in_summaries(session_factory, engine, caplog) -> None:
    """The settlement tried again while the store was away flooded the log:
    the table's loop retried it without a pause (a deal over wakes it at once),
    a traceback a try."""
    caplog.set_level(logging.INFO, logger="tavern.tables.actor")
    world = _world(session_factory)
    h = Harness(world)

    async def scenario() -> tuple[int, float]:
        actor = await h.start()
        actor.tick_failures.every = 1.5  # a summary every 1.5 s here (30 s in service)
        _rename(engine, "player_weeks", "player_weeks_away")  # the settlement counts the weekly boards
        try:
            begun = time.monotonic()
            await h.sit("ana", 0, 20)
            await h.sit("bob", 1, 200)
            await _until(lambda: actor.tick_failures.count >= 5, "the settlement failed and was tried again")
            failures, took = actor.tick_failures.count, time.monotonic() - begun
            assert actor.deals == 1 and actor.archive_id is not None, "the deal began; its settlement waits"
        finally:
            _rename(engine, "player_weeks_away", "player_weeks")
        await _until(lambda: actor.last_result is not None, "the deal settled once the store was back")
        await actor.stop()
        return failures, took

    failures, took = asyncio.run(scenario())
    # At most one try a DEAL_RETRY_SECONDS (the loop once spun on it).
    assert failures <= took / DEAL_RETRY_SECONDS + 2, (failures, took)
    records = _tick_records(caplog)
    whole = [r for r in records if r.exc_info]
    summaries = [r for r in records if "more times in" in r.getMessage()]
    assert len(whole) == 1, [r.getMessage() for r in whole]
    # A summary with the count, never a line a try.
    assert summaries and len(records) < failures, [r.getMessage() for r in records]
    assert any("works again after" in r.getMessage() for r in records)
    assert world.chips("ana") + world.chips("bob") == 220
    assert world.audit_ok()
