"""Leases, fences and messages between workers, against a real redis-server
(tables/cluster.py; issue 14: "ownership is a lease in Redis (renewed while
the worker lives, fenced by a token so that a worker that lost its lease can
never settle a deal)")."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis

from tavern.tables.actor import CommandError
from tavern.tables.cluster import RedisCluster, RemoteError, Unavailable
from tavern.tables.lease_scripts import RENEW

pytestmark = [pytest.mark.redis]


def test_one_holder_at_a_time_and_each_new_holder_a_higher_fence(redis_url):
    async def scenario():
        a, b = RedisCluster(redis_url, lease_seconds=1), RedisCluster(redis_url, lease_seconds=1)
        try:
            first = await a.acquire("table:7")
            again = await a.acquire("table:7")  # its own lease: the same fence, renewed
            refused = await b.acquire("table:7")
            owner = await b.owner("table:7")
            # a is never started: nothing renews its lease, as if it had died.
            await asyncio.sleep(1.3)
            taken = await b.acquire("table:7")
            await a.release("table:7")  # too late: must not drop b's lease
            return first, again, refused, owner, taken, await b.owner("table:7"), a.worker_id, b.worker_id
        finally:
            await a.close()
            await b.close()

    first, again, refused, owner, taken, after, wa, wb = asyncio.run(scenario())
    assert first == again and first is not None
    assert refused is None and owner == (wa, first)
    assert taken is not None and taken > first  # fences only grow
    assert after == (wb, taken)


def test_a_renewed_lease_outlives_its_time_and_a_stolen_one_is_reported_lost(redis_url):
    async def scenario():
        a = RedisCluster(redis_url, lease_seconds=0.9)
        lost: list[str] = []
        a.on_lost(lost.append)
        await a.start()
        try:
            fence = await a.acquire("contests")
            await asyncio.sleep(2.0)  # more than two lease times: renewed meanwhile
            still = await a.owner("contests")
            # Another worker's lease where a's was (its lease expired during a pause, say).
            r = redis.Redis.from_url(redis_url)
            r.set(RedisCluster.lease_key("contests"), "other:1:x|99", px=5000)
            r.close()
            for _ in range(40):
                if lost:
                    break
                await asyncio.sleep(0.1)
            return fence, still, lost, a.held("contests"), a.worker_id
        finally:
            await a.close()

    fence, still, lost, held, worker = asyncio.run(scenario())
    assert still == (worker, fence)
    assert lost == ["contests"] and held is None


def test_a_lease_run_out_during_a_stall_is_kept_unless_another_worker_took_it(redis_url):
    """A worker whose event loop stalled past its lease (a busy machine) is not
    dead: if nobody acquired the table meanwhile (the fence counter unmoved),
    the next renewal takes the lease again with the same fence; once another
    worker has acquired it (a higher fence), the lease is lost for good."""
    async def scenario():
        a = RedisCluster(redis_url, lease_seconds=0.9)
        lost: list[str] = []
        a.on_lost(lost.append)
        await a.start()
        r = redis.Redis.from_url(redis_url)
        try:
            kept = await a.acquire("table:41")
            assert await a.acquire("table:42") is not None
            # Both leases run out as if the loop had stalled past their time.
            r.delete(RedisCluster.lease_key("table:41"), RedisCluster.lease_key("table:42"))
            r.incr(RedisCluster.fence_key("table:42"))  # another worker acquired 42 and let it go
            for _ in range(40):
                if lost:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.4)
            return kept, await a.owner("table:41"), a.held("table:41"), lost, a.held("table:42"), a.worker_id
        finally:
            r.close()
            await a.close()

    kept, owner, held, lost, held_42, worker = asyncio.run(scenario())
    assert owner == (worker, kept) and held == kept
    assert lost == ["table:42"] and held_42 is None


def test_leases_are_renewed_while_the_event_loop_is_blocked(redis_url):
    """A saturated machine is not a dead worker: the renewals run in a thread
    of their own, so a loop blocked for three lease times keeps its lease
    (and its fence), and another worker cannot take it meanwhile."""
    async def scenario():
        a = RedisCluster(redis_url, lease_seconds=0.9)
        b = RedisCluster(redis_url, lease_seconds=0.9)
        lost: list[str] = []
        a.on_lost(lost.append)
        await a.start()
        try:
            fence = await a.acquire("table:51")
            time.sleep(2.7)  # the loop blocked: no coroutine of a's runs meanwhile
            taken = await b.acquire("table:51")
            await asyncio.sleep(0.5)
            return fence, taken, await a.owner("table:51"), lost, a.worker_id
        finally:
            await a.close()
            await b.close()

    fence, taken, owner, lost, worker = asyncio.run(scenario())
    assert taken is None
    assert owner == (worker, fence) and lost == []


def test_a_released_lease_is_not_taken_back_by_a_renewal(redis_url):
    """Letting a lease go moves its fence counter on: a renewal that was in
    flight cannot mistake it for a lease that ran out during a stall, and the
    next worker acquires it at once with a higher fence."""
    async def scenario():
        a = RedisCluster(redis_url, lease_seconds=0.9)
        b = RedisCluster(redis_url)
        await a.start()
        try:
            fence = await a.acquire("table:61")
            held = list(a._held.items())  # what a renewal in flight holds
            await a.release("table:61")
            r = redis.Redis.from_url(redis_url)
            keys = [k for key, _ in held for k in (RedisCluster.lease_key(key), RedisCluster.fence_key(key))]
            r.register_script(RENEW)(keys=keys, args=[900, *(f"{a.worker_id}|{f}" for _, f in held)])
            r.close()
            return fence, await b.acquire("table:61")
        finally:
            await a.close()
            await b.close()

    fence, again = asyncio.run(scenario())
    assert again is not None and again > fence


def test_requests_reach_one_worker_and_refusals_come_back_as_such(redis_url):
    async def scenario():
        a, b = RedisCluster(redis_url), RedisCluster(redis_url)
        await a.start()
        await b.start()
        heard: list[tuple[str, dict]] = []

        async def echo(payload):
            return {"echo": payload["n"] * 2}

        async def refuse(payload):
            raise CommandError("not_your_turn", action="fold")

        async def note_a(payload):
            heard.append(("a", payload))

        async def note_b(payload):
            heard.append(("b", payload))

        a.serve("echo", echo)
        a.serve("refuse", refuse)
        a.serve("note", note_a)
        b.serve("note", note_b)
        try:
            await asyncio.sleep(0.1)
            answer = await b.call(a.worker_id, "echo", {"n": 21})
            with pytest.raises(RemoteError) as refused:
                await b.call(a.worker_id, "refuse", {})
            with pytest.raises(Unavailable):
                await b.call("nobody:0:0", "echo", {"n": 1})
            await b.tell_all("note", {"x": 1})
            for _ in range(40):
                if len(heard) == 2:
                    break
                await asyncio.sleep(0.05)
            return answer, refused.value, sorted(heard)
        finally:
            await a.close()
            await b.close()

    answer, refused, heard = asyncio.run(scenario())
    assert answer == {"echo": 42}
    assert refused.kind == "CommandError" and str(refused) == "Ce n'est pas votre tour."
    # The refusal's code and parameters cross the workers with it.
    assert (refused.code, refused.params) == ("not_your_turn", {"action": "fold"})
    assert heard == [("a", {"x": 1}), ("b", {"x": 1})]


def test_shared_counts_hold_across_workers_and_forget_a_dead_one(redis_url):
    """The WebSocket caps per account and address (web/wslimits.py) count
    every live worker's sockets."""

    async def scenario():
        a, b = RedisCluster(redis_url, lease_seconds=1), RedisCluster(redis_url, lease_seconds=1)
        await a.start()
        await b.start()
        try:
            caps = {"ws:account:5": 2}
            got = [await a.take_counts(caps), await b.take_counts(caps), await b.take_counts(caps)]
            await b.give_counts(["ws:account:5"])
            got.append(await b.take_counts(caps))  # one given back: room for one
            got.append(await a.take_counts(caps))
            # a dies: its heartbeat stops, and its share stops counting.
            for task in a._tasks:
                task.cancel()
            r = redis.Redis.from_url(redis_url)
            r.delete(f"tavern:worker:{a.worker_id}")
            r.close()
            got.append(await b.take_counts(caps))
            return got
        finally:
            await a.close()
            await b.close()

    assert asyncio.run(scenario()) == [True, True, False, True, False, True]


