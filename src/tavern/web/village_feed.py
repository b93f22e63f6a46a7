"""The live village (issue 30 §4, first part): ``/ws/village``, one socket
per visitor of the village page, all fed by one :class:`VillageFeed` per
worker.

The feed reads a compact summary of the public tables from the database
(one query) at most every :data:`EVERY_SECONDS` while somebody watches, and
sends it only when it changed — the same text to every visitor, encoded
once; the page filters on its side. Each worker computes its own from the
shared database: no Redis channel to keep, and the cost is one query per
worker every two seconds whatever the number of visitors.

A private table never enters the summary (services/private_tables.py): the
feed is the same for everybody, so it holds only what everybody may see.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from sqlalchemy.orm import Session

from tavern.services import taverns, waiting
from tavern.web import village_live
from tavern.web.push import push_slot, push_until_closed, refused_origin
from tavern.web.state import services

pages = APIRouter()

#: At most one summary read a worker every this many seconds.
EVERY_SECONDS = 2.0


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


class VillageFeed:
    """One per worker: reads the summary while somebody watches, and hands
    each new one to every visitor's socket."""

    def __init__(self, read: Callable[[], str], every: float = EVERY_SECONDS) -> None:
        self._read = read
        self._every = every
        self._watchers: dict[int, asyncio.Queue[str]] = {}
        self._last: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._n = 0

    def watch(self) -> tuple[int, asyncio.Queue[str]]:
        """A visitor's queue (it keeps the latest summary only) and his key."""
        self._n += 1
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        if self._last is not None:
            queue.put_nowait(self._last)
        self._watchers[self._n] = queue
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        return self._n, queue

    def leave(self, key: int) -> None:
        self._watchers.pop(key, None)

    async def _run(self) -> None:
        while self._watchers:
            text = await asyncio.to_thread(self._read)
            if text != self._last:
                self._last = text
                for queue in list(self._watchers.values()):
                    if queue.full():  # a slow visitor skips to the latest
                        queue.get_nowait()
                    queue.put_nowait(text)
            await asyncio.sleep(self._every)
        self._last = None  # nobody watching: the next visitor gets a fresh read


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
