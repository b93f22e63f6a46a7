"""A contest table: the same game-agnostic :class:`TableActor` in "contest
mode" — the director's hooks around its deals, and what differs from a cash
table:

* the stakes are the director's current level, read at each deal start ("a
  table starts a new level at its next deal");
* no cave, no "Ramasser ses gains", no sitting out, no seat to take: the
  director seats and moves players; "a player keeps his seat until he is out";
* "A player who is away is dealt in and blinded: his time-outs fold (check
  when free); he is never removed for time-outs" — no time bank either;
* no daily hands, no rake (:class:`ContestBank`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any, Protocol

from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.contest_floor import Floor
from tavern.contest_rules import Level
from tavern.services import archive
from tavern.settings import Settings
from tavern.store.models import ArchivedHand, TableConfig
from tavern.tables.actor import CommandError, TableActor
from tavern.tables.bank import SqlBank, TableInfo, TableStart, _now
from tavern.tables.broadcast import SPECTATORS
from tavern.tables.seating import SeatState


class Director(Protocol):
    """What a contest table needs of the director above it (its hooks around
    each deal). Stated here, so that this module does not import the director
    that imports it (docs/architecture.md: no cycle inside a package);
    :class:`tavern.contests.director.Director` is the one that plays it."""

    contest_id: int
    floor: Floor

    def level(self) -> Level: ...

    def clock_view(self) -> dict[str, Any]: ...

    def take_arrivals(self, table_id: int) -> list[dict[str, Any]]: ...

    async def before_deal(self, table_id: int) -> list[tuple[str, dict[str, Any]]]: ...

    async def deal_ended(self, table_id: int, started: list[tuple[str, int]],
                         chips: dict[str, int]) -> list[tuple[str, dict[str, Any]]]: ...


class ContestBank(SqlBank):
    """The database side of contest tables: deals archived with the
    contest's id, no daily hands counted, never a rake. ``share_with``: the
    cash tables' bank, whose SQLite writer queue it joins (one queue per
    process)."""

    def __init__(self, factory: Any, settings: Settings, share_with: SqlBank | None = None) -> None:
        super().__init__(factory, settings)
        if share_with is not None:
            self._writer = share_with._writer

    def table_info(self, table_id: int) -> TableInfo | None:
        def work(s: Session) -> TableInfo | None:
            t = s.get(TableConfig, table_id)
            if t is None or t.status != "open" or t.contest_id is None:
                return None
            return TableInfo(t.id, 0, 0, t.game, t.variant, dict(t.stakes or {}), {}, t.buy_in_min, t.buy_in_max,
                             0, None, True, t.seats, t.action_timer_seconds, t.name)

        return self._read(work)

    def hands_info(self, user_id: int, tavern_id: int) -> dict[str, Any]:
        return {"contest": True, "can_deal": True, "why": french("hands_contest")}

    def _hands_in(self, s: Session, user_ids: list[int], tavern_id: int) -> dict[int, dict[str, Any]]:
        return {uid: self.hands_info(uid, tavern_id) for uid in user_ids}

    def begin_deal(self, table_id: int, tavern_id: int, candidates: dict[str, int],
                   record: dict[str, Any]) -> tuple[int | None, dict[str, Any]]:
        """Archive the deal as in progress (voided until it ends), with the contest's id."""

        def work(s: Session) -> tuple[int, dict[str, Any]]:
            t = s.get_one(TableConfig, table_id)
            row = archive.archive_hand(s, table_id, record, {"in_progress": True, "finished": False},
                                       voided=True, started=_now())
            row.contest_id = t.contest_id
            return row.id, {name: self.hands_info(0, 0) for name in candidates}

        return self._tx(work, table=table_id)

    def finish_deal(self, archive_id: int, table_id: int, owner_id: int, deltas: dict[int, int], rake: int,
                    record: dict[str, Any], result: dict[str, Any], carried: int = 0) -> None:
        if rake:
            raise ValueError("a contest deal carries no rake")
        super().finish_deal(archive_id, table_id, owner_id, deltas, 0, record, result, carried)

    def contest_deals(self, contest_id: int) -> list[int]:
        from sqlalchemy import select

        return self._tx(lambda s: list(s.scalars(select(ArchivedHand.id).where(ArchivedHand.contest_id == contest_id))))


