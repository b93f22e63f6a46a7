"""A worker that lost its table can never settle a deal (issue 14: "fenced by
a token so that a worker that lost its lease can never settle a deal").

Two banks on one database stand for two workers: the first claims the table
and deals; the second takes the table over with a higher fence, voiding the
deal in progress exactly as a restart does; the first, come back from a
pause, tries to settle and is refused, writing nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from tests.tables.conftest import build_world

from tavern.services import ledger
from tavern.store.models import ArchivedHand, LedgerEntry
from tavern.tables.bank import LostTable, SqlBank

pytestmark = [pytest.mark.db]


def test_the_old_owner_is_refused_once_the_table_is_claimed_again(settings, session_factory):
    world = build_world(session_factory, names=("ana", "bob"))
    tid = world.table_id
    first, second = SqlBank(session_factory, settings), SqlBank(session_factory, settings)
    assert first.claim(tid, 1) == []
    assert first.sit(tid, world.users["ana"], 0, 100) == 100
    assert first.sit(tid, world.users["bob"], 1, 100) == 100
    archive_id, _ = first.begin_deal(tid, world.tavern_id, {"ana": world.users["ana"], "bob": world.users["bob"]},
                                     {"game": "ramponneau", "deck": []})
    assert archive_id is not None

    # The first worker pauses; its lease runs out; the second claims the table.
    assert second.claim(tid, 2) == [archive_id]  # the deal in progress is voided, as at a restart

    # The first worker wakes up and finishes its deal: refused, nothing written.
    with pytest.raises(LostTable):
        first.finish_deal(archive_id, tid, world.owner_id, {world.users["ana"]: 10, world.users["bob"]: -10}, 0,
                          {"game": "ramponneau"}, {"chips": {"ana": 110, "bob": 90}})
    with pytest.raises(LostTable):
        first.leave(tid, world.users["ana"])
    assert first.claim(tid, 1) is None  # a stale fence claims nothing either

    with session_factory() as s:
        row = s.get_one(ArchivedHand, archive_id)
        assert row.voided and "voided" in row.result  # not overwritten by a settlement
        settled = s.scalar(select(func.count()).select_from(LedgerEntry)
                           .where(LedgerEntry.reference == f"hand:{archive_id}"))
        assert settled == 0
        assert ledger.chips(s, world.users["ana"], tid) == 100  # his cave, intact
        assert ledger.audit(s).ok

    # The new owner plays on.
    assert second.leave(tid, world.users["bob"]) == 100


def test_a_shared_store_never_writes_a_table_unfenced(settings, session_factory):
    """With several workers a table this worker holds no fence for is no
    longer (or not yet) its own: its write is refused, never made unfenced —
    a table started on a fence that was being let go ran on no fence at all
    and could have settled a deal its next owner voided."""
    world = build_world(session_factory, names=("ana", "bob"))
    tid = world.table_id
    bank = SqlBank(session_factory, settings)
    bank.fenced_only = True  # as the TableManager sets it over a shared cluster
    with pytest.raises(LostTable):
        bank.sit(tid, world.users["ana"], 0, 100)
    with session_factory() as s:
        assert ledger.chips(s, world.users["ana"], tid) == 0  # nothing written
    assert bank.claim(tid, 1) == []
    assert bank.sit(tid, world.users["ana"], 0, 100) == 100  # its own table again, fenced


def test_the_contest_and_practice_tables_are_fenced_by_the_same_leases(settings, session_factory):
    """A contest's table is claimed through the table manager's bank
    (TableManager.lease): the contest bank reads the same fences, so its
    writes are fenced like any table's (they were written unfenced)."""
    from tavern.contests.table import ContestBank
    from tavern.tables.practice import PracticeBank

    bank = SqlBank(session_factory, settings)
    bank.fenced_only = True
    for other in (ContestBank(session_factory, settings, share_with=bank),
                  PracticeBank(session_factory, settings, share_with=bank)):
        assert other.fences is bank.fences and other.fenced_only
