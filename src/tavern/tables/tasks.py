"""Stopping a loop for sure (a table's, the contests', a Redis listener's).

Separate from tables/cluster.py so that the broadcaster, which the cluster
imports, can use it too.
"""

from __future__ import annotations

import asyncio
from typing import Any

#: How long a stopping loop may take to unwind before it is cancelled again.
RECANCEL_SECONDS = 0.5


async def cancel_and_wait(task: asyncio.Task[Any] | None) -> None:
    """Stop ``task`` (a loop of a table, of the contests) and wait until it
    has unwound, so that nothing of it runs after its owner says it stopped.

    Cancelled again until it ends: a library may swallow a cancellation
    that lands inside one of its calls — redis-py 8.1's asyncio client did,
    about one cancel in five delivered during a PUBLISH (measured) — and the
    loop would then go on, the stop waiting for it forever (a table handed
    over that never dealt again, in a CI run's cluster test). The caller's own
    cancellation still goes through: ``asyncio.wait`` raises it."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=RECANCEL_SECONDS)
    if not task.cancelled() and (failure := task.exception()) is not None:
        raise failure
