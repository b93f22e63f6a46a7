"""Redis goes away and comes back (issue 38 §1): the cluster heals by itself.

Issue 38: "a 10-second Redis outage wedges the whole site until it is
restarted … the cluster must notice, resubscribe, take its tables' leases
again (or let another worker take them) and deal again within a few seconds
of Redis coming back, with the deals interrupted voided and refunded as after
a crash; while Redis is away a player is told that play is paused (in
French), not that the table is closed, and no handshake answers 500."

Two real workers (uvicorn's supervisor) on one database and a real
redis-server killed with SIGKILL and started again empty; bots play
Ramponneau through whichever worker their socket lands on.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from tests.cluster.scaled import (
    RedisProcess,
    ScaledServer,
    cluster_report,
    handshake_status,
    money_check,
    seed_tables,
    settled_counts,
    start_bots,
    stop_bots,
    wait_for,
)

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

TABLES = 4
OUTAGE = 10.0
#: Generous for a loaded machine; the figure the issue asks ("a few seconds")
#: is measured by the fault suite (docs/reliability.md), not asserted here.
RESUME_WITHIN = 60.0


def _dealt_again(factory, ids, before, more):
    def check():
        now = settled_counts(factory, ids)
        return all(now[t] >= before[t] + more for t in ids)
    return check


def test_a_redis_outage_heals_by_itself(db_url, tmp_path, session_factory):
    village = seed_tables(session_factory, TABLES)
    ids = list(village.tables)
    (tmp_path / "redis").mkdir()
    rds = RedisProcess(tmp_path / "redis")
    rds.start()
    server = ScaledServer(db_url, rds.url, tmp_path, workers=2)
    server.start()
    report = lambda: cluster_report(server, session_factory, ids) + f"\nsubscriptions: {rds.subscriptions()}"  # noqa: E731

    async def scenario():
        stop = asyncio.Event()
        bots, tasks = await start_bots(server, village, stop)
        watcher = bots[0].cookie
        try:
            await wait_for(_dealt_again(session_factory, ids, dict.fromkeys(ids, 0), 1), RESUME_WITHIN,
                           "every table settles a first deal", explain=report)
            before_subs = rds.subscriptions()
            rds.kill()
            down_at = time.monotonic()
            during = []
            while time.monotonic() - down_at < OUTAGE:
                during.append(await handshake_status(server, ids[len(during) % TABLES], watcher))
            rds.start()
            before = settled_counts(session_factory, ids)
            took = await wait_for(_dealt_again(session_factory, ids, before, 2), RESUME_WITHIN,
                                  "every table deals again after Redis came back", explain=report)
            # A worker leads the contests again: the leader's task once died of the
            # outage, and no worker scheduled a contest until a restart (bench_faults.py).
            await wait_for(lambda: rds.lease_holder("contests") is not None, RESUME_WITHIN,
                           "a worker leads the contests again", explain=report)
            after_subs = rds.subscriptions()
            after = [await handshake_status(server, tid, watcher) for tid in ids]
            return before_subs, during, took, after_subs, after
        finally:
            await stop_bots(stop, tasks)

    try:
        before_subs, during, took, after_subs, after = asyncio.run(scenario())
    finally:
        server.stop()
        rds.kill()
    assert before_subs["patterns"] == 2 and len(before_subs["rpc"]) == 2, before_subs
    # "no handshake answers 500", and the player is told play is paused.
    assert not [s for s in during if isinstance(s, int) and s >= 500], during
    assert any("pause" in str(s) for s in during), during
    assert not any("fermée" in str(s) for s in during), during
    # Every worker listens again: its table channels' pattern and its rpc channel.
    assert after_subs["patterns"] == 2 and len(after_subs["rpc"]) == 2, after_subs
    assert all(s == "open" for s in after), after
    assert took < RESUME_WITHIN
    money = money_check(session_factory, village)
    assert money["settled_twice"] == [] and money["voided_but_settled"] == []
    assert money["total"] == money["expected"]  # the interrupted deals refunded
    assert money["audit_ok"]
