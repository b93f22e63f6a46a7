"""The commands a player sends about his seat: take it, top it up, leave
it, sit out and back in, post to enter, the auto-actions chosen in
advance, his own seed. The table's handlers for them (tables/actor.py
``HANDLERS``), reading and changing the table through :class:`Seating`.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any, Protocol

from tavern import fair
from tavern.catalogue import french
from tavern.games.spec import GameSpec
from tavern.tables.bank import SqlBank, TableInfo
from tavern.tables.commands import Auto, Cave, ClientSeed, CommandError, Leave, Post, Sit, SitIn, SitOut
from tavern.tables.seating import SeatState
from tavern.tables.turns import AUTO_ACTIONS, Turns


class Holds(Protocol):
    def held(self, seat: int, name: str) -> bool:
        """Whether ``seat`` is held for somebody else than ``name`` (tables/waiting.py)."""
        ...


class Seating(Protocol):
    """What the seat commands need of their table (the actor)."""

    info: TableInfo
    bank: SqlBank
    game: GameSpec
    seats: dict[int, SeatState]
    sockets: Counter[str]
    time_bank: float
    closing_owner: int | None
    client_seeds: dict[str, str]
    turns: Turns

    @property
    def waiting(self) -> Holds: ...

    def _seat_of(self, username: str | None) -> SeatState: ...

    def _in_deal(self, seat: SeatState) -> bool: ...


async def free_seat(bank: SqlBank, table_id: int, seats: dict[int, SeatState], seat: SeatState) -> dict[str, Any]:
    """"Ramasser ses gains" now: the chips back to écus, the seat freed."""
    amount = await asyncio.to_thread(bank.leave, table_id, seat.user_id)
    del seats[seat.seat_no]
    return {"ecus": amount}


async def sit(t: Seating, command: Sit, username: str, user_id: int) -> dict[str, Any]:
    if t.closing_owner is not None:
        raise CommandError("table_closing")
    if any(s.name == username for s in t.seats.values()):
        raise CommandError("already_seated")
    seat = command.seat
    if seat in t.seats:
        raise CommandError("seat_taken")
    if t.waiting.held(seat, username):  # offered to the first in line for a while
        raise CommandError("seat_held")
    try:
        chips = await asyncio.to_thread(t.bank.sit, t.info.id, user_id, seat, command.cave)
    except ValueError as exc:  # SeatError, InsufficientFunds: refusals with codes
        raise CommandError.of(exc) from None
    # He sits from a socket: at least that one (a command sent without
    # any, as the runtime tests do, counts as one).
    state = SeatState(seat, user_id, username, chips, connections=max(1, t.sockets[username]),
                      time_bank=t.time_bank,
                      owes_big_blind=t.game.blinds)
    state.extra["hands"] = await asyncio.to_thread(t.bank.hands_info, user_id, t.info.tavern_id)
    t.seats[seat] = state
    return {"seat": seat, "chips": chips}


async def cave(t: Seating, command: Cave, username: str, user_id: int) -> dict[str, Any]:
    """Add chips — "between hands, never during one"."""
    seat = t._seat_of(username)
    if t._in_deal(seat):
        raise CommandError("top_up_between_deals")
    try:
        seat.chips = await asyncio.to_thread(t.bank.add_chips, t.info.id, seat.user_id, command.amount)
    except ValueError as exc:
        raise CommandError.of(exc) from None
    return {"chips": seat.chips}


async def leave(t: Seating, command: Leave, username: str, user_id: int) -> dict[str, Any]:
    """"Ramasser ses gains": all chips back to écus, seat freed — "not during
    a hand in which the player is still involved": then at the deal's end."""
    seat = t._seat_of(username)
    if t._in_deal(seat):
        seat.leave_after_deal = True  # he plays the deal out as he likes
        return {"notice": french("leaving_after_deal")}
    return await free_seat(t.bank, t.info.id, t.seats, seat)


async def sit_out(t: Seating, command: SitOut, username: str, user_id: int) -> dict[str, Any]:
    """"Se lever": keep the seat and the chips, receive no cards."""
    seat = t._seat_of(username)
    seat.sitting_out = True
    await asyncio.to_thread(t.bank.set_sitting_out, t.info.id, seat.user_id, True)
    if t._in_deal(seat):
        # "sitting out ... when it is your turn folds": play the time-out move now and after.
        seat.auto = "check_fold"
        t.turns.play_auto(seat.name)
    return {}


async def sit_in(t: Seating, command: SitIn, username: str, user_id: int) -> dict[str, Any]:
    """"Se rasseoir": back in; at poker "the player must post a big blind
    again (or wait for the big blind to reach them)"."""
    seat = t._seat_of(username)
    if seat.sitting_out:
        await asyncio.to_thread(t.bank.set_sitting_out, t.info.id, seat.user_id, False)
        seat.owes_big_blind = t.game.blinds
    seat.sitting_out = False
    seat.timeouts = 0
    seat.post_now = bool(command.post)
    if seat.auto == "check_fold" and not t._in_deal(seat):
        seat.auto = None
    return {}


async def post_blind(t: Seating, command: Post, username: str, user_id: int) -> dict[str, Any]:
    """Choose to post the big blind at the next deal instead of waiting for it."""
    seat = t._seat_of(username)
    seat.post_now = True
    return {}


async def auto(t: Seating, command: Auto, username: str, user_id: int) -> dict[str, Any]:
    auto = command.auto
    if auto is not None and auto not in AUTO_ACTIONS:
        raise CommandError("unknown_auto", auto=auto, choices=list(AUTO_ACTIONS))
    seat = t._seat_of(username)
    seat.auto = auto
    if auto and t._in_deal(seat):
        t.turns.play_auto(seat.name)
    return {}


async def client_seed(t: Seating, command: ClientSeed, username: str, user_id: int) -> dict[str, Any]:
    """A player's own contribution to the next decks he is dealt
    (docs/fairness.md); any connected player may set it, seated or not."""
    try:
        t.client_seeds[username] = fair.check_client_seed(command.seed)
    except fair.FairError:
        raise CommandError("bad_client_seed") from None
    return {"client_seed": command.seed}
