"""A table actor's inbox: its commands in order of arrival.

What ``asyncio.Queue`` with ``asyncio.wait_for`` gave the actor's loop, for
less: a turn of the loop that waits with a time limit (a player's action
timer, the next deal) used to create a task, two futures and a timer handle
to take one command — and a table takes one at every action. Here a wait is
one future and, with a time limit, one timer handle; a command already
waiting is taken without any.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Inbox(Generic[T]):
    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        if self._waiter is not None:
            _wake(self._waiter)

    def empty(self) -> bool:
        return not self._items

    def get_nowait(self) -> T:
        return self._items.popleft()

    async def get(self, timeout: float | None = None) -> T | None:
        """The next item, or None when ``timeout`` seconds pass without one
        (None: wait as long as it takes)."""
        if timeout is not None and timeout <= 0:
            # A timer is due: it goes first (a time-out before the moves
            # queued behind it, the next deal before a sync), after letting
            # the loop run once, as a zero wait_for did.
            await asyncio.sleep(0)
            return None
        if self._items:
            return self._items.popleft()
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        timer = loop.call_later(timeout, _wake, waiter) if timeout is not None else None
        try:
            await waiter
        finally:
            self._waiter = None
            if timer is not None:
                timer.cancel()
        return self._items.popleft() if self._items else None
