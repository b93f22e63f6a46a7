"""The table benchmark against one worker and two workers, in one run, on
PostgreSQL and Redis (issue 14, docs/benchmarks.md "Scale-out").

For each setup (``uvicorn --workers 1`` and ``--workers 2``, both with
``TAVERN_REDIS_URL``, so the one-worker run pays the same Redis fan-out) the
player count rises step by step; at each step a fresh server serves fresh
tables (six bots each, in their own process, connected to whichever worker
the kernel hands them) and the action→view latency and throughput are
measured as in ``bench_tables.py``. It prints each step, the largest number
of players each setup held with p99 under 50 ms, and the figures of both
setups at the first load where one worker's p99 passed 50 ms.

Needs PostgreSQL's and Redis' server binaries (Debian packages; the script
starts a throwaway PostgreSQL through scripts/with-postgres.sh and its own
redis-server, both on loopback, both removed at the end).

    .venv/bin/python bench/bench_scaleout.py                 # steps 300…2,400 players
    .venv/bin/python bench/bench_scaleout.py --quick         # 120 and 240 players, 8 s each
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _tables_world import CAVE, ROOT, SEATS, cookies_for, migrate, seed  # noqa: E402
from bench_tables import GOAL_P99_MS, HOST, TAVERN_ARGS, Server, free_port, leave_tmp, pct, run_phase, split  # noqa: E402


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children (uvicorn's workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


class Workers(Server):
    """``uvicorn --workers N`` on one port; its CPU is its workers' CPU."""

    def cpu_seconds(self) -> float:
        return tree_cpu_seconds(self.proc.pid)


def traffic_probe(redis_url: str, db_url: str) -> Callable[[], dict[str, float]]:
    """Counters of the two shared servers, read at both ends of a window
    (docs/scale.md): Redis' commands, PUBLISHes and bytes in and out;
    PostgreSQL's transactions and rows written, and the archive's size."""
    import psycopg
    import redis

    client = redis.Redis.from_url(redis_url)
    dsn = db_url.replace("postgresql+psycopg://", "postgresql://")

    def read() -> dict[str, float]:
        stats = client.info("stats")
        publish = client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0)
        with psycopg.connect(dsn) as pg:
            commits, inserted, updated, deleted = pg.execute(
                "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database"
                " WHERE datname = current_database()").fetchone() or (0, 0, 0, 0)
            archive = pg.execute("SELECT pg_total_relation_size('archived_hands')").fetchone()
        return {"redis_commands": stats["total_commands_processed"], "redis_publish": publish,
                "redis_in": stats["total_net_input_bytes"], "redis_out": stats["total_net_output_bytes"],
                "pg_commits": commits, "pg_rows": inserted + updated + deleted,
                "archive_bytes": archive[0] if archive else 0}
    return read


def traffic_line(out: dict[str, Any], n_players: int, seconds: float) -> str:
    """The window's counters per second and per 1,000 players (docs/scale.md)."""
    w, k = out["window"], 1000 / n_players
    per_s = {key: w[key] / seconds * k for key in w}
    per_deal = w["archive_bytes"] / max(1, out["deals"])
    return (f"    per 1,000 players and second: Redis {per_s['redis_commands']:.0f} commands, "
            f"{per_s['redis_publish']:.0f} PUBLISH, {per_s['redis_in'] / 1024:.0f} KiB in, "
            f"{per_s['redis_out'] / 1024:.0f} KiB out; PostgreSQL {per_s['pg_commits']:.0f} commits, "
            f"{per_s['pg_rows']:.0f} rows written; archive {per_deal:.0f} bytes a deal "
            f"({out['deals'] / seconds * k:.2f} deals/s)")


