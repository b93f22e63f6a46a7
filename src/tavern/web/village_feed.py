"""The live village (issue 30 §4, first part): ``/ws/village``, one socket
per visitor of the village page, all fed by one :class:`VillageFeed` per
worker.

The feed reads a compact summary of the public tables from the database
(one set of queries) at most every :data:`EVERY_SECONDS` while somebody
watches. A visitor gets the whole summary once, as his socket opens; after
that only what changed (issue 41 §2: "push what changed; do not rebuild
the village for each visitor") — a ``village_changes`` frame of a few dozen
bytes, encoded once and the same for every visitor, where the whole village
of 600 tables was 10–11 KB that every socket compressed again. The page
filters on its side. Each worker computes its own from the shared
database: no Redis channel to keep, and the cost is one read per worker
every half second whatever the number of visitors.

A private table never enters the summary (services/private_tables.py): the
feed is the same for everybody, so it holds only what everybody may see.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from sqlalchemy.orm import Session

from tavern.services import taverns, waiting
from tavern.web import village_live
from tavern.web.push import push_slot, push_until_closed, refused_origin
from tavern.web.state import services

pages = APIRouter()

#: At most one summary read a worker every this many seconds: a seat taken
#: reaches every visitor within about this long (issue 41: p99 under 1 s).
EVERY_SECONDS = 0.5
#: Frames waiting for a slow visitor; past it he gets the whole summary
#: again instead (it holds every change he missed).
QUEUE_LIMIT = 8


def summary(session: Session) -> str:
    """``{"type": "village", "tables": [[id, seats_taken, seats, waiting], …],
    "pots": [[id, chips], …], "contests": [{…}, …]}``: the open public tables
    of the taverns (contest tables are listed with their contest, private
    tables only for their friends) with their waiting lists' lengths, their
    last deals' sizes and the contests opening soon (web/village_live.py)."""
    rows = [[s.table.id, s.seats_taken, s.table.seats] for s in taverns.list_open_tables(session)
            if s.table.tavern_id is not None and not s.table.private]
    waits = waiting.lengths(session)  # each row's 4th: its waiting list's length (issue 30 §3)
    for row in rows:
        row.append(waits.get(row[0], 0))
    message: dict[str, Any] = {"type": "village", "tables": rows}
    # The last deals' sizes and the contests opening soon (web/village_live.py).
    message |= village_live.extras(session, {row[0] for row in rows})
    return orjson.dumps(message).decode()


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """What a page showing the summary ``before`` needs to show ``after``:
    ``{"type": "village_changes", "tables": [rows changed or new],
    "closed": [ids gone], "pots": [[id, chips or None], …]}`` and
    ``contests`` (the whole list) when it changed; None when nothing did."""
    old_rows = {row[0]: row for row in before["tables"]}
    new_rows = {row[0]: row for row in after["tables"]}
    old_pots = {tid: chips for tid, chips in before["pots"]}
    new_pots = {tid: chips for tid, chips in after["pots"]}
    delta: dict[str, Any] = {
        "type": "village_changes",
        "tables": [row for tid, row in new_rows.items() if old_rows.get(tid) != row],
        "closed": [tid for tid in old_rows if tid not in new_rows],
        "pots": [[tid, new_pots.get(tid)] for tid in sorted(old_pots.keys() | new_pots.keys())
                 if old_pots.get(tid) != new_pots.get(tid)],
    }
    if before["contests"] != after["contests"]:
        delta["contests"] = after["contests"]
    if not (delta["tables"] or delta["closed"] or delta["pots"] or "contests" in delta):
        return None
    return delta


@dataclass(eq=False)
class _Visitor:
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=QUEUE_LIMIT))
    #: Whether he has a whole summary (queued or sent): changes need one under them.
    started: bool = False


class VillageFeed:
    """One per worker: reads the summary while somebody watches, and hands
    what changed to every visitor's socket (the whole summary to a new one)."""

    def __init__(self, read: Callable[[], str], every: float = EVERY_SECONDS) -> None:
        self._read = read
        self._every = every
        self._visitors: dict[int, _Visitor] = {}
        self._last: str | None = None  # the whole summary, as a new visitor gets it
        self._shown: dict[str, Any] | None = None  # the same, read back
        self._task: asyncio.Task[None] | None = None
        self._n = 0

    def watch(self) -> tuple[int, asyncio.Queue[str]]:
        """A visitor's queue and his key; the whole summary comes first."""
        self._n += 1
        visitor = self._visitors[self._n] = _Visitor()
        if self._last is not None:
            self._put(visitor, self._last)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        return self._n, visitor.queue

    def leave(self, key: int) -> None:
        self._visitors.pop(key, None)

    async def _run(self) -> None:
        while self._visitors:
            text = await asyncio.to_thread(self._read)
            if text != self._last:
                self._publish(text)
            await asyncio.sleep(self._every)
        self._last = self._shown = None  # nobody watching: the next visitor gets a fresh read

    def _publish(self, text: str) -> None:
        now = orjson.loads(text)
        delta = changes(self._shown, now) if self._shown is not None else None
        self._last, self._shown = text, now
        frame = orjson.dumps(delta).decode() if delta is not None else None  # encoded once for all
        for visitor in list(self._visitors.values()):
            if not visitor.started:
                self._put(visitor, text)
            elif frame is not None:
                self._put(visitor, frame)

    def _put(self, visitor: _Visitor, text: str) -> None:
        queue = visitor.queue
        if queue.full():  # a slow visitor: the whole summary holds every change he missed
            while not queue.empty():
                queue.get_nowait()
            assert self._last is not None  # a full queue holds at least one summary
            text = self._last
        queue.put_nowait(text)
        visitor.started = True


_FEEDS: weakref.WeakKeyDictionary[Any, VillageFeed] = weakref.WeakKeyDictionary()


def feed_of(ws: WebSocket) -> VillageFeed:
    """This worker's feed, made at the first visitor."""
    app = ws.app
    found = _FEEDS.get(app)
    if found is None:
        sessions = services(ws).read_sessions

        def read() -> str:
            with sessions() as s:
                return summary(s)

        found = _FEEDS[app] = VillageFeed(read)
    return found


@pages.websocket("/ws/village")
async def village_channel(ws: WebSocket) -> None:
    # The village page is public: no account needed, but the Origin is
    # checked as at a table (a page of another site opens no socket here).
    if await refused_origin(ws):
        return
    # Capped per address, and per account for a logged-in visitor (the signed
    # cookie names him; counting needs no database read): issue 41 §3.
    slot = await push_slot(ws, services(ws).codec.load(ws).user_id)
    if slot is None:
        return
    try:
        await ws.accept()
        feed = feed_of(ws)
        key, queue = feed.watch()
        try:
            await push_until_closed(ws, queue)
        finally:
            feed.leave(key)
    finally:
        slot.release()
