"""A practice table (issue 29, « S'entraîner »): the same game-agnostic
:class:`TableActor`, composed with a bank and a policy of its own.

* :class:`PracticeBank` — practice chips, never money: no ledger entry, no
  cave, no rake, no daily hand. Each seat starts with a fixed practice stack
  (services/practice.py ``stack_of``), kept by the live table; each deal is
  still archived, marked ``practice`` (« entraînement » in « Mes donnes »,
  never in the surveillance report, the figures or the leaderboards).
* :class:`PracticePolicy` — the seats are set when the table opens (no
  ``Sit``, no ``Cave``), a busted seat is refilled, the house players' seats
  are driven by :class:`HouseDriver` from the moment the actor starts (in
  whichever worker runs the table), and the table closes when its player
  leaves — or, gone past the reconnection grace, at the next deal.
* :class:`HouseDriver` — a house player: the bots' policy for the game and
  level, fed the seat's view and legal actions and a seeded Random, after a
  think time (1–3 s, 0.2–0.4 s when the player asked for fast play); it acts
  only on a view where it is to act, carrying that view's ``seq``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern import bots
from tavern.bots.players import house_player
from tavern.catalogue import french
from tavern.services import archive
from tavern.services import practice as practice_service
from tavern.settings import Settings
from tavern.store.models import Seat, TableConfig, User, utcnow
from tavern.tables import seat_commands
from tavern.tables.actor import CommandError, TableActor
from tavern.tables.bank import SeatRow, SqlBank, TableInfo, TableStart, _void_in_progress
from tavern.tables.broadcast import Broadcaster
from tavern.tables.commands import Act, Cave, Close, Leave, Sit, SitIn, WaitJoin
from tavern.tables.driving import SeatHandle, SeatView
from tavern.tables.policy import Handler, PolicyTable

log = logging.getLogger(__name__)

#: A house player's think time, in seconds: as people at a real table, and when the player asks for fast play.
THINK = (1.0, 3.0)
FAST = (0.2, 0.4)


@dataclasses.dataclass(frozen=True)
class PracticeTerms:
    """What a practice table's row says beyond a table's terms."""

    player_id: int
    level: str
    fast: bool
    stack: int


class PracticeBank(SqlBank):
    """The database side of practice tables (see the module's docstring).
    ``share_with``: the cash tables' bank, whose SQLite writer queue and
    lease fences it shares (one of each per process)."""

    def __init__(self, factory: Any, settings: Settings, share_with: SqlBank | None = None) -> None:
        super().__init__(factory, settings)
        if share_with is not None:
            self.share(share_with)

    def practice(self, table_id: int) -> tuple[TableInfo, PracticeTerms] | None:
        """The open practice table's terms, or None (closed, unknown, not a practice table)."""

        def work(s: Session) -> tuple[TableInfo, PracticeTerms] | None:
            t = s.get(TableConfig, table_id)
            if t is None or t.status != "open" or t.practice_user_id is None:
                return None
            chosen = dict(t.options or {}).get("practice") or {}
            info = TableInfo(t.id, 0, 0, t.game, t.variant, dict(t.stakes or {}), {}, t.buy_in_min, t.buy_in_max,
                             0, None, True, t.seats, t.action_timer_seconds, t.name)
            return info, PracticeTerms(t.practice_user_id, str(chosen.get("level", bots.LEVELS[0])),
                                       bool(chosen.get("fast")), t.buy_in_max)

        return self._read(work)

    def table_info(self, table_id: int) -> TableInfo | None:
        found = self.practice(table_id)
        return found[0] if found is not None else None

    def load_table(self, table_id: int, tavern_id: int) -> tuple[list[SeatRow], dict[str, Any] | None,
                                                                 list[dict[str, Any]]]:
        """Its seats, each with the practice stack: a practice table starts afresh."""

        def work(s: Session) -> list[SeatRow]:
            stack = s.get_one(TableConfig, table_id).buy_in_max
            rows = s.execute(select(Seat.seat_no, Seat.user_id, User.username).join(User, User.id == Seat.user_id)
                             .where(Seat.table_id == table_id).order_by(Seat.seat_no)).all()
            return [SeatRow(r.seat_no, r.user_id, r.username, stack, False, False) for r in rows]

        rows = self._read(work)
        return rows, None, [self.hands_info(r.user_id, 0) for r in rows]

    def load_tables(self, table_ids: list[int]) -> dict[int, TableStart]:
        return {}  # a practice table starts alone (TableManager asks practice() then load_table)

    def hands_info(self, user_id: int, tavern_id: int) -> dict[str, Any]:
        return {"practice": True, "can_deal": True, "why": french("hands_practice")}

    def _hands_in(self, s: Session, user_ids: list[int], tavern_id: int) -> dict[int, dict[str, Any]]:
        return {uid: self.hands_info(uid, tavern_id) for uid in user_ids}

    def use_disconnect_protection(self, user_id: int) -> bool:
        return True  # practice: protection costs nothing

    def sit(self, table_id: int, user_id: int, seat_no: int, cave: int) -> int:
        raise CommandError("practice_seats_set")

    def add_chips(self, table_id: int, user_id: int, amount: int) -> int:
        raise CommandError("practice_no_cave")

    def leave(self, table_id: int, user_id: int) -> int:
        def work(s: Session) -> int:
            for seat in s.scalars(select(Seat).where(Seat.table_id == table_id, Seat.user_id == user_id)):
                s.delete(seat)
            return 0  # practice chips are worth no écu

        return self._tx(work, table=table_id)

    def begin_deal(self, table_id: int, tavern_id: int, candidates: dict[str, int],
                   record: dict[str, Any]) -> tuple[int | None, dict[str, Any]]:
        """Archive the deal as in progress, marked practice; no hand counted."""

        def work(s: Session) -> tuple[int, dict[str, Any]]:
            hand_id = archive.open_hand(s, table_id, record, {"in_progress": True, "finished": False}, utcnow(),
                                        practice=True)
            return hand_id, {name: self.hands_info(0, 0) for name in candidates}

        return self._tx(work, table=table_id)

    def finish_deal(self, archive_id: int, table_id: int, owner_id: int, deltas: dict[int, int], rake: int,
                    record: dict[str, Any], result: dict[str, Any], carried: int = 0,
                    first_round: list[tuple[str, str]] | None = None) -> None:
        """The archive completed, its figures kept apart as practice; nothing moves in the ledger."""
        if rake:
            raise ValueError("a practice deal carries no rake")
        self._tx(lambda s: archive.complete_hand(s, archive_id, record, result, 0, utcnow(), practice=True,
                                                 first_round=first_round),
                 urgent=True, table=table_id)

    def close_practice(self, table_id: int) -> None:
        """The table closes: a deal in progress voided, the seats freed."""

        def work(s: Session) -> None:
            _void_in_progress(s, table_id)
            practice_service.close(s, table_id)

        self._tx(work, urgent=True, table=table_id)


class HouseDriver:
    """A house player at one seat (see the module's docstring)."""

    #: A house account cannot log in: no page shows its seat, and it reads the
    #: deal on its turn only (tables/driving.py): the table builds neither
    #: its state message nor, between its turns, its view of the deal.
    socketless = True
    turns_only = True

    def __init__(self, game: str, level: str, think: tuple[float, float], rng: random.Random) -> None:
        self._game = game
        self.level = level
        self.decide = house_player(game, level)
        # A poker house player who reads the others (issue 37) is also shown
        # each deal's end, with the hands shown at showdown.
        self.deal_ends = self.decide.reader is not None
        self.think = think
        self.rng = rng
        self.handle: SeatHandle | None = None
        self._latest: SeatView | None = None
        self._task: asyncio.Task[None] | None = None
        self._acted_on = -1

    def play_at(self, level: str) -> None:
        """Play at another level from now on (a tavern's owner changed it:
        tables/house.py, between deals)."""
        self.level = level
        self.decide = house_player(self._game, level)
        self.deal_ends = self.decide.reader is not None

    def seen(self, view: SeatView) -> None:
        if view.closed:
            self.stop()
            return
        self._latest = view
        if view.deal is not None and "result" in view.deal and not view.legal:
            self.decide.seen(view.deal, view.name)
        if self._task is None and self._to_act(view):
            self._task = asyncio.get_running_loop().create_task(self._play(), name=f"house-{view.name}")

    def _to_act(self, view: SeatView) -> bool:
        return bool(view.legal) and view.deal is not None and view.seq > self._acted_on

    async def _play(self) -> None:
        """Think, then play on the latest view where this seat is to act;
        views shown meanwhile are taken up before the task ends."""
        try:
            while self._latest is not None and self._to_act(self._latest) and self.handle is not None:
                await self.wait(self.rng.uniform(*self.think))
                view = self._latest
                if not self._to_act(view):
                    break
                assert view.deal is not None
                move = dict(self.decide(view.deal, view.legal, self.rng))
                self._acted_on = view.seq
                try:
                    await self.handle.submit(Act(action=move.pop("action"), seq=view.seq, args=move))
                except CommandError as refused:  # stale (the table moved on): the next view says what now
                    log.info("house player %s: %s", view.name, refused.code)
                    if refused.code in {"table_closed", "seat_driven"}:
                        return
        finally:
            self._task = None

    async def wait(self, seconds: float) -> None:
        """The think time (a test records it instead)."""
        await asyncio.sleep(seconds)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


class PracticePolicy:
    """A practice table (see the module's docstring): the
    :class:`~tavern.tables.policy.TablePolicy` its actor runs."""

    timeouts_sit_out = True

    def __init__(self, terms: PracticeTerms, think: tuple[float, float] | None = None) -> None:
        self.terms = terms
        self.think = think if think is not None else (FAST if terms.fast else THINK)
        self.drivers: dict[str, HouseDriver] = {}
        #: When the table started here (its player may never come: a worker's takeover).
        self.since = 0.0

    def refusal(self, command: BaseModel) -> str | None:
        if isinstance(command, Sit):
            return "practice_seats_set"
        if isinstance(command, Cave):
            return "practice_no_cave"
        if isinstance(command, Close):
            return "practice_closes_on_leave"
        if isinstance(command, WaitJoin):
            return "practice_no_waiting"
        return None

    def commands(self) -> Mapping[type[BaseModel], Handler]:
        return {Leave: self._leave, SitIn: self._sit_in}

    def started(self, actor: PolicyTable) -> None:
        """Every seat but the player's is a house player's, driven here (where the actor runs)."""
        table: Any = actor
        self.since = table.clock()
        for seat in actor.seats.values():
            seat.owes_big_blind = False
            if seat.user_id == self.terms.player_id:
                continue
            driver = HouseDriver(actor.info.game, self.terms.level, self.think,
                                 random.Random(secrets.randbits(64)))
            driver.handle = table.drive(seat.name, seat.user_id, driver)
            self.drivers[seat.name] = driver

    async def before_deal(self, actor: PolicyTable) -> None:
        """A player gone past the reconnection grace — or never come since
        the table started here (a worker's takeover) — has left: the table
        closes. While he sits out, so do the house players: no deal is
        played for nobody (his « Se rasseoir » brings them back)."""
        table: Any = actor
        player = next((s for s in actor.seats.values() if s.user_id == self.terms.player_id), None)
        gone_since = None if player is None or player.connections else (player.disconnected_at or self.since)
        if player is None or (gone_since is not None and table.clock() - gone_since >= table.grace):
            await self.close(actor)
            return
        self._house_sit(actor, player.sitting_out)

    async def deal_ended(self, actor: PolicyTable, started: list[tuple[str, int]]) -> None:
        """A seat short of a cave's reference stake is refilled (practice chips)."""
        for seat in actor.seats.values():
            if seat.chips * practice_service.STACK_UNITS < self.terms.stack:
                seat.chips = self.terms.stack

    def dress(self, table: dict[str, Any]) -> None:
        table["practice"] = {"house": sorted(self.drivers), "level": self.terms.level, "fast": self.terms.fast}

    def _house_sit(self, actor: PolicyTable, out: bool) -> None:
        for seat in actor.seats.values():
            if seat.name in self.drivers:
                seat.sitting_out = out

    async def _sit_in(self, actor: PolicyTable, command: SitIn, username: str | None, user_id: int) -> dict[str, Any]:
        """« Se rasseoir »: the player is back, and the house players with him."""
        table: Any = actor
        out = await seat_commands.sit_in(table, command, str(username), user_id)
        self._house_sit(actor, False)
        return out

    async def _leave(self, actor: PolicyTable, command: Leave, username: str | None, user_id: int) -> dict[str, Any]:
        """The player leaves (at once, even during a deal): the table closes.
        Anybody else (a spectator) has no seat to leave."""
        if not any(s.name == username and s.user_id == self.terms.player_id for s in actor.seats.values()):
            raise CommandError("not_seated")
        await self.close(actor)
        # No « écus rendus »: practice chips are worth none (issue 42 §7).
        return {"notice": french("practice_left")}

    async def close(self, actor: PolicyTable) -> None:
        if actor.closed:
            return
        table: Any = actor
        for driver in self.drivers.values():
            driver.stop()
            if driver.handle is not None:
                table.release(driver.handle)
        await asyncio.to_thread(_bank(actor).close_practice, actor.info.id)
        table.engine = None
        actor.seats.clear()  # nobody left to deal to (a deal about to start finds nobody)
        await actor.end({"closed": True, "practice": True, "awards": {}, "ecus": {}}, [])


def _bank(actor: PolicyTable) -> PracticeBank:
    bank = actor.bank
    assert isinstance(bank, PracticeBank)
    return bank


def practice_table(info: TableInfo, terms: PracticeTerms, bank: PracticeBank, broadcaster: Broadcaster,
                   **options: Any) -> TableActor:
    """The actor of a practice table: its bank and its policy."""
    think = options.pop("think", None)
    return TableActor(info, bank, broadcaster, **options, policy=PracticePolicy(terms, think))
