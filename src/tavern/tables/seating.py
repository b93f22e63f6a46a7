"""Who is dealt in, and where the button goes — the runtime's only piece of
position logic, so that blinds to enter stay game-agnostic elsewhere.

RULES.md, Ramponneau: "a new player posts the big blind immediately, or waits
for the big blind to reach them. A player who declines to post is sitting out
and gets no cards." Draw poker: "New players post the big blind to enter (not
between the button and the big blind) or wait for it".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavern.games.spec import GameSpec


@dataclass
class SeatState:
    """A seated player as the actor sees him between and during deals."""

    seat_no: int
    user_id: int
    name: str
    chips: int
    sitting_out: bool = False
    owes_big_blind: bool = True
    post_now: bool = False  #: chose to post the big blind at the next deal
    timeouts: int = 0  #: time-outs in a row
    auto: str | None = None  #: auto-action chosen in advance
    connections: int = 0
    disconnected_at: float | None = None
    leave_after_deal: bool = False
    time_bank: float = 30.0
    notice: str | None = None  #: why he was not dealt in, shown to him
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Lineup:
    """A deal's players in seat order, the button's index among them, and
    who posts to enter (by name)."""

    players: list[SeatState]
    button: int
    posting: frozenset[str]


def _after(seat_nos: list[int], seat: int | None) -> int:
    """Index in sorted ``seat_nos`` of the first seat strictly after ``seat``, going left."""
    if seat is None:
        return 0
    for i, s in enumerate(seat_nos):
        if s > seat:
            return i
    return 0


def _before(seat_nos: list[int], seat: int | None) -> int:
    """Index in sorted ``seat_nos`` of the last seat strictly before ``seat``
    (the next dealer going right)."""
    if seat is None:
        return 0
    for i in range(len(seat_nos) - 1, -1, -1):
        if seat_nos[i] < seat:
            return i
    return len(seat_nos) - 1


def _blind_seats(players: list[SeatState], button: int) -> tuple[int, int]:
    n = len(players)
    if n == 2:  # heads-up: the button posts the small blind
        return button, (button + 1) % n
    return (button + 1) % n, (button + 2) % n


def choose_lineup(game: GameSpec, ready: list[SeatState], last_button_seat: int | None,
                  min_players: int) -> Lineup | None:
    """The next deal's lineup among ``ready`` players (seated, sitting in, with
    chips, hands left), or ``None`` when too few can play."""
    ready = sorted(ready, key=lambda s: s.seat_no)
    if not game.blinds:  # whose players owe no big blind to enter or come back
        if len(ready) < min_players:
            return None
        # RULES.md, Rams: "play turns to the right of the dealer".
        next_dealer = _before if game.turns_right else _after
        button = next_dealer([s.seat_no for s in ready], last_button_seat)
        return Lineup(ready, button, frozenset())

    owing = [s for s in ready if s.owes_big_blind and not s.post_now]
    active = [s for s in ready if s not in owing]
    # A table starting (or restarting) with fewer than two players who need
    # not wait deals everybody in: there is no big blind to wait for.
    # Heads-up, a newcomer is simply dealt in too (the blinds then fall by position).
    if last_button_seat is None or len([s for s in active if not s.owes_big_blind]) <= 2:
        if len(ready) < min_players:
            return None
        button = _after([s.seat_no for s in ready], last_button_seat)
        return Lineup(ready, button, frozenset())

    for _ in range(len(ready) + 1):
        if len(active) < min_players:
            return None
        seat_nos = [s.seat_no for s in active]
        button = _after(seat_nos, last_button_seat)
        sb, bb = _blind_seats(active, button)
        # A waiting player whom the big blind reaches is dealt in as the big blind.
        between = [s for s in owing if _cyclic_between(active[sb].seat_no, s.seat_no, active[bb].seat_no)]
        if between:
            newcomer = between[0]
            owing.remove(newcomer)
            active = sorted(active + [newcomer], key=lambda s: s.seat_no)
            continue
        posting = [s for s in active if s.owes_big_blind and s.post_now]
        # Nobody posts to enter in the small blind's seat: he waits one deal.
        if posting and active[sb] in posting and len(active) > 2:
            active.remove(active[sb])
            continue
        names = frozenset(s.name for s in posting if s is not active[bb])
        return Lineup(active, button, names)
    return None


def _cyclic_between(a: int, x: int, b: int) -> bool:
    """Is seat ``x`` strictly after ``a`` and at or before ``b`` going left?"""
    if a < b:
        return a < x <= b
    return x > a or x <= b


def at_table_seats(view: dict[str, Any], seat_of: dict[str, int]) -> dict[str, Any]:
    """A deal view whose seats are the table's seat numbers (docs/protocol.md
    "Seats"). Poker's engine numbers a seat by its place in the deal's list
    (the hand record's ``seats`` and ``button``): with seats 0, 2 and 5 taken
    its ``players[].seat`` said 0, 1, 2 beside ``table.players[].seat`` 0, 2, 5.
    The engine's view is shared (encoded once): a changed copy, never an edit."""
    players = view.get("players")
    if not players or not isinstance(players[0], dict) or "seat" not in players[0]:
        return view  # a game whose view names no seat
    out = {**view, "players": [{**p, "seat": seat_of.get(p["player"], p["seat"])} for p in players]}
    if type(view.get("button")) is int:
        at_button = next((p["player"] for p in players if p["seat"] == view["button"]), None)
        if at_button in seat_of:
            out["button"] = seat_of[at_button]
    return out
