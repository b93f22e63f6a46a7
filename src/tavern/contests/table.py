"""A contest table: the same game-agnostic :class:`TableActor`, given the
contest's policy (:class:`ContestPolicy`) — the director's hooks around its
deals, and what differs from a cash table:

* the stakes are the director's current level, read at each deal start ("a
  table starts a new level at its next deal");
* no cave, no "Ramasser ses gains", no sitting out, no seat to take: the
  director seats and moves players; "a player keeps his seat until he is out";
* "A player who is away is dealt in and blinded: his time-outs fold (check
  when free); he is never removed for time-outs" — no time bank either;
* no daily hands, no rake (:class:`ContestBank`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal, Protocol

from pydantic import BaseModel
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.contest_floor import Floor
from tavern.contest_rules import Level
from tavern.services import archive
from tavern.settings import Settings
from tavern.store.models import ArchivedHand, TableConfig, utcnow
from tavern.tables.actor import TableActor
from tavern.tables.bank import SqlBank, TableInfo
from tavern.tables.broadcast import Broadcaster
from tavern.tables.commands import Cave, Close, Leave, Sit, SitOut, WaitJoin
from tavern.tables.policy import Handler, PolicyTable
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
    process) and whose lease fences it reads: a contest table's lease is
    claimed through the table manager (``TableManager.lease``), and its
    writes are fenced like any table's."""

    def __init__(self, factory: Any, settings: Settings, share_with: SqlBank | None = None) -> None:
        super().__init__(factory, settings)
        if share_with is not None:
            self.share(share_with)

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
                                       voided=True, started=utcnow())
            row.contest_id = t.contest_id
            return row.id, {name: self.hands_info(0, 0) for name in candidates}

        return self._tx(work, table=table_id)

    def finish_deal(self, archive_id: int, table_id: int, owner_id: int, deltas: dict[int, int], rake: int,
                    record: dict[str, Any], result: dict[str, Any], carried: int = 0,
                    first_round: list[tuple[str, str]] | None = None) -> None:
        if rake:
            raise ValueError("a contest deal carries no rake")
        super().finish_deal(archive_id, table_id, owner_id, deltas, 0, record, result, carried, first_round)

    def contest_deals(self, contest_id: int) -> list[int]:
        from sqlalchemy import select

        return self._tx(lambda s: list(s.scalars(select(ArchivedHand.id).where(ArchivedHand.contest_id == contest_id))))


class ContestSync(BaseModel):
    """The director's wake-up: take the players it sent here since."""

    type: Literal["contest_sync"] = "contest_sync"


#: What a contest table refuses, and why.
_REFUSED: dict[type[BaseModel], str] = {
    Sit: "contest_seats_drawn", Cave: "contest_no_cave", Leave: "contest_keep_seat",
    SitOut: "contest_absent_dealt", Close: "contest_table_by_director", WaitJoin: "contest_no_waiting",
}


class ContestPolicy:
    """A table of a running contest (see the module's docstring): the
    :class:`~tavern.tables.policy.TablePolicy` its actor runs."""

    #: "A player who is away is dealt in and blinded: his time-outs fold
    #: (check when free); he is never removed for time-outs."
    timeouts_sit_out = False

    def __init__(self, director: Director) -> None:
        self.director = director

    def refusal(self, command: BaseModel) -> str | None:
        return _REFUSED.get(type(command))

    def commands(self) -> Mapping[type[BaseModel], Handler]:
        return {ContestSync: self._sync}

    def started(self, actor: PolicyTable) -> None:
        for seat in actor.seats.values():
            seat.owes_big_blind = False  # everybody with chips is dealt in
        actor.button_seat = self.director.floor.tables[actor.info.id].button

    async def before_deal(self, actor: PolicyTable) -> None:
        """The director's rulings first, then the stakes of its current level
        ("a table starts a new level at its next deal")."""
        departures = await self.director.before_deal(actor.info.id)
        await self._depart(actor, departures)
        level = self.director.level()
        stakes = {"small_blind": level.small_blind, "big_blind": level.big_blind}
        if level.ante:
            stakes["ante"] = level.ante
        actor.info = dataclasses.replace(actor.info, stakes=stakes)

    async def deal_ended(self, actor: PolicyTable, started: list[tuple[str, int]]) -> None:
        chips = {name: actor.dealt[name].chips for name, _ in started}
        departures = await self.director.deal_ended(actor.info.id, started, chips)
        await self._depart(actor, departures)

    def dress(self, table: dict[str, Any]) -> None:
        table["contest"] = self.director.clock_view()

    async def _sync(self, actor: PolicyTable, command: ContestSync, username: str | None,
                    user_id: int) -> dict[str, Any]:
        await self._depart(actor, [])
        return {}

    async def _depart(self, actor: PolicyTable, departures: list[tuple[str, dict[str, Any]]]) -> None:
        """The players the director sent here since it last heard from this
        table sit down first (the director's floor has them already), then
        those leaving (knocked out, moved) are told where to go and leave."""
        for arrival in self.director.take_arrivals(actor.info.id):
            self._arrive(actor, **arrival)
        for name, notice in departures:
            seat = next((s for s in actor.seats.values() if s.name == name), None)
            if seat is None:
                continue
            del actor.seats[seat.seat_no]
            await actor.notify(name, "contest", notice)
        if departures and not actor.seats:
            await self._close(actor)

    @staticmethod
    def _arrive(actor: PolicyTable, *, seat: int, user_id: int, name: str, chips: int) -> None:
        """A player moved here (or a late registrant): seated with his chips,
        dealt in from the next deal."""
        actor.seats[seat] = SeatState(seat, user_id, name, chips, owes_big_blind=False, time_bank=0.0,
                                      extra={"hands": actor.bank.hands_info(user_id, 0)})

    async def _close(self, actor: PolicyTable) -> None:
        """The table is broken (or the contest over): it stops."""
        if not actor.closed:
            await actor.end({"closed": True, "awards": {}, "ecus": {}, "contest_id": self.director.contest_id}, [])


def contest_table(info: TableInfo, bank: SqlBank, broadcaster: Broadcaster, director: Director,
                  **options: Any) -> TableActor:
    """The actor of a contest table: no time bank, the contest's policy."""
    return TableActor(info, bank, broadcaster, **{**options, "time_bank": 0.0}, policy=ContestPolicy(director))
