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


def test_tables_starting_together_are_read_as_each_alone_in_a_few_statements(
        session_factory, settings, seated) -> None:
    """The manager reads the tables starting at the same moment together
    (SqlBank.load_tables): the same terms, seats, carry and hands as each
    table read alone; a closed table absent; the owner unlimited in his own
    tavern only; and no more statements for three tables than for one."""
    from tavern.services import archive
    from tavern.store.models import TableConfig, Tavern

    w = seated
    with session_factory() as s, s.begin():
        first = s.get_one(TableConfig, w.table_id)

        def copy(tavern_id: int, status: str = "open") -> int:
            t = TableConfig(tavern_id=tavern_id, name="t", game=first.game, variant="", stakes=dict(first.stakes),
                            options={}, buy_in_min=20, buy_in_max=200, rake_percent=5, rake_cap=None,
                            no_flop_no_drop=True, seats=6, action_timer_seconds=30, status=status)
            s.add(t)
            s.flush()
            return t.id

        second = copy(w.tavern_id)
        ana_tavern = Tavern(village_id=s.get_one(Tavern, w.tavern_id).village_id, owner_id=w.users["ana"],
                            name="Chez Ana")
        s.add(ana_tavern)
        s.flush()
        hers = copy(ana_tavern.id)
        closed = copy(w.tavern_id, status="closed")
        ledger.issue(s, w.owner_id, 500)
        seats.sit(s, second, w.owner_id, 0, 50)  # the owner, in his own tavern
        seats.sit(s, second, w.users["bob"], 1, 50)
        seats.sit(s, hers, w.owner_id, 0, 60)  # ...and in Ana's
        archive.archive_hand(s, w.table_id, {"game": first.game}, {"carry": {"pot": 12}})
        archive.archive_hand(s, w.table_id, {"game": first.game}, {"in_progress": True}, voided=True)
    bank = SqlBank(session_factory, settings)
    ids = [w.table_id, second, hers, closed, 10**6]
    together = bank.load_tables(ids)
    assert set(together) == {w.table_id, second, hers}
    for tid, got in together.items():
        info = bank.table_info(tid)
        assert info is not None
        rows, carry, hands_shown = bank.load_table(tid, info.tavern_id)
        assert (got.info, got.seats, got.carry, got.hands) == (info, rows, carry, hands_shown)
    assert together[w.table_id].carry == {"pot": 12}
    assert [h["unlimited"] for h in together[second].hands] == [True, False]
    assert [h["unlimited"] for h in together[hers].hands] == [False]

    engine = session_factory.kw["bind"]
    counts = []

    def count(conn, cursor, statement, *args) -> None:
        counts[-1] += 1

    event.listen(engine, "before_cursor_execute", count)
    try:
        for some in ([second], ids):
            counts.append(0)
            bank.load_tables(some)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert 0 < counts[0] and counts[1] <= counts[0] + 4, counts  # a tavern more: its hands (four statements); no more per table
