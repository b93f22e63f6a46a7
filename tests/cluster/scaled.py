"""Several real server processes on one database and one redis-server, and
bots that play through whichever worker their socket lands on (issue 14).

``ScaledServer`` is ``uvicorn --workers N`` on one port, as deployed; its
workers are found through /proc and a table's owner through its lease in
Redis. A :class:`Bot` is a player who plays on by himself: he sits, answers
each turn (check, else call, else fold), and reconnects whenever his socket
closes — the worker died, or the table moved — as the page does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker
from tests.dbtools import harness_settings
from tests.tables.liveserver import PASSWORD, ROOT, free_port
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tavern.services import ledger, users
from tavern.store.models import ArchivedHand, LedgerEntry, Seat, TableConfig, Tavern, User, Village

CAVE = 100


@dataclass
class ScaledServer:
    db_url: str
    redis_url: str
    data_dir: Path
    workers: int = 3
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    #: The drain the server sets itself (settings.py), not this harness's short one.
    default_drain: bool = False
    #: More uvicorn options (the fault suite passes the image's health timeout).
    uvicorn_args: list[str] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "TAVERN_DATABASE_URL": self.db_url, "TAVERN_REDIS_URL": self.redis_url,
               "TAVERN_DATA_DIR": str(self.data_dir), "TAVERN_SECRET_KEY": "scaled-test-secret",
               "TAVERN_ALLOWED_ORIGINS": self.base, "TAVERN_DEAL_PAUSE_SECONDS": "0.3", "TAVERN_GC_FULL_SECONDS": "600",
               "TAVERN_WORKERS": str(self.workers), "TAVERN_LEASE_SECONDS": "2",
               "TAVERN_DRAIN_SECONDS": "20", "TAVERN_WS_PER_ADDRESS": "1000",
               # The daily free hands (20, RULES.md "Daily hands") stop a table
               # whose bots deal a hand a second: on a quiet machine the tables
               # reached them before "every table deals again" (a CI failure).
               # These tests are about workers; the allowance is tested alone.
               "TAVERN_FREE_HANDS_PER_DAY": "100000", **self.extra_env}
        if self.default_drain:
            env.pop("TAVERN_DRAIN_SECONDS")
        if not self.redis_url:  # one process on its own store, without Redis
            env.pop("TAVERN_REDIS_URL")
        log = open(self.data_dir / f"scaled-{self.port}.log", "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "tavern.web.app:create_app", "--factory", "--host", "127.0.0.1",
             "--port", str(self.port), "--workers", str(self.workers), "--log-level", "warning",
             "--ws", "tavern.web.wsproto:TableSocketProtocol", *self.uvicorn_args],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if len(self.worker_pids()) == self.workers:
                try:
                    if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
            if self.proc.poll() is not None:
                raise RuntimeError(self.log())
            time.sleep(0.2)
        raise RuntimeError("the workers did not start:\n" + self.log())

    def log(self) -> str:
        return (self.data_dir / f"scaled-{self.port}.log").read_text(errors="replace")

    def worker_pids(self) -> list[int]:
        """The worker processes of the uvicorn supervisor (with one worker,
        uvicorn serves in its own process)."""
        if self.proc is None:
            return []
        if self.workers == 1:
            return [self.proc.pid]
        out = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            # Its children are the workers and multiprocessing's resource tracker.
            if ppid == self.proc.pid and b"spawn_main" in (entry / "cmdline").read_bytes():
                out.append(int(entry.name))
        return sorted(out)

    def owner_pid(self, table_id: int) -> int | None:
        """The pid of the worker holding the table's lease (``host:pid:tag|fence``)."""
        r = redis.Redis.from_url(self.redis_url)
        try:
            raw = r.get(f"tavern:lease:table:{table_id}")
        finally:
            r.close()
        return int(raw.decode().split(":")[1]) if raw else None

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(40)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)

    def login(self, username: str) -> str:
        with httpx.Client(base_url=self.base) as c:
            token = c.get("/api/auth/session").json()["csrf_token"]
            r = c.post("/api/auth/login", json={"username": username, "password": PASSWORD},
                       headers={"X-CSRF-Token": token})
            r.raise_for_status()
            return "; ".join(f"{k}={v}" for k, v in c.cookies.items())



