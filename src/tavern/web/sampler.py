"""The state gauges (tavern/metrics.py), set from this process's live
objects at each read (a scrape, the engine room) and, in multiprocess mode
only, every few seconds: there a scrape may reach another worker, which
reads this one's files as last written — its gauges and its tallies
(metrics.flush). One process alone is read only through itself, so nothing
walks its tables and sockets between two reads."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections import Counter
from typing import Any

from tavern import metrics
from tavern.web.state import services

PERIOD = 5.0


def worker_name(app: Any) -> str:
    """This worker as the cluster knows it (hostname-pid without Redis)."""
    return str(getattr(services(app).tables.cluster, "worker_id", None) or f"{socket.gethostname()}-{os.getpid()}")


def sample_now(app: Any) -> None:
    from tavern.web.ws import OUTBOXES

    limits = services(app).ws_limits
    games = Counter(actor.info.game for actor in list(services(app).tables.actors.values()) if not actor.closed)
    metrics.sample(players=len(limits.accounts), sockets=sum(limits.accounts.values()),
                   queues=[q.qsize() for q in list(OUTBOXES)], tables=dict(games),
                   worker=worker_name(app), pool=services(app).engine.pool)


async def run(app: Any) -> None:
    if not metrics.MULTIPROCESS:
        return
    while True:
        with contextlib.suppress(Exception):  # a figure missed, never a stopped sampler
            sample_now(app)
            metrics.flush()
        await asyncio.sleep(PERIOD)
