"""Live tables under load: 100 Ramponneau tables × 6 bots = 600 WebSocket
connections on ONE server process, against a bare uvicorn WebSocket echo
server driven the same way, in the same run.

What it does (everything on 127.0.0.1, in a temp dir removed at the end):

1. migrates a fresh SQLite database (alembic), seeds one owner, one tavern,
   the tables (6 seats, blinds 1/2, caves 200, rake 5 %) and six players per
   table with 1,000 écus; signs one session cookie per player with the app's
   own codec (one player also logs in through the API, as a check);
2. starts ``uvicorn tavern.web.app:create_app --factory`` (deal pause
   ``--pause``, free hands per day set high so that the daily quota never
   stops a bot), and runs the bots (``_tables_bots.py``) in separate
   process(es): each sits, then plays whenever its view says so, echoing the
   ``seq``; after the warm-up it measures deals/s, actions/s and the
   action→view latency (``act`` sent → the ``state`` reflecting it received);
3. starts a bare Starlette WebSocket room-echo server (``_tables_echo.py``)
   the same way and drives the same number of connections with the same
   pattern (six per room, one "action" at a time in turn, frames of the
   measured size of a state message, same think time, same pause every deal);
4. prints both, the ratio of the medians, and the CPU each side used.

    .venv/bin/python bench/bench_tables.py            # 100 tables, 30 s
    .venv/bin/python bench/bench_tables.py --quick    # 10 tables, 10 s

The machine is shared (2 cores): the server, the bots and the neighbours
compete for them; the output says how much CPU each used.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _tables_bots import worker_main  # noqa: E402
from _tables_world import CAVE, PASSWORD, ROOT, SEATS, cookies_for, migrate, seed  # noqa: E402

HOST = "127.0.0.1"  # never anything else
GOAL_P99_MS = 50.0
#: How the tavern is served (make run): its WebSocket protocol (tavern/web/wsproto.py).
TAVERN_ARGS = ["--ws", "tavern.web.wsproto:TableSocketProtocol"]
GOAL_RATIO = 3.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """One uvicorn process on loopback, stopped (its whole session) at the end."""

    def __init__(self, app: str, env: dict[str, str], log: Path, app_dir: Path | None = None,
                 port: int | None = None, extra_args: list[str] | None = None) -> None:
        self.port = port or free_port()
        self.base = f"http://{HOST}:{self.port}"
        cmd = [sys.executable, "-m", "uvicorn", app, "--factory", "--host", HOST, "--port", str(self.port),
               "--log-level", "warning", "--no-access-log"]
        if app_dir is not None:
            cmd += ["--app-dir", str(app_dir)]
        cmd += extra_args or []
        self.log = log
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env}, stdout=open(log, "ab"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError(f"{app} did not start:\n{log.read_text()}")
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{app} did not answer in 60 s")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def sent_bytes(self) -> int:
        """Bytes the server's open connections have sent so far (TCP payload,
        after compression): ``ss``'s ``bytes_sent`` summed over its port."""
        out = subprocess.run(["ss", "-Htin", "state", "established", f"( sport = :{self.port} )"],
                             capture_output=True, text=True, check=False).stdout
        return sum(int(m) for m in re.findall(r"bytes_sent:(\d+)", out))

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


