"""Who opens which table from where (``table_visits``, read by the
collusion report: services/surveillance.py), written in batches.

A connection notes its visit and goes on at once; a background task writes
what was noted in one transaction every :data:`FLUSH_SECONDS`. A restart's
reconnecting players (thousands of sockets within seconds) thus make a few
writes, not one transaction each on the connections' path.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging

from sqlalchemy.orm import Session, sessionmaker

from tavern.services import surveillance
from tavern.store.db import run_transaction

log = logging.getLogger(__name__)

#: Seconds between two writes of the visits noted meanwhile.
FLUSH_SECONDS = 0.5
#: Visits remembered as written: a long-lived process forgets, then writes
#: a visit again (its ``last_seen`` moves): harmless.
MAX_SEEN = 100_000

#: (table id, user id, address, hashed browser cookie — None without a cookie)
Visit = tuple[int, int, str, str | None]


class VisitBook:
    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self.seen: set[Visit] = set()
        self.pending: dict[Visit, dt.datetime] = {}
        self._task: asyncio.Task[None] | None = None

    def note(self, visit: Visit) -> None:
        """A connection opened: written with the next batch unless known."""
        if visit not in self.seen and visit not in self.pending:
            self.pending[visit] = dt.datetime.now(dt.UTC)

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="table-visits")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            await self.flush()

    async def flush(self) -> None:
        batch, self.pending = self.pending, {}
        if not batch:
            return

        try:
            await asyncio.to_thread(run_transaction, self.sessions, lambda s: surveillance.record_visits(s, batch))
        except Exception:  # the report loses these lines; the players still play
            log.exception("could not note %d table visits", len(batch))
            return
        if len(self.seen) > MAX_SEEN:
            self.seen.clear()
        self.seen.update(batch)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.flush()
