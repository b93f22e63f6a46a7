"""The benchmark's clients: bots over real WebSocket connections (the
``websockets`` asyncio client), run in a worker process of their own so
they do not share the server's process.

Two kinds of worker, driven the same way by ``bench_tables.py``:

* ``tavern``: one bot per seated player. A bot sits, then whenever its own
  view (``you.legal``) says it must act it plays a simple policy — mostly
  check/call, 10 % folds when a fold is possible, 10 % minimum raises — and
  echoes the view's ``seq`` (re-thinking, as a page's player would, when the
  choices shown changed during its think time). Latency is measured at the
  acting bot: from sending ``act`` to receiving the first ``state`` newer
  than the one it acted on that shows the action done (its own choices
  changed, or another deal) — a publication about a seat taken meanwhile is
  not it. Moves go without an ``id``, as the table page sends them: the
  state is their answer, a refusal an ``error`` (not counted). With
  ``chat_per_min`` X, each table's players also say X chat messages a
  minute between them (``chat_say`` on the table socket, as the page's chat
  box sends it: no ``id``; a message is accepted when its ``chat`` frame
  comes back to its author).
* ``echo``: the same number of connections, six per room, the same turn
  pattern (one member "acts", every member receives a frame of the size of
  a state message, the next member acts on it), the same think time and the
  same pause every *deal* (as many actions as a deal had in the tavern run).

A worker connects, reports ``ready``, waits for the measurement window
(wall-clock times, shared by every worker) and returns its figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tavern.games.base import lay_own

CONNECT_CONCURRENCY = 25
#: A chat message ends with this and the time it was said (time.time()): every reader's delay.
SAID_AT = " à "
#: Players per bot process whose frames are recorded for the echo, and how many frames each.
STREAMS = 4
STREAM_FRAMES = 400


@dataclass
class Stats:
    t0: float = float("inf")  #: window start (time.time())
    t1: float = float("inf")  #: window end
    latencies: list[float] = field(default_factory=list)  #: ms, actions sent in the window
    #: the same, only for the actions that ended a deal: their view waits for
    #: the settlement transaction (``SqlBank.finish_deal``) before it is published
    closing: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)  #: the actions that did not end a deal
    actions: int = 0  #: acknowledged actions sent in the window
    errors: dict[str, int] = field(default_factory=dict)
    frames: int = 0  #: state frames received in the window
    frame_bytes: int = 0
    #: what a few players received in the window, frame by frame (the texts):
    #: the echo sends these, so that its frames compress as a table's do
    streams: list[list[str]] = field(default_factory=list)
    deals: int = 0
    #: sockets the server closed under a bot (a table moving to another
    #: worker closes with 1012), by close code; the bot reconnected each time
    reconnects: dict[str, int] = field(default_factory=dict)
    chat_said: int = 0  #: chat messages sent in the window
    chat_accepted: int = 0  #: of them, those whose frame came back to their author
    chat_frames: int = 0  #: chat frames received in the window (every reader's)
    #: ms from a message said to each reader's chat frame (the text carries the time it was said)
    chat_delays: list[float] = field(default_factory=list)

    def in_window(self, t: float) -> bool:
        return self.t0 <= t < self.t1

    def error(self, message: str) -> None:
        key = message.split("(")[0].split(":")[0][:60]
        self.errors[key] = self.errors.get(key, 0) + 1


def choose(legal: list[dict[str, Any]], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """Mostly check/call; some folds and minimum raises; show at showdown."""
    names = {a["action"]: a for a in legal}
    if "show" in names:
        return "show", {}
    if "draw" in names:
        return "draw", {"discard": []}
    r = rng.random()
    if r < 0.10 and "fold" in names:
        return "fold", {}
    if r < 0.20:
        for bet in ("raise", "bet"):
            if bet in names and "min" in names[bet]:
                return bet, {"amount": names[bet]["min"]}
    for passive in ("check", "call"):
        if passive in names:
            return passive, {}
    first = legal[0]
    return first["action"], {}


class TableBot:
    """One seated player of the tavern run."""

    def __init__(self, ws: ClientConnection, name: str, seat: int, cave: int, stats: Stats,
                 rng: random.Random, think: float, counts_deals: bool,
                 reopen: Callable[[], Awaitable[ClientConnection]], sits_already: bool = False) -> None:
        self.ws, self.name, self.seat, self.cave = ws, name, seat, cave
        self.sits_already = sits_already  #: a practice table's player holds his seat from its opening
        self.reopen = reopen  #: a new socket to the same table, as a page reconnects
        self.stopping = False
        self.stats, self.rng, self.think = stats, rng, think
        self.counts_deals = counts_deals
        self.tasks: set[asyncio.Future[None]] = set()
        self.state: dict[str, Any] | None = None
        self.n = 0
        self.pending: dict[str, Any] | None = None  #: the command awaiting its reply
        self.broke = False  #: no écus left for another cave
        self.deal0 = self.deal1 = None
        self.seated = asyncio.Event()
        self.stream: list[str] | None = None  #: the state texts received in the window, if recorded

    async def send(self, msg: dict[str, Any], answered: bool = True, **meta: Any) -> None:
        """``answered``: with an ``id``, which asks for an ``ok``; a move goes
        without one, as the table page sends it (the state is its answer)."""
        if self.stopping:
            return
        self.n += 1
        if answered:
            msg["id"] = self.n
        self.pending = {"id": msg.get("id"), "t": time.perf_counter(), "wall": time.time(), "t_state": None,
                        "ok": None, **meta}
        await self.ws.send(json.dumps(msg, separators=(",", ":")))

    async def run(self) -> None:
        if self.sits_already:
            self.seated.set()
        else:
            await self.send({"type": "sit", "seat": self.seat, "cave": self.cave}, kind="sit")
        while True:
            with contextlib.suppress(ConnectionClosed):
                async for raw in self.ws:
                    now = time.perf_counter()
                    msg = json.loads(raw)
                    kind = msg["type"]
                    if kind == "state":
                        self._on_state(msg, raw, now)
                    elif kind == "chat":
                        self._on_chat(msg)
                    elif kind in ("ok", "error"):
                        self._on_reply(msg)
                    self._settle()
                    self._consider()
            if self.stopping:
                return
            # The server closed the socket (1012: the table moved to another
            # worker): reconnect as the table page does; the snapshot sent on
            # connection resumes play. A command in flight is forgotten.
            code = str(self.ws.close_code)
            self.stats.reconnects[code] = self.stats.reconnects.get(code, 0) + 1
            self.pending = None
            for attempt in range(50):
                try:
                    self.ws = await self.reopen()
                    break
                except (OSError, ConnectionClosed, TimeoutError) as exc:
                    if attempt == 49:
                        raise RuntimeError(f"{self.name} could not reconnect: {exc}") from exc
                    await asyncio.sleep(0.2)

    def _on_state(self, msg: dict[str, Any], raw: str | bytes, now: float) -> None:
        if "own" in msg:  # the player's own part laid over the public view, as the page does
            msg["deal"] = lay_own(msg["deal"], msg.pop("own"))
        self.state = msg
        if msg.get("you"):  # seated (also when a reconnection lost the sit's reply)
            self.seated.set()
        wall = time.time()
        st = self.stats
        if st.in_window(wall):
            st.frames += 1
            st.frame_bytes += len(raw)
            if self.stream is not None and len(self.stream) < STREAM_FRAMES:
                self.stream.append(raw if isinstance(raw, str) else raw.decode())
        if self.counts_deals:
            deal_no = msg["table"]["deal_no"]
            if wall < st.t0:
                self.deal0 = deal_no
            if wall < st.t1:
                self.deal1 = deal_no
        p = self.pending
        if p is not None and p.get("kind") == "act" and p["t_state"] is None and msg["seq"] > p["seq"] \
                and self._reflects(msg, p):
            p["t_state"] = now
            p["closing"] = bool(msg["deal"]) and msg["deal"]["phase"] == "over"
            if p["id"] is None:
                p["ok"] = True  # sent without an id: this view is its answer

    def _on_chat(self, msg: dict[str, Any]) -> None:
        now = time.time()
        if self.stats.in_window(now):
            self.stats.chat_frames += 1
            if msg.get("author") == self.name:
                self.stats.chat_accepted += 1
            said = str(msg.get("text", "")).rpartition(SAID_AT)[2]
            with contextlib.suppress(ValueError):
                self.stats.chat_delays.append((now - float(said)) * 1000.0)

    async def say(self, text: str) -> None:
        """A chat message, sent beside the game as the page's chat box does (no ``id``)."""
        if self.stopping:
            return
        if self.stats.in_window(time.time()):
            self.stats.chat_said += 1
        with contextlib.suppress(Exception):  # the connection closed at the end of the run
            await self.ws.send(json.dumps({"type": "chat_say", "text": text}, separators=(",", ":")))

    def _on_reply(self, msg: dict[str, Any]) -> None:
        p = self.pending
        if p is None or msg.get("id") != p["id"]:
            if msg["type"] == "error":
                self.stats.error(msg.get("message", "?"))
            return
        p["ok"] = msg["type"] == "ok"
        if p["ok"] and p.get("kind") == "sit":
            self.seated.set()
        if not p["ok"]:
            message = msg.get("message", "?")
            self.stats.error(message)
            if p.get("kind") == "cave":
                self.broke = True
            if p.get("kind") == "sit":
                raise RuntimeError(f"{self.name} could not sit: {message}")

    def _reflects(self, msg: dict[str, Any], p: dict[str, Any]) -> bool:
        """The view shows the action done: another deal, or this player's
        choices changed (a newer view about a seat taken meanwhile does not)."""
        you = msg.get("you") or {}
        return msg["table"]["deal_no"] != p["deal_no"] or you.get("legal") != p["legal"]

    def _settle(self) -> None:
        """Close the pending command once everything about it is known."""
        p = self.pending
        if p is None or p["ok"] is None:
            return
        if p.get("kind") == "act" and p["ok"]:
            if p["t_state"] is None:
                return  # the ok came first: wait for the view
            if self.stats.in_window(p["wall"]):
                self.stats.actions += 1
                ms = (p["t_state"] - p["t"]) * 1000.0
                self.stats.latencies.append(ms)
                (self.stats.closing if p["closing"] else self.stats.others).append(ms)
        self.pending = None

    def _consider(self) -> None:
        if self.pending is not None or self.state is None:
            return
        you = self.state.get("you")
        if not you:
            return
        if you["legal"]:
            action, args = choose(you["legal"], self.rng)
            seq, legal = self.state["seq"], you["legal"]
            self.pending = {"id": None, "ok": None, "kind": "thinking"}
            asyncio.get_running_loop().call_later(
                self._think(), lambda: asyncio.ensure_future(self._act(action, args, seq, legal)))
        elif you["chips"] == 0 and not self.broke and not self._in_deal():
            self.pending = {"id": None, "ok": None, "kind": "thinking"}
            self.tasks.add(task := asyncio.ensure_future(self.send({"type": "cave", "amount": self.cave}, kind="cave")))
            task.add_done_callback(self.tasks.discard)  # held until done: the loop keeps tasks weakly

    def _in_deal(self) -> bool:
        deal = self.state.get("deal") if self.state else None
        return bool(deal) and deal.get("phase") != "over" and any(
            p["player"] == self.name for p in deal.get("players", ()))

    def _think(self) -> float:
        return self.rng.uniform(0.5, 1.5) * self.think if self.think else 0.0

    async def _act(self, action: str, args: dict[str, Any], seq: int, legal: list[dict[str, Any]]) -> None:
        """Play the choice made ``think`` seconds ago, as a page's click: on
        the view now shown, which may be newer (someone sat down meanwhile)
        — if the choices it offers changed, think again instead."""
        you = (self.state or {}).get("you") or {}
        if you.get("legal") != legal:
            self.pending = None
            self._consider()
            return
        try:
            await self.send({"type": "act", "action": action, "seq": self.state["seq"], "args": args},
                            answered=False, kind="act", seq=self.state["seq"], legal=legal,
                            deal_no=self.state["table"]["deal_no"])
        except Exception:  # the connection closed at the end of the run
            pass


