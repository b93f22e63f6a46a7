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
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from tavern.tables.tasks import cancel_and_wait

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger(__name__)

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

    def deliver_here(self, table_id: int, messages: dict[str, str]) -> None:
        """Deliver to this process's subscribers only (Redis may be away)."""

    def tables_here(self) -> list[int]:
        """The tables someone in this process listens to."""

    #: Called when the subscription is made again after Redis was away: the
    #: publications meanwhile never reached this process's connections.
    on_back: list[Callable[[], None]]

    async def start(self) -> None: ...

    async def close(self) -> None: ...


class LocalBroadcaster:
    """In-process fan-out: a dict of subscribers per table."""

    def __init__(self) -> None:
        self._subs: dict[int, dict[str, set[Deliver]]] = defaultdict(lambda: defaultdict(set))
        self.on_back: list[Callable[[], None]] = []  # in one process nothing is ever lost

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

    def deliver_here(self, table_id: int, messages: dict[str, str]) -> None:
        self._deliver(table_id, messages)

    def tables_here(self) -> list[int]:
        return [t for t, subs in self._subs.items() if any(subs.values())]

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


#: Seconds a connection to Redis may take to open: a Redis out of reach
#: answers "paused" soon (issue 38), never hangs a handshake.
REDIS_CONNECT_SECONDS = 2.0


def redis_client(url: str) -> Redis:
    """An asyncio Redis client on a blocking pool (:data:`REDIS_CONNECTIONS`).

    A command that meets a broken connection is sent again, once or twice,
    on a new one: after Redis restarted, every pooled connection is dead, and
    without the retry each one failed one command before it was replaced (a
    table socket's handshake answered 500 half a minute after Redis came
    back: issue 38)."""
    import redis.asyncio as redis  # only needed when Redis is configured
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError, TimeoutError

    pool = redis.BlockingConnectionPool.from_url(
        url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT_SECONDS,
        socket_connect_timeout=REDIS_CONNECT_SECONDS,
        retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2), retry_on_error=[ConnectionError, TimeoutError])
    return redis.Redis(connection_pool=pool)


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says Redis is out of reach (not a refusal of Redis's)."""
    from redis.exceptions import ConnectionError, TimeoutError

    return isinstance(exc, (ConnectionError, TimeoutError, OSError))


#: Seconds between two attempts to subscribe again after Redis went away.
#: At most half a second: the tables are claimed again as soon as Redis
#: answers, and a worker still deaf then (up to 2 s, before) missed their
#: frames — its players timed out and the tables dealt again 11–26 s after
#: Redis was back (bench/bench_faults.py). An attempt costs one refused connect.
RESUBSCRIBE_SECONDS = (0.2, 0.5)


class _Again:
    """A pub/sub connection made again by redis-py: ``callback`` is told."""

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback

    def connected(self, connection: Any) -> None:
        self.callback()


async def listen_forever(client: Redis, subscribe: Callable[[Any], Awaitable[None]],
                         handle: Callable[[dict[str, Any]], None], what: str,
                         on_subscribed: Callable[[], None] | None = None) -> None:
    """Read a pub/sub subscription for good: when Redis goes away (killed,
    restarted, failed over) the subscription is made again, on a new
    connection, as soon as Redis answers — a listener that ended with its
    connection left the worker deaf until a restart (issue 38).
    ``subscribe(pubsub)`` makes the subscriptions; ``on_subscribed`` is
    called each time they are made (again)."""
    from tavern import metrics

    attempt = 0
    while True:
        pubsub = client.pubsub()
        again: _Again | None = None
        try:
            await subscribe(pubsub)
            metrics.SUBSCRIBED.labels(what).set(1)
            if on_subscribed is not None:
                on_subscribed()
                # A connection dropped while Redis still answers (a proxy, a
                # client kill) is made again by redis-py itself, which
                # subscribes again without a word: counted as subscribed
                # again all the same, since what was published in between is
                # lost. Kept here: redis-py holds its callbacks weakly.
                again = _Again(on_subscribed)
                if pubsub.connection is not None:
                    pubsub.connection.register_connect_callback(again.connected)
            attempt = 0
            async for msg in pubsub.listen():
                handle(msg)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not unreachable(exc):
                raise
            metrics.SUBSCRIBED.labels(what).set(0)
            if attempt == 0:
                log.warning("redis: the %s subscription was lost (%s); subscribing again", what, exc)
            delay = RESUBSCRIBE_SECONDS[min(attempt, len(RESUBSCRIBE_SECONDS) - 1)]
            attempt += 1
            await asyncio.sleep(delay)
        finally:
            with contextlib.suppress(Exception):
                if again is not None and pubsub.connection is not None:
                    # Its connection goes back to the pool: told by no one else's reconnection.
                    pubsub.connection.deregister_connect_callback(again.connected)
                await pubsub.aclose()


class RedisBroadcaster(LocalBroadcaster):
    """Redis pub/sub between processes: each table is a channel
    ``tavern:table:{id}``; a publication is one Redis message holding every
    recipient's text, and each process delivers to its own subscribers."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self._redis = redis_client(url)
        self._task: asyncio.Task[None] | None = None

    def watched(self, table_id: int, seated: list[str]) -> bool:
        return True  # the other processes' connections are not known here

    async def start(self) -> None:
        subscribed = asyncio.get_running_loop().create_future()

        def ready() -> None:
            if not subscribed.done():
                subscribed.set_result(None)
                return
            # Subscribed again: whatever was published meanwhile (a new
            # owner's « moved », the frames of a deal) is lost for good here.
            for callback in self.on_back:
                callback()

        self._task = asyncio.create_task(listen_forever(
            self._redis, lambda p: p.psubscribe("tavern:table:*"), self._received, "tables", ready))
        # The first subscription made before the worker serves (or its failure raised).
        await asyncio.wait({subscribed, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if self._task.done():
            self._task.result()

    def _received(self, msg: dict[str, Any]) -> None:
        if msg.get("type") != "pmessage":
            return
        channel = msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
        table_id = int(channel.rsplit(":", 1)[1])
        self._deliver(table_id, json.loads(msg["data"]))

    async def publish(self, table_id: int, messages: dict[str, str]) -> None:
        try:
            await self._redis.publish(f"tavern:table:{table_id}", json.dumps(messages))
        except Exception as exc:
            if not unreachable(exc):
                raise
            # Redis away (for less than a lease, or the table would have
            # stopped): this worker's own sockets still see the move.
            self._deliver(table_id, messages)

    async def close(self) -> None:
        if self._task is not None:
            with contextlib.suppress(Exception):
                await cancel_and_wait(self._task)  # the listener sits in redis-py, which may swallow a cancel
        with contextlib.suppress(Exception):
            await self._redis.aclose()
        await super().close()
