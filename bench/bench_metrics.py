"""What a Prometheus scrape of ``/metrics`` costs at 4,000 players (issue 32:
"a scrape at 4,000 players takes under 50 ms").

A scrape is the sampling of the state gauges from the live objects
(web/sampler.py: every table actor, every socket's send queue) and the text
of every series. Here the live objects are those of a process at 4,000
players — 667 six-seat tables over the eight games, 4,000 sockets and their
queues — and the series are those a long-running server accumulates: every
game's deals, every route and status answered, every refusal code, full
histograms. Single process, then multiprocess mode (three workers' files
read and merged, as under ``uvicorn --workers 3``).

Then the hot path, in each mode: what an action and its publication
(``metrics.acted`` + ``metrics.published``), a garbage collection's two
callbacks, a deal and a refusal cost in µs (best of 5 rounds of 200,000).

    .venv/bin/python bench/bench_metrics.py [players, default 4000]
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections import Counter
from types import SimpleNamespace

GAMES = ["ramponneau", "draw", "rami_francais", "double_rami", "remigio", "gin", "rummoli", "rams"]
ROUNDS = 30


def fake_app(players: int) -> SimpleNamespace:
    from sqlalchemy import create_engine

    tables = {i: SimpleNamespace(info=SimpleNamespace(game=GAMES[i % len(GAMES)]), closed=False)
              for i in range(players // 6)}
    limits = SimpleNamespace(accounts=Counter({i: 1 for i in range(players)}))
    engine = create_engine("sqlite://")
    found = SimpleNamespace(tables=SimpleNamespace(actors=tables, cluster=SimpleNamespace()),
                            ws_limits=limits, engine=engine)
    app = SimpleNamespace(state=SimpleNamespace(services=found))
    app.app = app  # web/state.services() reads a request's or socket's .app
    return app


def populate(players: int) -> SimpleNamespace:
    """The series of a long-running server, and the live objects of ``players``."""
    from tavern import metrics
    from tavern.catalogue import MESSAGES
    from tavern.web.ws import OUTBOXES

    rng = random.Random(7)
    for game in GAMES:
        for outcome in ("started", "settled", "voided"):
            metrics.DEALS.labels(game, outcome).inc(rng.randint(1, 10_000))
    for code in list(MESSAGES)[:120]:
        metrics.REFUSALS.labels(code).inc()
    for i in range(80):  # routes × statuses
        for status in ("200", "303", "400", "403", "404"):
            metrics.HTTP.labels("GET", f"/route/{i}", status).inc()
    for _ in range(10_000):
        metrics.PUBLICATION.observe(rng.expovariate(200))
        metrics.TRANSACTION.observe(rng.expovariate(500))
        metrics.POOL_WAIT.observe(rng.expovariate(5000))
    for gen in "012":
        metrics.GC_PAUSE.labels(gen).observe(0.001)
    metrics.LEASES.labels("renewed").inc(1000)
    metrics.MOVES.labels("taken").inc(3)
    for _ in range(players):
        q: asyncio.Queue[str] = asyncio.Queue()
        if rng.random() < 0.05:
            q.put_nowait("x")
        OUTBOXES.add(q)
    return fake_app(players)


def measure(players: int) -> list[float]:
    from tavern import metrics
    from tavern.web.sampler import sample_now

    app = populate(players)
    times = []
    for _ in range(ROUNDS):
        began = time.perf_counter()
        sample_now(app)
        body = metrics.scrape()
        times.append((time.perf_counter() - began) * 1000)
    lines = body.count(b"\n")
    print(f"  {len(body):,} bytes, {lines:,} lines")
    return times


def hot_path(label: str) -> None:
    from tavern import metrics

    info = {"generation": 0, "collected": 0, "uncollectable": 0}

    def collection() -> None:
        metrics._on_gc("start", info)
        metrics._on_gc("stop", info)

    calls = {"action + publication": lambda: metrics.published(metrics.acted(None)),
             "garbage collection": collection,
             "deal counted": lambda: metrics.deal("ramponneau", "started"),
             "refusal counted": lambda: metrics.child(metrics.REFUSALS, "not_your_turn").inc()}
    n = 200_000
    costs = {name: min(timeit.repeat(call, number=n, repeat=5)) / n * 1e6 for name, call in calls.items()}
    metrics.flush()
    print(f"{label} hot path: " + ", ".join(f"{name} {us:.2f} µs" for name, us in costs.items()))


def report(label: str, times: list[float]) -> None:
    times.sort()
    print(f"{label}: median {statistics.median(times):.1f} ms, worst {times[-1]:.1f} ms ({ROUNDS} scrapes)")


def main() -> int:
    players = next((int(a) for a in sys.argv[1:] if a.isdigit()), 4000)
    if "--child" in sys.argv:  # multiprocess mode: the directory was set before the import
        if "--write" in sys.argv:
            populate(players)
            return 0
        report(f"multiprocess mode, 3 workers' files, {players} players", measure(players))
        hot_path("multiprocess mode")
        return 0
    report(f"one process, {players} players", measure(players))
    hot_path("one process")
    with tempfile.TemporaryDirectory(prefix="tavern-bench-metrics-") as tmp:
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": tmp}
        for _ in range(2):  # two other workers' files
            subprocess.run([sys.executable, __file__, "--child", "--write", str(players // 3)], env=env, check=True)
        subprocess.run([sys.executable, __file__, "--child", str(players // 3)], env=env, check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
