"""Workers that share the work (issue 32 §5), on a real database, a real
redis-server and three uvicorn workers, bots playing through their sockets.

Issue 32 §5: "after a failover the first survivor to sweep takes every
orphaned table (7–8 of 12 ended on one worker) and nothing ever moves them
back — balance tables across live workers (at deal boundaries, never
mid-deal) […] A rolling deploy voids deals: the 30 s drain is shorter than
one turn can last […] measure a rolling restart of three workers under play:
no deal voided."
"""

from __future__ import annotations

import asyncio
import math
import os
import signal
import time
from collections import Counter

import pytest
import redis
from tests.cluster.scaled import (
    ScaledServer,
    cluster_report,
    in_progress,
    money_check,
    seed_tables,
    settled_counts,
    start_bots,
    stop_bots,
    wait_for,
)

pytestmark = [pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

def _spread(server: ScaledServer, ids: list[int]) -> tuple[Counter[int], int, bool]:
    """Tables per worker pid, the live workers, and whether every table has a live owner."""
    live = server.worker_pids()
    owners = [server.owner_pid(t) for t in ids]
    return Counter(o for o in owners if o is not None), len(live), all(o in live for o in owners)


def _heartbeats(server: ScaledServer) -> set[int]:
    """The pids of the workers whose heartbeat is in Redis (``tavern:worker:host:pid:tag``)."""
    r = redis.Redis.from_url(server.redis_url)
    try:
        return {int(k.decode().split(":")[3]) for k in r.scan_iter(match="tavern:worker:*")}
    finally:
        r.close()


def test_a_dead_workers_tables_end_spread_across_the_live_workers(db_url, redis_url, tmp_path, session_factory):
    tables = 12
    village = seed_tables(session_factory, tables, per_table=2)
    ids = list(village.tables)
    server = ScaledServer(db_url, redis_url, tmp_path)
    server.start()

    def balanced() -> bool:
        counts, live, owned = _spread(server, ids)
        return owned and live == 3 and max(counts.values()) <= math.ceil(tables / live) + 1

    async def scenario():
        stop = asyncio.Event()
        _, tasks = await start_bots(server, village, stop)
        try:
            # A precondition, not a figure: twelve tables' first deals once took
            # over 60 s in a CI rehearsal's PostgreSQL stage (37 s alone).
            await wait_for(lambda: all(settled_counts(session_factory, ids).values()), 120,
                           "every table settles a first deal",
                           explain=lambda: cluster_report(server, session_factory, ids))
            counts, _, _ = _spread(server, ids)
            victim = counts.most_common(1)[0][0]
            victim_tables = {t for t in ids if server.owner_pid(t) == victim}
            os.kill(victim, signal.SIGKILL)
            # Uvicorn starts a new worker in its place; the survivors take
            # their share of the orphans, then hand the new one its share.
            took = await wait_for(balanced, 60, "the tables spread over the live workers",
                                  explain=lambda: cluster_report(server, session_factory, ids))
            await asyncio.sleep(3)  # and it holds: nothing flaps back
            # Read when every table has a live owner: one caught between two
            # owners at that instant (a start that failed on the store and let
            # its lease go, taken again by the next sweep) is not a flap back
            # (a CI run's PostgreSQL stage read one so, once, at load 6).
            await wait_for(balanced, 30, "the spread holds, every table with a live owner",
                           explain=lambda: cluster_report(server, session_factory, ids))
            after = _spread(server, ids)
            before = settled_counts(session_factory, ids)
            await wait_for(lambda: all(n > before[t] for t, n in settled_counts(session_factory, ids).items()), 60,
                           "every table deals on", explain=lambda: cluster_report(server, session_factory, ids))
            return victim_tables, took, after
        finally:
            await stop_bots(stop, tasks)

    try:
        victim_tables, took, (counts, live, owned) = asyncio.run(scenario())
    finally:
        server.stop()
    assert owned and live == 3
    assert max(counts.values()) <= math.ceil(tables / live) + 1, counts
    money = money_check(session_factory, village)
    with session_factory() as s:
        from tavern.store.models import ArchivedHand

        voided_tables = {s.get(ArchivedHand, aid).table_id for aid, r in money["voided"].items()  # type: ignore[union-attr]
                         if "in_progress" not in (r or {})}
    # Only the dead worker's deals were voided: a table handed over for
    # balance moved between two deals.
    assert voided_tables <= victim_tables, (voided_tables, victim_tables)
    assert money["settled_twice"] == [] and money["voided_but_settled"] == []
    assert money["total"] == money["expected"] and money["audit_ok"]
    print(f"spread within {took:.1f} s: {sorted(counts.values())}")


#: The slow player thinks this long before each move: his deal of
#: Ramponneau (four betting rounds, two players checking or calling) lasts
#: over 4 × 9 = 36 s, longer than the old 30 s drain.
SLOW = 9.0


def test_a_rolling_restart_under_play_voids_no_deal(db_url, redis_url, tmp_path, session_factory):
    tables = 6
    village = seed_tables(session_factory, tables, per_table=2, timer=30)
    ids = list(village.tables)
    slow_table = ids[0]
    server = ScaledServer(db_url, redis_url, tmp_path, default_drain=True)
    server.start()

    async def restart(pid: int) -> float:
        """SIGTERM one worker; uvicorn starts another once it has exited.
        Returns the seconds until the replacement is up and every table owned."""
        began = time.monotonic()
        os.kill(pid, signal.SIGTERM)
        # The drain's bound (180 s) and the replacement's start at most.
        await wait_for(lambda: pid not in (now := server.worker_pids()) and len(now) == 3, 200,
                       f"worker {pid} drained and replaced")
        # As an operator would (docs/operations.md "Rolling restart"): the
        # replacement serving (its heartbeat in Redis) and the tables spread
        # over the three before the next worker stops.
        await wait_for(lambda: _heartbeats(server) >= set(server.worker_pids()) and
                       (spread := _spread(server, ids))[2] and max(spread[0].values()) <= 3, 60,
                       "its replacement up and the tables spread")
        return time.monotonic() - began

    async def scenario():
        stop = asyncio.Event()
        bots, tasks = await start_bots(server, village, stop, {village.tables[slow_table][0]: SLOW})
        try:
            # The first worker stopped is the slow table's, as its first deal
            # starts: that deal outlasts the old 30 s drain.
            await wait_for(lambda: slow_table in in_progress(session_factory, [slow_table]), 60,
                           "a deal at the slow table")
            old = set(server.worker_pids())
            before = settled_counts(session_factory, ids)
            began = time.monotonic()
            order = [server.owner_pid(slow_table)]
            steps = [await restart(order[0])]
            # The slow deal has survived the first drain; the slow player now
            # plays fast (else each further drain waits for one of his deals,
            # and the test for minutes).
            for bot in bots:
                bot.delay = 0.0
            for _ in range(2):
                # Then the others, the one holding the slow table last.
                rest = sorted((p for p in old if p not in order and p in server.worker_pids()),
                              key=lambda p: server.owner_pid(slow_table) == p)
                order.append(rest[0])
                steps.append(await restart(rest[0]))
            took = time.monotonic() - began
            assert not old & set(server.worker_pids())  # three new workers
            during = settled_counts(session_factory, ids)
            # Every table deals on (the slow one: its deal cut by no drain has settled).
            await wait_for(lambda: all(n > (before if t == slow_table else during)[t]
                                       for t, n in settled_counts(session_factory, ids).items()), 60,
                           "every table deals on after the restart")
            return took, steps, sum(during.values()) - sum(before.values())
        finally:
            await stop_bots(stop, tasks)

    try:
        took, steps, played = asyncio.run(scenario())
    finally:
        server.stop()
    money = money_check(session_factory, village)
    voided = {aid: r for aid, r in money["voided"].items() if "in_progress" not in (r or {})}
    print(f"rolling restart of 3 workers: {took:.1f} s (each: {', '.join(f'{t:.1f}' for t in steps)} s), "
          f"{played} deals settled meanwhile, {len(voided)} voided")
    assert voided == {}, voided  # no deal voided, not even the slow player's
    assert played > 0
    assert money["settled_twice"] == [] and money["voided_but_settled"] == []
    assert money["total"] == money["expected"] and money["audit_ok"]
