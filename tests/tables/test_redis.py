"""The Redis broadcaster against a real redis-server.

Issue: "Fan-out goes through a broadcaster interface: in-process by default,
Redis pub/sub when a Redis URL is set (tested against a real redis-server)".
Two broadcasters stand for two server processes: a table owned by one
process reaches the connections held by the other.
"""

from __future__ import annotations

import asyncio

import pytest

from tavern.tables.broadcast import SPECTATORS, RedisBroadcaster

pytestmark = [pytest.mark.redis]


def test_messages_cross_processes_each_to_its_recipient(redis_url):
    async def scenario():
        owner, other = RedisBroadcaster(redis_url), RedisBroadcaster(redis_url)
        await owner.start()
        await other.start()
        got: dict[str, list[str]] = {"ana": [], "bob": [], "watcher": []}
        other.subscribe(7, "ana", got["ana"].append)
        other.subscribe(7, "bob", got["bob"].append)
        other.subscribe(7, None, got["watcher"].append)
        other.subscribe(8, "ana", lambda t: got["ana"].append("table 8: " + t))
        await asyncio.sleep(0.1)
        await owner.publish(7, {"ana": "for ana", "bob": "for bob", SPECTATORS: "for all"})
        for _ in range(100):
            if all(got.values()):
                break
            await asyncio.sleep(0.02)
        await owner.close()
        await other.close()
        return got

    got = asyncio.run(scenario())
    assert got == {"ana": ["for ana"], "bob": ["for bob"], "watcher": ["for all"]}


def test_a_watcher_not_seated_gets_the_spectators_view(redis_url):
    async def scenario():
        b = RedisBroadcaster(redis_url)
        await b.start()
        seen: list[str] = []
        b.subscribe(3, "cid", seen.append)  # logged in, watching, not seated
        await asyncio.sleep(0.1)
        await b.publish(3, {"ana": "ana's cards", SPECTATORS: "no cards"})
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.02)
        await b.close()
        return seen

    assert asyncio.run(scenario()) == ["no cards"]
