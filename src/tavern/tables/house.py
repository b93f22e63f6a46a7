"""House seats at a tavern's real table (issue 29 §2): the policy of a cash
table whose owner allows house players (« Joueurs de la maison » > 0).

* **When they sit.** Before each deal: while the humans ready to play are
  fewer than the game's minimum — or one human waits alone — house players
  sit at the free seats, up to the owner's number, each with a cave from
  the house's purse (services/house_seats.py; none when the purse is short).
  With no human ready, or enough of them, they leave (between deals: at
  once). A house player who has lost his chips leaves, and another sits if
  still needed.
* **How they play.** Each seat is driven (``actor.drive``) by a
  :class:`~tavern.tables.practice.HouseDriver` at the level the owner chose
  for the table (issue 37 §2: « débutant », « habitué » — the default — or
  « fort »; ``table_configs.house_level``) with a human's think time, 1–3 s:
  the seat's own view, its legal actions, the same inbox, refusals and
  clocks as anybody's. The owner changes the level at any time (« Gérer sa
  taverne », services/taverns.py): the table reads it before each deal in
  which house players sit, so a deal under way ends at the old level and
  the next is played at the new one.
* **A human wants the seat.** A ``Sit`` for a seat a house player holds (or
  for any seat when every free one is gone): between deals the house player
  cashes out into the purse at once and the human sits; during a deal the
  house player leaves when it ends, the human is told so
  (« house_seat_after_deal »), and is seated then with the cave he asked
  for (his notice at the table says so; if his cave is refused then, the
  notice says why and he may sit again).
* Marked « maison »: the public table lists them (``house``), as a practice
  table's; their names are the house accounts' own (« Maison Ana »…).

A contest's table never runs this policy (the table's row forbids it).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from pydantic import BaseModel

from tavern.bots.levels import LEVELS, REGULAR
from tavern.catalogue import french
from tavern.refusal import Refusal
from tavern.services import house_seats
from tavern.tables import seat_commands
from tavern.tables.commands import CommandError, Sit, SitIn
from tavern.tables.policy import Handler, PolicyTable
from tavern.tables.practice import THINK, HouseDriver
from tavern.tables.seating import SeatState

log = logging.getLogger(__name__)


@dataclass
class Waiting:
    """A human waiting for a house player's seat (the deal's end)."""

    name: str
    user_id: int
    seat_no: int
    cave: int


class HouseSeatsPolicy:
    """A tavern's table with house seats (see the module's docstring)."""

    timeouts_sit_out = True

    def __init__(self, allowed: int, level: str = REGULAR, think: tuple[float, float] = THINK) -> None:
        self.allowed = allowed
        self.level = level
        self.think = think
        self.drivers: dict[str, HouseDriver] = {}
        self.waiting: dict[int, Waiting] = {}  #: by the seat he waits for
        #: The house's players among the seats loaded at start (a restart): read once, before the first deal.
        self._adopted = False

    # --- the hooks ----------------------------------------------------------

    def refusal(self, command: BaseModel) -> str | None:
        return None

    def commands(self) -> Mapping[type[BaseModel], Handler]:
        return {Sit: self._sit, SitIn: self._sit_in}

    def started(self, actor: PolicyTable) -> None:
        return None

    async def before_deal(self, actor: PolicyTable) -> None:
        """House players come or go, as the humans need (module's docstring)."""
        table: Any = actor
        if not self._adopted:
            await self._adopt(actor)
        ready = self._humans_ready(actor)
        short = bool(ready) and (len(ready) < table.min_players or len(ready) == 1)
        wanted = self.allowed if short else 0
        for seat in list(actor.seats.values()):
            if seat.name in self.drivers and (seat.chips <= 0 or len(self.drivers) > wanted):
                await self._leave(actor, seat)
        missing = min(wanted - len(self.drivers), table.info.seats - len(actor.seats))
        if self.drivers or missing > 0:
            await self._read_level(actor)
        if missing > 0:
            await self._sit_house(actor, missing)
            if len(ready) == 1 and self.drivers:
                # He waited alone: a game starts for him, as at a new table,
                # with no big blind owed (else he could wait for it while the
                # house players play among themselves).
                ready[0].owes_big_blind = False

    def _humans_ready(self, actor: PolicyTable) -> list[SeatState]:
        """The humans who would be dealt in: seated in, with chips, with a
        daily hand left (the table's last word on it, ``extra["hands"]``)."""
        return [s for s in actor.seats.values() if s.name not in self.drivers and not s.sitting_out
                and s.chips > 0 and s.extra.get("hands", {}).get("can_deal", True)]

    async def deal_ended(self, actor: PolicyTable, started: list[tuple[str, int]]) -> None:
        """The house players who promised their seat have left (the deal's
        end): the humans waiting for them sit. A deal played by house players
        alone (its human refused at the deal's start) was their last: they go."""
        names = {s.name for s in actor.seats.values()}
        for name in [n for n in self.drivers if n not in names]:  # gone at the deal's end (leave_after_deal)
            self._forget(actor, name)
        if all(name in self.drivers for name, _ in started):
            for seat in [s for s in actor.seats.values() if s.name in self.drivers]:
                await self._leave(actor, seat)
        for seat_no, who in sorted(self.waiting.items()):
            taken = actor.seats.get(seat_no)
            if taken is not None and taken.name in self.drivers:
                continue  # still there (he was not dealt in, and leaves below)
            del self.waiting[seat_no]
            await self._seat_waiting(actor, who)

    def dress(self, table: dict[str, Any]) -> None:
        table["house"] = sorted(self.drivers)

    # --- the commands -------------------------------------------------------------

    async def _sit(self, actor: PolicyTable, command: Sit, username: str | None, user_id: int) -> dict[str, Any]:
        """A human sits; a house player's seat (or any seat, when only theirs are
        left) is his at once between deals, at the deal's end during one."""
        table: Any = actor
        if username is None or username in self.drivers:
            raise CommandError("seat_driven")
        held = actor.seats.get(command.seat)
        full = len(actor.seats) >= table.info.seats
        if held is None or (held.name not in self.drivers and not full):
            out = await seat_commands.sit(table, command, username, user_id)
            self._nudge(actor)
            return out
        if held.name not in self.drivers:  # a human's: another, the house's, if any
            house = [s for s in actor.seats.values() if s.name in self.drivers]
            if not house:
                raise CommandError("seat_taken")
            held = min(house, key=lambda s: s.seat_no)
        if any(s.name == username for s in actor.seats.values()):
            raise CommandError("already_seated")
        if any(w.name == username for w in self.waiting.values()) or held.seat_no in self.waiting:
            raise CommandError("seat_taken")
        if table._in_deal(held):
            held.leave_after_deal = True
            self.waiting[held.seat_no] = Waiting(username, user_id, held.seat_no, command.cave)
            return {"notice": french("house_seat_after_deal")}
        await self._leave(actor, held)
        return await seat_commands.sit(table, Sit(seat=held.seat_no, cave=command.cave), username, user_id)

    async def _sit_in(self, actor: PolicyTable, command: SitIn, username: str | None, user_id: int) -> dict[str, Any]:
        """« Se rasseoir »: he may be alone again, wanting house players."""
        out = await seat_commands.sit_in(cast(Any, actor), command, str(username), user_id)
        self._nudge(actor)
        return out

    def _nudge(self, actor: PolicyTable) -> None:
        """A human came, at a table dealing nothing: a deal is tried soon —
        its start seats the house players he needs (a table deals only when
        enough players are ready, and one human alone is not)."""
        table: Any = actor
        if (table.engine is None or table.engine.over) and table.next_deal_at is None \
                and table.closing_owner is None and not table.draining:
            table.next_deal_at = table.clock() + table.deal_pause

    # --- the house players coming and going ----------------------------------------

    async def _adopt(self, actor: PolicyTable) -> None:
        """The house's players among the seats the table started with (a
        restart, a takeover): driven again here."""
        self._adopted = True
        ids = [s.user_id for s in actor.seats.values()]
        house = await asyncio.to_thread(actor.bank._read, lambda s: house_seats.house_ids(s, ids))
        for seat in actor.seats.values():
            if seat.user_id in house and seat.name not in self.drivers:
                self._drive(actor, seat)

    async def _sit_house(self, actor: PolicyTable, count: int) -> None:
        table: Any = actor
        try:
            seated = await asyncio.to_thread(actor.bank._tx, lambda s: house_seats.sit(s, actor.info.id, count),
                                             table=actor.info.id)
        except (Refusal, ValueError) as exc:  # the table plays on without them
            log.warning("table %s: no house player sat: %s", actor.info.id, exc)
            return
        for row in seated:
            seat = SeatState(row.seat_no, row.user_id, row.username, row.chips, owes_big_blind=False,
                             time_bank=table.time_bank)
            seat.extra["hands"] = await asyncio.to_thread(actor.bank.hands_info, row.user_id, actor.info.tavern_id)
            actor.seats[row.seat_no] = seat
            self._drive(actor, seat)

    async def _read_level(self, actor: PolicyTable) -> None:
        """The owner's level for this table, read between deals (it may have
        changed since the last one): the house players seated play it from
        this deal on, with a fresh reading of the others (a new policy)."""
        table_id = actor.info.id
        level = await asyncio.to_thread(actor.bank._read, lambda s: house_seats.level_of(s, table_id))
        if level not in LEVELS or level == self.level:
            return  # the service writes only a known level; anything else is not played
        self.level = level
        for driver in self.drivers.values():
            driver.play_at(level)

    def _drive(self, actor: PolicyTable, seat: SeatState) -> None:
        table: Any = actor
        driver = HouseDriver(actor.info.game, self.level, self.think, random.Random(secrets.randbits(64)))
        driver.handle = table.drive(seat.name, seat.user_id, driver)
        self.drivers[seat.name] = driver

    async def _leave(self, actor: PolicyTable, seat: SeatState) -> None:
        """Between deals: the house player cashes out into the purse and goes."""
        # The seat first: refused (the database), he stays a driven house player.
        await seat_commands.free_seat(actor.bank, actor.info.id, actor.seats, seat)
        self._forget(actor, seat.name)

    def _forget(self, actor: PolicyTable, name: str) -> None:
        table: Any = actor
        driver = self.drivers.pop(name)
        driver.stop()
        if driver.handle is not None:
            table.release(driver.handle)

    async def _seat_waiting(self, actor: PolicyTable, who: Waiting) -> None:
        table: Any = actor
        if who.seat_no in actor.seats:
            return
        try:
            await seat_commands.sit(table, Sit(seat=who.seat_no, cave=who.cave), who.name, who.user_id)
        except CommandError as refused:
            # Said as the page says a refusal (an ``error`` frame); he may sit again.
            await actor.notify(who.name, "error", {"code": "house_seat_failed",
                                                   "message": french("house_seat_failed", {"why": refused.message})})
            return
        actor.seats[who.seat_no].notice = french("house_seat_yours")