def run_phase(server: Server, configs: list[dict[str, Any]], warmup: float, seconds: float,
              probe: Callable[[], dict[str, float]] | None = None) -> dict[str, Any]:
    """Start one bot process per config, wait until every connection is open,
    measure during [warm-up end, + seconds], merge the workers' figures.
    ``probe``: counters read at both ends of the window (Redis', PostgreSQL's),
    returned as their differences under ``window``."""
    ctx = mp.get_context("spawn")
    ready, results = ctx.Queue(), ctx.Queue()
    gos = [ctx.Queue() for _ in configs]
    procs = [ctx.Process(target=worker_main, args=(cfg, ready, go, results), daemon=True)
             for cfg, go in zip(configs, gos, strict=False)]
    for p in procs:
        p.start()
    try:
        t_connect = time.monotonic()
        conns = 0
        for _ in procs:
            n = ready.get(timeout=180)
            if n < 0:
                raise RuntimeError(results.get(timeout=10)["error"])
            conns += n
        connect_s = time.monotonic() - t_connect
        t0 = time.time() + warmup
        t1 = t0 + seconds
        for go in gos:
            go.put((t0, t1))
        time.sleep(max(0.0, t0 - time.time()))
        cpu0, sent0 = server.cpu_seconds(), server.sent_bytes()
        before = probe() if probe else {}
        time.sleep(max(0.0, t1 - time.time()))
        cpu1, sent1 = server.cpu_seconds(), server.sent_bytes()
        after = probe() if probe else {}
        outs = [results.get(timeout=120) for _ in procs]
        for out in outs:
            if "error" in out:
                raise RuntimeError(out["error"])
    finally:
        for p in procs:
            p.join(15)
            if p.is_alive():
                p.kill()
    lat = sorted(x for out in outs for x in out["latencies"])
    closing = sorted(x for out in outs for x in out.get("closing", ()))
    others = sorted(x for out in outs for x in out.get("others", ()))
    errors: dict[str, int] = {}
    for out in outs:
        for k, v in out["errors"].items():
            errors[k] = errors.get(k, 0) + v
    frames = sum(o["frames"] for o in outs)
    reconnects: dict[str, int] = {}
    for out in outs:
        for k, v in out.get("reconnects", {}).items():
            reconnects[k] = reconnects.get(k, 0) + v
    return {"reconnects": reconnects, "window": {k: after[k] - before[k] for k in after},
        "connections": conns, "connect_s": connect_s, "seconds": seconds,
        "actions": sum(o["actions"] for o in outs), "deals": sum(o["deals"] for o in outs),
        "latencies": lat, "closing": closing, "others": others, "errors": errors, "frames": frames,
        "frame_bytes": sum(o["frame_bytes"] for o in outs) / max(1, frames),
        # what a frame cost on the wire, compressed (pings and replies included)
        "wire_bytes": (sent1 - sent0) / max(1, frames),
        "streams": [x for o in outs for x in o.get("streams", ())],
        "server_cpu": (cpu1 - cpu0) / seconds, "bots_cpu": sum(o["cpu"] for o in outs) / seconds,
        **{k: sum(o.get(k, 0) for o in outs) for k in ("chat_said", "chat_accepted", "chat_frames")},
        "chat_delays": sorted(x for o in outs for x in o.get("chat_delays", ())),
    }