def test_a_crowd_of_commands_waits_for_a_connection_instead_of_failing(redis_url):
    """A restart's hundreds of tables start side by side, each asking Redis
    who holds it: redis-py's asyncio pool refused the 101st command in flight
    (MaxConnectionsError, seen as connections dropped in bench_scaleout.py);
    the worker's pool now makes them wait their turn."""
    async def scenario():
        a = RedisCluster(redis_url)
        try:
            fences = await asyncio.gather(*(a.acquire(f"table:{1000 + n}") for n in range(400)))
            owners = await asyncio.gather(*(a.owner(f"table:{1000 + n}") for n in range(400)))
            return fences, owners, a.worker_id
        finally:
            await a.close()

    fences, owners, worker = asyncio.run(scenario())
    assert all(f is not None for f in fences)
    assert owners == [(worker, f) for f in fences]


def test_a_table_left_by_a_dead_owner_is_waited_for_and_one_a_live_owner_renews_is_refused(
        redis_url, settings, session_factory):
    """A contests' leader that took over from a dead one asks for its tables
    at once, while the dead one's table leases may still run a moment (each
    was renewed at its own time; a flaky CI run resumed no contest for it):
    the table is waited for until a dead owner's lease has run out, and only
    a live owner's renewed lease refuses it (``TableMoved``)."""
    from tests.tables.conftest import build_world

    from tavern.tables.bank import SqlBank
    from tavern.tables.broadcast import LocalBroadcaster
    from tavern.tables.manager import TableManager, TableMoved, table_key

    world = build_world(session_factory, names=("ana", "bob"))
    tid = world.table_id

    async def scenario():
        dead = RedisCluster(redis_url, lease_seconds=0.9)  # never started: nothing renews its leases
        live = RedisCluster(redis_url, lease_seconds=0.9)
        heir = RedisCluster(redis_url, lease_seconds=0.9)
        await live.start()
        manager = TableManager(SqlBank(session_factory, settings), LocalBroadcaster(), cluster=heir)
        try:
            left = await dead.acquire(table_key(tid))
            fence = await manager.lease(tid)  # waits out the dead lease instead of giving the table up
            owner = await heir.owner(table_key(tid))
            await heir.release(table_key(tid))
            assert await live.acquire(table_key(tid)) is not None
            began = time.monotonic()
            with pytest.raises(TableMoved):
                await manager.lease(tid)
            waited = time.monotonic() - began
            return left, fence, owner, waited, heir.worker_id
        finally:
            await live.close()
            await heir.close()
            await dead.close()

    left, fence, owner, waited, heir_id = asyncio.run(scenario())
    assert left is not None and fence > left and owner == (heir_id, fence)
    assert waited >= 1.8  # two lease times, the live owner renewing all along


