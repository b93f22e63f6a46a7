"""Who owns what among the server processes (docs/architecture.md "Several workers").

A live table, and the contests' clock, must be run by exactly one process at
a time. With one process (the default, no Redis) that is trivially so:
:class:`LocalCluster` owns everything. With ``TAVERN_REDIS_URL`` set,
:class:`RedisCluster` makes ownership a **lease** in Redis, in the way
lila-ws and Colyseus place a room on one process:

* ``tavern:lease:{key}`` holds ``{worker}|{fence}`` with a time-to-live; the
  owner renews it every third of that time, from a thread of its own with
  its own Redis connection, so that a saturated event loop or a crowd of
  publications waiting for a pooled connection cannot make a live worker
  lose its tables (a loop that stops turning altogether still lets them go:
  :data:`HUNG_LOOP_SECONDS`). A worker that dies stops renewing, and once
  the lease has expired any other worker may take it.
* each acquisition draws a new **fence** from ``tavern:fence:{key}``, a
  counter that only grows. The table's row in the database remembers the
  highest fence that claimed it, and every write of a live table checks its
  own fence against that row in the same transaction
  (:meth:`tavern.tables.bank.SqlBank.claim`): a worker that lost its lease
  (paused, cut off from Redis) can never settle a deal after another took
  the table over.
* workers talk through Redis pub/sub: ``tavern:rpc:{worker}`` carries
  requests to one worker (a table's commands to its owner) and
  ``tavern:reply:{worker}`` their answers; ``tavern:all`` reaches every
  worker (a session ended on one closes its sockets on all).

Redis only coordinates: money and deals stay in the database, so losing
Redis stops play (no lease can be renewed) but loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from tavern import metrics
from tavern.tables.broadcast import redis_client
from tavern.tables.tasks import cancel_and_wait

log = logging.getLogger(__name__)

#: A request's handler on the worker that serves it.
Handler = Callable[[dict[str, Any]], Awaitable[Any]]
#: Called with a lease's key when this worker loses it.
LostCallback = Callable[[str], None]


#: Background tasks in flight: the event loop keeps only weak references to
#: tasks, so one nobody holds could be collected before it ran.
_RUNNING: set[asyncio.Task[None]] = set()


def spawn(work: Awaitable[Any], what: str = "a background task") -> None:
    """Run ``work`` in the background, logging (never losing) its failure."""

    async def run() -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cluster: %s failed", what)

    task = asyncio.ensure_future(run())
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)


class Unavailable(Exception):
    """The worker asked is gone (or did not answer in time)."""


class RemoteError(Exception):
    """The worker asked answered with a refusal: ``kind`` names the
    exception it raised, ``str(self)`` its message; a refusal's ``code`` and
    ``params`` travel too (``"refused"`` for anything else)."""

    def __init__(self, kind: str, message: str, code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.code = code or "refused"
        self.params = params or {}


class Cluster(Protocol):
    worker_id: str
    #: Whether other processes may run tables of the same store.
    shared: bool
    #: How long a lease outlives its owner's last renewal (0: leases cannot be lost).
    lease_seconds: float

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def acquire(self, key: str) -> int | None:
        """The lease on ``key`` for this worker: its fence, or ``None`` when
        another live worker holds it."""

    async def release(self, key: str) -> None: ...

    async def owner(self, key: str) -> tuple[str, int] | None:
        """``(worker, fence)`` of the lease on ``key``, if anybody holds it."""

    def held(self, key: str) -> int | None:
        """This worker's fence on ``key`` if it holds the lease."""

    def on_lost(self, callback: LostCallback) -> None: ...

    def serve(self, kind: str, handler: Handler) -> None: ...

    async def call(self, worker: str, kind: str, payload: dict[str, Any], timeout: float = 10.0) -> Any: ...

    async def tell_all(self, kind: str, payload: dict[str, Any]) -> None:
        """Run ``kind``'s handler on every worker, this one included, and
        wait for none of them."""

    async def mark_live(self, key: str, live: bool) -> None:
        """Keep ``key`` in (or out of) the set of leases that must always
        have an owner: a dead owner's tables are taken over by a survivor."""

    async def orphans(self) -> list[str]:
        """Keys marked live whose lease nobody holds."""

    async def placement(self) -> tuple[dict[str, str | None], int]:
        """Each key marked live with the worker holding it (``None``: an
        orphan), and how many workers are alive and not leaving — what the
        sweep shares the tables by (tables/balance.py)."""

    async def leave(self) -> None:
        """This worker is stopping: the others stop counting it in their
        shares at once (not a lease later), and take what it lets go."""

    async def take_counts(self, caps: dict[str, int]) -> bool:
        """One more of each counter in ``caps`` (counter → cap) across the
        live workers, or none when one is at its cap."""

    async def give_counts(self, names: list[str]) -> None: ...


