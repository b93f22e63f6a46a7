"""The live tables of this process, and the way to the others'.

An actor is started on first use (a player or spectator opening the table)
and stopped when its table closes: :meth:`TableManager.close_table` (the
owner's close action) has the actor end the game, and a closed actor is
forgotten.

One process (no Redis, the default): it runs every table, and at start-up
the deals interrupted by the death of the previous process are voided (see
:mod:`tavern.tables.bank`).

Several workers (``TAVERN_REDIS_URL``, tables/cluster.py): a table runs in
the worker holding its lease. Opening a table nobody holds takes the lease,
claims the table in the database with the lease's fence — voiding the deals
a dead owner left in progress, exactly as a restart does — and starts its
actor. A connection landing on another worker gets a :class:`RemoteTable`,
the same calls carried to the owner over Redis; the views come back through
the Redis broadcaster. Every worker also sweeps for tables whose owner died
(their lease ran out) and takes its share of them over, so play goes on
within a few seconds even before anybody reconnects; a worker holding more
than its share hands the surplus over between two deals (tables/balance.py).
A worker stopping gracefully deals no new hand and lets each table go as
its running deal ends (:meth:`TableManager.drain`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from tavern import metrics
from tavern.store.batch import Batched
from tavern.store.db import is_store_away
from tavern.tables import balance
from tavern.tables.actor import CommandError, TableActor
from tavern.tables.bank import SqlBank, TableStart
from tavern.tables.broadcast import SPECTATORS, Broadcaster
from tavern.tables.cluster import Cluster, ClusterUnreachable, LocalCluster, RemoteError, Unavailable, spawn
from tavern.tables.commands import Close, Sync, TableCommand, table_commands
from tavern.tables.house import HouseSeatsPolicy
from tavern.tables.practice import PracticeBank, practice_table
from tavern.tables.tasks import cancel_and_wait

log = logging.getLogger(__name__)
SYNC = Sync()  #: a round trip through a table's inbox

#: The first characters of the notice a new owner publishes on a table's
#: channel: connections attached to another fence must reconnect. It never
#: reaches a browser (web/ws.py closes the socket instead).
MOVED_PREFIX = '{"type":"moved"'


class TableMoved(Exception):
    """The table is changing worker (its owner died or is stopping): the
    connection should reconnect, and will find its new owner."""


class TablePaused(TableMoved):
    """Redis is out of reach: nobody can take or prove the table's lease, so
    play is paused until it answers again (the page is told so, in French,
    and tries again: docs/operations.md "Faults")."""


def table_key(table_id: int) -> str:
    return f"table:{table_id}"


def moved_notice(fence: int) -> str:
    return orjson.dumps({"type": "moved", "fence": fence}).decode()


def moved_fence(text: str) -> int | None:
    """The fence of a moved notice; ``None`` for any other message."""
    if not text.startswith(MOVED_PREFIX):
        return None
    return int(orjson.loads(text)["fence"])


class RemoteTable:
    """A table owned by another worker: what a connection calls of an actor,
    carried to the owner (``cluster.call``) and answered from there."""

    closed = False

    def __init__(self, cluster: Cluster, worker: str, fence: int, table_id: int) -> None:
        self.cluster = cluster
        self.worker = worker
        self.fence = fence
        self.table_id = table_id

    async def _call(self, command: dict[str, Any] | None, username: str | None, user_id: int = 0) -> Any:
        """``command``: the command's JSON fields (tables/commands.py), or None for a snapshot."""
        try:
            return await self.cluster.call(self.worker, "table", {
                "table": self.table_id, "fence": self.fence, "command": command, "username": username,
                "user_id": user_id})
        except Unavailable:
            raise TableMoved(self.table_id) from None
        except RemoteError as exc:
            if exc.kind == "TableMoved":
                raise TableMoved(self.table_id) from None
            if exc.kind == "TypeError":  # arguments the engine does not take
                raise TypeError(str(exc)) from None
            raise CommandError(exc.code, **exc.params) from None

    async def submit(self, command: TableCommand, username: str | None = None, *, user_id: int = 0) -> Any:
        return await self._call(command.model_dump(mode="json"), username, user_id)

    async def snapshot(self, username: str | None) -> str:
        return str(await self._call(None, username))