def start_redis(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", HOST, "--save", "", "--appendonly",
                             "no", "--dir", str(tmp)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis

    client = redis.Redis(host=HOST, port=port)
    for _ in range(200):
        try:
            client.ping()
            break
        except redis.ConnectionError:
            time.sleep(0.05)
    client.close()
    return proc, f"redis://{HOST}:{port}/0"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--steps", default=None, help="players per step, comma-separated (multiples of 6)")
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--pause", type=float, default=3.0, help="TAVERN_DEAL_PAUSE_SECONDS (the shipped 3 s)")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir (the workers' logs)")
    args = ap.parse_args()
    if not os.environ.get("TAVERN_DATABASE_URL", "").startswith("postgresql"):
        # A throwaway PostgreSQL for this run, then this script again inside it.
        return subprocess.call([str(ROOT / "scripts/with-postgres.sh"), sys.executable, *sys.argv])
    db_url = os.environ["TAVERN_DATABASE_URL"]
    steps = [int(x) for x in args.steps.split(",")] if args.steps else (
        [120, 240] if args.quick else [300, 600, 1200, 1800, 2400])
    seconds = args.seconds or (8.0 if args.quick else 15.0)
    warmup = 3.0

    tmp = Path(tempfile.mkdtemp(prefix="tavern-bench-scaleout-"))
    redis_proc, redis_url = start_redis(tmp)
    try:
        secret = secrets.token_urlsafe(32)
        os.environ.update({"TAVERN_DATA_DIR": str(tmp), "TAVERN_SECRET_KEY": secret})
        per_setup = sum(s // SEATS for s in steps)
        t = time.monotonic()
        migrate(db_url)
        world = seed(db_url, 2 * per_setup)
        cookies = cookies_for(secret, db_url, [uid for tid in world.tables for _, uid in world.players[tid]])
        print(f"setup: PostgreSQL + redis-server, {len(world.tables)} tables seeded in {time.monotonic() - t:.1f} s;"
              f" cpus={os.cpu_count()} loadavg={os.getloadavg()[0]:.1f}; think {args.think:.1f} s,"
              f" deal pause {args.pause:.1f} s", flush=True)
        pool = list(world.tables)
        results: dict[int, list[tuple[int, dict[str, Any]]]] = {1: [], 2: []}
        for n_players in steps:
            for workers in (1, 2):
                n_tables = n_players // SEATS
                mine, pool = pool[:n_tables], pool[n_tables:]
                port = free_port()
                env = {"TAVERN_DATABASE_URL": db_url, "TAVERN_REDIS_URL": redis_url, "TAVERN_DATA_DIR": str(tmp),
                       "TAVERN_SECRET_KEY": secret, "TAVERN_DEAL_PAUSE_SECONDS": str(args.pause),
                       "TAVERN_FREE_HANDS_PER_DAY": "1000000000", "TAVERN_WS_PER_ADDRESS": "100000",
                       "TAVERN_WORKERS": str(workers), "TAVERN_DRAIN_SECONDS": "2",
                       "TAVERN_ALLOWED_ORIGINS": f"http://{HOST}:{port}"}
                server = Workers("tavern.web.app:create_app", env, tmp / f"w{workers}-{n_players}.log", port=port,
                                 extra_args=["--workers", str(workers), *TAVERN_ARGS])
                try:
                    tables = [(tid, [(name, cookies[uid]) for name, uid in world.players[tid]]) for tid in mine]
                    cfg = {"ws_base": server.base.replace("http", "ws"), "origin": server.base,
                           "think": args.think, "cave": CAVE, "mode": "tavern"}
                    out = run_phase(server, [{**cfg, "tables": part, "seed": i}
                                             for i, part in enumerate(split(tables, 2))], warmup, seconds,
                                    probe=traffic_probe(redis_url, db_url))
                finally:
                    server.stop()
                results[workers].append((n_players, out))
                lat = out["latencies"]
                print(f"{workers} worker(s), {n_players:5d} players: actions/s {out['actions'] / seconds:7.1f}  "
                      f"deals/s {out['deals'] / seconds:5.1f}  p50 {pct(lat, 0.5):6.2f} ms  p99 {pct(lat, 0.99):7.2f} ms"
                      f"  server CPU {out['server_cpu'] * 100:5.1f} %  connected in {out['connect_s']:.1f} s"
                      + (f"  reconnected (by close code) {out['reconnects']}" if out["reconnects"] else ""),
                      flush=True)
                print(traffic_line(out, n_players, seconds), flush=True)
        for workers in (1, 2):
            held = [n for n, out in results[workers] if pct(out["latencies"], 0.99) < GOAL_P99_MS]
            print(f"{workers} worker(s): held {max(held) if held else 0} players with p99 under "
                  f"{GOAL_P99_MS:.0f} ms (largest step measured: {steps[-1]})")
        over = next((i for i, (_, out) in enumerate(results[1]) if pct(out["latencies"], 0.99) >= GOAL_P99_MS), None)
        if over is None:
            print("one worker's p99 stayed under 50 ms at every step")
        else:
            for workers in (1, 2):
                n, out = results[workers][over]
                lat = out["latencies"]
                print(f"at {n} players: {workers} worker(s) {out['actions'] / seconds:.1f} actions/s, "
                      f"p50 {pct(lat, 0.5):.2f} ms, p99 {pct(lat, 0.99):.2f} ms")
        return 0
    finally:
        redis_proc.terminate()
        redis_proc.wait(10)
        leave_tmp(tmp, args.keep)


if __name__ == "__main__":
    sys.exit(main())