class EchoBot:
    """One member of an echo room: acts when the frame names it."""

    def __init__(self, ws: ClientConnection, index: int, room: EchoRoom, stats: Stats,
                 rng: random.Random) -> None:
        self.ws, self.index, self.room, self.stats, self.rng = ws, index, room, stats, rng
        self.sent_at: float | None = None
        self.sent_wall = 0.0

    async def run(self) -> None:
        async for raw in self.ws:
            now = time.perf_counter()
            head = json.loads(raw)  # a client reads every frame, as the bots do
            st = self.stats
            wall = time.time()
            if st.in_window(wall):
                st.frames += 1
                st.frame_bytes += len(raw)
            if head["from"] == self.index and self.sent_at is not None:
                if st.in_window(self.sent_wall):
                    st.actions += 1
                    st.latencies.append((now - self.sent_at) * 1000.0)
                self.sent_at = None
            if head["to"] == self.index:
                delay = self.room.think() + (self.room.pause if head["pause"] else 0.0)
                asyncio.get_running_loop().call_later(delay, lambda n=head["n"]: asyncio.ensure_future(self.act(n)))

    async def act(self, n: int) -> None:
        n += 1
        room = self.room
        head = json.dumps({"from": self.index, "to": (self.index + 1) % room.size, "n": n,
                           "pause": n % room.actions_per_deal == 0}, separators=(",", ":"))
        if room.stream:
            # A real state as the body, the next one of a recorded player's
            # stream: the frame compresses as a table's do (a run of "x"
            # deflates to a few bytes, a view to a tenth of its size).
            frame = head[:-1] + ',"state":' + room.stream[n % len(room.stream)] + "}"
        else:
            frame = head[:-1] + ',"pad":"' + "x" * max(0, room.frame_size - len(head) - 9) + '"}'
        self.sent_at, self.sent_wall = time.perf_counter(), time.time()
        try:
            await self.ws.send(frame)
        except Exception:
            pass


