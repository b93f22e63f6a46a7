"""Seats and caves. RULES.md: "Cave (buy-in): exchanging écus for table chips
… Chips can be added between hands … "Ramasser ses gains" converts all the
player's chips back to écus and leaves the seat." "Se lever": stay seated,
keep the chips … "Se rasseoir": come back; the player must post a big blind
again."""

from __future__ import annotations

import pytest
from tests.services.helpers import make_table, make_user

from tavern.services import ledger, seats
from tavern.services.ledger import InsufficientFunds
from tavern.services.seats import SeatError

pytestmark = pytest.mark.db


@pytest.fixture
def table_and_players(session):
    owner = make_user(session, "patron")
    table = make_table(session, owner)  # cave 20..200
    players = [make_user(session, n) for n in ("alice", "bruno")]
    for p in players:
        ledger.issue(session, p.id, 500)
    session.commit()
    return owner, table, players


def test_sitting_down_is_a_cave_of_ecus_into_chips(session, table_and_players):
    _, table, (alice, bruno) = table_and_players
    seat = seats.sit(session, table.id, alice.id, 2, 150)
    assert seat.owes_big_blind and not seat.sitting_out
    assert ledger.chips(session, alice.id, table.id) == 150
    assert ledger.balance(session, "user", alice.id, "ecus") == 350
    with pytest.raises(SeatError, match="prise"):
        seats.sit(session, table.id, bruno.id, 2, 100)
    with pytest.raises(SeatError, match="entre 20 et 200"):
        seats.sit(session, table.id, bruno.id, 3, 19)
    with pytest.raises(SeatError, match="déjà assis"):
        seats.sit(session, table.id, alice.id, 4, 50)


def test_a_cave_needs_the_ecus(session, table_and_players):
    _, table, (alice, _) = table_and_players
    ledger.transfer(session, ledger.account(session, "user", alice.id, "ecus"),
                    ledger.house(session, ledger.House.SHOP, "ecus"), 490, "ecus", "shop")
    with pytest.raises(InsufficientFunds):
        seats.sit(session, table.id, alice.id, 0, 20)


def test_top_up_only_up_to_the_maximum_cave(session, table_and_players):
    _, table, (alice, _) = table_and_players
    seats.sit(session, table.id, alice.id, 0, 150)
    assert seats.add_chips(session, table.id, alice.id, 50) == 200
    with pytest.raises(SeatError, match=r"jusqu.à 0"):
        seats.add_chips(session, table.id, alice.id, 1)


def test_se_lever_and_se_rasseoir(session, table_and_players):
    _, table, (alice, _) = table_and_players
    seat = seats.sit(session, table.id, alice.id, 0, 100)
    seat.owes_big_blind = False  # she posted it and played
    seats.set_sitting_out(session, table.id, alice.id, True)
    assert seat.sitting_out and ledger.chips(session, alice.id, table.id) == 100  # keeps the chips
    seats.set_sitting_out(session, table.id, alice.id, False)
    assert not seat.sitting_out and seat.owes_big_blind


def test_ramasser_ses_gains_after_a_won_deal(session, table_and_players):
    owner, table, (alice, bruno) = table_and_players
    seats.sit(session, table.id, alice.id, 0, 100)
    seats.sit(session, table.id, bruno.id, 1, 100)
    ledger.settle_deal(session, table.id, {alice.id: 57, bruno.id: -60}, 3, owner.id, "hand:1")
    assert seats.leave(session, table.id, alice.id) == 157
    assert seats.seat_of(session, table.id, alice.id) is None
    assert ledger.balance(session, "user", alice.id, "ecus") == 557
    assert ledger.balance(session, "user", owner.id, "ecus") == 3
    assert ledger.audit(session).ok