class ContestTableActor(TableActor):
    """A table of a running contest (see the module's docstring)."""

    def __init__(self, info: TableInfo, bank: SqlBank, broadcaster: Any, director: Director,
                 **options: Any) -> None:
        options["time_bank"] = 0.0
        super().__init__(info, bank, broadcaster, **options)
        self.director = director

    async def start(self, loaded: TableStart | None = None) -> None:
        await super().start(loaded)
        for seat in self.seats.values():
            seat.owes_big_blind = False  # everybody with chips is dealt in
        self.button_seat = self.director.floor.tables[self.info.id].button

    def post_nowait(self, command: str, **args: Any) -> None:
        """Queue a command from the director without waiting for it (the
        director must never wait on a table that may be waiting on it)."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        fut.add_done_callback(lambda f: f.exception())  # nobody awaits it: never "never retrieved"
        self._queue.put_nowait((command, None, args, fut))

    async def _handle(self, command: str, username: str | None, args: dict[str, Any]) -> Any:
        if command == "contest_sync":
            await self._depart([])
            return {}
        if command == "contest_close":
            return await self._cmd_contest_close(**args)
        return await super()._handle(command, username, args)

    # --- what a contest table refuses ---------------------------------------------

    async def _cmd_sit(self, username: str, **_: Any) -> dict[str, Any]:
        raise CommandError("contest_seats_drawn")

    async def _cmd_cave(self, username: str, **_: Any) -> dict[str, Any]:
        raise CommandError("contest_no_cave")

    async def _cmd_leave(self, username: str, **_: Any) -> dict[str, Any]:
        raise CommandError("contest_keep_seat")

    async def _cmd_sit_out(self, username: str, **_: Any) -> dict[str, Any]:
        raise CommandError("contest_absent_dealt")

    async def _cmd_close(self, username: str | None, **_: Any) -> dict[str, Any]:
        raise CommandError("contest_table_by_director")

    # --- the director's hooks ------------------------------------------------------

    def _timeout(self, name: str) -> None:
        """Time-outs fold, or check when free; the player is never removed."""
        seat = self.dealt[name]
        self.deadlines.pop(name, None)
        assert self.engine is not None  # a time-out happens in a deal
        move = self.engine.timeout_action(name)
        self._play(name, move["action"], {k: v for k, v in move.items() if k != "action"}, by="timeout")
        seat.timeouts += 1

    async def _start_deal(self) -> bool:
        departures = await self.director.before_deal(self.info.id)
        await self._depart(departures)
        level = self.director.level()
        stakes = {"small_blind": level.small_blind, "big_blind": level.big_blind}
        if level.ante:
            stakes["ante"] = level.ante
        self.info = dataclasses.replace(self.info, stakes=stakes)
        return await super()._start_deal()

    async def _finish_deal(self) -> None:
        order = list(getattr(self.engine, "players", None) or self.dealt)  # from the button's left
        started = [(name, self.dealt[name].chips) for name in order]
        await super()._finish_deal()
        chips = {name: self.dealt[name].chips for name in order}
        departures = await self.director.deal_ended(self.info.id, started, chips)
        await self._depart(departures)

    async def _depart(self, departures: list[tuple[str, dict[str, Any]]]) -> None:
        """The players the director sent here since it last heard from this
        table sit down first (the director's floor has them already), then
        those leaving (knocked out, moved) are told where to go and leave."""
        for arrival in self.director.take_arrivals(self.info.id):
            self._arrive(**arrival)
        for name, notice in departures:
            seat = next((s for s in self.seats.values() if s.name == name), None)
            if seat is None:
                continue
            del self.seats[seat.seat_no]
            text = json.dumps({"type": "contest", "seq": self.seq, "table_id": self.info.id, **notice},
                              separators=(",", ":"))
            await self.broadcaster.publish(self.info.id, {name: text})
        if departures and not self.seats:
            await self._cmd_contest_close()

    def _arrive(self, *, seat: int, user_id: int, name: str, chips: int) -> None:
        """A player moved here (or a late registrant): seated with his chips,
        dealt in from the next deal."""
        self.seats[seat] = SeatState(seat, user_id, name, chips, owes_big_blind=False, time_bank=0.0,
                                     extra={"hands": self.bank.hands_info(user_id, 0)})

    async def _cmd_contest_close(self) -> dict[str, Any]:
        """The table is broken (or the contest over): it stops."""
        if self.closed:
            return {}
        self.closed = True
        self.closed_for_good = True
        self.next_deal_at = None
        self.deadlines = {}
        summary = {"closed": True, "awards": {}, "ecus": {}, "contest_id": self.director.contest_id}
        self.last_result = {"deal": self.deals, "closing": summary}
        await self.publish()
        text = json.dumps({"type": "closed", "seq": self.seq, "table_id": self.info.id, **summary},
                          separators=(",", ":"))
        await self.broadcaster.publish(self.info.id, {SPECTATORS: text})
        if self.on_closed is not None:
            self.on_closed()
        return {}

    def public_table(self) -> dict[str, Any]:
        table = super().public_table()
        table["contest"] = self.director.clock_view()
        return table
