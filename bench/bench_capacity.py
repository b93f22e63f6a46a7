"""How many players one server process holds (issue 15), against a bare
uvicorn WebSocket room-echo server driven the same way, in the same run.

Ramponneau bots over the documented WebSocket protocol (``_tables_bots.py``,
in processes of their own, permessage-deflate offered as browsers do),
**registered through the API** (``POST /api/auth/register``: each starts
with the house's welcome écus), think time 1 s ±50 %, the **shipped
settings** (3 s deal pause, SQLite, one process) unless a flag says
otherwise. Each step starts a fresh server on fresh tables (a step never
inherits the last one's load) and measures, for tavern and for the echo:
action→view latency (all actions, and the actions ending a deal, whose view
is published before the settlement commits), deals completed, the server's
CPU and its CPU per action, the bytes it sent a frame (compressed, on the
wire), and the time to connect and seat everybody. The echo's frames are
states recorded during the tavern's step (``--echo-pad x``: the old
padding, which deflates to a few bytes a frame).

    .venv/bin/python bench/bench_capacity.py                 # 600 and 2,400 players
    .venv/bin/python bench/bench_capacity.py --capacity      # steps up to the first p99 over 50 ms
    .venv/bin/python bench/bench_capacity.py --storm 2400    # a restart: 2,400 reconnect at once
    .venv/bin/python bench/bench_capacity.py --busy          # 600 players beside a CPU hog on one core
    .venv/bin/python bench/bench_capacity.py --quick         # 120 players, 8 s: does it run?
    .venv/bin/python bench/bench_capacity.py --chat-per-min 2  # each table's players chat, 2 messages a minute
    .venv/bin/python bench/bench_capacity.py --house-seats 1000 --players 600   # their CPU, with and without

Goals (docs/benchmarks.md "Capacity"): server CPU per action within 2× the
echo's; ≥ 4,000 players with p99 under 50 ms; at 2,400 players p99 under
25 ms, p50 within 2× the echo's, deal-ending actions p99 under 50 ms; after
a restart 2,400 players hold their snapshot within 10 s; beside a busy
neighbour 600 players keep p99 under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing as mp
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _house_world import PER_TABLE, seed_house_tables  # noqa: E402
from _tables_bots import storm_main  # noqa: E402
from _tables_world import SEATS, migrate, register, seed_tables  # noqa: E402
from bench_tables import HOST, TAVERN_ARGS, Server, free_port, leave_tmp, pct, run_phase, split  # noqa: E402

#: Seconds measured per step. A table deals about once in 25 s here (a deal
#: of ~23 actions a second apart, then the 3 s pause), and each step seats
#: its tables at once: a 20 s window held from 220 to 310 deal ends for the
#: same actions, depending on where the tables' cycles fell, and the deals'
#: transactions moved the CPU per action by a tenth from run to run. Sixty
#: seconds hold every table's cycle twice over (docs/benchmarks.md).
MEASURED_SECONDS = 60.0

GOAL_P99_MS = 50.0
CAVE = 100  #: five caves in the 500 welcome écus
STORM_GOAL_S = 10.0


class World:
    """The database, the tables not used yet and the registered bots."""

    def __init__(self, tmp: Path, n_tables: int, n_players: int, env: dict[str, str]) -> None:
        self.db_url = f"sqlite:///{tmp / 'capacity.db'}"
        self.tmp, self.env = tmp, {**env, "TAVERN_DATABASE_URL": self.db_url}
        t = time.monotonic()
        migrate(self.db_url)
        self.free_tables = seed_tables(self.db_url, n_tables)
        server = self.server("register")
        try:
            names = [f"b{i:05d}" for i in range(n_players)]
            self.bots = list(zip(names, register(server.base, names), strict=True))
        finally:
            server.stop()
        print(f"setup: {n_tables} tables seeded, {n_players} bots registered through the API in "
              f"{time.monotonic() - t:.1f} s; cpus={os.cpu_count()} loadavg={os.getloadavg()[0]:.1f}", flush=True)
        self.used = 0  #: bots seated at earlier steps sit at other tables now (five caves each at most)

    def server(self, tag: str) -> Server:
        port = free_port()
        return Server("tavern.web.app:create_app", {**self.env, "TAVERN_ALLOWED_ORIGINS": f"http://{HOST}:{port}"},
                      self.tmp / f"tavern-{tag}.log", port=port, extra_args=TAVERN_ARGS)

    def take(self, n_players: int) -> list[tuple[int, list[tuple[str, str]]]]:
        """Fresh tables for ``n_players`` bots, the bots in the order registered."""
        n_tables = n_players // SEATS
        tables, self.free_tables = self.free_tables[:n_tables], self.free_tables[n_tables:]
        return [(tid, self.bots[i * SEATS:(i + 1) * SEATS]) for i, tid in enumerate(tables)]


def profile(server: Server, out: str) -> subprocess.Popen[bytes]:
    """Where the server's threads spend the step (py-spy, if installed: a
    developer's aid, not a dependency), as a speedscope file."""
    venv_spy = Path(sys.executable).with_name("py-spy")  # the bench venv's, or one on the PATH
    exe = str(venv_spy) if venv_spy.exists() else "py-spy"
    return subprocess.Popen([exe, "record", "-o", out, "-f", "speedscope", "--nonblocking", "-p",
                             str(server.proc.pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_profile(spy: subprocess.Popen[bytes] | None) -> None:
    if spy is not None and spy.poll() is None:
        spy.send_signal(signal.SIGINT)
        spy.wait(30)


def tavern_step(world: World, n_players: int, args: argparse.Namespace, tag: str,
                keep: bool = False, extra: list[Any] | None = None) -> tuple[dict[str, Any], Server | None, list[Any]]:
    server = world.server(f"{tag}-{n_players}")
    tables = world.take(n_players) + (extra or [])
    cfg = {"ws_base": server.base.replace("http", "ws"), "origin": server.base, "think": args.think,
           "cave": CAVE, "mode": "tavern", "chat_per_min": args.chat_per_min}
    spy: subprocess.Popen[bytes] | None = None
    if args.py_spy:
        # The profile covers the measured window only (not the seating):
        # run_phase reads the server's CPU at the window's start, then at its end.
        cpu_seconds = server.cpu_seconds

        def cpu_then_profile() -> float:
            nonlocal spy
            if spy is None:
                spy = profile(server, f"{args.py_spy}.{tag}-{n_players}.json")
            return cpu_seconds()

        server.cpu_seconds = cpu_then_profile  # type: ignore[method-assign]
    try:
        out = run_phase(server, [{**cfg, "tables": part, "seed": i}
                                 for i, part in enumerate(split(tables, args.bot_procs))], args.warmup, args.seconds)
    except BaseException:
        server.stop()
        raise
    finally:
        stop_profile(spy)
    if not keep:
        server.stop()
        return out, None, tables
    return out, server, tables


def echo_step(n_players: int, frame_bytes: int, actions_per_deal: int, args: argparse.Namespace,
              tmp: Path, streams: list[list[str]] | None = None) -> dict[str, Any]:
    """The echo at ``n_players``; its frames are the recorded ``streams`` (a
    table's states, as players received them) unless ``--echo-pad x`` asks
    for the old reference (frames of the same size padded with "x", which
    deflate to a few bytes where a state takes hundreds)."""
    echo = Server("_tables_echo:create_app", {}, tmp / f"echo-{n_players}.log", app_dir=HERE)
    try:
        cfg = {"ws_base": echo.base.replace("http", "ws"), "origin": echo.base, "think": args.think,
               "size": SEATS, "frame_size": frame_bytes, "actions_per_deal": actions_per_deal,
               "pause": args.pause, "mode": "echo",
               "streams": streams if args.echo_pad == "stream" else None}
        rooms = list(range(n_players // SEATS))
        return run_phase(echo, [{**cfg, "rooms": part, "seed": 100 + i}
                                for i, part in enumerate(split(rooms, args.bot_procs))], args.warmup, args.seconds)
    finally:
        echo.stop()


def line(name: str, n: int, r: dict[str, Any], seconds: float) -> str:
    lat, closing = r["latencies"], r.get("closing") or []
    per_action = r["server_cpu"] * seconds / max(1, r["actions"]) * 1000
    deals = f"  deals {r['deals']:5d}  end p50/p99 {pct(closing, 0.5):6.2f}/{pct(closing, 0.99):7.2f}" \
        if name == "tavern" else " " * 40
    return (f"{name:6s} {n:5d} players  {r['actions'] / seconds:6.1f} actions/s  "
            f"p50/p90/p99 {pct(lat, 0.5):6.2f}/{pct(lat, 0.9):6.2f}/{pct(lat, 0.99):7.2f} ms"
            f"{deals}  CPU {r['server_cpu'] * 100:5.1f} % ({per_action:5.2f} ms/action)"
            # the load client shares the machine's cores: server + bots near 200 % on 2 cores is saturation
            f"  bots {r['bots_cpu'] * 100:4.0f} %"
            # state frames (the echo: room frames) received per action, and their mean size
            f"  {r['frames'] / max(1, r['actions']):4.1f} frames/action of {r['frame_bytes']:5.0f} B"
            f" ({r['wire_bytes']:4.0f} B sent)"
            f"  connected{' and seated' if name == 'tavern' else ''} in {r['connect_s']:5.1f} s"
            + ("\n       refused (seating included): " + ", ".join(
                f"{k!r} ×{v}" for k, v in sorted(r["errors"].items(), key=lambda kv: -kv[1])[:4])
               if r["errors"] else ""))


def chat_line(n: int, r: dict[str, Any], args: argparse.Namespace) -> str:
    """What the tables said in the window: the messages sent, those accepted
    (their frame back to their author), the chat frames every reader received."""
    tables = n // SEATS
    minutes = args.seconds / 60.0
    return (f"       chat: {r['chat_said']} messages said in the window ({r['chat_said'] / max(1, tables) / minutes:.2f} "
            f"per table per minute, asked {args.chat_per_min:g}), {r['chat_accepted']} accepted, "
            f"{r['chat_frames']} chat frames received"
            + (f", delivered p50/p99 {pct(r['chat_delays'], 0.5):.1f}/{pct(r['chat_delays'], 0.99):.1f} ms"
               if r.get("chat_delays") else ""))


def compare(world: World, steps: list[int], args: argparse.Namespace, stop_over: float | None) -> \
        list[tuple[int, dict[str, Any] | None, dict[str, Any]]]:
    """Tavern then echo at each step; with ``stop_over``, the tavern stops once
    its p99 passed it, the echo goes on until its own did."""
    rows: list[tuple[int, dict[str, Any] | None, dict[str, Any]]] = []
    frame, per_deal = 0, 8
    streams: list[list[str]] = []
    tavern_over = False
    for n in steps:
        ours: dict[str, Any] | None = None
        if not tavern_over:
            ours, _, _ = tavern_step(world, n, args, "step")
            print(line("tavern", n, ours, args.seconds), flush=True)
            if args.chat_per_min:
                print(chat_line(n, ours, args), flush=True)
            # The echo's frames: the tavern's mean frame, its actions per deal.
            frame, per_deal = int(ours["frame_bytes"]), max(1, round(ours["actions"] / max(1, ours["deals"])))
            streams = ours["streams"] or streams
            tavern_over = stop_over is not None and pct(ours["latencies"], 0.99) >= stop_over
        bare = echo_step(n, frame, per_deal, args, world.tmp, streams)
        print(line("echo", n, bare, args.seconds), flush=True)
        rows.append((n, ours, bare))
        if tavern_over and stop_over is not None and pct(bare["latencies"], 0.99) >= stop_over:
            break
    return rows


def report_ratios(n: int, ours: dict[str, Any], bare: dict[str, Any], seconds: float) -> None:
    cpu_a = ours["server_cpu"] * seconds / max(1, ours["actions"])
    cpu_e = bare["server_cpu"] * seconds / max(1, bare["actions"])
    p50 = pct(ours["latencies"], 0.5) / pct(bare["latencies"], 0.5)
    print(f"at {n} players: server CPU per action tavern/echo {cpu_a / cpu_e:.2f}x (goal 2x), "
          f"p50 tavern/echo {p50:.2f}x (goal 2x), p99 {pct(ours['latencies'], 0.99):.1f} ms, "
          f"deal-ending p99 {pct(ours['closing'], 0.99):.1f} ms", flush=True)


def storm(world: World, n_players: int, args: argparse.Namespace) -> None:
    """Players seated and playing; the server killed (kill -9) and started
    again; every page reconnects at once: the time until each holds its snapshot."""
    out, server, tables = tavern_step(world, n_players, args, "storm", keep=True)
    assert server is not None
    print(line("tavern", n_players, out, args.seconds), flush=True)
    # A crash: the whole process group at once; the deals in progress are voided at the restart.
    os.killpg(server.proc.pid, signal.SIGKILL)
    server.proc.wait(10)
    t = time.monotonic()
    again = Server("tavern.web.app:create_app", {**world.env, "TAVERN_ALLOWED_ORIGINS": server.base},
                   world.tmp / "tavern-storm-restarted.log", port=server.port, extra_args=TAVERN_ARGS)
    print(f"restarted in {time.monotonic() - t:.1f} s (deals in progress voided)", flush=True)
    spy = profile(again, f"{args.py_spy}.storm-restarted.json") if args.py_spy else None
    try:
        ctx = mp.get_context("spawn")
        results = ctx.Queue()
        t0 = time.time() + 2.0  # every process ready, then all at once
        cfg = {"ws_base": again.base.replace("http", "ws"), "origin": again.base, "t0": t0,
               "concurrency": args.storm_concurrency}
        procs = [ctx.Process(target=storm_main, args=({**cfg, "tables": part}, results), daemon=True)
                 for part in split(tables, args.bot_procs)]
        for p in procs:
            p.start()
        cpu0 = again.cpu_seconds()
        outs = [results.get(timeout=300) for _ in procs]
        cpu1 = again.cpu_seconds()
        for p in procs:
            p.join(10)
    finally:
        stop_profile(spy)
        again.stop()
    times = sorted(x for o in outs for x in o["times"])
    failed: dict[str, int] = {}
    for o in outs:
        for k, v in o["failed"].items():
            failed[k] = failed.get(k, 0) + v
    done = times[-1] if times else float("nan")
    print(f"storm: {len(times)}/{n_players} snapshots, p50 {pct(times, 0.5):.2f} s, p99 {pct(times, 0.99):.2f} s, "
          f"all in {done:.2f} s (goal {STORM_GOAL_S:.0f} s) {'met' if len(times) == n_players and done <= STORM_GOAL_S else 'MISSED'}"
          f"; server CPU {cpu1 - cpu0:.1f} s" + (f"; failed {failed}" if failed else ""), flush=True)


def _cpu_thread(stop: threading.Event) -> None:
    x = 0
    while not stop.is_set():
        for i in range(1000):
            x += i * i  # Python work holding the GIL between switches, as an ORM flush does


async def _writes(n: int, seconds: float) -> tuple[float, float]:
    """An event loop turn of ``n`` socket writes (a state fanned out to a
    table), every millisecond: p50 and p99 of a turn, in ms."""
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    loop = asyncio.get_running_loop()

    def drain() -> None:
        with contextlib.suppress(BlockingIOError):
            while b.recv(65536):
                pass

    loop.add_reader(b.fileno(), drain)
    turns: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t = time.perf_counter()
        for _ in range(n):
            a.send(b"x" * 3000)  # the GIL is let go around each write...
        turns.append((time.perf_counter() - t) * 1000)  # ...and must be taken back
        await asyncio.sleep(0.001)
    loop.remove_reader(b.fileno())
    a.close()
    b.close()
    turns.sort()
    return pct(turns, 0.5), pct(turns, 0.99)


def gil_probe(seconds: float = 3.0) -> None:
    """Why a busy machine stalls the loop: an event loop's writes beside two
    threads doing Python work (the database threads), at Python's default
    switch interval and at the shipped one (TAVERN_GIL_SWITCH_MS)."""
    for ms in (5.0, 2.0, 1.0):
        sys.setswitchinterval(ms / 1000)
        stop = threading.Event()
        threads = [threading.Thread(target=_cpu_thread, args=(stop,)) for _ in range(2)]
        for t in threads:
            t.start()
        try:
            p50, p99 = asyncio.run(_writes(7, seconds))
        finally:
            stop.set()
            for t in threads:
                t.join()
        print(f"GIL probe: 7 socket writes per loop turn beside two Python threads, switch interval {ms:.0f} ms:"
              f" p50 {p50:.2f} ms, p99 {p99:.2f} ms", flush=True)
    sys.setswitchinterval(0.005)


def house(world: World, n_players: int, n_house: int, args: argparse.Namespace) -> None:
    """Issue 29 §2: ``n_house`` house seats playing at human pace beside
    ``n_players`` usual bots — one bot alone at each of ``n_house / 5``
    tables, the house players at its other five seats, thinking 1–3 s —
    against the same step where those lone bots' tables allow no house
    player (they sit and wait: nothing is dealt there). The difference in the
    server's CPU is the house seats' cost (goal: at most 15 % of a core)."""
    n_tables = n_house // PER_TABLE
    lone = world.bots[-2 * n_tables:]  # registered past the usual bots: two sets, one per step
    rows = {}
    for allowed, tag, bots in ((0, "without", lone[:n_tables]), (PER_TABLE, "with", lone[n_tables:])):
        tables, world.free_tables = world.free_tables[:n_tables], world.free_tables[n_tables:]
        seed_house_tables(world.db_url, tables, allowed)
        extra = [(tid, [bot]) for tid, bot in zip(tables, bots, strict=True)]
        rows[tag], _, _ = tavern_step(world, n_players, args, f"house-{tag}", extra=extra)
        print(line("tavern", n_players + n_tables, rows[tag], args.seconds)
              + f"   ({n_tables} lone players, {n_tables * allowed} house seats)", flush=True)
    cost = (rows["with"]["server_cpu"] - rows["without"]["server_cpu"]) * 100
    print(f"house seats: {n_house} add {cost:.1f} % of a core to the server (goal at most 15 %) "
          f"{'met' if cost <= 15 else 'MISSED'}; loadavg {os.getloadavg()[0]:.1f}", flush=True)


def busy(world: World, n_players: int, args: argparse.Namespace) -> None:
    """A neighbour: a CPU-bound process pinned to core 0 for the whole step."""
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        os.sched_setaffinity(hog.pid, {0})
        out, _, _ = tavern_step(world, n_players, args, "busy")
    finally:
        hog.kill()
        hog.wait()
    print(line("tavern", n_players, out, args.seconds) + "   (beside a CPU hog on core 0)", flush=True)
    p99 = pct(out["latencies"], 0.99)
    print(f"busy machine: p99 {p99:.1f} ms at {n_players} players (goal under 100 ms) "
          f"{'met' if p99 < 100 else 'MISSED'}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default=None, help="players per step, comma-separated (multiples of 6)")
    ap.add_argument("--capacity", action="store_true", help="steps up to the first p99 over 50 ms")
    ap.add_argument("--storm", type=int, default=0, metavar="N", help="a restart with N players seated")
    ap.add_argument("--storm-concurrency", type=int, default=200, help="handshakes in flight per storm process")
    ap.add_argument("--busy", action="store_true", help="600 players beside a CPU hog pinned to one core")
    ap.add_argument("--quick", action="store_true", help="120 players, 8 s: does it run?")
    ap.add_argument("--house-seats", type=int, default=0, metavar="N",
                    help=f"N house seats (a multiple of {PER_TABLE}) beside the players, then without them")
    ap.add_argument("--seconds", type=float, default=None, help="measured seconds per step")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--chat-per-min", type=float, default=0.0, metavar="X",
                    help="chat messages each table's players say a minute, between them (chat_say; default 0)")
    ap.add_argument("--pause", type=float, default=None,
                    help="TAVERN_DEAL_PAUSE_SECONDS (default: the shipped setting, 3 s)")
    ap.add_argument("--bot-procs", type=int, default=2)
    ap.add_argument("--echo-pad", choices=("stream", "x"), default="stream",
                    help="the echo's frames: recorded table states (default) or the old padding with x")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting for the tavern servers, e.g. TAVERN_GIL_SWITCH_MS=1 (repeatable)")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir (database, server logs)")
    ap.add_argument("--py-spy", default=None, metavar="FILE", help="profile each tavern server (FILE.<step>.json, speedscope)")
    args = ap.parse_args()
    args.seconds = args.seconds or (8.0 if args.quick else MEASURED_SECONDS)
    if args.quick:
        args.warmup = min(args.warmup, 3.0)
    if args.capacity:
        steps = [int(x) for x in args.players.split(",")] if args.players else [600, 1200, 2400, 3600, 4800, 6000]
    elif args.storm or args.busy or args.house_seats:
        steps = []
    else:
        steps = [int(x) for x in args.players.split(",")] if args.players else ([120] if args.quick else [600, 2400])
    house_players = int(args.players or (120 if args.quick else 600)) if args.house_seats else 0
    extra = ([args.storm] if args.storm else []) + ([600] if args.busy else []) + \
        ([house_players, house_players] if args.house_seats else [])
    house_tables = 2 * (args.house_seats // PER_TABLE)  # lone players' tables: without, then with
    n_tables = sum(s // SEATS for s in steps + extra) + house_tables + 1
    n_bots = max(steps + extra) + house_tables

    tmp = Path(tempfile.mkdtemp(prefix="tavern-bench-capacity-"))
    env = {"TAVERN_DATA_DIR": str(tmp), "TAVERN_SECRET_KEY": secrets.token_urlsafe(32),
           # Load-test allowances only: every bot plays from 127.0.0.1 all day.
           "TAVERN_FREE_HANDS_PER_DAY": "1000000000", "TAVERN_WS_PER_ADDRESS": "100000",
           "TAVERN_SIGNUPS_PER_HOUR": "1000000",
           "TAVERN_ARGON2_TIME_COST": "1", "TAVERN_ARGON2_MEMORY_KIB": "1024", "TAVERN_ARGON2_PARALLELISM": "1"}
    if args.pause is not None:
        env["TAVERN_DEAL_PAUSE_SECONDS"] = str(args.pause)
    env.update(dict(item.split("=", 1) for item in args.set))
    args.pause = args.pause if args.pause is not None else 3.0  # the echo's pause: the shipped one
    os.environ.update({"TAVERN_DATA_DIR": str(tmp)})
    try:
        world = World(tmp, n_tables, n_bots, env)
        print(f"think {args.think:.1f} s ±50 %, deal pause {args.pause:.1f} s, {args.seconds:.0f} s measured per "
              f"step after {args.warmup:.0f} s, bots in {args.bot_procs} process(es), "
              f"chat {args.chat_per_min:g} message(s) per table per minute"
              + (f", settings {' '.join(args.set)}" if args.set else ""), flush=True)
        if steps:
            rows = compare(world, steps, args, GOAL_P99_MS if args.capacity else None)
            for n, ours, bare in rows:
                if ours is not None and (n in (600, 2400) or len(rows) == 1):
                    report_ratios(n, ours, bare, args.seconds)
            if args.capacity:
                for name, i in (("tavern", 1), ("echo", 2)):
                    held = [row[0] for row in rows
                            if row[i] is not None and pct(row[i]["latencies"], 0.99) < GOAL_P99_MS]  # type: ignore[index]
                    print(f"capacity, {name}: {max(held) if held else 0} players held with p99 under "
                          f"{GOAL_P99_MS:.0f} ms (steps {', '.join(str(row[0]) for row in rows)})", flush=True)
        if args.storm:
            storm(world, args.storm, args)
        if args.house_seats:
            house(world, house_players, args.house_seats, args)
        if args.busy:
            gil_probe()
            busy(world, 600, args)
        print(f"loadavg at the end {os.getloadavg()[0]:.1f}", flush=True)
        return 0
    finally:
        leave_tmp(tmp, args.keep)


if __name__ == "__main__":
    sys.exit(main())
