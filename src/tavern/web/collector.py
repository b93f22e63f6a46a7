"""When a server process collects its cyclic garbage (docs/benchmarks.md "Capacity").

CPython's full collection (generation 2) walks every object the process holds
with the GIL taken: no coroutine runs meanwhile. With thousands of players
connected a server holds a few hundred thousand objects, and a full
collection took 100–350 ms on this project's benchmark machine (measured with
``gc.callbacks`` at 1,200 players). Python starts one whenever the objects
that survived the young collections grow by a quarter — every 10–25 s while
players sit down and deals accumulate — and each stalled every table for its
length: the 99th percentile of action→view latency at 1,200–2,400 players was
made of them.

So a server process:

* freezes what the imports built (``gc.freeze()``: modules, classes, the
  engines' tables — they live as long as the process) so that no collection
  walks them again;
* collects its youngest generation every ``TAVERN_GC_YOUNG_SECONDS``
  (50 ms by default) and never its middle one on its own (see below);
* never starts a full collection on its own, and runs one every
  ``TAVERN_GC_FULL_SECONDS`` instead (10 minutes by default), so cyclic
  garbage that reached the older generations waits at most that long.

Why the young collections on a clock. Python starts one when the tracked
objects allocated minus those freed pass 700 — and freeing an *old* object
counts too. A server's steady work is made of objects that live a moment:
every connection's pending receive and send (a coroutine chain, a future,
a queue getter) is replaced at each message, and the previous ones, already
aged, are freed. So the count crept up slowly (a collection every 0.7–1.5 s
at 1,200–2,400 players) while the young generation held every one of those
live objects: 15,000 at 1,200 players, and each young collection walked
them all — 5–20 ms; every tenth one walked the middle generation, 27–45 ms
(``gc.callbacks`` in the server, bench_capacity at 2,400 players), both
growing with the players and both stalling every table. Collected every
50 ms, the young generation holds only what the last 50 ms allocated and
still use: 0.3–0.7 ms a collection at 2,400 players (at most 3–6 ms),
about 1.2 % of a core.
What survives one moves to the middle generation, which only the full
collection walks; in steady play those young collections found no garbage
at all (the server's cycles are made at start-up and while players sit down),
so what waits there for the full collection is little.

``TAVERN_GC_FULL_SECONDS=0`` leaves Python's own schedule;
``TAVERN_GC_YOUNG_SECONDS=0`` leaves Python's own young and middle
collections (the full ones still on the schedule).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

log = logging.getLogger(__name__)

#: A generation-2 threshold no count of young collections reaches.
NEVER = 2**31 - 1

_users = 0  #: collectors started and not closed (tests run several apps)
_saved: tuple[int, int, int] | None = None


class Collector:
    def __init__(self, full_seconds: float, young_seconds: float = 0.0) -> None:
        self.full_seconds = full_seconds
        self.young_seconds = young_seconds
        self.collections = 0  #: full collections run by this collector
        self.young_collections = 0  #: young collections run by this collector
        self._task: asyncio.Task[None] | None = None
        self._young: asyncio.Task[None] | None = None

    def start(self) -> None:
        global _users, _saved
        if self.full_seconds <= 0:
            return
        if _users == 0:
            _saved = gc.get_threshold()
            gc.collect()  # nothing already dead is frozen
            gc.freeze()
            # Python still starts a young collection past its threshold (a
            # burst of allocations between two ticks), never an older one.
            gc.set_threshold(_saved[0], NEVER if self.young_seconds > 0 else _saved[1], NEVER)
        _users += 1
        self._task = asyncio.create_task(self._run(), name="gc-full")
        if self.young_seconds > 0:
            self._young = asyncio.create_task(self._run_young(), name="gc-young")

    async def _run_young(self) -> None:
        while True:
            await asyncio.sleep(self.young_seconds)
            gc.collect(0)
            self.young_collections += 1

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.full_seconds)
            began = time.perf_counter()
            found = gc.collect()
            self.collections += 1
            log.info("full garbage collection: %d objects freed in %.0f ms", found,
                     (time.perf_counter() - began) * 1000)

    async def close(self) -> None:
        global _users
        if self._task is None:
            return
        for task in (self._task, self._young):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._young = None
        _users -= 1
        if _users == 0 and _saved is not None:
            gc.set_threshold(*_saved)  # the process as it was
            gc.unfreeze()
