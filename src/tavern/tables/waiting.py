"""A full table's waiting list (issue 30 §3): « Liste d'attente ».

The list belongs to the table's actor, beside its seats: its commands
(``wait_join``, ``wait_leave``, ``seat_offer_accept``, ``seat_offer_pass``,
tables/commands.py) go through the table's inbox like a sit, so they are
serialised with the seats and reach the table's owner through the cluster
like any command (tables/manager.py ``RemoteTable``).

In order of arrival: when a seat frees and the list is not empty, the seat
is held for the first in line who has no offer yet for :data:`OFFER_SECONDS`
(nobody else may sit in it: ``seat_held``). His acceptance seats him (the
seat's usual sit, with his cave); a pass, or the time running out, takes him
off the list — he lost his turn, and may join again at its end — and the
seat goes to the next. Each offer and its end is told to the player on his
own notice channel (:data:`NOTICES`, web/notices.py), whichever page of the
site he has open; the table's public view says the list's length and the
seats held, each waiting player's own view his place and his offer.

The list is kept in the database too (``waiting_places``, in order of
arrival): a table that changes worker (a takeover, a drain, a balance)
starts with its list, and its new owner offers the free seats again, each
for a full 30 seconds. The seat offered and its end are written beside the
player's place for his pages only (a page opened during the offer shows it:
web/notices.py); the table's clock of an offer is its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from tavern.catalogue import french
from tavern.tables.bank import SqlBank, TableInfo
from tavern.tables.broadcast import Broadcaster
from tavern.tables.commands import CommandError, OfferAccept, OfferPass, Sit, WaitJoin, WaitLeave
from tavern.tables.seat_commands import Seating
from tavern.tables.seat_commands import sit as take_seat

#: Seconds a seat offered waits for the first in line.
OFFER_SECONDS = 30.0
#: The broadcaster's channel of the per-account notices (web/notices.py):
#: keyed by player name like a table's, and no table has the id 0.
NOTICES = 0


@dataclass
class Offer:
    name: str
    user_id: int
    seat: int
    until: float  #: on the table's clock


@dataclass
class WaitingList:
    """The names in line, in order of arrival, and the seats offered (by seat number)."""

    line: list[tuple[str, int]] = field(default_factory=list)
    offers: dict[int, Offer] = field(default_factory=dict)

    def place(self, name: str) -> int | None:
        """His place in line, from 1; None when he is not in it."""
        return next((i + 1 for i, (n, _) in enumerate(self.line) if n == name), None)

    def offer_of(self, name: str) -> Offer | None:
        return next((o for o in self.offers.values() if o.name == name), None)

    def names(self) -> list[str]:
        return [n for n, _ in self.line]

    def held(self, seat: int, name: str) -> bool:
        """Whether ``seat`` is held for somebody else than ``name``."""
        offer = self.offers.get(seat)
        return offer is not None and offer.name != name

    def deadlines(self) -> list[float]:
        return [o.until for o in self.offers.values()]

    def remove(self, name: str) -> list[int]:
        """Off the list, his offer with him; the user ids removed."""
        gone = [u for n, u in self.line if n == name]
        self.line = [(n, u) for n, u in self.line if n != name]
        self.offers = {seat: o for seat, o in self.offers.items() if o.name != name}
        return gone

    def public(self) -> dict[str, Any]:
        """What everybody sees: how many wait and which seats are held (never who)."""
        return {"length": len(self.line), "held": sorted(self.offers)}

    def own(self, name: str, now: float) -> dict[str, Any] | None:
        """What only ``name`` sees: his place, and the seat offered to him."""
        place = self.place(name)
        if place is None:
            return None
        offer = self.offer_of(name)
        return {"place": place, "offer": None if offer is None else
                {"seat": offer.seat, "left": round(max(0.0, offer.until - now), 1)}}


class Waited(Seating, Protocol):
    """What the waiting list needs of its table (the actor)."""

    bank: SqlBank
    info: TableInfo
    broadcaster: Broadcaster
    closed: bool
    clock: Callable[[], float]

    @property
    def waiting(self) -> WaitingList: ...


def _free_seats(t: Waited) -> list[int]:
    return [n for n in range(t.info.seats) if n not in t.seats and n not in t.waiting.offers]


async def _drop(t: Waited, names: list[str]) -> None:
    """Off the list, in memory and in the database (the list survives a move)."""
    gone = [uid for name in names for uid in t.waiting.remove(name)]
    if gone:
        await asyncio.to_thread(t.bank.wait_remove, t.info.id, gone)


def offer_notice(table_id: int, table: str, seat: int, seconds: float) -> str:
    """The notice of a seat held for a player, ``seconds`` left (also sent
    to a page he opens meanwhile: web/notices.py)."""
    return orjson.dumps({"type": "seat_offer", "table_id": table_id, "table": table, "seat": seat,
                         "seconds": seconds,
                         "text": french("seat_offer_notice", {"table": table, "seconds": round(seconds)})}).decode()


async def tell(t: Waited, name: str, kind: str, **notice: Any) -> None:
    """A notice on ``name``'s own channel: the table and what happened, nothing of anybody else."""
    text = orjson.dumps({"type": kind, "table_id": t.info.id, "table": t.info.name, **notice}).decode()
    await t.broadcaster.publish(NOTICES, {name: text})


