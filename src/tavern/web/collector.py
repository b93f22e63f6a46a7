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
* collects its young generations as Python does (short pauses);
* never starts a full collection on its own, and runs one every
  ``TAVERN_GC_FULL_SECONDS`` instead (10 minutes by default), so cyclic
  garbage that reached the old generation waits at most that long.

``TAVERN_GC_FULL_SECONDS=0`` leaves Python's own schedule.
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
    def __init__(self, full_seconds: float) -> None:
        self.full_seconds = full_seconds
        self.collections = 0  #: full collections run by this collector
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        global _users, _saved
        if self.full_seconds <= 0:
            return
        if _users == 0:
            _saved = gc.get_threshold()
            gc.collect()  # nothing already dead is frozen
            gc.freeze()
            gc.set_threshold(_saved[0], _saved[1], NEVER)
        _users += 1
        self._task = asyncio.create_task(self._run(), name="gc-full")

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
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        _users -= 1
        if _users == 0 and _saved is not None:
            gc.set_threshold(*_saved)  # the process as it was
            gc.unfreeze()