class LocalCluster:
    """One process: it owns every table and the contests' clock."""

    shared = False
    lease_seconds = 0.0

    def __init__(self) -> None:
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}"
        self._handlers: dict[str, Handler] = {}
        self._held: dict[str, int] = {}

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def acquire(self, key: str) -> int | None:
        self._held[key] = 0
        return 0

    async def release(self, key: str) -> None:
        self._held.pop(key, None)

    async def owner(self, key: str) -> tuple[str, int] | None:
        return (self.worker_id, 0) if key in self._held else None

    def held(self, key: str) -> int | None:
        return self._held.get(key)

    def on_lost(self, callback: LostCallback) -> None:
        return None  # a lease that cannot be lost

    def serve(self, kind: str, handler: Handler) -> None:
        self._handlers[kind] = handler

    async def call(self, worker: str, kind: str, payload: dict[str, Any], timeout: float = 10.0) -> Any:
        return await self._handlers[kind](payload)

    async def tell_all(self, kind: str, payload: dict[str, Any]) -> None:
        await self._handlers[kind](payload)

    async def mark_live(self, key: str, live: bool) -> None:
        return None

    async def orphans(self) -> list[str]:
        return []

    async def placement(self) -> tuple[dict[str, str | None], int]:
        return {}, 1

    async def leave(self) -> None:
        return None

    async def take_counts(self, caps: dict[str, int]) -> bool:
        return True  # one process: its own counts are the whole story (web/wslimits.py)

    async def give_counts(self, names: list[str]) -> None:
        return None


# Each script runs atomically in Redis: no two workers interleave inside one.
_ACQUIRE = """
local cur = redis.call('GET', KEYS[1])
if cur then
  local w, f = string.match(cur, '^(.*)|(%d+)$')
  if w == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(f)
  end
  return -1
end
local f = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. f, 'PX', ARGV[2])
return f
"""
#: Renew every lease a worker holds in one call: KEYS are pairs (lease,
#: fence counter), ARGV[1] the time to live, then one "worker|fence" per
#: pair. A lease that ran out while nobody took it (its fence counter still
#: at the holder's fence: no other worker acquired it, so none can have
#: claimed the table) is taken again — a stalled event loop is not a dead
#: worker. Returns the 1-based numbers of the pairs lost.
_RENEW = """
local lost = {}
for i = 1, #KEYS, 2 do
  local mine = ARGV[(i + 1) / 2 + 1]
  local cur = redis.call('GET', KEYS[i])
  if cur == mine then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
  elseif not cur and redis.call('GET', KEYS[i + 1]) == string.match(mine, '|(%d+)$') then
    redis.call('SET', KEYS[i], mine, 'PX', ARGV[1])
  else
    table.insert(lost, (i + 1) / 2)
  end
end
return lost
"""
#: Let a lease go. The fence counter moves on too, so that a renewal already
#: in flight (the keeper thread) cannot take a released lease back as if it
#: had only run out during a stall (see _RENEW).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('INCR', KEYS[2])
  return redis.call('DEL', KEYS[1])
end
return 0
"""
#: Raise a fence counter to at least ARGV[1] (after a Redis restart the
#: counters start again from 0 while the database remembers the old fences).
_RAISE_FENCE = """
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
"""

#: Counters shared by the workers: a hash per counter, a field per worker, so
#: that a dead worker's share (its heartbeat key gone) stops counting.
_TAKE_COUNTS = """
for i, k in ipairs(KEYS) do
  local total = 0
  local all = redis.call('HGETALL', k)
  for j = 1, #all, 2 do
    if all[j] == ARGV[1] or redis.call('EXISTS', 'tavern:worker:' .. all[j]) == 1 then
      total = total + tonumber(all[j + 1])
    else
      redis.call('HDEL', k, all[j])
    end
  end
  if total >= tonumber(ARGV[i + 1]) then return 0 end
