"""The director of a running contest: one per contest, like a table's actor.

It hears each table's deal ends (and deal starts) through the contest
tables' hooks (:mod:`tavern.contests.table`), one at a time under its lock,
and decides with the floor's rulings (:mod:`tavern.contest_floor`):
knock-outs and places, moves and broken tables, the end and the prizes. Each
decision is written to the database in one transaction before any table
hears of it; a player arriving at a table is queued there without waiting
(a table may itself be waiting on the director).

The level clock is the wall clock from the contest's start, kept in the
database: after a restart the contest resumes at the same level. Deals in
progress at a crash are voided like at cash tables (stacks as at their
start); the director rebuilds its floor from the seats and chips stored.
"""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from tavern.cards import CSPRNG, RandomSource
from tavern.contest_floor import Floor, Outcome
from tavern.contest_rules import Level, level_at
from tavern.contests.table import ContestBank, ContestSync, contest_table
from tavern.services import contests as svc
from tavern.store.models import Contest, User, utcnow
from tavern.tables.actor import TableActor

if TYPE_CHECKING:
    from tavern.tables.broadcast import Broadcaster
    from tavern.tables.manager import TableManager

log = logging.getLogger(__name__)
CONTEST_SYNC = ContestSync()  #: wakes a table to take the players sent to it


