"""Reads asked at the same moment, made as one (issue 15's reconnect storm).

A restart sends thousands of sockets at the server within seconds; each
asks the database who its cookie speaks for, and the first of each table
loads the table. One statement for many keys costs little more than one
for a single key: :class:`Batched` gathers the keys asked while a fetch is
running and fetches them together next, in a worker thread.

Nothing waits for a batch to fill: a key asked when no fetch is running is
fetched at once. And a key asked while a fetch is running always waits for
the next one, never joins the one under way — every answer comes from a
read that *started after it was asked*, so it sees every write committed
before (a logout, a ban: an ended session is never accepted from a read
made before it ended).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass
class _Loop(Generic[K, V]):
    """One event loop's waiting keys (a test may run the app on several)."""

    waiting: dict[K, list[asyncio.Future[V | None]]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


class Batched(Generic[K, V]):
    def __init__(self, fetch: Callable[[list[K]], dict[K, V]], max_batch: int = 500) -> None:
        #: Answers for the keys it was given (a key absent: ``None``), run in a worker thread.
        self._fetch = fetch
        self.max_batch = max_batch
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Loop[K, V]] = weakref.WeakKeyDictionary()

    async def get(self, key: K) -> V | None:
        loop = asyncio.get_running_loop()
        state = self._loops.get(loop)
        if state is None:
            state = self._loops[loop] = _Loop()
        fut: asyncio.Future[V | None] = loop.create_future()
        state.waiting.setdefault(key, []).append(fut)
        if state.task is None:
            state.task = loop.create_task(self._drain(state), name="batched-reads")
        return await fut

    async def _drain(self, state: _Loop[K, V]) -> None:
        batch: dict[K, list[asyncio.Future[V | None]]] = {}
        try:
            while state.waiting:
                keys = list(state.waiting)[:self.max_batch]
                batch = {k: state.waiting.pop(k) for k in keys}
                try:
                    found = await asyncio.to_thread(self._fetch, keys)
                except Exception as exc:  # every waiter of the batch hears it
                    for futures in batch.values():
                        for f in futures:
                            if not f.done():
                                f.set_exception(exc)
                    continue
                for key, futures in batch.items():
                    for f in futures:
                        if not f.done():  # a socket gone meanwhile cancelled its wait
                            f.set_result(found.get(key))
        finally:
            state.task = None
            # Cancelled (the app stopping): nobody is left waiting forever.
            for futures in [*batch.values(), *state.waiting.values()]:
                for f in futures:
                    if not f.done():
                        f.cancel()