async def join(t: Waited, command: WaitJoin, username: str, user_id: int) -> dict[str, Any]:
    if t.closing_owner is not None:
        raise CommandError("table_closing")
    if any(s.name == username for s in t.seats.values()):
        raise CommandError("waiting_seated")
    if t.waiting.place(username) is not None:
        raise CommandError("waiting_twice")
    if _free_seats(t):
        raise CommandError("waiting_seat_free")
    if not await _may_sit(t, user_id):
        raise CommandError("private_table_needs_invitation")
    await asyncio.to_thread(t.bank.wait_join, t.info.id, user_id)
    t.waiting.line.append((username, user_id))
    return {"place": len(t.waiting.line)}


async def _may_sit(t: Waited, user_id: int) -> bool:
    """The list's one database read: a private table's link (off the event loop)."""
    return await asyncio.to_thread(t.bank.may_sit, t.info.id, user_id)


async def leave(t: Waited, command: WaitLeave, username: str, user_id: int) -> dict[str, Any]:
    if t.waiting.place(username) is None:
        raise CommandError("waiting_not_listed")
    offered = t.waiting.offer_of(username) is not None
    await _drop(t, [username])
    if offered:
        await tell(t, username, "seat_offer_over", why="left", text=french("seat_offer_left", {"table": t.info.name}))
    return {}


async def accept(t: Waited, command: OfferAccept, username: str, user_id: int) -> dict[str, Any]:
    """« Prendre la place »: the seat's usual sit (a refused cave keeps the offer)."""
    offer = t.waiting.offer_of(username)
    if offer is None:
        raise CommandError("no_seat_offered")
    cave = command.cave if command.cave is not None else t.info.buy_in_min
    out = await take_seat(t, Sit(seat=offer.seat, cave=cave), username, user_id)
    await _drop(t, [username])
    await tell(t, username, "seat_offer_over", why="seated", text=french("seat_offer_taken", {"table": t.info.name}))
    return out


async def pass_offer(t: Waited, command: OfferPass, username: str, user_id: int) -> dict[str, Any]:
    """« Laisser passer »: off the list; the seat goes to the next (:func:`review`)."""
    if t.waiting.offer_of(username) is None:
        raise CommandError("no_seat_offered")
    await _drop(t, [username])
    await tell(t, username, "seat_offer_over", why="passed", text=french("seat_offer_passed", {"table": t.info.name}))
    return {}


async def review(t: Waited) -> bool:
    """After every command and wake of the table: the offers run out, the
    seats freed go to the first in line. Whether anything visible changed."""
    w = t.waiting
    if t.closed or not (w.line or w.offers):
        return False
    changed = False
    now = t.clock()
    seated = {s.name for s in t.seats.values()}
    sat = [n for n in w.names() if n in seated]  # sat in a seat free to all meanwhile
    lapsed = [o for o in w.offers.values() if o.until <= now]
    if sat or lapsed:
        await _drop(t, [*sat, *(o.name for o in lapsed)])
        changed = True
    for offer in lapsed:
        await tell(t, offer.name, "seat_offer_over", why="expired",
                   text=french("seat_offer_expired", {"table": t.info.name}))
    if t.closing_owner is not None:
        return changed
    free = _free_seats(t)
    offered = {o.name for o in w.offers.values()}
    for name, user_id in list(w.line):
        if not free:
            break
        if name in offered:
            continue
        seat = free.pop(0)
        w.offers[seat] = Offer(name, user_id, seat, now + OFFER_SECONDS)
        await asyncio.to_thread(t.bank.wait_offer, t.info.id, user_id, seat, OFFER_SECONDS)
        await t.broadcaster.publish(NOTICES, {name: offer_notice(t.info.id, t.info.name, seat, OFFER_SECONDS)})
        changed = True
    return changed

