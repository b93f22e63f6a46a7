"""The live village's budget (issue 30 §4): 2,000 visitors on the village
page at once cost the server at most 10 % of a core.

Two fresh servers on the same seeded store, each with bots playing at their
own tables (bench_tables.run_phase, the bots in separate processes): the
first alone, the second with VISITORS sockets open on /ws/village, held by
a separate client process (websockets), each reading every summary pushed.
The server's CPU (process CPU time / wall time) is measured over the same
window in both; the difference, in % of a core, is the visitors' cost.

    python bench/bench_village.py                 # 2,000 visitors, 120 players, 30 s
    python bench/bench_village.py --quick         # 200 visitors, 10 s: does it run?

The figure is in docs/benchmarks.md "The live village".
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import secrets
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _tables_world import SEATS  # noqa: E402
from bench_capacity import CAVE, World  # noqa: E402
from bench_tables import Server, leave_tmp, run_phase, split  # noqa: E402

BUDGET = 0.10  #: of a core


def visitors_main(url: str, origin: str, n: int, ready: Any, stop: Any) -> None:
    """Open ``n`` village sockets, read whatever comes, until told to stop."""
    from websockets.asyncio.client import connect

    async def one(received: list[int]) -> None:
        async with connect(url, origin=origin, open_timeout=120, ping_interval=None) as ws:
            received[0] += 1
            async for _ in ws:
                received[1] += 1

    async def run() -> None:
        received = [0, 0]
        sem = asyncio.Semaphore(100)

        async def gated() -> None:
            async with sem:
                task = asyncio.ensure_future(one(received))
                while received[0] == 0 and not task.done():
                    await asyncio.sleep(0.01)
            await task

        tasks = [asyncio.ensure_future(gated()) for _ in range(n)]
        while received[0] < n:
            await asyncio.sleep(0.1)
            if any(t.done() and t.exception() for t in tasks):
                ready.put(-1)
                return
        ready.put(n)
        while stop.empty():
            await asyncio.sleep(0.2)
        ready.put(received[1])
        for t in tasks:
            t.cancel()

    asyncio.run(run())


def step(world: World, n_players: int, visitors: int, args: argparse.Namespace) -> float:
    """The server's CPU share (of a core) while ``n_players`` play, with ``visitors`` on the village."""
    server: Server = world.server(f"village-{visitors}")
    ctx = mp.get_context("spawn")
    ready, stop = ctx.Queue(), ctx.Queue()
    proc = None
    try:
        if visitors:
            proc = ctx.Process(target=visitors_main, daemon=True, args=(
                server.base.replace("http", "ws") + "/ws/village", server.base, visitors, ready, stop))
            proc.start()
            if ready.get(timeout=300) < 0:
                raise RuntimeError("the village sockets did not all open")
        cfg = {"ws_base": server.base.replace("http", "ws"), "origin": server.base, "think": args.think,
               "cave": CAVE, "mode": "tavern"}
        tables = world.take(n_players)
        out = run_phase(server, [{**cfg, "tables": part, "seed": i}
                                 for i, part in enumerate(split(tables, args.bot_procs))], args.warmup, args.seconds)
        if proc is not None:
            stop.put(True)
            print(f"  {visitors} visitors received {ready.get(timeout=60)} summaries", flush=True)
        return float(out["server_cpu"])
    finally:
        if proc is not None:
            proc.kill()
        server.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--visitors", type=int, default=2000)
    ap.add_argument("--players", type=int, default=120, help="players at the tables (a multiple of 6)")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--bot-procs", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="200 visitors, 60 players, 10 s")
    args = ap.parse_args()
    if args.quick:
        args.visitors, args.players, args.seconds, args.warmup = 200, 60, 10.0, 3.0
    tmp = Path(tempfile.mkdtemp(prefix="tavern-bench-village-"))
    env = {"TAVERN_DATA_DIR": str(tmp), "TAVERN_SECRET_KEY": secrets.token_urlsafe(32),
           "TAVERN_FREE_HANDS_PER_DAY": "1000000000", "TAVERN_WS_PER_ADDRESS": "100000",
           "TAVERN_SIGNUPS_PER_HOUR": "1000000",
           "TAVERN_ARGON2_TIME_COST": "1", "TAVERN_ARGON2_MEMORY_KIB": "1024", "TAVERN_ARGON2_PARALLELISM": "1"}
    os.environ.update({"TAVERN_DATA_DIR": str(tmp)})
    try:
        world = World(tmp, 2 * (args.players // SEATS) + 1, 2 * args.players, env)
        quiet = step(world, args.players, 0, args)
        busy = step(world, args.players, args.visitors, args)
    finally:
        leave_tmp(tmp, False)
    cost = busy - quiet
    print(f"server CPU with {args.players} players: {quiet * 100:.1f} % of a core alone, {busy * 100:.1f} % with "
          f"{args.visitors} village visitors: the visitors cost {cost * 100:.1f} % of a core "
          f"(budget {BUDGET * 100:.0f} %)", flush=True)
    return 0 if cost <= BUDGET or args.quick else 1


if __name__ == "__main__":
    sys.exit(main())
