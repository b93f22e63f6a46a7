"""The fault suite (issue 38, docs/operations.md "Faults"): each fault an
operator meets injected for real under players who play, and its recovery
measured from outside.

Two real workers (uvicorn's supervisor, ``--workers 2`` with the image's
``--timeout-worker-healthcheck 30``) on a throwaway PostgreSQL
(scripts/with-postgres.sh) and a real redis-server, four Ramponneau tables
with three bots each (tests/cluster/scaled.py: they check, call or fold and
reconnect whenever their socket closes, as the page does). In this order:

* Redis down 10 s and 60 s (SIGKILL after a SAVE, started again on its dump:
  a Redis with persistence), then Redis back empty (SIGKILL, its dump
  removed, started again at once: the leases, fence counters and live set gone);
* the worker owning the first table SIGSTOPped 3 s, 8 s and 30 s, then SIGCONT;
* PostgreSQL restarted (``pg_ctl restart -m fast`` on the throwaway cluster);
* then one process on SQLite whose database sits on a 16 MB tmpfs (mounted
  as root; else the suite says so and skips it) filled to the last byte by
  a file for 10 s, then the file removed.

For each fault, from its end (Redis answering, SIGCONT, pg_ctl returned, the
file removed): the seconds until every table has settled a new deal; from
its start, the longest any table went without settling one (what its players
waited); the deals voided during it, and whether a frame of one reached a
bot after its void (the bot's clock against the void's time in the archive,
one machine); whether a worker leads the contests
again; the ledger's audit and the money's total (every player's écus and
chips and the owner's rake against what was issued) and any deal settled
twice; and what players met from its start until every table dealt again
plus 5 s: HTTP 5xx on the lobby page, table-socket handshakes answered 5xx,
and how the others ended (pauses, closes).

    .venv/bin/python bench/bench_faults.py            # all faults, ~9 min (root for the tmpfs)
    .venv/bin/python bench/bench_faults.py --only redis-10,sqlite-full
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

TABLES = 4
#: The image's supervisor health timeout (Dockerfile TAVERN_WORKER_HEALTH_SECONDS).
HEALTH_SECONDS = 30
#: How long the suite waits for every table to deal again before calling it stuck.
STUCK_AFTER = 120.0
#: Past the issue's bar (10 s) by this much, the workers' stacks are dumped (dump_stacks).
DUMP_AFTER = 20.0
FAULTS = ["redis-10", "redis-60", "redis-empty", "stop-3", "stop-8", "stop-30", "pg-restart", "sqlite-full"]


@dataclass
class Probe:
    """What players meet: the lobby page fetched every 0.5 s and a table
    socket opened again and again (how its handshake ends)."""

    server: Any
    table_ids: list[int]
    cookie: str
    pages: Counter[str] = field(default_factory=Counter)
    sockets: Counter[str] = field(default_factory=Counter)
    stall: float = 0.0

    async def pages_loop(self, stop: asyncio.Event) -> None:
        import httpx

        async with httpx.AsyncClient(base_url=self.server.base, headers={"Cookie": self.cookie}) as client:
            while not stop.is_set():
                try:
                    status = (await client.get("/", timeout=10)).status_code
                    self.pages[str(status)] += 1
                except httpx.HTTPError as exc:
                    self.pages[type(exc).__name__] += 1
                await asyncio.sleep(0.5)

    async def sockets_loop(self, stop: asyncio.Event) -> None:
        from tests.cluster.scaled import handshake_status

        n = 0
        while not stop.is_set():
            outcome = await handshake_status(self.server, self.table_ids[n % len(self.table_ids)], self.cookie)
            n += 1
            self.sockets[_short(outcome)] += 1
            await asyncio.sleep(0.2)

    async def stalls_loop(self, factory: Any, stop: asyncio.Event) -> None:
        """The longest time a table went without settling a deal, from the
        fault's start (what its players waited, whatever the fault's length)."""
        from sqlalchemy.exc import SQLAlchemyError
        from tests.cluster.scaled import settled_counts

        started = time.monotonic()
        since = dict.fromkeys(self.table_ids, started)
        last: dict[int, int] | None = None
        while not stop.is_set():
            try:  # the database itself may be the fault
                now, at = await asyncio.to_thread(settled_counts, factory, self.table_ids), time.monotonic()
            except SQLAlchemyError:
                await asyncio.sleep(0.25)
                continue
            for t in self.table_ids:
                self.stall = max(self.stall, at - since[t])
                if last is not None and now[t] > last[t]:
                    since[t] = at
            last = now
            await asyncio.sleep(0.25)

    def errors(self) -> tuple[int, int]:
        """5xx pages and 5xx handshakes."""
        return (sum(n for k, n in self.pages.items() if k.startswith("5")),
                sum(n for k, n in self.sockets.items() if k.startswith("5")))


def _short(outcome: int | str) -> str:
    text = str(outcome)
    if "pause" in text:
        return "1013 pause"
    if text.startswith("closed"):
        return text.split(":")[0]
    return text.split("(")[0]


@dataclass
class Cluster:
    server: Any
    factory: Any
    village: Any
    redis: Any = None
    bots: list[Any] = field(default_factory=list)

    @property
    def ids(self) -> list[int]:
        return list(self.village.tables)


def voided_since(factory: Any, ids: list[int], since: float) -> dict[str, float]:
    """The deals voided after wall time ``since``: each one's commitment
    and the wall time of its void (the row's end, written by the void)."""
    import datetime as dt

    from sqlalchemy import select

    from tavern.store.models import ArchivedHand

    after = dt.datetime.fromtimestamp(since, dt.UTC).replace(tzinfo=None)
    with factory() as s:
        rows = s.scalars(select(ArchivedHand).where(ArchivedHand.voided.is_(True), ArchivedHand.table_id.in_(ids),
                                                    ArchivedHand.ended >= after))
        out = {}
        for r in rows:
            commitment = ((r.record or {}).get("fair") or {}).get("commitment")
            if commitment and not (r.result or {}).get("in_progress"):
                ended = r.ended if r.ended.tzinfo else r.ended.replace(tzinfo=dt.UTC)
                out[commitment] = ended.timestamp()
        return out


def late_frames(bots: list[Any], voided: dict[str, float]) -> list[float]:
    """Per bot that saw one, how long after its void the last frame of a
    voided deal reached him (issue 38 §2: none should, once voided)."""
    return [b.deal_seen[c] - at for b in bots for c, at in voided.items() if b.deal_seen.get(c, 0.0) > at]


def voided_count(factory: Any, ids: list[int]) -> int:
    """Deals voided (not the mark of a deal in progress)."""
    from sqlalchemy import select

    from tavern.store.models import ArchivedHand

    with factory() as s:
        rows = s.scalars(select(ArchivedHand).where(ArchivedHand.voided.is_(True), ArchivedHand.table_id.in_(ids)))
        return sum(1 for r in rows if not (r.result or {}).get("in_progress"))


async def every_table_deals(c: Cluster, timeout: float) -> float | None:
    """Seconds until each table has settled a deal it had not at the call; None if stuck."""
    from tests.cluster.scaled import settled_counts

    before = await asyncio.to_thread(settled_counts, c.factory, c.ids)
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        now = await asyncio.to_thread(settled_counts, c.factory, c.ids)
        if all(now[t] > before[t] for t in c.ids):
            return time.monotonic() - start
        await asyncio.sleep(0.2)
    return None


def dump_stacks(server: Any) -> str:
    """Tables stuck: every thread's stack in each worker (py-spy, when
    installed), written beside the server's log — where each table's loop
    waits is the first thing to know, and it is gone once the suite stops."""
    import shutil

    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        return "stacks not dumped (no py-spy)"
    out = Path(server.data_dir) / "stuck-stacks.txt"
    with out.open("w") as f:
        for pid in server.worker_pids():
            f.write(f"== worker {pid}\n")
            f.flush()
            subprocess.run([spy, "dump", "--pid", str(pid), "--locals"], stdout=f, stderr=subprocess.STDOUT,
                           timeout=60, check=False)
    return f"stacks dumped to {out}"


async def measure(c: Cluster, name: str, inject: Callable[[], Awaitable[str]]) -> dict[str, Any]:
    """Inject one fault under play and measure its recovery from outside."""
    from tests.cluster.scaled import money_check

    if await every_table_deals(c, STUCK_AFTER) is None:
        return {"fault": name, "skipped": "the tables were not dealing before the fault"}
    voided0 = await asyncio.to_thread(voided_count, c.factory, c.ids)
    closes0 = sum(len(b.closes) for b in c.bots)
    began = time.time()
    probe = Probe(c.server, c.ids, c.bots[0].cookie)
    stop = asyncio.Event()
    loops = [asyncio.create_task(probe.pages_loop(stop)), asyncio.create_task(probe.sockets_loop(stop)),
             asyncio.create_task(probe.stalls_loop(c.factory, stop))]
    note = await inject()
    took = await every_table_deals(c, DUMP_AFTER)
    if took is None:  # slow or stuck: where each worker's threads wait, while they still do
        note += "; " + await asyncio.to_thread(dump_stacks, c.server)
        more = await every_table_deals(c, STUCK_AFTER - DUMP_AFTER)  # counted afresh: one more deal each
        took = None if more is None else DUMP_AFTER + more
    await asyncio.sleep(5)
    stop.set()
    for t in loops:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(t, 20)
    money = await asyncio.to_thread(money_check, c.factory, c.village)
    # Someone leads the contests again (the leader's task once died of a Redis outage).
    led = None if c.redis is None else await asyncio.to_thread(c.redis.lease_holder, "contests") is not None
    pages5, sockets5 = probe.errors()
    voided_now = await asyncio.to_thread(voided_since, c.factory, c.ids, began)
    late = late_frames(c.bots, voided_now)
    # The yardstick's own check: the bots did see the voided deals (a zero above means something).
    seen_voided = sum(1 for b in c.bots for d in voided_now if d in b.deal_seen)
    return {"fault": name, "note": note, "deals_again_s": took, "stall_s": probe.stall,
            "late_frames": len(late), "late_by_s": max(late, default=0.0), "seen_voided": seen_voided,
            "voided": await asyncio.to_thread(voided_count, c.factory, c.ids) - voided0,
            "audit_ok": money["audit_ok"], "money_gap": money["total"] - money["expected"],
            "settled_twice": len(money["settled_twice"]) + len(money["voided_but_settled"]),
            "contests_led": led, "pages_5xx": pages5, "handshakes_5xx": sockets5,
            "bot_reconnects": sum(len(b.closes) for b in c.bots) - closes0,
            "pages": dict(probe.pages), "handshakes": dict(probe.sockets)}


def line(r: dict[str, Any]) -> str:
    if "skipped" in r:
        return f"{r['fault']:<12} skipped: {r['skipped']}"
    took = f"{r['deals_again_s']:.1f} s" if r["deals_again_s"] is not None else f"NOT within {STUCK_AFTER:.0f} s"
    money = "balanced" if r["audit_ok"] and r["money_gap"] == 0 and not r["settled_twice"] else (
        f"audit {'ok' if r['audit_ok'] else 'FAILED'}, gap {r['money_gap']}, settled twice {r['settled_twice']}")
    return (f"{r['fault']:<12} every table deals again {took:>8} after it, longest stall {r['stall_s']:.1f} s"
            f" | voided {r['voided']:>2} (bots who saw one: {r['seen_voided']}; frames of them after the void:"
            f" {r['late_frames']}, latest {r['late_by_s']:.2f} s) | money {money} | contests led {r['contests_led']}"
            f" | 5xx pages {r['pages_5xx']}, handshakes {r['handshakes_5xx']} | bot reconnects {r['bot_reconnects']}"
            f" | handshakes {r['handshakes']} | pages {r['pages']} | {r['note']}")


# The faults --------------------------------------------------------------

def redis_down(c: Cluster, seconds: float) -> Callable[[], Awaitable[str]]:
    async def inject() -> str:
        import redis

        client = redis.Redis.from_url(c.redis.url)
        await asyncio.to_thread(client.save)
        client.close()
        c.redis.kill()
        await asyncio.sleep(seconds)
        await asyncio.to_thread(c.redis.start)
        return f"SIGKILL, {seconds:.0f} s, started on its dump"
    return inject


def redis_empty(c: Cluster) -> Callable[[], Awaitable[str]]:
    async def inject() -> str:
        c.redis.kill()
        (c.redis.data_dir / "dump.rdb").unlink(missing_ok=True)
        await asyncio.to_thread(c.redis.start)
        return "SIGKILL, started again at once without its data"
    return inject


def worker_stopped(c: Cluster, seconds: float) -> Callable[[], Awaitable[str]]:
    async def inject() -> str:
        pids = c.server.worker_pids()
        pid = c.server.owner_pid(c.ids[0]) or pids[0]
        owned = sum(1 for t in c.ids if c.server.owner_pid(t) == pid)
        os.kill(pid, signal.SIGSTOP)
        await asyncio.sleep(seconds)
        os.kill(pid, signal.SIGCONT)
        await asyncio.sleep(0.5)
        after = c.server.worker_pids()
        fate = "alive" if pid in after else "killed by the supervisor"
        return f"worker {pid} (owned {owned}/{len(c.ids)} tables) stopped {seconds:.0f} s, {fate}; workers after {after}"
    return inject


def pg_restart(c: Cluster) -> Callable[[], Awaitable[str]]:
    async def inject() -> str:
        pgbin, pgdata = os.environ["WITH_POSTGRES_PGBIN"], os.environ["WITH_POSTGRES_PGDATA"]
        cmd = [f"{pgbin}/pg_ctl", "-D", pgdata, "-w", "-m", "fast", "-l", str(Path(pgdata).parent / "server.log"),
               "restart"]
        if os.environ.get("WITH_POSTGRES_OSUSER"):
            cmd = ["runuser", "-u", os.environ["WITH_POSTGRES_OSUSER"], "--", *cmd]
        start = time.monotonic()
        await asyncio.to_thread(subprocess.run, cmd, check=True, stdout=subprocess.DEVNULL)
        return f"pg_ctl restart -m fast took {time.monotonic() - start:.1f} s"
    return inject


def disk_full(c: Cluster, mount: Path, seconds: float) -> Callable[[], Awaitable[str]]:
    async def inject() -> str:
        from tests.cluster.scaled import fill_disk

        filler = fill_disk(mount)
        await asyncio.sleep(seconds)
        filler.unlink()
        return f"tmpfs of {mount_size(mount)} filled for {seconds:.0f} s"
    return inject


def mount_size(mount: Path) -> str:
    st = os.statvfs(mount)
    return f"{st.f_blocks * st.f_frsize // 2**20} MB"


# The runs ----------------------------------------------------------------

async def play(c: Cluster, faults: list[tuple[str, Callable[[], Awaitable[str]]]]) -> list[dict[str, Any]]:
    from tests.cluster.scaled import start_bots, stop_bots

    stop = asyncio.Event()
    c.bots, tasks = await start_bots(c.server, c.village, stop)
    results = []
    try:
        for name, inject in faults:
            r = await measure(c, name, inject)
            print(line(r), flush=True)
            results.append(r)
    finally:
        await stop_bots(stop, tasks)
    return results


def session_factory(db_url: str) -> Any:
    from sqlalchemy import create_engine
    from sqlalchemy.orm import sessionmaker

    return sessionmaker(create_engine(db_url, pool_pre_ping=True))


def cluster_run(chosen: list[str], tmp: Path) -> list[dict[str, Any]]:
    """The faults of two workers on PostgreSQL and Redis."""
    from tests.cluster.scaled import RedisProcess, ScaledServer, seed_tables

    from _tables_world import migrate

    tmp.mkdir()
    db_url = os.environ["TAVERN_DATABASE_URL"]
    migrate(db_url)
    factory = session_factory(db_url)
    village = seed_tables(factory, TABLES)
    (tmp / "redis").mkdir()
    rds = RedisProcess(tmp / "redis")
    rds.start()
    server = ScaledServer(db_url, rds.url, tmp, workers=2,
                          uvicorn_args=["--timeout-worker-healthcheck", str(HEALTH_SECONDS)])
    server.start()
    c = Cluster(server, factory, village, rds)
    table = {"redis-10": redis_down(c, 10), "redis-60": redis_down(c, 60), "redis-empty": redis_empty(c),
             "stop-3": worker_stopped(c, 3), "stop-8": worker_stopped(c, 8), "stop-30": worker_stopped(c, 30),
             "pg-restart": pg_restart(c)}
    try:
        return asyncio.run(play(c, [(n, table[n]) for n in FAULTS if n in chosen and n in table]))
    finally:
        server.stop()
        rds.kill()
        (tmp / "cluster.log").write_text(server.log())


def sqlite_run(tmp: Path) -> list[dict[str, Any]]:
    """One process on SQLite whose database's filesystem fills up."""
    from tests.cluster.scaled import ScaledServer, seed_tables

    from _tables_world import migrate

    mount = tmp / "disk"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        return [{"fault": "sqlite-full", "skipped": "no tmpfs could be mounted (needs root)"}]
    try:
        db_url = f"sqlite:///{mount}/tavern.db"
        migrate(db_url)
        factory = session_factory(db_url)
        village = seed_tables(factory, TABLES)
        (tmp / "single").mkdir()
        server = ScaledServer(db_url, "", tmp / "single", workers=1)
        server.start()
        c = Cluster(server, factory, village)
        try:
            return asyncio.run(play(c, [("sqlite-full", disk_full(c, mount, 10))]))
        finally:
            server.stop()
            (tmp / "single.log").write_text(server.log())
            factory.kw["bind"].dispose()
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default=",".join(FAULTS), help="comma-separated faults among " + ", ".join(FAULTS))
    ap.add_argument("--keep", action="store_true", help="keep the logs' directory")
    args = ap.parse_args()
    chosen = [f for f in args.only.split(",") if f]
    unknown = set(chosen) - set(FAULTS)
    if unknown:
        ap.error(f"unknown faults: {sorted(unknown)}")
    if not os.environ.get("TAVERN_DATABASE_URL", "").startswith("postgresql") and set(chosen) - {"sqlite-full"}:
        return subprocess.call([str(ROOT / "scripts/with-postgres.sh"), sys.executable, *sys.argv])
    os.environ.setdefault("TAVERN_SECRET_KEY", "bench-faults-secret")
    tmp = Path(tempfile.mkdtemp(prefix="tavern-faults-"))
    os.environ["TAVERN_DATA_DIR"] = str(tmp)
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"fault suite: {TABLES} tables × 3 bots; load {load}; logs in {tmp}", flush=True)
    results = []
    if set(chosen) - {"sqlite-full"}:
        results += cluster_run(chosen, tmp / "cluster")
    if "sqlite-full" in chosen:
        (tmp / "sqlite").mkdir()
        results += sqlite_run(tmp / "sqlite")
        if "skipped" in results[-1]:
            print(line(results[-1]))
    bad = [r["fault"] for r in results if "skipped" not in r and (
        r["deals_again_s"] is None or r["deals_again_s"] > 10 or not r["audit_ok"] or r["money_gap"]
        or r["settled_twice"] or r["handshakes_5xx"] or r["late_frames"])]
    print("faults beyond the issue's bar (every table dealing within 10 s, money balanced, no 5xx handshake,"
          f" no frame of a voided deal after its void): {bad}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
