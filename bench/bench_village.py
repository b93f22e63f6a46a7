"""The live village's budget (issue 30 §4): 2,000 visitors on the village
page at once cost the server at most 10 % of a core.

Three fresh servers on the same seeded store, each with bots playing at
their own tables (bench_tables.run_phase, the bots in separate processes):
the first alone, the second with VISITORS sockets open on /ws/village, held
by a separate client process (websockets), each reading every summary
pushed, the third the same with a village that changes at every refresh
(a deal settled every second at a table nobody plays, written in the store
by this process as another worker's settlement would be: its size changes,
so every 2 s the summary goes to every visitor). The server's CPU (process
CPU time / wall time) is measured over the same window in each; the
difference with the first, in % of a core, is the visitors' cost.

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
import threading
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


class Churn(threading.Thread):
    """A deal settled every second at ``table_id`` (its row in the archive,
    its size a counter): the village's summary changes at every refresh."""

    def __init__(self, db_url: str, table_id: int) -> None:
        super().__init__(daemon=True)
        self.db_url, self.table_id = db_url, table_id
        self.halt = threading.Event()
        self.deals = 0

    def run(self) -> None:
        import datetime as dt

        from sqlalchemy import insert
        from sqlalchemy.pool import NullPool

        from tavern.store.db import make_engine
        from tavern.store.models import ArchivedHand

        engine = make_engine(self.db_url, poolclass=NullPool)
        try:
            while not self.halt.wait(1.0):
                now = dt.datetime.now(dt.UTC)
                self.deals += 1
                with engine.begin() as c:
                    c.execute(insert(ArchivedHand).values(
                        table_id=self.table_id, game="ramponneau", started=now, ended=now, players=[],
                        pot=self.deals, rake=0, voided=False, record={}, result={}, practice=False))
        finally:
            engine.dispose()


def step(world: World, n_players: int, visitors: int, args: argparse.Namespace, churn: bool = False) -> float:
    """The server's CPU share (of a core) while ``n_players`` play, with
    ``visitors`` on the village; ``churn``: the village changes at every refresh."""
    server: Server = world.server(f"village-{visitors}{'-churn' if churn else ''}")
    ctx = mp.get_context("spawn")
    ready, stop = ctx.Queue(), ctx.Queue()
    proc = None
    changes = Churn(world.db_url, world.free_tables[-1]) if churn else None  # a table no step takes
    try:
        if changes is not None:
            changes.start()
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
            got = ready.get(timeout=60)
            print(f"  {visitors} visitors{' (a village changing at every refresh)' if churn else ''} received "
                  f"{got} summaries, {got / visitors:.1f} each", flush=True)
        return float(out["server_cpu"])
    finally:
        if changes is not None:
            changes.halt.set()
            changes.join(10)
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
           "TAVERN_PUSH_PER_ADDRESS": "100000",  # every visitor opens /ws/village from 127.0.0.1
           "TAVERN_SIGNUPS_PER_HOUR": "1000000",
           "TAVERN_ARGON2_TIME_COST": "1", "TAVERN_ARGON2_MEMORY_KIB": "1024", "TAVERN_ARGON2_PARALLELISM": "1"}
    os.environ.update({"TAVERN_DATA_DIR": str(tmp)})
    try:
        world = World(tmp, 3 * (args.players // SEATS) + 1, 2 * args.players, env)  # three steps, one table to churn
        quiet = step(world, args.players, 0, args)
        busy = step(world, args.players, args.visitors, args)
        churning = step(world, args.players, args.visitors, args, churn=True)
    finally:
        leave_tmp(tmp, False)
    costs = []
    for what, cpu in (("", busy), (" on a village changing at every refresh", churning)):
        costs.append(cpu - quiet)
        print(f"server CPU with {args.players} players: {quiet * 100:.1f} % of a core alone, {cpu * 100:.1f} % with "
              f"{args.visitors} village visitors{what}: the visitors cost {costs[-1] * 100:.1f} % of a core "
              f"(budget {BUDGET * 100:.0f} %)", flush=True)
    return 0 if max(costs) <= BUDGET or args.quick else 1


if __name__ == "__main__":
    sys.exit(main())
