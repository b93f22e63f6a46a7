"""Fan-out of table messages to the WebSocket connections.

A table actor publishes, for each change, one message per recipient (each
player's own view, and one spectators' view). The broadcaster delivers them
to the connections subscribed to that table:

* :class:`LocalBroadcaster` — in-process, the default (one uvicorn process);
* :class:`RedisBroadcaster` — Redis pub/sub, when ``TAVERN_REDIS_URL`` is set,
  so that a connection held by one process receives the messages of a table
  owned by another.

Messages are already-serialized JSON text: a view is encoded once per
recipient, never once per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from tavern.tables.tasks import cancel_and_wait

if TYPE_CHECKING:
    from redis.asyncio import Redis

#: The key of the spectators' message in a publication.
SPECTATORS = "*"

#: A connection's inbox: receives text frames.
Deliver = Callable[[str], None]


class Broadcaster(Protocol):
    async def publish(self, table_id: int, messages: dict[str, str]) -> None:
        """``messages`` maps a username (or :data:`SPECTATORS`) to its JSON text."""

    def subscribe(self, table_id: int, username: str | None, deliver: Deliver) -> Callable[[], None]:
        """Deliver to ``deliver`` this user's messages (spectators' if ``None``);
        returns the unsubscribe function."""

    def watched(self, table_id: int, seated: list[str]) -> bool:
        """Whether a publication to ``seated`` needs the spectators' message:
        someone without a message of his own listens (or may, elsewhere)."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...


class LocalBroadcaster:
    """In-process fan-out: a dict of subscribers per table."""

    def __init__(self) -> None:
        self._subs: dict[int, dict[str, set[Deliver]]] = defaultdict(lambda: defaultdict(set))

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self._subs.clear()

    def subscribe(self, table_id: int, username: str | None, deliver: Deliver) -> Callable[[], None]:
        key = username if username is not None else SPECTATORS
        self._subs[table_id][key].add(deliver)

        def unsubscribe() -> None:
            self._subs[table_id][key].discard(deliver)

        return unsubscribe

    def watched(self, table_id: int, seated: list[str]) -> bool:
        # The rule _deliver applies: a key without its own message gets the spectators'.
        subs = self._subs.get(table_id) or {}
        return any(delivers and key not in seated for key, delivers in subs.items())

    def _deliver(self, table_id: int, messages: dict[str, str]) -> None:
        subs = self._subs.get(table_id)
        if not subs:
            return
        spectators = messages.get(SPECTATORS)
        for key, delivers in list(subs.items()):
            # A seated player gets his own view; anyone else watching (a
            # player not seated here) gets the spectators' view.
            text = messages.get(key, spectators)
            if text is None:
                continue
            for deliver in list(delivers):
                deliver(text)

    async def publish(self, table_id: int, messages: dict[str, str]) -> None:
        self._deliver(table_id, messages)


#: Connections a worker keeps to Redis, and how long a command waits for a
#: free one. redis-py's asyncio pool refuses the 101st command in flight
#: (MaxConnectionsError) — a restart's hundreds of tables starting side by
#: side, or a crowd's commands to other workers, reached that; a blocking
#: pool makes them wait their turn instead.
REDIS_CONNECTIONS = 64
REDIS_WAIT_SECONDS = 10.0


def redis_client(url: str) -> Redis:
    """An asyncio Redis client on a blocking pool (:data:`REDIS_CONNECTIONS`)."""
    import redis.asyncio as redis  # only needed when Redis is configured

    pool = redis.BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS,
                                                 timeout=REDIS_WAIT_SECONDS)
    return redis.Redis(connection_pool=pool)


class RedisBroadcaster(LocalBroadcaster):
    """Redis pub/sub between processes: each table is a channel
    ``tavern:table:{id}``; a publication is one Redis message holding every
    recipient's text, and each process delivers to its own subscribers."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self._redis = redis_client(url)
        self._pubsub = self._redis.pubsub()
        self._task: asyncio.Task[None] | None = None

    def watched(self, table_id: int, seated: list[str]) -> bool:
        return True  # the other processes' connections are not known here

    async def start(self) -> None:
        await self._pubsub.psubscribe("tavern:table:*")
        self._task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        async for msg in self._pubsub.listen():
            if msg.get("type") != "pmessage":
                continue
            channel = msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
            table_id = int(channel.rsplit(":", 1)[1])
            self._deliver(table_id, json.loads(msg["data"]))

    async def publish(self, table_id: int, messages: dict[str, str]) -> None:
        await self._redis.publish(f"tavern:table:{table_id}", json.dumps(messages))

    async def close(self) -> None:
        if self._task is not None:
            with contextlib.suppress(Exception):
                await cancel_and_wait(self._task)  # the listener sits in redis-py, which may swallow a cancel
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
            await self._redis.aclose()
        await super().close()
