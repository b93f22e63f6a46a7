"""Sitting at a table with a cave, "se lever", "se rasseoir" and "Ramasser
ses gains" — the database side; the live table runtime decides *when* these
are allowed (never during a hand the player is involved in).

RULES.md: "Cave (buy-in): exchanging écus for table chips, between 10× and
100× the big blind (owner may narrow it …). Chips can be added between hands,
never during one. "Ramasser ses gains" converts all the player's chips back to
écus and leaves the seat."

Ruling: a top-up may bring the stack up to the table's maximum cave, not
beyond (the usual rule of cash tables).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tavern.refusal import Refusal
from tavern.services import house_seats, ledger, private_tables
from tavern.store.models import Seat, TableConfig


class SeatError(Refusal, ValueError):
    """A refused seating operation, in words the player understands."""


def _open_table(session: Session, table_id: int) -> TableConfig:
    table = session.get(TableConfig, table_id)
    if table is None or table.status != "open":
        raise SeatError("table_closed")
    return table


def seat_of(session: Session, table_id: int, user_id: int) -> Seat | None:
    return session.scalars(select(Seat).where(Seat.table_id == table_id, Seat.user_id == user_id)).one_or_none()


def seats(session: Session, table_id: int) -> list[Seat]:
    return list(session.scalars(select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat_no)))


def sit(session: Session, table_id: int, user_id: int, seat_no: int, cave: int) -> Seat:
    """Take seat ``seat_no`` (0-based) with a cave of ``cave`` écus. The
    player owes a big blind before being dealt in."""
    table = _open_table(session, table_id)
    private_tables.check_sit(session, table, user_id)  # a table among friends: its link first
    if not 0 <= seat_no < table.seats:
        raise SeatError("no_such_seat", seats=table.seats)
    if seat_of(session, table_id, user_id) is not None:
        raise SeatError("already_seated")
    if not table.buy_in_min <= cave <= table.buy_in_max:
        raise SeatError("cave_out_of_range", minimum=table.buy_in_min, maximum=table.buy_in_max)
    seat = Seat(table_id=table_id, seat_no=seat_no, user_id=user_id, sitting_out=False, owes_big_blind=True)
    try:
        with session.begin_nested():
            session.add(seat)
    except IntegrityError:
        raise SeatError("seat_taken") from None
    ledger.cave(session, user_id, table_id, cave, f"table:{table_id}:seat:{seat_no}")
    return seat


def add_chips(session: Session, table_id: int, user_id: int, amount: int) -> int:
    """Buy more chips between hands; returns the new stack."""
    table = _open_table(session, table_id)
    if seat_of(session, table_id, user_id) is None:
        raise SeatError("not_seated")
    stack = ledger.chips(session, user_id, table_id)
    if amount <= 0 or stack + amount > table.buy_in_max:
        raise SeatError("top_up_too_much", most=max(0, table.buy_in_max - stack), maximum=table.buy_in_max)
    ledger.cave(session, user_id, table_id, amount, f"table:{table_id}:top-up")
    return stack + amount


def set_sitting_out(session: Session, table_id: int, user_id: int, sitting_out: bool) -> Seat:
    """"Se lever" (True) / "se rasseoir" (False: must post a big blind again)."""
    seat = seat_of(session, table_id, user_id)
    if seat is None:
        raise SeatError("not_seated")
    if seat.sitting_out and not sitting_out:
        seat.owes_big_blind = True
    seat.sitting_out = sitting_out
    session.flush()
    return seat


def leave(session: Session, table_id: int, user_id: int) -> int:
    """"Ramasser ses gains": all chips back to écus, seat freed. Returns the écus."""
    seat = seat_of(session, table_id, user_id)
    if seat is None:
        raise SeatError("not_seated")
    amount = ledger.cash_out(session, user_id, table_id, ecus=house_seats.purse_of(session, user_id))
    session.delete(seat)
    session.flush()
    return amount
