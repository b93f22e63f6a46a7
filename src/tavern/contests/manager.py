"""The directors of this process's running contests, and the clock that
starts contests at their start time.

At start-up the running contests resume from the database (their deals in
progress were voided with the cash tables' by the table manager). Then every
``poll`` seconds the contests whose start time has come begin: below their
minimum they are cancelled and refunded, else seated and directed.

With several workers (tables/cluster.py) one of them leads: the worker
holding the ``contests`` lease runs every director and the start-time
clock; the others wait for the lease, and the first to get it after the
leader died resumes the running contests (each table claimed with the
lease's fence, its interrupted deal voided). A late registration reaching
another worker is carried to the leader.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from tavern.cards import CSPRNG, RandomSource
from tavern.contests import soon
from tavern.contests.director import Director
from tavern.contests.table import ContestBank
from tavern.services import contests as svc
from tavern.store.db import read_session_factory
from tavern.store.models import utcnow
from tavern.tables.cluster import ClusterUnreachable, RemoteError, spawn
from tavern.tables.manager import TableManager
from tavern.tables.tasks import cancel_and_wait

log = logging.getLogger(__name__)

#: The lease of the worker that runs the contests.
LEASE = "contests"
#: How often the leader looks for contests starting soon (contests/soon.py).
HERALD_EVERY = dt.timedelta(seconds=5)
T = TypeVar("T")


@dataclass(eq=False)
class ContestManager:
    """The running contests of the site: one director each, led by one worker
    (the ``contests`` lease). ``actor_options`` go to each contest table's
    actor (its deal pause, its reconnection grace)."""

    bank: ContestBank
    tables: TableManager
    _: KW_ONLY
    poll: float = 1.0
    rng: RandomSource = CSPRNG
    now: Callable[[], dt.datetime] = utcnow
    actor_options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.directors: dict[int, Director] = {}
        self._task: asyncio.Task[None] | None = None
        self.leading = False
        bind = getattr(self.bank._factory, "kw", {}).get("bind")
        self._reads = read_session_factory(bind) if bind is not None else None
        #: The registered players of a contest starting soon are told once (contests/soon.py).
        self.herald = soon.Herald(self.tables.broadcaster)
        self._heard_at: dt.datetime | None = None

    def _director(self, contest_id: int) -> Director:
        d = Director(contest_id, self.bank, self.tables, self.tables.broadcaster, rng=self.rng, now=self.now,
                     actor_options=self.actor_options)
        self.directors[contest_id] = d
        return d

    async def start(self) -> None:
        """Resume the running contests, then watch the start times (with
        several workers, once this one leads)."""
        cluster = self.tables.cluster
        cluster.serve("contest_register", self._register_here)
        if cluster.shared:
            cluster.on_lost(self._lease_lost)
            self._task = asyncio.create_task(self._lead(), name="contests")
            return
        await self._resume()
        self._task = asyncio.create_task(self._watch(), name="contests")

    async def _resume(self) -> None:
        self.leading = True
        for cid in await asyncio.to_thread(self.bank._tx, svc.running_ids):
            try:
                await self._director(cid).start()
            except Exception:
                log.exception("contest %s could not resume", cid)

    async def _lead(self) -> None:
        """Wait for the contests' lease, then resume and watch."""
        while await self._try_lease() is None:
            await asyncio.sleep(self.poll)
        log.info("contests: this worker leads them now")
        await self._resume()
        await self._watch()

    async def _try_lease(self) -> int | None:
        """The lease's fence, or None while another worker leads or Redis is
        away: an outage must not end this task, or no worker leads the
        contests again until a restart (the fault suite found it)."""
        try:
            return await self.tables.cluster.acquire(LEASE)
        except ClusterUnreachable:
            return None

    def _lease_lost(self, key: str) -> None:
        """Another worker may lead now: stop directing here at once."""
        if key != LEASE:
            return
        self.leading = False
        old, self._task = self._task, None
        if old is not None:
            old.cancel()

        async def step_down() -> None:
            # Ended for sure before another leads from here: a cancel landing
            # in a Redis call may be swallowed (tables/tasks.py cancel_and_wait).
            with contextlib.suppress(Exception):
                await cancel_and_wait(old)
            for d in list(self.directors.values()):
                await d.stop()
            self.directors.clear()
            self._task = asyncio.create_task(self._lead(), name="contests")

        spawn(step_down(), "stepping down from the contests")

    async def _watch(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("contests: the start-time check failed")
            await asyncio.sleep(self.poll)

    async def tick(self) -> list[int]:
        """Begin every contest whose start time has come. Returns their ids."""
        now = self.now()
        due = await asyncio.to_thread(self._due, now)
        for cid in due:
            await self.begin(cid)
        if self._heard_at is None or now - self._heard_at >= HERALD_EVERY:
            self._heard_at = now
            await self.herald.tell(await asyncio.to_thread(self._read, lambda s: soon.starting_soon(s, now)), now)
        return due

    def _read(self, work: Callable[[Session], T]) -> T:
        """A read off the tables' write lock (as :meth:`_due`)."""
        if self._reads is None:
            return self.bank._tx(work)
        with self._reads() as s:
            return work(s)

    def _due(self, now: dt.datetime) -> list[int]:
        """A read (deferred BEGIN on SQLite): the watch asks every second and
        must not take the write lock the tables' settlements wait for."""
        if self._reads is None:
            return self.bank._tx(lambda s: svc.due_ids(s, now))
        with self._reads() as s:
            return svc.due_ids(s, now)

    async def begin(self, contest_id: int) -> Director | None:
        def work(s: Session) -> Any:
            return svc.begin(s, contest_id, self.now(), self.rng)

        floor = await asyncio.to_thread(self.bank._tx, work)
        if floor is None:  # cancelled: below its minimum
            return None
        d = self._director(contest_id)
        await d.start(floor)
        return d

    async def register(self, contest_id: int, user_id: int) -> dict[str, Any]:
        """Register: before the start in the database alone, during late
        registration through the contest's director (who seats him), on
        whichever worker leads the contests."""
        d = self.directors.get(contest_id)
        if d is not None and not d.done.is_set():
            return await d.late_register(user_id)
        cluster = self.tables.cluster
        if cluster.shared and not self.leading:
            leader = await cluster.owner(LEASE)
            if leader is not None:
                try:
                    out: dict[str, Any] = await cluster.call(
                        leader[0], "contest_register", {"contest": contest_id, "user": user_id})
                    return out
                except RemoteError as exc:
                    if exc.kind == "ContestError":
                        raise svc.ContestError(exc.code, **exc.params) from None
                    raise
        now = self.now()
        await asyncio.to_thread(self.bank._tx, lambda s: svc.register(s, contest_id, user_id, now))
        return {}

    async def _register_here(self, payload: dict[str, Any]) -> dict[str, Any]:
        return await self.register(int(payload["contest"]), int(payload["user"]))

    def table_clock(self, table_id: int) -> dict[str, Any] | None:
        for d in self.directors.values():
            if table_id in d.actors:
                return d.clock_view()
        return None

    async def close(self) -> None:
        await cancel_and_wait(self._task)
        for d in list(self.directors.values()):
            await d.stop()