end
for i, k in ipairs(KEYS) do redis.call('HINCRBY', k, ARGV[1], 1) end
return 1
"""

LIVE = "tavern:live"
#: A worker whose event loop has not turned for this long is hung, not
#: busy: its keeper thread stops renewing so that its tables move.
HUNG_LOOP_SECONDS = 30.0


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


class RedisCluster:
    """Leases, fences and messages between workers through one Redis."""

    shared = True

    def __init__(self, url: str, *, lease_seconds: float = 5.0) -> None:
        self.worker_id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.lease_seconds = lease_seconds
        self.lease_ms = int(lease_seconds * 1000)
        self._redis = redis_client(url)  # a blocking pool: a crowd waits its turn
        self._pubsub = self._redis.pubsub()
        self._handlers: dict[str, Handler] = {}
        self._held: dict[str, int] = {}
        self._lost: list[LostCallback] = []
        self._pending: dict[str, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._acquire = self._redis.register_script(_ACQUIRE)
        self._renew = self._redis.register_script(_RENEW)
        self._release = self._redis.register_script(_RELEASE)
        self._raise_fence = self._redis.register_script(_RAISE_FENCE)
        self._take_counts = self._redis.register_script(_TAKE_COUNTS)
        self._url = url
        self._keeper: threading.Thread | None = None
        self._stopping = threading.Event()
        #: Stopping (leave()): the keeper no longer renews the heartbeat.
        self._leaving = False
        self._loop_seen = time.monotonic()  #: the last turn of the event loop (_tick)

    @staticmethod
    def lease_key(key: str) -> str:
        return f"tavern:lease:{key}"

    @staticmethod
    def fence_key(key: str) -> str:
        return f"tavern:fence:{key}"

    async def start(self) -> None:
        await self._pubsub.subscribe(f"tavern:rpc:{self.worker_id}", f"tavern:reply:{self.worker_id}",
                                     "tavern:all")
        await self._heartbeat()
        self._tasks = [asyncio.create_task(self._listen(), name="cluster-listen"),
                       asyncio.create_task(self._tick(), name="cluster-tick")]
        self._stopping.clear()
        self._keeper = threading.Thread(target=self._keep_leases, args=(asyncio.get_running_loop(),),
                                        name="cluster-leases", daemon=True)
        self._keeper.start()

    async def close(self) -> None:
        self._stopping.set()
        if self._keeper is not None:
            await asyncio.to_thread(self._keeper.join, 5.0)
            self._keeper = None
        for task in self._tasks:
            with contextlib.suppress(Exception):
                await cancel_and_wait(task)  # the listener sits in redis-py, which may swallow a cancel
        for key in list(self._held):
            with contextlib.suppress(Exception):
                await self.release(key)
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
            await self._redis.aclose()

    # --- leases ------------------------------------------------------------------

    async def acquire(self, key: str) -> int | None:
        fence = int(await self._acquire(keys=[self.lease_key(key), self.fence_key(key)],
                                        args=[self.worker_id, self.lease_ms]))
        if fence < 0:
            return None
        self._held[key] = fence
        return fence

    async def raise_fence(self, key: str, at_least: int) -> None:
        await self._raise_fence(keys=[self.fence_key(key)], args=[at_least])

    async def release(self, key: str) -> None:
        fence = self._held.pop(key, None)
        if fence is not None:
            await self._release(keys=[self.lease_key(key), self.fence_key(key)],
                                args=[f"{self.worker_id}|{fence}"])

    async def owner(self, key: str) -> tuple[str, int] | None:
        raw = await self._redis.get(self.lease_key(key))
        if raw is None:
            return None
        worker, _, fence = _text(raw).rpartition("|")
        return worker, int(fence)

    def held(self, key: str) -> int | None:
        return self._held.get(key)

    def on_lost(self, callback: LostCallback) -> None:
        self._lost.append(callback)

    async def _tick(self) -> None:
        """Mark the event loop alive for the keeper thread."""
        while True:
            self._loop_seen = time.monotonic()
            await asyncio.sleep(1.0)

    def _keep_leases(self, loop: asyncio.AbstractEventLoop) -> None:
        """The keeper thread: renew every lease a third of its time, on a
        connection of its own. A lease that could not be renewed before it ran
        out is lost: the loop is told and its holder stops at once (the fence
        would refuse its writes anyway)."""
        import redis  # the blocking client: this thread has no event loop

        client = redis.Redis.from_url(self._url)
        renew = client.register_script(_RENEW)
        period = self.lease_ms / 3000
        renewed_at = time.monotonic()
        try:
            while not self._stopping.wait(period):
                if time.monotonic() - self._loop_seen > HUNG_LOOP_SECONDS:
                    log.error("cluster: the event loop has not turned for %.0f s; leases left to run out",
                              time.monotonic() - self._loop_seen)
                    continue
                held = list(self._held.items())  # one step under the GIL: a consistent copy
                try:
                    if not self._leaving:
                        client.set(f"tavern:worker:{self.worker_id}", "1", px=self.lease_ms)
                    keys = [k for key, _ in held for k in (self.lease_key(key), self.fence_key(key))]
                    gone = renew(keys=keys, args=[self.lease_ms, *(f"{self.worker_id}|{fence}"
                                                                   for _, fence in held)]) if held else []
                    lost = [held[int(n) - 1] for n in gone]
                    renewed_at = time.monotonic()
                    metrics.LEASES.labels("renewed").inc(len(held) - len(lost))
                    metrics.LEASES.labels("lost").inc(len(lost))
                except Exception:
                    metrics.LEASES.labels("failed").inc(len(held))
                    log.warning("cluster: could not renew the leases", exc_info=True)
                    if time.monotonic() - renewed_at < self.lease_ms / 1000:
                        continue
                    lost = held  # Redis out of reach for a whole lease: assume them taken
                if lost:
                    loop.call_soon_threadsafe(self._lose, lost)
        except RuntimeError:  # the loop closed under us: the worker is stopping
            pass
        finally:
            client.close()

    def _lose(self, lost: list[tuple[str, int]]) -> None:
        """On the loop: the leases the keeper could not renew (unless this
        worker let one go, or took it again, meanwhile)."""
        for key, fence in lost:
            if self._held.get(key) != fence:
                continue
            del self._held[key]
            log.warning("cluster: lease %s lost", key)
            for callback in self._lost:
                callback(key)

    async def _heartbeat(self) -> None:
        """This worker is alive (its shared counters count) for one lease."""
        await self._redis.set(f"tavern:worker:{self.worker_id}", "1", px=self.lease_ms)

    async def take_counts(self, caps: dict[str, int]) -> bool:
        names = list(caps)
        return bool(await self._take_counts(keys=[f"tavern:count:{n}" for n in names],
                                            args=[self.worker_id, *(caps[n] for n in names)]))

    async def give_counts(self, names: list[str]) -> None:
        async with self._redis.pipeline(transaction=False) as pipe:
            for n in names:
                pipe.hincrby(f"tavern:count:{n}", self.worker_id, -1)
            await pipe.execute()

    async def mark_live(self, key: str, live: bool) -> None:
        if live:
            await self._redis.sadd(LIVE, key)
        else:
            await self._redis.srem(LIVE, key)

    async def placement(self) -> tuple[dict[str, str | None], int]:
        keys = sorted(_text(k) for k in await self._redis.smembers(LIVE))
        owners = await self._redis.mget([self.lease_key(k) for k in keys]) if keys else []
        held = {k: (_text(o).rpartition("|")[0] if o is not None else None)
                for k, o in zip(keys, owners, strict=True)}
        workers = 0
        async for _ in self._redis.scan_iter(match="tavern:worker:*", count=100):
            workers += 1
        return held, max(1, workers)

    async def leave(self) -> None:
        self._leaving = True
        await self._redis.delete(f"tavern:worker:{self.worker_id}")

    async def orphans(self) -> list[str]:
        keys = sorted(_text(k) for k in await self._redis.smembers(LIVE))
        if not keys:
            return []
        owners = await self._redis.mget([self.lease_key(k) for k in keys])
        return [k for k, o in zip(keys, owners, strict=True) if o is None]

    # --- messages ---------------------------------------------------------------

    def serve(self, kind: str, handler: Handler) -> None:
        self._handlers[kind] = handler

    async def call(self, worker: str, kind: str, payload: dict[str, Any], timeout: float = 10.0) -> Any:
        if worker == self.worker_id:
            return await self._handlers[kind](payload)
        rid = secrets.token_hex(8)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        try:
            heard = await self._redis.publish(f"tavern:rpc:{worker}", json.dumps(
                {"id": rid, "from": self.worker_id, "kind": kind, "payload": payload}))
            if not heard:
                raise Unavailable(worker)
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise Unavailable(worker) from None
        finally:
            self._pending.pop(rid, None)

    async def tell_all(self, kind: str, payload: dict[str, Any]) -> None:
        await self._redis.publish("tavern:all", json.dumps({"kind": kind, "payload": payload}))

    async def _listen(self) -> None:
        async for msg in self._pubsub.listen():
            if msg.get("type") != "message":
                continue
            try:
                channel = _text(msg["channel"])
                data = json.loads(msg["data"])
                if channel.startswith("tavern:reply:"):
                    fut = self._pending.get(data["id"])
                    if fut is not None and not fut.done():
                        if "error" in data:
                            fut.set_exception(RemoteError(data.get("kind", ""), data["error"],
                                                                      data.get("code"), data.get("params")))
                        else:
                            fut.set_result(data.get("result"))
                elif channel == "tavern:all":
                    spawn(self._handlers[data["kind"]](data["payload"]), "a message's handler")
                else:
                    spawn(self._answer(data), "a request")
            except Exception:
                log.exception("cluster: a message could not be read")

    async def _answer(self, data: dict[str, Any]) -> None:
        """Serve one request (concurrently with the others: a table's command
        may wait on that table's queue) and send its answer back."""
        try:
            reply = {"id": data["id"], "result": await self._handlers[data["kind"]](data["payload"])}
        except Exception as exc:
            reply = {"id": data["id"], "kind": type(exc).__name__, "error": str(exc),
                     "code": getattr(exc, "code", None), "params": getattr(exc, "params", None)}
        await self._redis.publish(f"tavern:reply:{data['from']}", json.dumps(reply, ensure_ascii=False))
