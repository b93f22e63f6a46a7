"""The figures that leave the process: Prometheus metrics (docs/operations.md).

Every metric of the server is declared here, once, and the code that knows
a figure counts it (the table actor its deals and latency, the cluster its
leases, the web layer its answers and refusals). Figures that are a state
rather than events — players and sockets connected, tables by game, send
queues, the database pool — are set by :func:`sample` from the live objects
at each read (and every few seconds in multiprocess mode: web/sampler.py),
so nothing on the hot path counts them.

Several workers (``uvicorn --workers N``): prometheus-client's multiprocess
mode, switched on by ``PROMETHEUS_MULTIPROC_DIR`` in the environment the
workers start with (docker-compose.yml; the directory emptied before they
start). Each worker writes its values to files there and a scrape of any
worker reads all of them: counters and histograms summed, the state gauges
summed over the live workers, the tables each worker holds by worker.

What an action costs: :func:`acted` is one clock read for the first action
waiting for a publication, :func:`published` one more clock read and two
additions to plain numbers (a :class:`Tally`) per publication that follows
actions; a garbage collection likewise. The tallies reach their Prometheus
histograms only when somebody reads them (:func:`flush`: every scrape, the
engine room, and the multiprocess sampler every few seconds), so the hot
path takes no lock, writes no file and builds no label tuple
(docs/benchmarks.md "Metrics").
"""

from __future__ import annotations

import gc
import threading
import time
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics, generate_latest
from prometheus_client import multiprocess as _multiprocess
from prometheus_client import values as _values

# No ``_created`` series beside every counter and histogram: a third of a
# scrape's lines, which no alert or panel here reads.
disable_created_metrics()  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: Multiprocess mode: as prometheus-client decided when it was imported
#: (``PROMETHEUS_MULTIPROC_DIR`` set: its values are files); the library reads
#: the variable itself, this module does not (tests/test_settings_flow.py).
MULTIPROCESS = _values.ValueClass is not _values.MutexValue

