"""RULES.md: "Archive: every hand is archived with its full record (deck
order, every action, result) so that it can be replayed exactly." """

from __future__ import annotations

import pytest
from tests.services.helpers import make_table, make_user

from tavern.services import archive

pytestmark = pytest.mark.db

RECORD = {
    "format": 1, "game": "ramponneau", "config": {"small_blind": 1, "big_blind": 2},
    "seats": [{"player": "alice", "chips": 100}, {"player": "bruno", "chips": 100}],
    "button": 0, "deck": ["As", "Kd", "2c", "7h"], "reshuffles": [],
    "actions": [{"player": "alice", "action": "fold"}],
}


def test_the_full_record_is_stored_and_read_back_unchanged(session):
    table = make_table(session, make_user(session, "patron"))
    hand = archive.archive_hand(session, table.id, RECORD, {"chips": {"alice": -1, "bruno": 1}, "rake": 0})
    session.commit()
    session.expunge_all()
    got = archive.get_hand(session, hand.id)
    assert got.record == RECORD
    assert (got.game, got.players, got.pot, got.rake, got.voided) == ("ramponneau", ["alice", "bruno"], 1, 0, False)


def test_list_newest_first_filtered_by_table_and_player(session):
    owner = make_user(session, "patron")
    t1 = make_table(session, owner)
    t2 = make_table(session, owner, t1.tavern)
    a = archive.archive_hand(session, t1.id, RECORD, {"chips": {}})
    b = archive.archive_hand(session, t2.id, {**RECORD, "seats": [{"player": "chloe", "chips": 5}]}, {}, voided=True)
    c = archive.archive_hand(session, t1.id, RECORD, {})
    assert [h.id for h in archive.list_hands(session)] == [c.id, b.id, a.id]
    assert [h.id for h in archive.list_hands(session, table_id=t1.id)] == [c.id, a.id]
    assert [h.id for h in archive.list_hands(session, player="chloe")] == [b.id]
    assert b.voided
    assert [h.id for h in archive.list_hands(session, limit=1, before_id=c.id)] == [b.id]


def test_times_come_back_as_the_same_instant_in_utc(session):
    """SQLite stores naive text, PostgreSQL a timestamptz: both give back an
    aware UTC datetime equal to the instant stored."""
    import datetime as dt
    from zoneinfo import ZoneInfo

    table = make_table(session, make_user(session, "patron"))
    paris = dt.datetime(2026, 7, 14, 23, 30, tzinfo=ZoneInfo("Europe/Paris"))
    hand = archive.archive_hand(session, table.id, RECORD, {}, started=paris, ended=paris + dt.timedelta(minutes=2))
    session.commit()
    session.expunge_all()
    got = archive.get_hand(session, hand.id)
    assert got.started == paris and got.started.utcoffset() == dt.timedelta(0)
    assert got.started.hour == 21
    assert got.ended - got.started == dt.timedelta(minutes=2)
