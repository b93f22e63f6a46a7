"""The tables' subscription lost and made again (issue 38): what Redis
carried meanwhile never reaches this worker's connections, a new owner's
« moved » among them, so each connection here is told to reconnect. The
fault is real: redis-server drops every pub/sub connection
(``CLIENT KILL TYPE pubsub``), as when it restarts."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis

pytestmark = [pytest.mark.redis, pytest.mark.db]


def test_connections_here_reconnect_when_the_tables_subscription_comes_back(redis_url, settings, session_factory):
    from tavern.tables.bank import SqlBank
    from tavern.tables.broadcast import RedisBroadcaster
    from tavern.tables.cluster import RedisCluster
    from tavern.tables.manager import TableManager, moved_fence

    async def scenario() -> tuple[list[str], list[str]]:
        broadcaster = RedisBroadcaster(redis_url)
        manager = TableManager(SqlBank(session_factory, settings), broadcaster, cluster=RedisCluster(redis_url))
        await manager.start()
        seated: list[str] = []
        watching: list[str] = []
        broadcaster.subscribe(5, "ana", seated.append)
        broadcaster.subscribe(6, None, watching.append)
        try:
            killer = redis.Redis.from_url(redis_url)
            killer.client_kill_filter(_type="pubsub")
            killer.close()
            deadline = time.monotonic() + 60
            while not (seated and watching) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            return seated, watching
        finally:
            await manager.close()

    seated, watching = asyncio.run(scenario())
    assert [moved_fence(t) for t in seated] == [0], seated  # a fence no connection holds: each reconnects
    assert [moved_fence(t) for t in watching] == [0], watching