#: Table sockets opening at once (between their handshake and their
#: snapshot) from which the process is in a reconnection storm: a restart's
#: pages all coming back. Deal starts wait meanwhile (actor.py
#: MAX_DEAL_HOLD): the snapshots go first. A busy site opens a few at a time.
STORM_SOCKETS = 50


class TableManager:
    def __init__(self, bank: SqlBank, broadcaster: Broadcaster, *, cluster: Cluster | None = None,
                 sweep_seconds: float = 2.0, drain_seconds: float = 180.0, **actor_options: Any) -> None:
        self.bank = bank
        self.broadcaster = broadcaster
        self.cluster: Cluster = cluster or LocalCluster()
        bank.fenced_only = self.cluster.shared
        self.sweep_seconds = sweep_seconds
        #: The longest a hand-over waits for a table's running deal (settings.drain_seconds).
        self.drain_seconds = drain_seconds
        #: Tables being handed over to another worker (at their deal's end).
        self._handing: set[int] = set()
        #: Draining (a graceful stop): a hand-over is never given up.
        self._stopping = False
        #: Orphans seen by the last sweep, with the number of sweeps they waited.
        self._unclaimed: dict[str, int] = {}
        self.actor_options = actor_options
        self.actors: dict[int, TableActor] = {}
        #: One lock per table being started: tables start side by side (a
        #: restart's reconnecting players), one table never twice.
        self._locks: dict[int, asyncio.Lock] = {}  # one per table ever opened here: a few bytes each
        self._sweeper: asyncio.Task[None] | None = None
        self.voided: list[int] = []
        #: Tables lost while still live (Redis went away, or came back
        #: empty): marked live again as soon as it answers, for a sweep to
        #: take them (this worker's or another's).
        self._relive: set[int] = set()
        #: Table sockets opening now (web/ws.py: counted until their snapshot is sent).
        self.opening = 0
        #: The tables starting at the same moment, read in one transaction (a restart).
        self._loads: Batched[int, TableStart] = Batched(bank.load_tables)

    @functools.cached_property
    def practice(self) -> PracticeBank:
        """The practice tables' bank (issue 29), sharing this bank's writer
        and fences; made at the first practice table (a manager over a
        stand-in bank, in tests, never needs one)."""
        return PracticeBank(self.bank._factory, self.bank.settings, share_with=self.bank)

    async def start(self) -> None:
        await self.broadcaster.start()
        await self.cluster.start()
        self.cluster.serve("table", self._serve_remote)
        self.cluster.serve("discard", lambda p: self.discard(int(p["table"]), everywhere=False))
        self.cluster.on_lost(self._lease_lost)
        backs = getattr(self.cluster, "on_back", None)
        if backs is not None:  # Redis is back: the lost tables are taken again at once
            backs.append(lambda: spawn(self._sweep_once(), "a sweep after Redis came back"))
        self.broadcaster.on_back.append(self._frames_lost)
        if not self.cluster.shared:
            # Alone on the store: whatever was in progress died with the last process.
            self.voided = await asyncio.to_thread(self.bank.void_interrupted)
            return
        # Shared: another worker may be dealing right now; each table's
        # interrupted deals are voided when it is claimed (get()).
        self._sweeper = asyncio.create_task(self._sweep(), name="tables-sweep")

    async def get(self, table_id: int) -> TableActor | RemoteTable | None:
        """The table's actor (started here if nobody runs it), a
        :class:`RemoteTable` when another worker runs it, ``None`` for a
        closed or unknown table. Raises :class:`TableMoved` while the table
        is between two owners."""
        actor = self.actors.get(table_id)
        if actor is not None and not actor.closed:
            return actor
        async with self._locks.setdefault(table_id, asyncio.Lock()):
            try:
                return await self._get_locked(table_id)
            except ClusterUnreachable:
                raise TablePaused(table_id) from None

    async def _get_locked(self, table_id: int) -> TableActor | RemoteTable | None:
        actor = self.actors.get(table_id)
        if actor is not None and not actor.closed:
            return actor
        self.actors.pop(table_id, None)
        if not self.cluster.shared:
            return await self._start(table_id, fence=0)
        for _ in range(3):
            owner = await self.cluster.owner(table_key(table_id))
            if owner is not None and owner[0] != self.cluster.worker_id:
                return RemoteTable(self.cluster, owner[0], owner[1], table_id)
            held_before = self.cluster.held(table_key(table_id))
            fence = await self.cluster.acquire(table_key(table_id))
            if fence is None:
                continue  # taken by another worker just now: ask again who
            try:
                started = await self._start(table_id, fence)
            except _StaleFence:
                continue
            except Exception:
                # A start that failed (the store away mid-claim: a PostgreSQL
                # restart) lets go of the lease it took: kept (the keeper
                # renews it) on no actor, the table belonged to this worker and
                # ran nowhere, and no sweep takes a table that has an owner
                # (issue 38: tables stuck after a restart). Let go, it is an
                # orphan again, taken by the next sweep once the store is back.
                if held_before is None:
                    with contextlib.suppress(Exception):
                        await self.cluster.release(table_key(table_id))
                raise
            if started is None:
                await self.cluster.release(table_key(table_id))
            return started
        raise TableMoved(table_id)

    async def _start(self, table_id: int, fence: int) -> TableActor | None:
        loaded: TableStart | None = None
        practice = None
        if self.cluster.shared:
            # Claimed before its seats and hands are read: the claim voids
            # what a dead owner left in progress and gives its hands back.
            info = await asyncio.to_thread(self.bank.table_info, table_id)
            if info is None:
                practice = await asyncio.to_thread(self.practice.practice, table_id)
                if practice is None:
                    return None
            await self.claim(table_id, fence)
            await self.cluster.mark_live(table_key(table_id), True)
        else:
            # Alone: the interrupted deals were voided at start-up; the
            # tables starting at the same moment are read together.
            loaded = await self._loads.get(table_id)
            if loaded is None:
                practice = await asyncio.to_thread(self.practice.practice, table_id)
                if practice is None:
                    return None
            info = loaded.info if loaded is not None else None
        if practice is not None:
            # A practice table (tables/practice.py): its own bank and policy,
            # its house players driven here, where its actor runs.
            actor = practice_table(practice[0], practice[1], self.practice, self.broadcaster,
                                   hold_deals=self.storming, **self.actor_options)
        else:
            assert info is not None
            # A table whose owner allows house players (tables/house.py) runs their policy.
            policy = HouseSeatsPolicy(info.house_seats, info.house_level) if info.house_seats else None
            actor = TableActor(info, self.bank, self.broadcaster, hold_deals=self.storming, policy=policy,
                               **self.actor_options)
        actor.fence = fence
        self.guard(actor)
        actor.on_closed = lambda: self._forget(table_id, actor)
        await actor.start(loaded)
        self.actors[table_id] = actor
        if self.cluster.shared:
            # Connections still attached to the previous owner reconnect here.
            await self.broadcaster.publish(table_id, {SPECTATORS: moved_notice(fence)})
        return actor

    def guard(self, actor: TableActor) -> None:
        """Its publications are sent only while this worker can prove the
        table's lease (issue 38: a paused owner published frames of a deal
        its successor had voided)."""
        if self.cluster.shared:
            actor.publisher.guard = functools.partial(self.cluster.prove, table_key(actor.info.id), actor.fence)

    def storming(self) -> bool:
        """A reconnection storm: sockets opening by the hundred (STORM_SOCKETS)."""
        return self.opening >= STORM_SOCKETS

    @contextlib.contextmanager
    def socket_opening(self) -> Iterator[Callable[[], None]]:
        """Count a table socket as opening until it calls the function given
        (its snapshot sent) or leaves the block, whichever comes first."""
        self.opening += 1
        counted = True

        def done() -> None:
            nonlocal counted
            if counted:
                counted = False
                self.opening -= 1

        try:
            yield done
        finally:
            done()

    async def claim(self, table_id: int, fence: int) -> None:
        """Claim ``table_id`` in the database with this worker's lease fence
        (voiding what its previous owner left in progress); raises
        :class:`_StaleFence` — the lease let go — when the database already
        knows a higher fence (Redis lost its counters)."""
        if self.bank.fences.get(table_id) == fence:
            return  # claimed already (a contest's table, resumed by its director)
        voided = await asyncio.to_thread(self.bank.claim, table_id, fence)
        if voided is None:
            known = await asyncio.to_thread(self.bank.table_fence, table_id)
            raise_fence = getattr(self.cluster, "raise_fence", None)
            if raise_fence is not None:
                await raise_fence(table_key(table_id), known)
            await self.cluster.release(table_key(table_id))
            raise _StaleFence(table_id)
        if fence > 1:  # held by another worker before (or by this one before a restart)
            metrics.MOVES.labels("taken").inc()
        if voided:
            log.warning("table %s: claimed with fence %s, voided the interrupted deals %s", table_id, fence, voided,
                        extra={"table": table_id})
            self.voided.extend(voided)

    async def lease(self, table_id: int) -> int:
        """The lease and the claim of a table this worker runs by decision of
        its own (a contest's director); raises :class:`TableMoved` when
        another live worker holds it.

        A new contests' leader comes here right after the old one died, whose
        table leases may outlive his contests' lease by a moment (each was
        last renewed at its own time): the lease is asked again until two
        lease times have passed, by when a dead owner's has expired, so that
        only a live owner makes the table "moved"."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2 * self.cluster.lease_seconds
        while (fence := await self.cluster.acquire(table_key(table_id))) is None:
            if loop.time() >= deadline:
                raise TableMoved(table_id)
            await asyncio.sleep(0.1)
        if self.cluster.shared:
            await self.claim(table_id, fence)
            await self.broadcaster.publish(table_id, {SPECTATORS: moved_notice(fence)})
        return fence

    def _forget(self, table_id: int, actor: TableActor) -> None:
        if self.actors.get(table_id) is actor:
            del self.actors[table_id]
            self.let_go_soon(table_id, live=not actor.closed_for_good)

    def let_go_soon(self, table_id: int, *, live: bool) -> None:
        """This worker no longer runs the table: its fence and lease go
        (still ``live``: another worker should take it over)."""
        self.bank.fences.pop(table_id, None)
        if self.cluster.shared:
            if live:
                metrics.MOVES.labels("let_go").inc()
            spawn(self._let_go(table_id, live=live), "letting a table go")

    async def _let_go(self, table_id: int, *, live: bool) -> None:
        with contextlib.suppress(Exception):
            await self.cluster.release(table_key(table_id))
            if not live:
                await self.cluster.mark_live(table_key(table_id), False)

    def _frames_lost(self) -> None:
        """The tables' subscription is back after Redis was away: every
        connection here may have missed frames, a new owner's « moved »
        among them (issue 38: two bots kept a socket on a table claimed
        elsewhere while this worker was not yet subscribed again, and the
        table waited 20 s on their time-outs). Each reconnects, as the page
        does after a move, and gets a fresh snapshot from whoever owns it."""
        tables = self.broadcaster.tables_here()
        log.warning("tables: subscribed again; the connections of %s tables here reconnect", len(tables))
        for table_id in tables:
            self.broadcaster.deliver_here(table_id, {SPECTATORS: moved_notice(0)})

    def _lease_lost(self, key: str) -> None:
        """Redis says another worker may hold this table now: stop its actor."""
        if not key.startswith("table:"):
            return
        table_id = int(key.split(":", 1)[1])
        actor = self.actors.pop(table_id, None)
        if actor is not None:
            metrics.MOVES.labels("lost").inc()
            self.bank.fences.pop(table_id, None)
            spawn(actor.stop(), "stopping a lost table")
            if not actor.closed_for_good:
                self._relive.add(table_id)
            # Its sockets here reconnect (and are told play is paused while
            # Redis is away): a move sent to a stopped actor was answered
            # « Cette table est fermée ».
            self.broadcaster.deliver_here(table_id, {SPECTATORS: moved_notice(0)})

    async def _serve_remote(self, payload: dict[str, Any]) -> Any:
        """A command for one of this worker's tables, from another worker."""
        table_id = int(payload["table"])
        actor = self.actors.get(table_id)
        if actor is None and self.cluster.held(table_key(table_id)) == payload["fence"]:
            # Leased here a moment ago and still starting (the claim, the
            # seats): the other worker saw the lease first; wait for the actor.
            started = await self.get(table_id)
            actor = started if isinstance(started, TableActor) else None
        if actor is None or actor.closed or actor.fence != payload["fence"]:
            raise TableMoved(table_id)
        if payload["command"] is None:
            return await actor.snapshot(payload["username"])
        command = table_commands.validate_python(payload["command"])
        return await actor.submit(command, payload["username"], user_id=int(payload["user_id"]))

    async def _sweep(self) -> None:
        """Every ``sweep_seconds``: take over this worker's share of the
        tables whose owner died or let them go, and hand over what this
        worker holds beyond its share (tables/balance.py)."""
        while True:
            await asyncio.sleep(self.sweep_seconds)
            await self._sweep_once()

    async def _sweep_once(self) -> None:
        try:
            for table_id in list(self._relive):
                await self.cluster.mark_live(table_key(table_id), True)
                self._relive.discard(table_id)
            await self.balance()
        except ClusterUnreachable:
            pass  # Redis away: nothing can move; the keeper's warnings say so
        except Exception as exc:
            if is_store_away(exc):  # a restart: the next sweeps take what is left once it is back
                log.warning("tables: the sweep waits for the database (%s)", type(exc).__name__)
            else:
                log.exception("tables: the sweep for orphaned tables failed")

    async def balance(self) -> None:
        """One sweep: the orphans this worker should take, then its surplus."""
        placed, workers = await self.cluster.placement()
        orphans = [k for k, owner in placed.items() if owner is None]
        mine = [k for k, owner in placed.items()
                if owner == self.cluster.worker_id and int(k.split(":", 1)[1]) not in self._handing]
        metrics.TABLES_ORPHANED.set(len(orphans))
        metrics.TABLES_HELD_IDLE.set(sum(1 for k in mine if int(k.split(":", 1)[1]) not in self.actors))
        seen, self._unclaimed = self._unclaimed, {}
        stranded = []
        for key in orphans:
            self._unclaimed[key] = seen.get(key, 0) + 1
            if self._unclaimed[key] >= balance.STRANDED_SWEEPS:
                stranded.append(key)
        wanted = balance.orphans_to_take(len(orphans), len(mine), len(placed), workers)
        # Stranded ones first (they waited longest), then in the set's order.
        for key in (stranded + [k for k in orphans if k not in stranded])[:max(wanted, len(stranded))]:
            table_id = int(key.split(":", 1)[1])
            try:
                if await self.get(table_id) is None:  # closed meanwhile
                    await self.cluster.mark_live(key, False)
            except TableMoved:
                pass
        if orphans:
            return  # the orphans find their owners before anything else moves
        extra = balance.surplus(len(mine), len(placed), workers)
        if extra:
            # Tables between two deals first: they move at once.
            ids = sorted((int(k.split(":", 1)[1]) for k in mine),
                         key=lambda t: (self.actors[t].dealing if t in self.actors else True, t))
            deadline = asyncio.get_running_loop().time() + self.drain_seconds
            for table_id in ids[:extra]:
                actor = self.actors.get(table_id)
                if actor is not None and not actor.closed:
                    log.info("tables: handing table %s over (%s held here, %s live, %s workers)",
                             table_id, len(mine), len(placed), workers)
                    metrics.MOVES.labels("balanced").inc()
                    self._handing.add(table_id)
                    spawn(self._hand_over(table_id, actor, deadline, void_past=False), "handing a table over")

    async def _hand_over(self, table_id: int, actor: TableActor, deadline: float, *, void_past: bool = True) -> None:
        """Let a table go at the end of its running deal, for another worker
        to take over. Never in the middle of one: when ``deadline`` passes
        first, a balancing hand-over is given up (the table deals on here);
        a drain (``void_past``) lets it go all the same, and its next owner
        voids the deal, as after a crash."""
        try:
            actor.draining = True  # no new deal from now on
            # A round trip through the actor's queue: a tick already starting
            # a deal has finished by then, so `dealing` below is the truth.
            await actor.submit(SYNC)
            loop = asyncio.get_running_loop()
            while actor.dealing and not actor.closed and loop.time() < deadline:
                await asyncio.sleep(0.1)
            if self.actors.get(table_id) is not actor:
                return  # lost, closed or forgotten meanwhile: nothing of ours to let go
            if actor.dealing and not void_past and not self._stopping:
                actor.draining = False
                await actor.submit(SYNC)  # deals again (the actor wants a deal after a command)
                return
            if actor.dealing:
                log.warning("table %s: its deal outlasted the drain; the next owner voids it", table_id)
            # The table's lock from the stop to the let-go: a socket opening
            # the table meanwhile (get) waits, then takes it afresh with a
            # fence of its own — never starts an actor on the fence being let
            # go, which would be left running on no lease and no fence.
            async with self._locks.setdefault(table_id, asyncio.Lock()):
                await actor.stop()
                self.actors.pop(table_id, None)
                self.bank.fences.pop(table_id, None)
                if self.cluster.shared:
                    await self._let_go(table_id, live=True)  # still live: another worker's sweep takes it
        finally:
            self._handing.discard(table_id)

    async def close_table(self, table_id: int, owner_id: int) -> dict[str, Any]:
        """The owner closes a table with players seated: the live table ends
        the game (the carried chips shared out, everybody cashed out, the table
        closed) and is forgotten. During a deal it closes at the deal's end:
        the answer is then ``{"closed": False, "notice": …}``. Raises
        :class:`~tavern.tables.actor.CommandError` with the reason."""
        try:
            actor = await self.get(table_id)
        except TableMoved:
            raise CommandError("table_moving") from None
        if actor is None:
            raise CommandError("table_closed")
        try:
            out: dict[str, Any] = await actor.submit(Close(owner_id=owner_id))
        except TableMoved:
            raise CommandError("table_moving") from None
        return out

    async def discard(self, table_id: int, *, everywhere: bool = True) -> None:
        """Stop and forget the actor of a table closed elsewhere (an empty
        table closed by its owner), telling its spectators; with several
        workers, whichever runs it."""
        if everywhere and self.cluster.shared:
            await self.cluster.tell_all("discard", {"table": table_id})
            return
        actor = self.actors.pop(table_id, None)
        if actor is not None and not actor.closed:
            actor.closed_for_good = True
            await actor.stop()
            # Told while its lease is still held (a publication needs it).
            await actor.publish_closed({"closed": True, "awards": {}, "ecus": {}}, [])
            self.bank.fences.pop(table_id, None)
            if self.cluster.shared:
                await self._let_go(table_id, live=False)

    async def drain(self, timeout: float) -> None:
        """A graceful stop: no table here starts a new deal, each table is
        let go for another worker to take over as soon as its running deal
        has ended — nothing voided — or when ``timeout`` seconds have passed
        (TAVERN_DRAIN_SECONDS, docs/operations.md: the deals still running
        then are voided by their next owner)."""
        self._stopping = True
        await self.cluster.leave()  # the others' shares no longer count this worker
        began = asyncio.get_running_loop().time()
        deadline = began + timeout
        log.info("tables: draining %s tables (%s dealing), at most %.0f s", len(self.actors),
                 sum(1 for a in self.actors.values() if a.dealing), timeout)
        for actor in self.actors.values():
            actor.draining = True
        await asyncio.gather(*(self._hand_over(table_id, actor, deadline)
                               for table_id, actor in list(self.actors.items())
                               if table_id not in self._handing), return_exceptions=True)
        while self._handing and asyncio.get_running_loop().time() < deadline + 1:
            await asyncio.sleep(0.1)  # hand-overs the balancing had begun
        log.info("tables: drained in %.1f s", asyncio.get_running_loop().time() - began)

    async def close(self, *, drain_seconds: float = 0.0) -> None:
        if self._sweeper is not None:
            await cancel_and_wait(self._sweeper)  # its balance sits in Redis calls, which may swallow a cancel
        if self.cluster.shared and drain_seconds > 0:
            await self.drain(drain_seconds)
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()
        await self.cluster.close()
        await self.broadcaster.close()


class _StaleFence(Exception):
    """The database knows a higher fence than the lease just drawn."""
