"""The featured load on one process (issue 41 §2): the tavern as the product
invites it to be used — players chatting, a live village watched by its
visitors, practice tables and lone players with house seats — added one
feature at a time to the plain load, each step a fresh server on fresh
tables of the same world:

1. ``plain``: N players (default 2,400) at N/6 Ramponneau tables, the
   capacity bench's bots (think 1 s ±50 %, the shipped settings);
2. ``+chat``: the same with 2 chat messages a table a minute (each
   message carries the time it was said: every reader's delay);
3. ``+village``: the same with V visitors (default 2,000) on
   ``/ws/village``, a village of ~600 tables (the played ones and idle
   ones), in a process of their own, and a probe: a player sits at a
   table of the village and leaves it again every few seconds; each
   visitor notes when his village shows it (the seat change's delay);
4. ``+practice``: the same with P practice tables (default 200), each a
   bot at seat 0 against nine house players, played at human pace;
5. ``+house``: the same with H lone players (default 200) at tables of
   the tavern with five house seats each.

Each step prints the players' latencies, the server's CPU (process CPU
time over the window) and what the step added to it in % of a core,
against each feature's budget; the chat's and the village's delays.

    python bench/bench_featured.py                  # the issue's load, 30 s a step
    python bench/bench_featured.py --quick          # 120 players, 100 visitors, 10 practice, 10 lone: does it run?

The figures are in docs/benchmarks.md "The featured load".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _house_world import PER_TABLE, seed_house_tables  # noqa: E402
from _tables_world import SEATS  # noqa: E402
from bench_capacity import CAVE, World, line  # noqa: E402
from bench_tables import Server, leave_tmp, pct, run_phase, split  # noqa: E402

#: Each feature's budget, % of a core (issue 41 §2).
BUDGETS = {"+chat": 5.0, "+village": 10.0, "+practice": 10.0, "+house": 10.0}
GOAL_P99_MS, CHAT_P99_MS, VILLAGE_P99_S = 25.0, 100.0, 1.0
#: The probe's rhythm: seconds seated, then seconds gone.
PROBE_EVERY = 3.0


def visitors_main(base: str, n: int, probe: tuple[int, str], ready: Any, stop: Any) -> None:
    """``n`` village sockets and the probe player, until told to stop; puts
    every visitor's delay (s) from a probe's sit or leave to his village
    showing it."""
    from websockets.asyncio.client import connect

    probe_id, cookie = probe
    marker = f"[{probe_id},"
    seen: list[list[tuple[float, int]]] = [[] for _ in range(n)]  # each visitor: (when, seats taken at the probe's table)
    changes: list[tuple[float, int]] = []  # (when asked, seats taken it makes)
    ws_base, origin = base.replace("http", "ws"), base

    async def visitor(i: int, opened: list[int]) -> None:
        async with connect(f"{ws_base}/ws/village", origin=origin, open_timeout=120, ping_interval=None) as ws:
            opened[0] += 1
            async for raw in ws:
                if marker in raw:  # parse only the frames about the probe's table
                    for row in json.loads(raw).get("tables", ()):
                        if row[0] == probe_id:
                            seen[i].append((time.time(), row[1]))

    async def prober() -> None:
        async with connect(f"{ws_base}/ws/tables/{probe_id}", origin=origin, additional_headers={"Cookie": cookie},
                           open_timeout=120, ping_interval=None) as ws:
            await ws.recv()
            while True:
                for msg, taken in (({"type": "sit", "seat": 0, "cave": CAVE}, 1), ({"type": "leave"}, 0)):
                    changes.append((time.time(), taken))
                    await ws.send(json.dumps({**msg, "id": len(changes)}))
                    await asyncio.sleep(PROBE_EVERY)

    async def run() -> None:
        opened = [0]
        sem = asyncio.Semaphore(100)

        async def gated(i: int) -> None:
            async with sem:
                task = asyncio.ensure_future(visitor(i, opened))
                while opened[0] <= i and not task.done() and opened[0] < n:
                    await asyncio.sleep(0.01)
            await task

        tasks = [asyncio.ensure_future(gated(i)) for i in range(n)]
        while opened[0] < n:
            await asyncio.sleep(0.1)
            if any(t.done() and t.exception() for t in tasks):
                ready.put(-1)
                return
        tasks.append(asyncio.ensure_future(prober()))
        ready.put(n)
        while stop.empty():
            await asyncio.sleep(0.2)
        ready.put(delays(seen, changes[:-1]))  # the last change may still be on its way
        for t in tasks:
            t.cancel()

    asyncio.run(run())


def delays(seen: list[list[tuple[float, int]]], changes: list[tuple[float, int]]) -> list[float]:
    """For each change and each visitor: from the change asked to the first
    frame after it showing its seats taken (a visitor who never saw it
    counts as the whole window: a miss is not a fast delivery)."""
    out = []
    for i, (asked, taken) in enumerate(changes):
        until = changes[i + 1][0] if i + 1 < len(changes) else float("inf")
        for frames in seen:
            got = next((t for t, n in frames if asked <= t and n == taken), None)
            out.append(got - asked if got is not None and got < until else until - asked)
    return sorted(out)


def open_practice_tables(db_url: str, users: list[str], level: str) -> list[int]:
    """A practice table for each of ``users`` against the house (nine at
    Ramponneau's ten seats), as « S'entraîner » opens it."""
    from sqlalchemy import select
    from sqlalchemy.pool import NullPool

    from tavern.games import registry
    from tavern.services import practice
    from tavern.store.db import make_engine, session_factory
    from tavern.store.models import User

    opponents = registry.spec("ramponneau").seats[1] - 1
    engine = make_engine(db_url, poolclass=NullPool)
    ids = []
    with session_factory(engine)() as s, s.begin():
        for user in s.scalars(select(User).where(User.username.in_(users))):
            table_id, _ = practice.open_practice(s, user.id, practice.PracticeChoice("ramponneau", opponents, level))
            ids.append(table_id)
    engine.dispose()
    return ids


def close_tables(db_url: str, ids: list[int]) -> None:
    """The tables of a step done leave the village: the next step's village
    holds its own tables and the idle ones only (~600, as the issue asks)."""
    from sqlalchemy import update
    from sqlalchemy.pool import NullPool

    from tavern.store.db import make_engine
    from tavern.store.models import TableConfig

    engine = make_engine(db_url, poolclass=NullPool)
    with engine.begin() as c:
        c.execute(update(TableConfig).where(TableConfig.id.in_(ids)).values(status="closed"))
    engine.dispose()


def credit(db_url: str, names: list[str], ecus: int) -> None:
    """Écus for caves at every step (the welcome écus hold five)."""
    from sqlalchemy import select
    from sqlalchemy.pool import NullPool

    from tavern.services import ledger
    from tavern.store.db import make_engine, session_factory
    from tavern.store.models import User

    engine = make_engine(db_url, poolclass=NullPool)
    with session_factory(engine)() as s, s.begin():
        for user_id in s.scalars(select(User.id).where(User.username.in_(names))):
            ledger.issue(s, user_id, ecus)
    engine.dispose()


def step(world: World, tag: str, args: argparse.Namespace, layout: dict[str, Any]) -> dict[str, Any]:
    """One fresh server: the players at fresh tables, plus what ``layout`` turns on."""
    server: Server = world.server(tag)
    ctx = mp.get_context("spawn")
    ready, stop = ctx.Queue(), ctx.Queue()
    proc = None
    tables = world.take(args.players) + layout.get("extra", [])
    try:
        if layout.get("visitors"):
            proc = ctx.Process(target=visitors_main, daemon=True,
                               args=(server.base, layout["visitors"], layout["probe"], ready, stop))
            proc.start()
            if ready.get(timeout=600) < 0:
                raise RuntimeError("the village sockets did not all open")
        cfg = {"ws_base": server.base.replace("http", "ws"), "origin": server.base, "think": args.think,
               "cave": CAVE, "mode": "tavern", "chat_per_min": layout.get("chat", 0.0),
               "seated": layout.get("seated", [])}
        out = run_phase(server, [{**cfg, "tables": part, "seed": i}
                                 for i, part in enumerate(split(tables, args.bot_procs))], args.warmup, args.seconds)
        if proc is not None:
            stop.put(True)
            out["village_delays"] = ready.get(timeout=300)
    finally:
        if proc is not None:
            proc.kill()
        server.stop()
        close_tables(world.db_url, [tid for tid, _ in tables])
    return out


def report(tag: str, out: dict[str, Any], before: dict[str, Any] | None, args: argparse.Namespace) -> None:
    print(line("tavern", out["connections"], out, args.seconds), flush=True)
    lat = out["latencies"]
    p99 = pct(lat, 0.99)
    text = f"  {tag:10s} players p50/p99 {pct(lat, 0.5):.2f}/{p99:.2f} ms (goal p99 < {GOAL_P99_MS:g}: " \
           f"{'met' if p99 < GOAL_P99_MS else 'MISSED'}), server CPU {out['server_cpu'] * 100:.1f} % of a core"
    if before is not None:
        added = (out["server_cpu"] - before["server_cpu"]) * 100
        text += f", added {added:.1f} % (budget {BUDGETS[tag]:g} %: {'met' if added <= BUDGETS[tag] else 'MISSED'})"
    if out.get("chat_delays"):
        c99 = pct(out["chat_delays"], 0.99)
        text += (f"; chat delivered p50/p99 {pct(out['chat_delays'], 0.5):.1f}/{c99:.1f} ms "
                 f"({len(out['chat_delays'])} deliveries; goal p99 < {CHAT_P99_MS:g}: "
                 f"{'met' if c99 < CHAT_P99_MS else 'MISSED'})")
    if out.get("village_delays"):
        v = out["village_delays"]
        v99 = pct(v, 0.99)
        text += (f"; a seat change on the village p50/p99 {pct(v, 0.5):.2f}/{v99:.2f} s ({len(v)} visitor-changes; "
                 f"goal p99 < {VILLAGE_P99_S:g} s: {'met' if v99 < VILLAGE_P99_S else 'MISSED'})")
    print(text + f"; loadavg {os.getloadavg()[0]:.1f}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2400, help="players at the tables (a multiple of 6)")
    ap.add_argument("--visitors", type=int, default=2000)
    ap.add_argument("--idle-tables", type=int, default=200, help="open tables nobody plays, in the village")
    ap.add_argument("--practice", type=int, default=200, help="practice tables")
    ap.add_argument("--practice-level", default=None, help="the house players' level (default: « habitué »)")
    ap.add_argument("--lone", type=int, default=200, help="lone players with five house seats each")
    ap.add_argument("--chat-per-min", type=float, default=2.0)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--bot-procs", type=int, default=2)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.players, args.visitors, args.idle_tables, args.practice, args.lone = 120, 100, 20, 10, 10
        args.seconds, args.warmup = 10.0, 3.0
    from tavern.bots.levels import REGULAR

    level = args.practice_level or REGULAR
    tmp = Path(tempfile.mkdtemp(prefix="tavern-bench-featured-"))
    env = {"TAVERN_DATA_DIR": str(tmp), "TAVERN_SECRET_KEY": secrets.token_urlsafe(32),
           # Load-test allowances only: every bot and visitor comes from 127.0.0.1 all day.
           "TAVERN_FREE_HANDS_PER_DAY": "1000000000", "TAVERN_WS_PER_ADDRESS": "100000",
           "TAVERN_PUSH_PER_ADDRESS": "100000", "TAVERN_SIGNUPS_PER_HOUR": "1000000",
           "TAVERN_ARGON2_TIME_COST": "1", "TAVERN_ARGON2_MEMORY_KIB": "1024", "TAVERN_ARGON2_PARALLELISM": "1"}
    os.environ.update({"TAVERN_DATA_DIR": str(tmp)})
    steps = ["plain", "+chat", "+village", "+practice", "+house"]
    played = len(steps) * args.players // SEATS
    lone_tables = 2 * args.lone  # the last step's, and one set spare
    n_bots = args.players + args.practice + args.lone + 1
    try:
        world = World(tmp, played + args.idle_tables + lone_tables + 1, n_bots, env)
        names = [name for name, _ in world.bots]
        credit(world.db_url, names, 100 * CAVE)
        # Set aside past the players' tables: the idle ones stay open (the
        # village's others), the lone players' and the probe's.
        rest = world.free_tables[played:]
        world.free_tables = world.free_tables[:played]
        idle, lone_ids, probe_id = rest[:args.idle_tables], rest[args.idle_tables:][:args.lone], rest[-1]
        practice_bots = world.bots[args.players:args.players + args.practice]
        lone_bots = world.bots[args.players + args.practice:args.players + args.practice + args.lone]
        probe = (probe_id, world.bots[-1][1])
        print(f"village: {args.players // SEATS} played tables, {len(idle)} idle, the probe's; "
              f"practice level « {level} »", flush=True)
        seed_house_tables(world.db_url, lone_ids, PER_TABLE)
        results: dict[str, dict[str, Any]] = {}
        for i, tag in enumerate(steps):
            layout: dict[str, Any] = {}
            if i >= 1:
                layout["chat"] = args.chat_per_min
            if i >= 2:
                layout |= {"visitors": args.visitors, "probe": probe}
            if i >= 3:
                practice_ids = open_practice_tables(world.db_url, [n for n, _ in practice_bots], level)
                layout["extra"] = [(tid, [bot]) for tid, bot in zip(practice_ids, practice_bots, strict=True)]
                layout["seated"] = practice_ids
            if i >= 4:
                layout["extra"] += [(tid, [bot]) for tid, bot in zip(lone_ids, lone_bots, strict=True)]
            results[tag] = step(world, tag, args, layout)
            report(tag, results[tag], results[steps[i - 1]] if i else None, args)
    finally:
        leave_tmp(tmp, args.keep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
