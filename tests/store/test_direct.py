"""The deal's statements run on the driver's cursor (store/direct.py) write
exactly what SQLAlchemy's own execution of the same statement writes, on
SQLite and on PostgreSQL (the CI's PostgreSQL stage runs these again), and
fail as SQLAlchemy's would."""

from __future__ import annotations

import datetime as dt
from typing import cast

import pytest
from sqlalchemy import Table, bindparam, select, text
from sqlalchemy.exc import IntegrityError
from tests.tables.conftest import build_world

from tavern.services import archive, ledger
from tavern.store.db import run_transaction
from tavern.store.direct import Direct
from tavern.store.models import ArchivedHand, LedgerEntry

pytestmark = pytest.mark.db

HANDS = cast(Table, ArchivedHand.__table__)
ENTRIES = cast(Table, LedgerEntry.__table__)


def test_an_archived_deal_reads_back_the_same_written_either_way(session_factory):
    """Every kind of value the deal writes — an instant (UTCDateTime, given in
    another zone), JSON with integer keys, a boolean, big integers, text."""
    paris = dt.timezone(dt.timedelta(hours=1))
    started = dt.datetime(2026, 11, 26, 7, 30, 15, 123456, tzinfo=paris)
    values = {"game": "ramponneau", "started": started, "ended": started + dt.timedelta(seconds=42),
              "players": ["ana", "bob"], "pot": 2**40, "rake": 3, "voided": True,
              "record": {"game": "ramponneau", "deck": ["As", "Kd"], "seats": [{"player": "ana"}], 7: "sept"},
              "result": {"chips": {"ana": 5, "bob": -5}, "in_progress": True, "note": "élevé"},
              "practice": False}  # every column the deal writes (services/archive.py)

    table_id = build_world(session_factory, names=()).table_id

    def write(s):
        row = {"table_id": table_id, **values}
        by_sqlalchemy = s.connection().execute(HANDS.insert().returning(HANDS.c.id), row).scalar_one()
        direct = Direct(HANDS.insert().returning(HANDS.c.id), list(row))
        by_direct = direct.value(s.connection(), row)
        return by_sqlalchemy, by_direct

    ours, theirs = run_transaction(session_factory, write)
    assert ours != theirs
    with session_factory() as s:
        a, b = s.get_one(ArchivedHand, ours), s.get_one(ArchivedHand, theirs)
        columns = ("table_id", "game", "started", "ended", "players", "pot", "rake", "voided", "record", "result",
                   "practice")
        assert {c: getattr(b, c) for c in columns} == {c: getattr(a, c) for c in columns}
        assert b.started == started and b.started.tzinfo is not None and b.record["7"] == "sept"
        # The stored text or value itself, not only what the ORM makes of it.
        raw = s.execute(text("SELECT started, ended, voided, record, result FROM archived_hands WHERE id IN (:a, :b)"
                             " ORDER BY id"), {"a": ours, "b": theirs}).all()
        assert raw[0] == raw[1]


def test_literal_values_of_a_statement_and_the_changed_rows_count(session_factory):
    """``pot > 0`` and ``rake + 1`` are bound by SQLAlchemy as parameters the
    caller does not give: they are the statement's own."""
    now = dt.datetime.now(dt.UTC)
    table_id = build_world(session_factory, names=()).table_id

    def work(s):
        ids = [archive.open_hand(s, table_id, {"game": "ramponneau", "seats": []}, {"in_progress": True}, now)
               for _ in range(3)]
        s.connection().execute(HANDS.update().where(HANDS.c.id == ids[0]).values(pot=10))
        bump = Direct(HANDS.update().where(HANDS.c.table_id == bindparam("table"), HANDS.c.pot > 0)
                      .values(rake=HANDS.c.rake + 1))
        changed = bump.run(s.connection(), {"table": table_id})
        rakes = [s.connection().execute(select(HANDS.c.rake).where(HANDS.c.id == i)).scalar_one() for i in ids]
        return changed, rakes

    changed, rakes = run_transaction(session_factory, work)
    assert changed == 1 and rakes == [1, 0, 0]


def test_an_insert_missing_a_defaulted_column_is_refused_when_compiled(engine):
    """A direct insert writes no column default (the ledger's ``time``): a
    statement that would need one must be told every value."""
    missing = Direct(ENTRIES.insert(), ("debit_id", "credit_id", "amount", "currency", "reason", "reference",
                                        "transfer_id"))
    with pytest.raises(ValueError, match="time"):
        missing.compiled(engine.dialect)


def test_a_broken_constraint_is_sqlalchemys_integrity_error_and_writes_nothing(session_factory):
    """The ledger's "amount > 0" check, broken through a direct statement:
    the same error SQLAlchemy raises (run_transaction tells retryable ones
    from the others by it), and the transaction rolled back."""
    owner_id = build_world(session_factory, names=()).owner_id  # no écus issued: no entry yet

    def work(s):
        house = ledger.house(s, ledger.House.ISSUANCE, "ecus")
        player = ledger.account(s, "user", owner_id, "ecus")
        s.flush()
        ledger._ADD_ENTRY.run_many(s.connection(), [
            {"debit_id": house.id, "credit_id": player.id, "amount": 0, "currency": "ecus", "reason": "deal",
             "reference": "x", "time": dt.datetime.now(dt.UTC), "transfer_id": "t"}])

    with pytest.raises(IntegrityError):
        run_transaction(session_factory, work)
    with session_factory() as s:
        assert s.scalars(select(LedgerEntry)).all() == []