# Latency buckets for a player: from a fraction of a millisecond to seconds.
_LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_GC = (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

PLAYERS = Gauge("tavern_players_connected", "Accounts with at least one table socket open", multiprocess_mode="livesum")
TABLES = Gauge("tavern_tables_running", "Live tables run by this server, by game", ["game"], multiprocess_mode="livesum")
WORKER_TABLES = Gauge("tavern_worker_tables", "Live tables each worker holds (the spread between workers)",
                      ["worker"], multiprocess_mode="liveall")
#: The sweep's view of the live tables nobody runs (issue 38: a table held by a worker with no actor
#: after a PostgreSQL restart dealt nowhere while the others dealt, unseen by the site's pulse).
TABLES_ORPHANED = Gauge("tavern_tables_orphaned", "Live tables no worker holds, as the last sweep saw them",
                        multiprocess_mode="livemax")
TABLES_HELD_IDLE = Gauge("tavern_tables_held_idle", "Live tables a worker holds the lease of but runs no actor for",
                         multiprocess_mode="livesum")
DEALS = Counter("tavern_deals", "Deals by game and outcome (started, settled, voided)", ["game", "outcome"])
PUBLICATION = Histogram("tavern_action_publication_seconds",
                        "From a player's action reaching its table to the publication of its result",
                        buckets=_LATENCY)
SOCKETS = Gauge("tavern_websockets_open", "Table WebSockets open", multiprocess_mode="livesum")
SEND_QUEUE = Gauge("tavern_websocket_send_queue_messages", "Messages waiting to be written to slow table sockets",
                   multiprocess_mode="livesum")
SEND_QUEUE_MAX = Gauge("tavern_websocket_send_queue_longest", "The longest send queue of one socket",
                       multiprocess_mode="livemax")
POOL_IN_USE = Gauge("tavern_db_pool_in_use", "Database connections checked out", multiprocess_mode="livesum")
POOL_SIZE = Gauge("tavern_db_pool_size", "Database connections the pool may hold", multiprocess_mode="livesum")
POOL_WAIT = Histogram("tavern_db_pool_wait_seconds", "Time spent waiting for a database connection",
                      buckets=_LATENCY)
DISK_FULL = Counter("tavern_db_disk_full", "Database writes that failed for lack of disk space")
STORE_AWAY = Counter("tavern_db_away", "Requests answered 503: the database was away (a restart, a failover)")
POOL_TIMEOUTS = Counter("tavern_db_pool_timeouts", "Requests answered 503: no database connection in time")
TRANSACTION = Histogram("tavern_db_transaction_seconds", "Database transactions, BEGIN to COMMIT or ROLLBACK",
                        buckets=_LATENCY)
GC_PAUSE = Histogram("tavern_gc_pause_seconds", "Garbage-collection pauses (every table waits)", ["generation"],
                     buckets=_GC)
LEASES = Counter("tavern_lease_renewals", "Renewals of this worker's table leases", ["outcome"])
MOVES = Counter("tavern_table_moves", "Tables changing worker: taken over by, let go by, lost by this one",
                ["direction"])
#: Issue 38: Redis's faults seen by the operator (ops/alerts.yml).
REDIS_UP = Gauge("tavern_redis_reachable", "1 while this worker reaches Redis (its leases renewed), 0 while not",
                 multiprocess_mode="livemin")
SUBSCRIBED = Gauge("tavern_redis_subscribed", "1 while this worker's Redis subscription is made, by what it carries",
                   ["what"], multiprocess_mode="livemin")
UNPROVEN = Counter("tavern_publications_refused", "Publications not sent: this worker could not prove its lease")
REFUSALS = Counter("tavern_refusals", "Refusals answered (pages, API, table sockets), by code", ["code"])
HTTP = Counter("tavern_http_responses", "HTTP answers by route and status", ["method", "route", "status"])

#: When the last deals settled (this process): the engine room's deals per minute.
SETTLED_AT: deque[float] = deque(maxlen=100_000)


# --- the hot path --------------------------------------------------------


class Tally:
    """A histogram's observations kept as plain numbers, moved into the
    Prometheus histogram (``metric``, with ``labels``) by :meth:`flush`.

    Why: ``Histogram.observe`` takes a lock for the sum and one for the bucket
    (and writes an mmap'ed file in multiprocess mode), some microseconds a
    call; an observation here is a bisection and two additions. One writer
    at a time (the event loop, or the garbage collector's callbacks, which
    CPython never runs two at once); :meth:`flush` only reads the numbers
    and hands over what grew since its last call, so it may run in any
    thread and no observation is lost or counted twice."""

    __slots__ = ("_sent", "_sent_total", "bounds", "counts", "labels", "metric", "total")

    def __init__(self, metric: Histogram, *labels: str) -> None:
        self.metric, self.labels = metric, labels
        self.bounds: list[float] = list(metric._upper_bounds)  # the histogram's own bounds, +Inf last
        self.counts = [0] * len(self.bounds)  #: observations per bucket (not cumulative)
        self.total = 0.0
        self._sent = [0] * len(self.bounds)
        self._sent_total = 0.0

    def observe(self, value: float) -> None:
        # bisect_left: the first bound >= value, as the histogram's ``value <= bound``.
        self.counts[bisect_left(self.bounds, value)] += 1
        self.total += value

    def flush(self) -> None:
        counts, total = list(self.counts), self.total
        if counts == self._sent:
            return
        histogram = self.metric.labels(*self.labels) if self.labels else self.metric
        for bucket, now, sent in zip(histogram._buckets, counts, self._sent, strict=True):
            if now != sent:
                bucket.inc(now - sent)
        histogram._sum.inc(total - self._sent_total)
        self._sent, self._sent_total = counts, total


_PUBLICATION = Tally(PUBLICATION)
_GC_TALLIES = [Tally(GC_PAUSE, str(generation)) for generation in range(3)]
_TALLIES = (_PUBLICATION, *_GC_TALLIES)
_flushing = threading.Lock()


def flush() -> None:
    """Move the tallies' new observations into their histograms (before any
    read of the registry; one flush at a time)."""
    with _flushing:
        for tally in _TALLIES:
            tally.flush()


@lru_cache(maxsize=4096)
def child(metric: Any, *labels: str) -> Any:
    """``metric.labels(*labels)``, looked up once: ``labels()`` builds and
    checks a tuple and takes the metric's lock at every call."""
    return metric.labels(*labels)


def acted(pending: float | None) -> float:
    """An action reached a table: the time of the oldest one not yet published."""
    return time.perf_counter() if pending is None else pending


def published(pending: float | None) -> None:
    """The publication that shows the actions waiting since ``pending``."""
    if pending is not None:
        _PUBLICATION.observe(time.perf_counter() - pending)


def deal(game: str, outcome: str) -> None:
    child(DEALS, game, outcome).inc()
    if outcome == "settled":
        SETTLED_AT.append(time.time())


# --- process-wide watchers, installed once by the app ----------------------

#: When the running collection began (0.0: none). CPython runs one collection
#: at a time, its "start" and "stop" callbacks included, whatever the thread.
_gc_began = 0.0


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    global _gc_began
    if phase == "start":
        _gc_began = time.perf_counter()
    elif _gc_began:
        _GC_TALLIES[info["generation"]].observe(time.perf_counter() - _gc_began)
        _gc_began = 0.0


def watch_gc() -> None:
    if _on_gc not in gc.callbacks:
        gc.callbacks.append(_on_gc)


def watch_engine(engine: Any) -> None:
    """Transaction times and pool waits of a SQLAlchemy engine."""
    from sqlalchemy import event

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        conn.info["tavern_t0"] = time.perf_counter()

    def _end(conn: Any) -> None:
        if conn.invalidated:  # cut by a database restart: its info cannot be read (it raised, and closing a session failed)
            return
        t0 = conn.info.pop("tavern_t0", None)
        if t0 is not None:
            TRANSACTION.observe(time.perf_counter() - t0)

    event.listen(engine, "commit", _end)
    event.listen(engine, "rollback", _end)
    pool = engine.pool
    take = getattr(pool, "_do_get", None)
    if take is not None and hasattr(pool, "checkedout"):
        # The pool's own wait (QueuePool): SQLAlchemy has no event before it.
        def timed_get() -> Any:
            t0 = time.perf_counter()
            try:
                return take()
            finally:
                POOL_WAIT.observe(time.perf_counter() - t0)

        pool._do_get = timed_get


def sample(*, players: int, sockets: int, queues: Iterable[int], tables: dict[str, int],
           worker: str, pool: Any) -> None:
    """Set the state gauges from the live objects (web/app.py's sampler)."""
    PLAYERS.set(players)
    SOCKETS.set(sockets)
    lengths = list(queues)
    SEND_QUEUE.set(sum(lengths))
    SEND_QUEUE_MAX.set(max(lengths, default=0))
    for game in list(_games_seen):
        if game not in tables:
            TABLES.labels(game).set(0)
    for game, count in tables.items():
        _games_seen.add(game)
        TABLES.labels(game).set(count)
    WORKER_TABLES.labels(worker).set(sum(tables.values()))
    if hasattr(pool, "checkedout"):
        POOL_IN_USE.set(pool.checkedout())
        POOL_SIZE.set(pool.size())


_games_seen: set[str] = set()


def registry() -> CollectorRegistry:
    """What a scrape reads: every worker's files in multiprocess mode, this
    process's metrics otherwise; this process's tallies flushed first."""
    flush()
    if MULTIPROCESS:
        reg = CollectorRegistry()
        _multiprocess.MultiProcessCollector(reg)  # type: ignore[no-untyped-call]  # unannotated in prometheus_client
        return reg
    from prometheus_client import REGISTRY

    return REGISTRY


def scrape() -> bytes:
    return generate_latest(registry())


def worker_gone(pid: int) -> None:
    """A worker exited: its last observations reach the files (the counters
    stay), its live gauges leave the sums (multiprocess mode)."""
    flush()
    if MULTIPROCESS:
        _multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]  # unannotated in prometheus_client


# --- reading the figures back (the engine room) ----------------------------


def families() -> dict[str, Any]:
    """Metric families by name, as a scrape would read them."""
    return {m.name: m for m in registry().collect()}


def quantile(buckets: list[tuple[float, float]], q: float) -> float | None:
    """The ``q`` quantile estimated from cumulative histogram buckets
    ``(upper bound, count)``, interpolated inside its bucket as Prometheus's
    ``histogram_quantile`` does; None without observations."""
    if not buckets or buckets[-1][1] <= 0:
        return None
    rank = q * buckets[-1][1]
    lower, below = 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if bound == float("inf"):
                return lower
            return lower + (bound - lower) * ((rank - below) / (count - below) if count > below else 1.0)
        lower, below = bound, count
    return lower


def per_minute(now: Callable[[], float] = time.time) -> int:
    """Deals settled in this process in the last minute."""
    cutoff = now() - 60
    while SETTLED_AT and SETTLED_AT[0] < cutoff:
        SETTLED_AT.popleft()
    return len(SETTLED_AT)
