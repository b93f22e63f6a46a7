"""The floor of a contest: who sits where, who moves, which table breaks,
who finishes where — pure, so the director (:mod:`tavern.contests.director`)
and the Hypothesis tests drive the very same rules.

Rulings (TDA practice, as the issue sets them; ``docs/contests.md``):

* Seating: "players are seated at random across the fewest tables that hold
  them, balanced; the first button drawn at random".
* Balancing: "keep tables within one player of each other; the player who
  moves is the one due to be big blind next at the fullest table, to the
  worst position at the short table (never the small blind)". The worst
  position is the free seat the big blind reaches first.
* Breaking: "break a table as soon as the remaining players fit at one table
  fewer (its players seated at random in the free seats)". It becomes
  possible only when a deal knocks somebody out, so the table broken is the
  one whose deal just ended: its players are not in a deal and move at once,
  each to a table with the fewest players (at random among them), at a free
  seat drawn at random.
* "A player in a deal moves only when his deal ends": a move decided while
  the fullest table is dealing reserves the seat at the short table and is
  made when that deal ends (or before its next deal). Balance is kept on the
  tables' counts with these reservations; every deal end plans afresh.

Seats are numbered from 0, like the tables' own; a table's ``button`` is the
seat of the button of its last deal (``None``: never dealt), as the table
actor keeps it, and the next deal's button is the next occupied seat going
left — contest tables deal everybody with chips in, nobody waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from tavern.cards import RandomSource
from tavern.contest_rules import Finish, knockout_places

_T = TypeVar("_T")


@dataclass
class FloorTable:
    id: int
    seats: dict[int, str] = field(default_factory=dict)  #: seat number → player
    button: int | None = None  #: seat of the last deal's button


@dataclass(frozen=True)
class Move:
    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str  #: "balance" or "break"


@dataclass
class Outcome:
    """What the director must do after a deal end (or before a deal)."""

    finishes: list[Finish] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)  #: tables left empty (broken)
    winner: str | None = None


def next_positions(seat_nos: Sequence[int], last_button: int | None) -> tuple[int, int, int]:
    """(button, small blind, big blind) seats of the next deal among occupied
    ``seat_nos``: the button goes to the next occupied seat going left;
    heads-up the button posts the small blind (RULES.md, Ramponneau)."""
    seats = sorted(seat_nos)
    if last_button is None:
        b = 0
    else:
        b = next((i for i, s in enumerate(seats) if s > last_button), 0)
    n = len(seats)
    if n == 2:
        return seats[b], seats[b], seats[(b + 1) % n]
    return seats[b], seats[(b + 1) % n], seats[(b + 2) % n]


def big_blind_order(table: FloorTable) -> list[str]:
    """The table's players in the order the big blind reaches them, starting
    with the one due to be big blind at the next deal."""
    seats = sorted(table.seats)
    if len(seats) < 2:
        return [table.seats[s] for s in seats]
    _, _, bb = next_positions(seats, table.button)
    k = seats.index(bb)
    return [table.seats[s] for s in seats[k:] + seats[:k]]


def worst_seat(table: FloorTable, seats_per_table: int) -> int:
    """The free seat a player moved in takes: "the worst position ... never
    the small blind" — the one the big blind reaches first (at best the very
    next big blind). Only when the one free seat would be the small blind
    does he take it all the same."""
    free = [s for s in range(seats_per_table) if s not in table.seats]
    if not free:
        raise ValueError(f"table {table.id} is full")
    best: tuple[int, int] | None = None
    fallback = free[0]
    for e in free:
        seats = sorted([*table.seats, e])
        if len(seats) < 2:
            return e
        _, sb, bb = next_positions(seats, table.button)
        if e == sb:
            continue
        k = seats.index(bb)
        distance = (seats + seats).index(e, k) - k
        if best is None or distance < best[0]:
            best = (distance, e)
    return best[1] if best is not None else fallback


def _draw(rng: RandomSource, items: Sequence[_T]) -> _T:
    return items[rng.randbelow(len(items))]


def table_counts(n: int, seats_per_table: int) -> list[int]:
    """The fewest tables that hold ``n`` players, balanced (within one)."""
    k = max(1, -(-n // seats_per_table))
    return [n // k + (1 if i < n % k else 0) for i in range(k)]


class Floor:
    """The seating of one contest and its rulings.

    ``tables`` hold the players seated now; ``pending`` the moves decided
    while the mover's table deals (player → destination table), made when
    his deal ends; ``busy`` the tables dealing."""

    def __init__(self, seats_per_table: int, rng: RandomSource) -> None:
        self.seats_per_table = seats_per_table
        self.rng = rng
        self.tables: dict[int, FloorTable] = {}
        self.stacks: dict[str, int] = {}
        self.busy: set[int] = set()
        self.pending: dict[str, int] = {}
        self.places: dict[str, int] = {}
        self.finishes: list[Finish] = []

    # --- state -------------------------------------------------------------

    @property
    def left(self) -> int:
        """Players with chips (still in the contest)."""
        return sum(len(t.seats) for t in self.tables.values())

    def table_of(self, player: str) -> tuple[int, int]:
        for t in self.tables.values():
            for s, p in t.seats.items():
                if p == player:
                    return t.id, s
        raise KeyError(player)

    def counts(self) -> dict[int, int]:
        """Each table's players counting the seats reserved by decided moves."""
        out = {tid: len(t.seats) for tid, t in self.tables.items()}
        for player, dest in self.pending.items():
            out[self.table_of(player)[0]] -= 1
            out[dest] += 1
        return out

    # --- the start -----------------------------------------------------------

    def seat_field(self, players: Sequence[str], stack: int, table_ids: Sequence[int]) -> dict[int, int]:
        """Seat ``players`` at random over the fewest balanced tables (ids from
        ``table_ids``, which must be enough) at random seats, and draw each
        table's first button. Returns each table's first button seat."""
        order = list(players)
        for i in range(len(order) - 1, 0, -1):  # Fisher–Yates
            j = self.rng.randbelow(i + 1)
            order[i], order[j] = order[j], order[i]
        buttons = {}
        for tid, n in zip(table_ids, table_counts(len(order), self.seats_per_table), strict=False):
            free = list(range(self.seats_per_table))
            t = FloorTable(tid)
            for _ in range(n):
                seat = free.pop(self.rng.randbelow(len(free)))
                t.seats[seat] = order.pop()
                self.stacks[t.seats[seat]] = stack
            first = int(_draw(self.rng, sorted(t.seats)))
            # The table actor moves the button to the next occupied seat
            # after its last one: start it from the seat before the drawn one.
            seats = sorted(t.seats)
            t.button = seats[seats.index(first) - 1] if len(seats) > 1 else None
            buttons[tid] = first
            self.tables[tid] = t
        return buttons

    def arrive(self, player: str, stack: int, new_table: int | None = None) -> Move | None:
        """A late registrant: a random free seat at a table with the fewest
        players; with every seat taken a new table (``new_table``) opens, and
        balancing fills it. Returns his seat as a move from nowhere (table 0)."""
        counts = self.counts()
        open_ = [tid for tid, t in self.tables.items() if len(t.seats) < self.seats_per_table]
        if open_:
            low = min(counts[t] for t in open_)
            tid = int(_draw(self.rng, sorted(t for t in open_ if counts[t] == low)))
        elif new_table is not None:
            tid = new_table
            self.tables[tid] = FloorTable(tid)
        else:
            return None
        t = self.tables[tid]
        free = [s for s in range(self.seats_per_table) if s not in t.seats]
        seat = int(_draw(self.rng, free))
        t.seats[seat] = player
        self.stacks[player] = stack
        return Move(player, 0, -1, tid, seat, "late")

    # --- deals -----------------------------------------------------------------

    def before_deal(self, table_id: int) -> Outcome:
        """A table is about to deal: the moves decided while it was dealing
        are made now, then it deals (if two players are left there)."""
        out = Outcome()
        for player, dest in sorted(self.pending.items()):
            tid, seat = self.table_of(player)
            if tid == table_id:
                del self.pending[player]
                out.moves.append(self._move(player, tid, seat, dest, "balance"))
        t = self.tables[table_id]
        if len(t.seats) >= 2:
            self.busy.add(table_id)
            t.button = next_positions(list(t.seats), t.button)[0]
        return out

    def deal_ended(self, table_id: int, started: Sequence[tuple[str, int]], chips: dict[str, int]) -> Outcome:
        """A deal ended at ``table_id``: ``started`` (name, chips at its start)
        in order from the button's left, ``chips`` each one's chips now.
        Knock-outs get their places, then the table is broken or the tables
        balanced, as the rulings say."""
        self.busy.discard(table_id)
        t = self.tables[table_id]
        out = Outcome()
        left_before = self.left
        for name, _ in started:
            self.stacks[name] = chips[name]
        busted = [(name, c) for name, c in started if chips[name] == 0]
        if busted:
            for name, _ in busted:
                seat = next(s for s, p in t.seats.items() if p == name)
                del t.seats[seat]
                self.pending.pop(name, None)
            out.finishes = knockout_places(left_before, busted)
            for f in out.finishes:
                for name in f.players:
                    self.places[name] = f.place
            self.finishes.extend(out.finishes)
        if self.left == 1:
            winner = next(p for tt in self.tables.values() for p in tt.seats.values())
            self.places[winner] = 1
            self.finishes.append(Finish(1, (winner,)))
            out.winner = winner
            self.pending.clear()
            return out
        # Every deal end plans afresh: the decided moves not made yet are
        # forgotten, this table (between deals) can move players at once.
        self.pending.clear()
        active = [tid for tid, tt in self.tables.items() if tt.seats]
        if len(active) > 1 and self.left <= self.seats_per_table * (len(active) - 1) and t.seats:
            out.moves.extend(self._break(t))
        out.moves.extend(self._balance(table_id))
        for tid in [tid for tid, tt in self.tables.items() if not tt.seats]:
            del self.tables[tid]
            self.busy.discard(tid)
            out.closed.append(tid)
        return out

    # --- rulings -------------------------------------------------------------------

    def _move(self, player: str, src: int, seat: int, dest: int, reason: str, to_seat: int | None = None) -> Move:
        t = self.tables[dest]
        if to_seat is None:
            to_seat = worst_seat(t, self.seats_per_table)
        del self.tables[src].seats[seat]
        t.seats[to_seat] = player
        return Move(player, src, seat, dest, to_seat, reason)

    def _break(self, table: FloorTable) -> list[Move]:
        """The players of ``table`` (between deals) to the others: each in turn
        (in an order drawn at random) to a table with the fewest players, at a
        free seat drawn at random."""
        moves = []
        players = sorted(table.seats.items())
        order = list(range(len(players)))
        for i in range(len(order) - 1, 0, -1):
            j = self.rng.randbelow(i + 1)
            order[i], order[j] = order[j], order[i]
        for k in order:
            seat, player = players[k]
            others = {tid: len(t.seats) for tid, t in self.tables.items() if tid != table.id and t.seats}
            low = min(others.values())
            dest = int(_draw(self.rng, sorted(tid for tid, n in others.items() if n == low)))
            free = [s for s in range(self.seats_per_table) if s not in self.tables[dest].seats]
            moves.append(self._move(player, table.id, seat, dest, "break", int(_draw(self.rng, free))))
        return moves

    def _balance(self, free_table: int) -> list[Move]:
        """Moves until no two tables differ by more than one player. From the
        table between deals (``free_table``) when it is one of the fullest,
        at once; else the fullest table (lowest number) gives its player due
        to be big blind next, reserved until his deal ends (or its next one
        starts: :meth:`before_deal`). The short table is
        the one with the fewest players (lowest number)."""
        moves = []
        for _ in range(self.left + 1):
            counts = {tid: n for tid, n in self.counts().items() if self.tables[tid].seats or n}
            if not counts or max(counts.values()) - min(counts.values()) <= 1:
                break
            high, low = max(counts.values()), min(counts.values())
            dest = min(tid for tid, n in counts.items() if n == low)
            fullest = sorted(tid for tid, n in counts.items() if n == high)
            src = free_table if free_table in fullest else fullest[0]
            order = [p for p in big_blind_order(self.tables[src]) if p not in self.pending]
            mover = order[0]
            if src != free_table:  # another table's players may be in a deal
                self.pending[mover] = dest
            else:
                _, seat = self.table_of(mover)
                moves.append(self._move(mover, src, seat, dest, "balance"))
        return moves