@dataclass(eq=False)
class Director:
    contest_id: int
    bank: ContestBank
    tables: TableManager
    broadcaster: Broadcaster
    _: KW_ONLY
    rng: RandomSource = CSPRNG
    now: Callable[[], dt.datetime] = utcnow
    actor_options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.lock = asyncio.Lock()
        self.floor = Floor(2, self.rng)
        self.structure: list[Level] = []
        self.started_at: dt.datetime = self.now()
        self.ids: dict[str, int] = {}
        self.actors: dict[int, TableActor] = {}
        #: Players sent to a table and not seated there yet: the table takes
        #: them (:meth:`take_arrivals`) before its next word with the director,
        #: so its seats never lag behind the floor's.
        self.arrivals: dict[int, list[dict[str, Any]]] = {}
        self.done = asyncio.Event()
        self.prizes: dict[int, int] = {}
        #: What the tests check at every deal boundary (sum of stacks, counts).
        self.observers: list[Callable[[Director, Outcome], None]] = []

    # --- life cycle -------------------------------------------------------------

    def _tx(self, work: Callable[[Session], Any]) -> Any:
        return self.bank._tx(work, urgent=True)

    async def start(self, floor: Floor | None = None) -> None:
        """Load the contest (and, after a restart, its floor) and start its tables."""

        def load(s: Session) -> tuple[Contest, Floor, dict[str, int]]:
            c = s.get_one(Contest, self.contest_id)
            f = floor if floor is not None else svc.load_floor(s, c, self.rng)
            s.expunge(c)
            return c, f, svc.players_of(s, self.contest_id)

        c, self.floor, self.ids = await asyncio.to_thread(self._tx, load)
        self.floor.rng = self.rng
        self.structure = svc.structure(c)
        self.started_at = c.started_at or self.now()
        for tid in sorted(self.floor.tables):
            await self._start_table(tid)

    async def _start_table(self, table_id: int) -> TableActor:
        info = await asyncio.to_thread(self.bank.table_info, table_id)
        if info is None:
            raise RuntimeError(f"contest table {table_id} is not open")
        # With several workers: this table's lease and claim (its deal left in
        # progress by a leader that died is voided here, before it deals again).
        fence = await self.tables.lease(table_id)
        actor = contest_table(info, self.bank, self.broadcaster, self, **self.actor_options)
        actor.fence = fence
        self.tables.guard(actor)
        actor.on_closed = lambda: self._forget(table_id, actor)
        await actor.start()
        self.actors[table_id] = actor
        self.tables.actors[table_id] = actor  # the WebSocket finds it like any table's
        return actor

    def _forget(self, table_id: int, actor: TableActor) -> None:
        if self.actors.get(table_id) is actor:
            del self.actors[table_id]
        if self.tables.actors.get(table_id) is actor:
            del self.tables.actors[table_id]
            self.tables.let_go_soon(table_id, live=False)

    async def stop(self) -> None:
        for actor in list(self.actors.values()):
            await actor.stop()
            self._forget(actor.info.id, actor)

    # --- the clock ------------------------------------------------------------------

    def level_index(self) -> tuple[int, float]:
        return level_at(self.structure, (self.now() - self.started_at).total_seconds())

    def level(self) -> Level:
        return self.structure[self.level_index()[0]]

    def clock_view(self) -> dict[str, Any]:
        """What a contest table shows: the level and its clock."""
        index, left = self.level_index()
        lv = self.structure[index]
        return {"id": self.contest_id, "level": index + 1, "small_blind": lv.small_blind,
                "big_blind": lv.big_blind, "ante": lv.ante,
                "seconds_left": None if left == float("inf") else round(left, 1),
                "players_left": self.floor.left}

    def _send(self, table_id: int, **arrival: Any) -> None:
        """A player goes to ``table_id``: into its mailbox, and the table is
        woken (without waiting: it may itself be waiting on the director)."""
        self.arrivals.setdefault(table_id, []).append(arrival)
        actor = self.actors.get(table_id)
        if actor is not None:
            actor.post_nowait(CONTEST_SYNC)

    def take_arrivals(self, table_id: int) -> list[dict[str, Any]]:
        return self.arrivals.pop(table_id, [])

    # --- the hooks of the tables -----------------------------------------------------

    async def before_deal(self, table_id: int) -> list[tuple[str, dict[str, Any]]]:
        async with self.lock:
            return await self._decide(table_id, lambda f: f.before_deal(table_id))

    async def deal_ended(self, table_id: int, started: list[tuple[str, int]],
                         chips: dict[str, int]) -> list[tuple[str, dict[str, Any]]]:
        async with self.lock:
            return await self._decide(table_id, lambda f: f.deal_ended(table_id, started, chips),
                                      dict(started))

    async def _decide(self, table_id: int, rule: Callable[[Floor], Outcome],
                      started: dict[str, int] | None = None) -> list[tuple[str, dict[str, Any]]]:
        """Apply a ruling: the floor decides, the database records it all in one
        transaction (or nothing changes), then the tables hear of it. Returns
        the departures from ``table_id`` (name, what he is told)."""
        if table_id not in self.floor.tables:
            return []
        saved = copy.deepcopy(self.floor, {id(self.rng): self.rng})
        out = rule(self.floor)
        now = self.now()
        chips_of = {m.player: self.floor.stacks[m.player] for m in out.moves}

        def work(s: Session) -> dict[int, int]:
            c = s.get_one(Contest, self.contest_id)
            if out.finishes:
                svc.knock_out(s, c, out.finishes, self.ids, table_id, started or {}, now)
            for m in out.moves:
                chips_of[m.player] = svc.move(s, c, m, self.ids[m.player])
            if out.closed:
                svc.close_tables(s, out.closed, now)
            if out.winner is not None:
                return svc.finish(s, c, self.ids[out.winner], table_id, now)
            return {}

        # Most deal starts and ends change nothing on the floor: no transaction then.
        busy = out.finishes or out.moves or out.closed or out.winner is not None
        prizes: dict[int, int] = {}
        for attempt in range(3):  # the ruling must be recorded: the floor already moved on
            try:
                prizes = await asyncio.to_thread(self._tx, work) if busy else {}
                break
            except Exception:
                log.exception("contest %s: the ruling at table %s could not be recorded (attempt %d)",
                              self.contest_id, table_id, attempt + 1)
                await asyncio.sleep(0.5)
        else:  # nothing recorded: the floor goes back to what the database holds
            self.floor = saved
            return []
        departures: list[tuple[str, dict[str, Any]]] = []
        for f in out.finishes:
            for name in f.players:
                departures.append((name, {"event": "out", "place": f.place, "contest_id": self.contest_id}))
        for m in out.moves:
            notice = {"event": "moved", "to_table": m.to_table, "contest_id": self.contest_id}
            if m.from_table == table_id:  # the floor moves players only from the table asking
                departures.append((m.player, notice))
            self._send(m.to_table, seat=m.to_seat, user_id=self.ids[m.player], name=m.player,
                       chips=chips_of[m.player])
        if out.winner is not None:
            self.prizes = prizes
            departures.append((out.winner, {"event": "won", "place": 1, "contest_id": self.contest_id}))
            self.done.set()
        for observer in self.observers:
            observer(self, out)
        return departures

    # --- late registration ---------------------------------------------------------

    async def late_register(self, user_id: int) -> dict[str, Any]:
        """A late registrant: fee escrowed, a random free seat at a table with
        the fewest players (a new table when every seat is taken: balancing
        then fills it), his starting stack issued. Raises
        :class:`tavern.services.contests.ContestError`."""
        async with self.lock:
            saved = copy.deepcopy(self.floor, {id(self.rng): self.rng})
            now = self.now()

            def work(s: Session) -> tuple[Any, str, int, bool]:
                c = s.get_one(Contest, self.contest_id)
                svc.register(s, self.contest_id, user_id, now, director=True)
                name = s.get_one(User, user_id).username
                full = all(len(t.seats) >= self.floor.seats_per_table for t in self.floor.tables.values())
                new_id = None
                if full:
                    number = len(svc.contest_table_ids(s, self.contest_id)) + 1
                    new_id = svc.open_table(s, c, number).id
                m = self.floor.arrive(name, c.starting_chips, new_id)
                assert m is not None  # a late registration always finds a seat (a new table if need be)
                svc.seat_player(s, c, user_id, m.to_table, m.to_seat, "late")
                return m, name, c.starting_chips, full

            try:
                m, name, chips, new = await asyncio.to_thread(self._tx, work)
            except Exception:
                self.floor = saved
                raise
            self.ids[name] = user_id
            if new:
                await self._start_table(m.to_table)
            else:
                self._send(m.to_table, seat=m.to_seat, user_id=user_id, name=name, chips=chips)
            return {"table_id": m.to_table, "seat": m.to_seat}