def test_a_paused_holder_cannot_prove_a_lease_another_worker_took(redis_url):
    """Issue 38 §2: "a process must not publish for a table whose lease it
    can no longer prove (check the fence before each publication, as before
    each write)". ``a`` holds table 9 and is never started (nothing renews
    its lease: it is paused); once ``b`` has taken the table, ``a`` cannot
    prove its fence — and learns that it lost the table — while ``b`` can."""

    async def scenario():
        a, b = RedisCluster(redis_url, lease_seconds=1), RedisCluster(redis_url, lease_seconds=1)
        lost: list[str] = []
        a.on_lost(lost.append)
        try:
            fa = await a.acquire("table:9")
            fresh = await a.prove("table:9", fa)  # within a lease of its acquisition: known without asking
            fb = None
            deadline = time.monotonic() + 60
            while fb is None and time.monotonic() < deadline:  # the lease runs out while a is "paused"
                fb = await b.acquire("table:9")
                await asyncio.sleep(0.05)
            return fa, fresh, fb, await a.prove("table:9", fa), lost, await b.prove("table:9", fb), \
                await b.prove("table:9", fa)
        finally:
            await a.close()
            await b.close()

    fa, fresh, fb, a_proves, lost, b_proves, b_old = asyncio.run(scenario())
    assert fresh is True
    assert fb is not None and fb > fa
    assert a_proves is False and lost == ["table:9"]
    assert b_proves is True and b_old is False  # an older fence proves nothing, even to the holder


def test_a_holder_whose_lease_ran_out_unclaimed_proves_it_again(redis_url):
    """A stalled loop is not a dead worker (RENEW): past its lease but with
    nobody else holding the table, the holder proves its fence again by
    asking Redis, and keeps publishing."""

    async def scenario():
        a = RedisCluster(redis_url, lease_seconds=0.6)
        try:
            fa = await a.acquire("table:10")
            r = redis.Redis.from_url(redis_url)
            try:
                deadline = time.monotonic() + 60
                while r.exists(RedisCluster.lease_key("table:10")) and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                proven = await a.prove("table:10", fa)
                return proven, (await a.owner("table:10")), a.worker_id, fa
            finally:
                r.close()
        finally:
            await a.close()

    proven, owner, wa, fa = asyncio.run(scenario())
    assert proven is True and owner == (wa, fa)