@dataclass
class EchoRoom:
    size: int
    frame_size: int
    actions_per_deal: int
    pause: float
    think_mean: float
    rng: random.Random
    #: a table's frames as one player received them (empty: pad with "x", the old reference)
    stream: list[str] = field(default_factory=list)

    def think(self) -> float:
        return self.rng.uniform(0.5, 1.5) * self.think_mean if self.think_mean else 0.0


async def _chatter(bots: list[TableBot], per_min: float, rng: random.Random) -> None:
    """One table's chat: ``per_min`` messages a minute, each said by one of
    its players drawn at random, the gaps drawn around their mean (±50 %)."""
    mean = 60.0 / per_min
    await asyncio.sleep(rng.uniform(0, mean))  # the tables' first words spread out
    n = 0
    while True:
        n += 1
        await rng.choice(bots).say(f"Bien joué ! ({n}){SAID_AT}{time.time():.3f}")
        await asyncio.sleep(rng.uniform(0.5, 1.5) * mean)


async def _open(url: str, headers: dict[str, str], origin: str, sem: asyncio.Semaphore) -> ClientConnection:
    async with sem:
        return await connect(url, additional_headers=headers, origin=origin, max_size=2**20,
                             open_timeout=60, ping_interval=None)


async def _worker(cfg: dict[str, Any], ready: Any, go: Any) -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(cfg["seed"])
    sem = asyncio.Semaphore(CONNECT_CONCURRENCY)
    base, origin = cfg["ws_base"], cfg["origin"]
    bots: list[Any] = []
    by_table: list[list[TableBot]] = []  #: each table's bots (its chat's speakers)
    if cfg["mode"] == "tavern":
        conns = await asyncio.gather(*[
            _open(f"{base}/ws/tables/{table_id}", {"Cookie": cookie}, origin, sem)
            for table_id, players in cfg["tables"] for _name, cookie in players])
        it = iter(conns)
        for table_id, players in cfg["tables"]:
            by_table.append([])
            for seat, (name, cookie) in enumerate(players):
                ws = next(it)
                await ws.recv()  # the snapshot sent on connection

                async def reopen(url: str = f"{base}/ws/tables/{table_id}", cookie: str = cookie) -> ClientConnection:
                    return await _open(url, {"Cookie": cookie}, origin, sem)

                bots.append(TableBot(ws, name, seat, cfg["cave"], stats, random.Random(rng.random()),
                                     cfg["think"], counts_deals=seat == 0, reopen=reopen,
                                     sits_already=table_id in cfg.get("seated", ())))
                by_table[-1].append(bots[-1])
                if seat == 0 and len(stats.streams) < STREAMS:
                    bots[-1].stream = []
                    stats.streams.append(bots[-1].stream)
    else:
        conns = await asyncio.gather(*[
            _open(f"{base}/ws/echo/{room}", {}, origin, sem)
            for room in cfg["rooms"] for _ in range(cfg["size"])])
        it = iter(conns)
        streams = cfg.get("streams") or [[]]  # [[]]: no recorded states, the x padding
        for room_id in cfg["rooms"]:
            room = EchoRoom(cfg["size"], cfg["frame_size"], cfg["actions_per_deal"], cfg["pause"],
                            cfg["think"], random.Random(rng.random()), streams[room_id % len(streams)])
            for i in range(cfg["size"]):
                bots.append(EchoBot(next(it), i, room, stats, room.rng))
    tasks = [asyncio.ensure_future(b.run()) for b in bots]
    if cfg["mode"] == "echo":  # the first member of each room opens, staggered
        loop = asyncio.get_running_loop()
        for b in bots[::cfg["size"]]:
            loop.call_later(rng.uniform(0, 0.2), lambda b=b: asyncio.ensure_future(b.act(0)))
    if cfg["mode"] == "tavern":  # everybody seated before the clock starts
        deadline = time.monotonic() + 150
        while not all(b.seated.is_set() for b in bots):
            for t in tasks:
                if t.done() and t.exception() is not None:
                    raise t.exception()
            if time.monotonic() > deadline:
                raise RuntimeError("the bots were not all seated after 150 s")
            await asyncio.sleep(0.05)
    if cfg.get("chat_per_min"):
        # Tables of several players talk; a practice table's chat is off, a lone player has nobody to talk to.
        tasks += [asyncio.ensure_future(_chatter(table, cfg["chat_per_min"], random.Random(rng.random())))
                  for table in by_table if len(table) > 1]
    ready.put(len(conns))
    loop = asyncio.get_running_loop()
    stats.t0, stats.t1 = await loop.run_in_executor(None, go.get)
    cpu0 = None
    while time.time() < stats.t1 + 0.5:  # let the last replies of the window arrive
        if cpu0 is None and time.time() >= stats.t0:
            cpu0 = time.process_time()
        await asyncio.sleep(0.05)
        for t in tasks:
            if t.done() and t.exception() is not None:
                raise t.exception()
    cpu = time.process_time() - (cpu0 or 0.0)
    for b in bots:
        b.stopping = True
    for t in tasks:
        t.cancel()
    await asyncio.gather(*(c.close() for c in conns), *(b.ws.close() for b in bots if isinstance(b, TableBot)),
                         return_exceptions=True)
    if cfg["mode"] == "tavern":
        stats.deals = sum((b.deal1 or 0) - (b.deal0 or 0) for b in bots if b.counts_deals)
    return {"latencies": stats.latencies, "closing": stats.closing, "others": stats.others,
            "actions": stats.actions, "errors": stats.errors,
            "frames": stats.frames, "frame_bytes": stats.frame_bytes, "deals": stats.deals,
            "streams": [x for x in stats.streams if x],
            "cpu": cpu, "connections": len(conns), "reconnects": stats.reconnects,
            "chat_said": stats.chat_said, "chat_accepted": stats.chat_accepted, "chat_frames": stats.chat_frames,
            "chat_delays": stats.chat_delays}


