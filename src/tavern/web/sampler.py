"""The state gauges (tavern/metrics.py), set from this process's live
objects: every few seconds (in multiprocess mode the scrape may reach
another worker, which reads this one's last values) and at each scrape."""

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
    while True:
        with contextlib.suppress(Exception):  # a figure missed, never a stopped sampler
            sample_now(app)
        await asyncio.sleep(PERIOD)