@contextlib.contextmanager
def two_servers(db_url: str, redis_url: str, data_dir: Path) -> Any:
    """Two single-worker servers on one store and one redis-server (the
    table's owner and another), stopped whatever happens, also when the
    second fails to start."""
    servers: list[ScaledServer] = []
    try:
        for name in ("owner", "other"):
            (data_dir / name).mkdir()
            server = ScaledServer(db_url, redis_url, data_dir / name, workers=1)
            servers.append(server)
            server.start()
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()

@dataclass
class Village8:
    owner_id: int
    tables: dict[int, list[str]]  #: table id → its players' names
    ids: dict[str, int]


def seed_tables(factory: sessionmaker[Session], n_tables: int, per_table: int = 3, timer: int = 5) -> Village8:
    """One owner, one tavern, ``n_tables`` open Ramponneau tables and
    ``per_table`` players for each, with 1,000 écus each."""
    pw = users.hash_password(PASSWORD, harness_settings())
    with factory() as s, s.begin():
        owner = User(username="patron", password_hash=pw, level=1, role="player")
        village = Village(name="Montmartre")
        s.add_all([owner, village])
        s.flush()
        tavern = Tavern(village_id=village.id, owner_id=owner.id, name="Au Lapin Agile")
        s.add(tavern)
        s.flush()
        tables: dict[int, list[str]] = {}
        ids: dict[str, int] = {}
        for t in range(n_tables):
            table = TableConfig(tavern_id=tavern.id, name=f"t{t}", game="ramponneau", variant="",
                                stakes={"small_blind": 1, "big_blind": 2}, options={}, buy_in_min=20,
                                buy_in_max=200, rake_percent=5, rake_cap=None, no_flop_no_drop=True, seats=6,
                                action_timer_seconds=timer, status="open")
            s.add(table)
            s.flush()
            tables[table.id] = []
            for p in range(per_table):
                name = f"j{t}x{p}"
                u = User(username=name, password_hash=pw, level=1, role="player")
                s.add(u)
                s.flush()
                ledger.issue(s, u.id, 1000)
                tables[table.id].append(name)
                ids[name] = u.id
        return Village8(owner.id, tables, ids)


class Bot:
    """One player who plays on, whatever worker serves him."""

    def __init__(self, server: ScaledServer, table_id: int, name: str, seat: int, cookie: str,
                 delay: float = 0.0) -> None:
        self.server = server
        #: Seconds he thinks before each move (a slow player).
        self.delay = delay
        self.table_id = table_id
        self.name = name
        self.seat = seat
        self.cookie = cookie
        self.connections = 0
        self.closes: list[int | None] = []
        #: The wall time of the last frame that showed him each deal in
        #: progress, by the deal's commitment (the fault suite: no frame of a
        #: voided deal reaches a page after the void).
        self.deal_seen: dict[str, float] = {}

    async def run(self, stop: asyncio.Event) -> None:
        url = f"{self.server.ws_base}/ws/tables/{self.table_id}"
        while not stop.is_set():
            try:
                async with connect(url, additional_headers={"Cookie": self.cookie}, origin=self.server.base,
                                   open_timeout=5, close_timeout=1) as ws:
                    self.connections += 1
                    await self._play(ws, stop)
            except ConnectionClosed as exc:
                self.closes.append(exc.rcvd.code if exc.rcvd else None)
            except (OSError, InvalidStatus, TimeoutError):
                self.closes.append(None)
            await asyncio.sleep(0.2)

    async def _play(self, ws: Any, stop: asyncio.Event) -> None:
        asked_seat = False
        acted_at = -1
        n = 0
        fair_held: dict[str, Any] = {}  # the commitments as last carried (docs/protocol.md table_at)
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            m = json.loads(raw)
            if m["type"] != "state":
                continue
            if "id" in (m.get("table") or {}):  # the table's held keys, carried when they change
                fair_held = m["table"].get("fair") or {}
            running = fair_held.get("deal")
            if running and m.get("deal") is not None:
                self.deal_seen[running] = time.time()
            you = m.get("you")
            if you is None:
                if not asked_seat:
                    asked_seat = True
                    n += 1
                    await ws.send(json.dumps({"type": "sit", "id": n, "seat": self.seat, "cave": CAVE}))
                continue
            if you.get("sitting_out"):
                n += 1
                await ws.send(json.dumps({"type": "sit_in", "id": n}))
                continue
            legal = {a["action"]: a for a in you.get("legal") or []}
            if legal and m["seq"] > acted_at:
                acted_at = m["seq"]
                choice = "check" if "check" in legal else "call" if "call" in legal else next(iter(legal))
                if self.delay:
                    await asyncio.sleep(self.delay)
                n += 1
                await ws.send(json.dumps({"type": "act", "id": n, "action": choice, "args": {}, "seq": m["seq"]}))


