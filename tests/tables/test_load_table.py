"""A table's start reads its seats, carry and daily hands in a few statements
for the whole table (a restart starts hundreds of tables at once: issue 15's
reconnect storm), and reads exactly what the services say player by player."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

from tavern.services import hands, ledger, seats
from tavern.settings import Settings
from tavern.store.models import User
from tavern.tables.bank import SqlBank

pytestmark = pytest.mark.db

NAMES = ("ana", "bob", "cid", "dan", "eve")


@pytest.fixture
def seated(session_factory: sessionmaker[Session], settings: Settings):
    from tests.tables.conftest import build_world

    w = build_world(session_factory, names=NAMES)
    now = dt.datetime.now(dt.UTC)
    with session_factory() as s, s.begin():
        for no, name in enumerate(NAMES):
            seats.sit(s, w.table_id, w.users[name], no, 20 + 10 * no)
        seats.set_sitting_out(s, w.table_id, w.users["cid"], True)
        for _ in range(settings.free_hands_per_day):  # bob: no free hand left, no pack
            hands.consume(s, w.users["bob"], w.tavern_id, now, settings)
        s.get_one(User, w.users["dan"]).level = 0  # dan: level 0, a pack
        ledger.issue(s, w.users["dan"], 100, "tokens")
        hands.buy_pack(s, w.users["dan"], settings)
        for _ in range(3):
            hands.consume(s, w.users["eve"], w.tavern_id, now, settings)
    return w


def test_load_table_reads_what_the_services_say_seat_by_seat(session_factory, settings, seated) -> None:
    w = seated
    rows, carry, got = SqlBank(session_factory, settings).load_table(w.table_id, w.tavern_id)
    assert carry is None
    assert [r.username for r in rows] == list(NAMES)
    now = dt.datetime.now(dt.UTC)
    with session_factory() as s:
        for r, shown in zip(rows, got, strict=True):
            seat = seats.seat_of(s, w.table_id, r.user_id)
            assert seat is not None
            assert (r.seat_no, r.chips, r.sitting_out, r.owes_big_blind) == (
                seat.seat_no, ledger.chips(s, r.user_id, w.table_id), seat.sitting_out, seat.owes_big_blind)
            ok, why = hands.can_deal(s, r.user_id, w.tavern_id, now, settings)
            left = hands.hands_left(s, r.user_id, now, settings)
            assert shown == {"free": left.free, "paid": left.paid, "unlimited": False, "can_deal": ok, "why": why}
    by_name = dict(zip(NAMES, got, strict=True))
    assert by_name["bob"]["can_deal"] is False and by_name["ana"]["free"] == settings.free_hands_per_day
    assert (by_name["dan"]["free"], by_name["dan"]["paid"]) == (0, settings.pack_hands)
    assert by_name["eve"]["free"] == settings.free_hands_per_day - 3


def test_load_table_asks_the_database_the_same_few_times_for_one_seat_or_five(
        session_factory, settings, seated) -> None:
    """Not a few statements per seat: a restart's 400 tables each read once."""
    bank = SqlBank(session_factory, settings)
    engine = session_factory.kw["bind"]
    statements: list[str] = []

    def count(conn, cursor, statement, *args) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        bank.load_table(seated.table_id, seated.tavern_id)
        five = len(statements)
        with session_factory() as s, s.begin():
            for name in NAMES[1:]:
                seats.leave(s, seated.table_id, seated.users[name])
        statements.clear()
        bank.load_table(seated.table_id, seated.tavern_id)
        one = len(statements)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert 0 < five == one <= 8, (five, one)