def leave_tmp(tmp: Path, keep: bool) -> None:
    """The run's temp dir (database, server logs): kept when asked, else removed."""
    if keep:
        print(f"kept {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)


def pct(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def split(items: list[Any], n: int) -> list[list[Any]]:
    return [items[i::n] for i in range(n)]


def check_login(base: str, username: str, cookie: str) -> None:
    """One real login through the API, and the codec-signed cookie accepted."""
    with httpx.Client(base_url=base) as c:
        token = c.get("/api/auth/session").json()["csrf_token"]
        r = c.post("/api/auth/login", json={"username": username, "password": PASSWORD},
                   headers={"X-CSRF-Token": token})
        r.raise_for_status()
    me = httpx.get(base + "/api/auth/session", headers={"Cookie": cookie}).json()
    if not me.get("user") or me["user"].get("username") != username:
        raise RuntimeError(f"the signed cookie is not accepted: {me}")


def summary(name: str, r: dict[str, Any]) -> str:
    lat = r["latencies"]
    s = r["seconds"]
    lines = [
        f"{name}: {r['connections']} connections (connected{' and seated' if name == 'tavern' else ''} "
        f"in {r['connect_s']:.1f} s), {s:.0f} s measured",
        f"  actions/s {r['actions'] / s:8.1f}    frames received/s {r['frames'] / s:8.0f}"
        f"    mean frame {r['frame_bytes']:.0f} B ({r['wire_bytes']:.0f} B sent)",
        f"  action->view latency  p50 {pct(lat, 0.50):6.2f} ms   p90 {pct(lat, 0.90):6.2f} ms"
        f"   p99 {pct(lat, 0.99):6.2f} ms   max {lat[-1] if lat else float('nan'):6.1f} ms  (n={len(lat)})",
        f"  CPU: server {r['server_cpu'] * 100:5.1f} % of a core, bots {r['bots_cpu'] * 100:5.1f} %",
    ]
    if name.startswith("tavern"):
        per_deal = r["actions"] / max(1, r["deals"])
        lines.insert(2, f"  deals/s   {r['deals'] / s:8.1f}    actions per deal {per_deal:.1f}")
        c = r["closing"]
        others = r["others"]
        lines.insert(4, f"    actions ending a deal (view waits for the settlement): p50 {pct(c, 0.5):6.2f} ms"
                        f"   p99 {pct(c, 0.99):6.2f} ms  (n={len(c)})")
        lines.insert(5, f"    the other actions:                                    p50 {pct(others, 0.5):6.2f} ms"
                        f"   p99 {pct(others, 0.99):6.2f} ms  (n={len(others)})")
    if r["errors"]:
        refused = ", ".join(f"{k!r} ×{v}" for k, v in sorted(r["errors"].items()))
        lines.append(f"  refused (whole run, seating included): {refused}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="10 tables, 10 s, 3 s warm-up")
    ap.add_argument("--tables", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None, help="measured duration per side")
    ap.add_argument("--warmup", type=float, default=None)
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean think time of a bot before acting, seconds (uniform ±50 %%); 1 s is a few "
                         "times the pace of a busy online table, 0.1 a stress test")
    ap.add_argument("--pause", type=float, default=0.05, help="TAVERN_DEAL_PAUSE_SECONDS")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir (database, server logs)")
    ap.add_argument("--bot-procs", type=int, default=1, help="bot processes (the machine has 2 cores)")
    args = ap.parse_args()
    n_tables = args.tables or (10 if args.quick else 100)
    seconds = args.seconds or (10.0 if args.quick else 30.0)
    warmup = args.warmup if args.warmup is not None else (3.0 if args.quick else 5.0)

    tmp = Path(tempfile.mkdtemp(prefix="tavern-bench-tables-"))
    servers: list[Server] = []
    try:
        secret = secrets.token_urlsafe(32)
        # The seeding code reads the settings too: keep it off the real data dir.
        os.environ.update({"TAVERN_DATA_DIR": str(tmp), "TAVERN_SECRET_KEY": secret})
        db_url = f"sqlite:///{tmp / 'bench.db'}"
        t = time.monotonic()
        migrate(db_url)
        world = seed(db_url, n_tables)
        print(f"setup: migrated and seeded {n_tables} tables, {n_tables * SEATS} players "
              f"in {time.monotonic() - t:.1f} s; cpus={os.cpu_count()} loadavg={os.getloadavg()[0]:.1f}")

        env = {"TAVERN_DATABASE_URL": db_url, "TAVERN_DATA_DIR": str(tmp), "TAVERN_SECRET_KEY": secret,
               "TAVERN_DEAL_PAUSE_SECONDS": str(args.pause), "TAVERN_FREE_HANDS_PER_DAY": "1000000000",
               "TAVERN_WS_PER_ADDRESS": "100000",  # every bot connects from 127.0.0.1
               "TAVERN_ARGON2_TIME_COST": "1", "TAVERN_ARGON2_MEMORY_KIB": "1024",
               "TAVERN_ARGON2_PARALLELISM": "1"}
        port = free_port()
        env["TAVERN_ALLOWED_ORIGINS"] = f"http://{HOST}:{port}"  # the Origin the bots send
        tavern = Server("tavern.web.app:create_app", env, tmp / "tavern.log", port=port, extra_args=TAVERN_ARGS)
        servers.append(tavern)
        cookies = cookies_for(secret, db_url, [uid for tid in world.tables for _, uid in world.players[tid]])
        tables = [(tid, [(name, cookies[uid]) for name, uid in world.players[tid]])
                  for tid in world.tables]
        first_name, first_cookie = tables[0][1][0]
        check_login(tavern.base, first_name, first_cookie)
        base_cfg = {"ws_base": tavern.base.replace("http", "ws"), "origin": tavern.base, "think": args.think,
                    "cave": CAVE}
        procs = max(1, args.bot_procs)
        ours = run_phase(tavern, [{**base_cfg, "mode": "tavern", "tables": part, "seed": i}
                                  for i, part in enumerate(split(tables, procs))], warmup, seconds)
        tavern.stop()
        servers.remove(tavern)
        print(summary("tavern", ours))

        echo = Server("_tables_echo:create_app", {}, tmp / "echo.log", app_dir=HERE)
        servers.append(echo)
        per_deal = max(1, round(ours["actions"] / max(1, ours["deals"])))
        echo_cfg = {"ws_base": echo.base.replace("http", "ws"), "origin": echo.base, "think": args.think,
                    "size": SEATS, "frame_size": int(ours["frame_bytes"]), "actions_per_deal": per_deal,
                    "pause": args.pause, "streams": ours["streams"]}  # a table's states as the frames
        bare = run_phase(echo, [{**echo_cfg, "mode": "echo", "rooms": part, "seed": 100 + i}
                                for i, part in enumerate(split(list(range(n_tables)), procs))], warmup, seconds)
        echo.stop()
        servers.remove(echo)
        print(summary("bare echo", bare))

        p50, p99 = pct(ours["latencies"], 0.5), pct(ours["latencies"], 0.99)
        e50 = pct(bare["latencies"], 0.5)
        print(f"ratio p50 tavern / p50 echo: {p50 / e50:.2f}x   (goal: within {GOAL_RATIO:.0f}x)  "
              f"{'met' if p50 / e50 <= GOAL_RATIO else 'MISSED'}")
        print(f"tavern p99 {p99:.1f} ms at {ours['connections']} connections on one process "
              f"(goal: under {GOAL_P99_MS:.0f} ms)  {'met' if p99 < GOAL_P99_MS else 'MISSED'}")
        print(f"bots: {procs} process(es), think time {args.think * 1000:.0f} ms ±50 %, deal pause "
              f"{args.pause * 1000:.0f} ms; the machine has {os.cpu_count()} cores shared by the server, "
              f"the bots and anything else running (loadavg now {os.getloadavg()[0]:.1f})")
        return 0
    finally:
        for s in servers:
            s.stop()
        leave_tmp(tmp, args.keep)


if __name__ == "__main__":
    sys.exit(main())