def settled_counts(factory: sessionmaker[Session], table_ids: list[int]) -> dict[int, int]:
    with factory() as s:
        rows = s.execute(select(ArchivedHand.table_id, func.count()).where(
            ArchivedHand.voided.is_(False), ArchivedHand.table_id.in_(table_ids)).group_by(ArchivedHand.table_id))
        counts = dict.fromkeys(table_ids, 0)
        counts.update({tid: n for tid, n in rows})
        return counts


def in_progress(factory: sessionmaker[Session], table_ids: list[int]) -> dict[int, int]:
    """The deal in progress of each table that has one (archive id)."""
    with factory() as s:
        out = {}
        for row in s.scalars(select(ArchivedHand).where(ArchivedHand.voided.is_(True),
                                                          ArchivedHand.table_id.in_(table_ids))):
            if (row.result or {}).get("in_progress"):
                out[row.table_id] = row.id
        return out


async def wait_for(predicate: Any, timeout: float, what: str,
                   explain: Any = None) -> float:
    """Poll ``predicate`` (a blocking check, run in a thread) until it holds;
    returns the seconds it took. ``explain`` (a blocking callable returning
    text) says what the cluster looked like when it did not: a failure in a
    CI run must say which table stalled and why, not only that one did."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if await asyncio.to_thread(predicate):
            return time.monotonic() - start
        await asyncio.sleep(0.25)
    detail = ""
    if explain is not None:
        try:
            detail = "\n" + await asyncio.to_thread(explain)
        except Exception as exc:  # the report must never hide the failure itself
            detail = f"\n(no report: {exc!r})"
    raise AssertionError(f"{what}: not within {timeout} s{detail}")


def cluster_report(server: ScaledServer, factory: sessionmaker[Session], table_ids: list[int]) -> str:
    """Each table's settled deals, deal in progress, lease holder and seats
    (chips, sitting out), the live workers, and the server log's tail."""
    lines = [f"workers: {server.worker_pids()}"]
    settled = settled_counts(factory, table_ids)
    running = in_progress(factory, table_ids)
    with factory() as s:
        for tid in table_ids:
            seats = [(s.get_one(User, seat.user_id).username, ledger.chips(s, seat.user_id, tid), seat.sitting_out)
                     for seat in s.scalars(select(Seat).where(Seat.table_id == tid))]
            lines.append(f"table {tid}: settled {settled[tid]}, in progress {running.get(tid)}, "
                         f"owner {server.owner_pid(tid)}, seats {seats}")
    lines.append("server log (tail):\n" + "\n".join(server.log().splitlines()[-40:]))
    return "\n".join(lines)


def money_check(factory: sessionmaker[Session], village: Village8) -> dict[str, Any]:
    """What the scaled tests assert of the money after the run — read in one
    snapshot: the fault suite reads it while its bots still play, and on
    PostgreSQL (READ COMMITTED) each statement saw the deals settled by then,
    so a deal settled between two players' reads counted its pot twice or
    not at all (a "gap" of a few chips the ledger's own audit did not have)."""
    with factory() as s:
        if s.get_bind().dialect.name == "postgresql":
            s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        total = ledger.balance(s, "user", village.owner_id, "ecus")
        for tid, names in village.tables.items():
            for name in names:
                uid = village.ids[name]
                total += ledger.balance(s, "user", uid, "ecus") + ledger.chips(s, uid, tid)
        # Each deal's settlement is one transfer: a reference with two is a deal settled twice.
        per_deal = s.execute(select(LedgerEntry.reference, func.count(func.distinct(LedgerEntry.transfer_id)))
                             .where(LedgerEntry.reference.like("hand:%")).group_by(LedgerEntry.reference)).all()
        voided = {h.id: h.result for h in s.scalars(select(ArchivedHand).where(ArchivedHand.voided.is_(True)))}
        settled_refs = {ref for ref, _ in per_deal}
        return {
            "total": total,
            "expected": 1000 * len(village.ids),
            "settled_twice": [ref for ref, n in per_deal if n > 1],
            "voided": voided,
            "voided_but_settled": [i for i in voided if f"hand:{i}" in settled_refs],
            "settled": settled_refs,
            "audit_ok": ledger.audit(s).ok,
        }