def worker_main(cfg: dict[str, Any], ready: Any, go: Any, results: Any) -> None:
    """Entry point of a bot process (``multiprocessing``)."""
    try:
        results.put(asyncio.run(_worker(cfg, ready, go)))
    except BaseException as exc:  # report, never hang the parent
        ready.put(-1)
        results.put({"error": f"{type(exc).__name__}: {exc}"})


async def _storm(cfg: dict[str, Any]) -> dict[str, Any]:
    """Every connection of ``cfg["tables"]`` opened at once from ``cfg["t0"]``
    (wall clock, shared by the storm's processes), as the pages of a
    restarted server's players all reconnect: the seconds until each one
    holds its snapshot (its first ``state`` with its own seat in it)."""
    sem = asyncio.Semaphore(cfg.get("concurrency", 200))
    base, origin = cfg["ws_base"], cfg["origin"]
    await asyncio.sleep(max(0.0, cfg["t0"] - time.time()))
    t0 = time.time()
    times: list[float] = []
    failed: dict[str, int] = {}
    conns: list[ClientConnection] = []

    async def one(table_id: int, name: str, cookie: str) -> None:
        try:
            ws = await _open(f"{base}/ws/tables/{table_id}", {"Cookie": cookie}, origin, sem)
            conns.append(ws)
            msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if msg["type"] != "state" or not msg.get("you"):
                raise RuntimeError(f"{name}: no seat in the snapshot")
            times.append(time.time() - t0)
        except Exception as exc:
            key = f"{type(exc).__name__}: {str(exc)[:60]}"
            failed[key] = failed.get(key, 0) + 1

    await asyncio.gather(*(one(tid, name, cookie) for tid, players in cfg["tables"] for name, cookie in players))
    await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)
    return {"times": times, "failed": failed}


def storm_main(cfg: dict[str, Any], results: Any) -> None:
    """Entry point of a storm process (``multiprocessing``)."""
    try:
        results.put(asyncio.run(_storm(cfg)))
    except BaseException as exc:
        results.put({"times": [], "failed": {f"{type(exc).__name__}: {exc}": 1}})