async def start_bots(server: ScaledServer, village: Village8, stop: asyncio.Event,
                     delays: dict[str, float] | None = None) -> tuple[list[Bot], list[Any]]:
    """A bot for every player; ``delays`` names the slow ones (his seconds a move)."""
    bots = []
    for tid, names in village.tables.items():
        for seat, name in enumerate(names):
            cookie = await asyncio.to_thread(server.login, name)
            bots.append(Bot(server, tid, name, seat, cookie, (delays or {}).get(name, 0.0)))
    tasks = [asyncio.create_task(b.run(stop)) for b in bots]
    return bots, tasks


async def stop_bots(stop: asyncio.Event, tasks: list[Any]) -> None:
    stop.set()
    for t in tasks:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(t, 5)


def fill_disk(mount: Path) -> Path:
    """Fill the filesystem at ``mount`` to its last byte with one file (the
    full-disk fault: tests/web/test_disk_full.py, bench/bench_faults.py) and
    return it; removing it ends the fault. Unbuffered writes: nothing is left
    to flush at close."""
    filler = mount / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 512, 1):  # then the last bytes a smaller write still fits
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)
    return filler


class RedisProcess:
    """A redis-server on a fixed loopback port that a test may kill and start
    again (the faults of issue 38): empty at each start, as a Redis without
    persistence comes back (the harder case: the leases, the fence counters
    and the set of live tables are gone)."""

    def __init__(self, data_dir: Path) -> None:
        import shutil
        import socket

        exe = shutil.which("redis-server")
        assert exe, "redis-server is needed: scripts/system-deps.sh installs it"
        self.exe = exe
        self.data_dir = data_dir
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen([self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", str(self.data_dir)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    time.sleep(0.05)
            raise RuntimeError("redis-server did not start")
        finally:
            client.close()

    def kill(self) -> None:
        """SIGKILL: what a crash, an OOM kill or a failover does to its clients."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def lease_holder(self, key: str) -> str | None:
        """Who holds the lease on ``key`` (``host:pid:tag|fence``), if anyone."""
        client = redis.Redis.from_url(self.url)
        try:
            raw = client.get(f"tavern:lease:{key}")
            return raw.decode() if raw else None
        finally:
            client.close()

    def subscriptions(self) -> dict[str, Any]:
        """What the workers listen to: the clients with a pattern subscription (one
        per worker: its tables' channels) and the rpc channels (one per worker)."""
        client = redis.Redis.from_url(self.url)
        try:
            # NUMPAT counts distinct patterns: the clients subscribed to one are counted here.
            return {"patterns": sum(1 for c in client.client_list(_type="pubsub") if int(c.get("psub", 0)) > 0),
                    "rpc": sorted(c.decode() for c in client.pubsub_channels("tavern:rpc:*"))}
        finally:
            client.close()


async def handshake_status(server: ScaledServer, table_id: int, cookie: str) -> int | str:
    """How a table socket's handshake ends: its HTTP status when refused
    (a 500 is the fault), else the close code and reason the server sends
    within a few seconds ("open" when it stays open)."""
    url = f"{server.ws_base}/ws/tables/{table_id}"
    try:
        async with connect(url, additional_headers={"Cookie": cookie}, origin=server.base,
                           open_timeout=10, close_timeout=1) as ws:
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 3)
            except ConnectionClosed as exc:
                return f"closed {exc.rcvd.code if exc.rcvd else None}: {exc.rcvd.reason if exc.rcvd else ''}"
            except TimeoutError:
                return "open"
    except InvalidStatus as exc:
        return int(exc.response.status_code)
    except (OSError, TimeoutError) as exc:
        return f"unreachable: {exc!r}"
