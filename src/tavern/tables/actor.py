"""One actor per open table: an asyncio task draining a queue of commands.

Every command for a table — seat, cave, "Ramasser ses gains", "Se lever",
"Se rasseoir", posting to enter, auto-actions, actions in the deal, and the
timer's own ticks — goes through the queue, so a table's state is only ever
touched by its own task: no locks, no races between two players clicking at
once. Database work (caves, hands counted, settlement, archive) runs in a
worker thread so the event loop keeps serving the other tables.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import orjson

from tavern import fair, logs, metrics
from tavern.cards import CSPRNG, CardError, RandomSource
from tavern.catalogue import french
from tavern.games import registry
from tavern.games.base import Engine, IllegalAction, Own, public_and_own, views
from tavern.games.spec import GameSpec
from tavern.refusal import Refusal
from tavern.tables.bank import SETTLEMENTS, LostTable, SqlBank, TableInfo, TableStart
from tavern.tables.broadcast import SPECTATORS, Broadcaster
from tavern.tables.closing import share_carry
from tavern.tables.engine_config import engine_config
from tavern.tables.inbox import Inbox
from tavern.tables.seating import SeatState, at_table_seats, choose_lineup

log = logging.getLogger(__name__)

#: Auto-actions chosen in advance (RULES.md, draw poker: "Auto-actions chosen in
#: advance (check/fold, call any, …) are executed when the turn comes").
AUTO_ACTIONS = ("check_fold", "check", "call_any", "fold_any")
#: A connection's own bookkeeping: its publication can wait (PRESENCE_DELAY).
PRESENCE_COMMANDS = ("connect", "disconnect")
#: "after three time-outs in a row the player is sat out".
MAX_TIMEOUTS = 3
TIME_BANK_START = 30.0
TIME_BANK_REFILL = 5.0  #: seconds added to each player's bank per deal
TIME_BANK_MAX = 60.0


def _dumps(value: Any) -> bytes:
    """JSON bytes, on the table's hottest path: every recipient's state at
    every action (orjson: several times the standard library)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def encode(message: dict[str, Any]) -> str:
    """A message as its JSON text (a connection's snapshot)."""
    return _dumps(message).decode()


def encoded(value: Any) -> orjson.Fragment:
    """A part shared by every recipient of a publication (the public table,
    the last result, the story's new events), encoded once: each recipient's
    message embeds the same bytes instead of encoding them again."""
    return orjson.Fragment(_dumps(value))


def _joined(alike: bytes, recipients: bytes) -> str:
    """One JSON object's text from two objects with no key in common
    (``{"a":1}`` and ``{"b":2}``: ``{"a":1,"b":2}``): a publication's part
    alike for every recipient is encoded once, each recipient's part alone."""
    return (alike[:-1] + b"," + recipients[1:]).decode()


#: Seconds a change of presence (a socket opened or closed) may wait before
#: it is published: the connections of a reconnecting table (after a restart,
#: six sockets within a moment) make one publication, not one each.
PRESENCE_DELAY = 0.25
#: A reconnection storm (a restart: every page reconnecting at once) holds
#: deal starts back, a step at a time, for at most MAX_DEAL_HOLD seconds per
#: deal: the sockets' snapshots go out first (issue 15, bench_capacity --storm).
DEAL_HOLD_STEP = 0.25
MAX_DEAL_HOLD = 10.0


class CommandError(Refusal):
    """A refused command: a catalogue code and its parameters (the player
    is shown the French message, the socket's ``error`` frame carries all three)."""

    @classmethod
    def of(cls, exc: Exception) -> CommandError:
        """Any refusal (an engine's, a service's) as the table's refusal."""
        if isinstance(exc, Refusal):
            return cls(exc.code, **exc.params)
        return cls("refused")


def _auto_choice(auto: str, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    names = {a["action"]: a for a in legal}
    if auto == "check_fold":
        return {"action": "check"} if "check" in names else {"action": "fold"} if "fold" in names else None
    if auto == "check":
        return {"action": "check"} if "check" in names else None
    if auto == "call_any":
        return {"action": "call"} if "call" in names else {"action": "check"} if "check" in names else None
    if auto == "fold_any":
        return {"action": "check"} if "check" in names else {"action": "fold"} if "fold" in names else None
    return None


class TableActor:
    def __init__(
        self,
        info: TableInfo,
        bank: SqlBank,
        broadcaster: Broadcaster,
        *,
        rng: RandomSource = CSPRNG,
        clock: Callable[[], float] = time.monotonic,
        deal_pause: float = 2.0,
        grace: float = 15.0,
        time_bank: float = TIME_BANK_START,
        hold_deals: Callable[[], bool] | None = None,
    ) -> None:
        self.info = info
        self.bank = bank
        self.broadcaster = broadcaster
        self.rng = rng
        self.clock = clock
        self.deal_pause = deal_pause
        self.grace = grace
        self.time_bank = time_bank
        #: Whether deal starts should wait (sockets opening by the hundred:
        #: TableManager.storming), and since when this table's next one has.
        self.hold_deals = hold_deals
        self.held_since: float | None = None
        self.game = registry.spec(info.game)  #: what the table knows of its game
        self.min_players = self.game.min_players
        self.seats: dict[int, SeatState] = {}
        self.engine: Engine | None = None
        self.dealt: dict[str, SeatState] = {}  #: players of the current deal
        self.archive_id: int | None = None
        #: When the oldest action not yet published reached the table (metrics' latency).
        self.pending_act: float | None = None
        self.button_seat: int | None = None
        self.carry: dict[str, Any] | None = None
        self.last_result: dict[str, Any] | None = None
        self.deals = 0
        self.seq = 0
        self.deadlines: dict[str, float] = {}
        self.next_deal_at: float | None = None
        self.protected: set[str] = set()
        self._queue: Inbox[tuple[str, str | None, dict[str, Any], asyncio.Future[Any]]] = Inbox()
        self._task: asyncio.Task[None] | None = None
        self.closed = False
        #: Open sockets per player name, however opened (seated or not).
        self.sockets: Counter[str] = Counter()
        #: The owner closing the table (his user id) once the running deal ends.
        self.closing_owner: int | None = None
        #: Called once the table has closed (the manager forgets the actor).
        self.on_closed: Callable[[], None] | None = None
        #: This worker's lease fence on the table (tables/cluster.py; 0 alone).
        self.fence = 0
        #: Closed by its owner (or broken by its contest): nobody is to take it over.
        self.closed_for_good = False
        #: A graceful stop: the running deal ends, no new one starts, then
        #: the table moves to another worker (TableManager.drain).
        self.draining = False
        #: The provably fair shuffle (docs/fairness.md): the next deal's
        #: secret seed, whose commitment every view shows before the deal,
        #: the players' client seeds, and the running deal's seed and stream.
        self.next_seed = fair.DealSeed(fair.new_server_seed(rng))
        self.client_seeds: dict[str, str] = {}
        #: The running (or last) deal's public events, in order (docs/protocol.md "story").
        self.story: list[dict[str, Any]] = []
        self.story_sent = 0  #: events of the story already published
        self.deal_seed: fair.DealSeed | None = None
        self.fair_block: dict[str, Any] | None = None
        self.fair_stream: fair.FairStream | None = None
        #: The last finished deal's seed, for its players: {"players", "fair"}.
        self.revealed: dict[str, Any] | None = None
        #: ``last_result`` and the revealed seed change once a deal: a
        #: publication carries them only when they changed since the last one
        #: (told by identity: both are replaced, never edited), and every
        #: message names the publication that last carried them (``result_at``,
        #: docs/protocol.md) so that a client who missed it asks for a snapshot.
        self.result_sent: tuple[Any, Any] = (None, None)
        self.result_at = 0
        #: Each player's legal actions as last shown to him, and the first
        #: publication that showed them: an action chosen on an older view
        #: is stale (_cmd_act).
        self.legal_shown: dict[str, tuple[list[dict[str, Any]], int]] = {}
        #: When a change of presence is to be published (PRESENCE_DELAY).
        self.presence_due: float | None = None
        #: The deal's move that ended it is shown; its settlement is running.
        self.settling = False

    # --- life cycle ----------------------------------------------------------

    async def start(self, loaded: TableStart | None = None) -> None:
        """Start from ``loaded`` (read with other tables starting at the same
        moment: TableManager), or read the table now."""
        if loaded is not None:
            rows, self.carry, hands = loaded.seats, loaded.carry, loaded.hands
        else:
            # One transaction for all of it: a restart starts hundreds of tables at once.
            rows, self.carry, hands = await asyncio.to_thread(self.bank.load_table, self.info.id, self.info.tavern_id)
        for r, seat_hands in zip(rows, hands, strict=True):
            seat = SeatState(r.seat_no, r.user_id, r.username, r.chips, r.sitting_out,
                             r.owes_big_blind, time_bank=self.time_bank)
            seat.extra["hands"] = seat_hands
            self.seats[r.seat_no] = seat
        self.next_deal_at = self.clock() + self.deal_pause
        self._task = asyncio.create_task(self._run(), name=f"table-{self.info.id}")

    async def stop(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    async def submit(self, command: str, username: str | None, **args: Any) -> Any:
        """Queue a command and wait for its answer; raises :class:`CommandError`.
        A closed table refuses every command, except a connection's own
        bookkeeping (``connect``, ``disconnect``, ``sync``), answered quietly."""
        if self.closed:
            if command in ("connect", "disconnect", "sync"):
                return {"seq": self.seq} if command != "disconnect" else None
            raise CommandError("table_closed")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if command == "act":
            self.pending_act = metrics.acted(self.pending_act)
        self._queue.put_nowait((command, username, args, fut))
        return await fut

    async def _run(self) -> None:
        logs.bind(table=self.info.id, request_id=None, account=None)  # this task's log lines name the table
        while True:
            item = await self._queue.get(self._next_wake())  # None: a timer is due
            changed = False
            if item is not None:
                command, username, args, fut = item
                try:
                    out = await self._handle(command, username, args)
                    if command in PRESENCE_COMMANDS:
                        # Who is connected: published with the next change,
                        # or within PRESENCE_DELAY (the socket itself got
                        # its snapshot already).
                        if self.presence_due is None:
                            self.presence_due = self.clock() + PRESENCE_DELAY
                    else:
                        changed = True
                    self._want_deal()
                    if not fut.done():
                        fut.set_result(out)
                    if self.closed:
                        break
                except (CommandError, IllegalAction, CardError) as exc:
                    if not fut.done():
                        fut.set_exception(CommandError.of(exc))
                except LostTable:
                    if not fut.done():
                        fut.set_exception(CommandError("table_moved_reconnect"))
                    self._lost()
                    break
                except Exception:  # the table must outlive any bug
                    log.exception("table %s: command %s failed", self.info.id, command)
                    if not fut.done():
                        fut.set_exception(CommandError("table_failed"))
            try:
                if changed and self.engine is not None and self.engine.over and self.archive_id is not None:
                    # The move that ended the deal is shown at once (the cards
                    # turned over); the settlement's transaction follows, then
                    # the result, final once it is committed, in its own publication.
                    self.settling = True
                    await self.publish()
                    changed = False
                changed = await self._tick() or changed
                if self.closed:
                    break
                if self.presence_due is not None and self.presence_due <= self.clock():
                    changed = True
                if changed:
                    await self.publish()
            except LostTable:
                self._lost()
                break
            except Exception:
                log.exception("table %s: tick failed", self.info.id)
        # Closed: whatever is still queued is refused (a connection's own
        # bookkeeping answered quietly), nobody waits forever.
        while not self._queue.empty():
            command, _, _, fut = self._queue.get_nowait()
            if fut.done():
                continue
            if command in ("connect", "disconnect", "sync"):
                fut.set_result({"seq": self.seq} if command != "disconnect" else None)
            else:
                fut.set_exception(CommandError("table_closed"))

    def _lost(self) -> None:
        """Another worker claimed this table with a higher fence (this one's
        lease ran out): stop at once, writing nothing more. The new owner has
        voided the deal this one was playing, as a restart does."""
        log.warning("table %s: taken over by another worker, stopping here", self.info.id)
        self.closed = True
        if self.on_closed is not None:
            self.on_closed()

    @property
    def dealing(self) -> bool:
        """A deal is under way (started and not yet settled)."""
        return self.archive_id is not None

    async def snapshot(self, username: str | None) -> str:
        """A connection's full snapshot, as its JSON text (the same call on a
        table owned by another worker: tables/manager.py ``RemoteTable``)."""
        return encode(self.message_for(username))

    def _want_deal(self) -> None:
        """After a change of seats: deal when enough players are ready."""
        if (self.engine is None or self.engine.over) and self.next_deal_at is None and not self.draining \
                and self.closing_owner is None and not self.closed and len(self._ready()) >= self.min_players:
            self.next_deal_at = self.clock() + self.deal_pause

    def _next_wake(self) -> float | None:
        if self.engine is not None and self.engine.over and self.archive_id is not None:
            # A deal over as soon as dealt (everybody all-in from the blinds):
            # settle it now — no turn to time, nobody to click would wake us.
            return 0.0
        times = list(self.deadlines.values())
        if self.next_deal_at is not None:
            times.append(self.next_deal_at)
        if self.presence_due is not None:
            times.append(self.presence_due)
        return min(times) - self.clock() if times else None

    # --- commands -------------------------------------------------------------

    def _seat_of(self, username: str | None) -> SeatState:
        for s in self.seats.values():
            if s.name == username:
                return s
        raise CommandError("not_seated")

    def _in_deal(self, seat: SeatState) -> bool:
        return self.engine is not None and not self.engine.over and seat.name in self.dealt

    async def _handle(self, command: str, username: str | None, args: dict[str, Any]) -> Any:
        handler = getattr(self, f"_cmd_{command}", None)
        if handler is None:
            raise CommandError("unknown_command", command=command)
        if username is None and command not in ("connect", "disconnect", "sync", "close"):
            raise CommandError("login_to_play")
        return await handler(username, **args)

    async def _cmd_sync(self, username: str | None) -> dict[str, Any]:
        return {"seq": self.seq}

    async def _cmd_connect(self, username: str | None) -> dict[str, Any]:
        # Every socket of a player counts, seated or not yet: a second tab
        # opened before he sat keeps him connected when the first one closes.
        if username is not None:
            self.sockets[username] += 1
        for s in self.seats.values():
            if s.name == username:
                s.connections = self.sockets[username]
                s.disconnected_at = None
        return {"seq": self.seq}

    async def _cmd_disconnect(self, username: str | None) -> None:
        left = 0
        if username is not None:
            self.sockets[username] = max(0, self.sockets[username] - 1)
            left = self.sockets[username]
            if not left:
                del self.sockets[username]
        for s in self.seats.values():
            if s.name == username:
                s.connections = left
                if s.connections == 0:
                    s.disconnected_at = self.clock()

    async def _cmd_sit(self, username: str, *, user_id: int, seat: int, cave: int) -> dict[str, Any]:
        if self.closing_owner is not None:
            raise CommandError("table_closing")
        if any(s.name == username for s in self.seats.values()):
            raise CommandError("already_seated")
        if seat in self.seats:
            raise CommandError("seat_taken")
        try:
            chips = await asyncio.to_thread(self.bank.sit, self.info.id, user_id, seat, cave)
        except ValueError as exc:  # SeatError, InsufficientFunds: refusals with codes
            raise CommandError.of(exc) from None
        # He sits from a socket: at least that one (a command sent without
        # any, as the runtime tests do, counts as one).
        state = SeatState(seat, user_id, username, chips, connections=max(1, self.sockets[username]),
                          time_bank=self.time_bank,
                          owes_big_blind=self.game.blinds)
        state.extra["hands"] = await asyncio.to_thread(self.bank.hands_info, user_id, self.info.tavern_id)
        self.seats[seat] = state
        return {"seat": seat, "chips": chips}

    async def _cmd_cave(self, username: str, *, amount: int) -> dict[str, Any]:
        """Add chips — "between hands, never during one"."""
        seat = self._seat_of(username)
        if self._in_deal(seat):
            raise CommandError("top_up_between_deals")
        try:
            seat.chips = await asyncio.to_thread(self.bank.add_chips, self.info.id, seat.user_id, amount)
        except ValueError as exc:
            raise CommandError.of(exc) from None
        return {"chips": seat.chips}

    async def _cmd_leave(self, username: str) -> dict[str, Any]:
        """"Ramasser ses gains": all chips back to écus, seat freed — "not during
        a hand in which the player is still involved": then at the deal's end."""
        seat = self._seat_of(username)
        if self._in_deal(seat):
            seat.leave_after_deal = True  # he plays the deal out as he likes
            return {"notice": french("leaving_after_deal")}
        return await self._leave(seat)

    async def _leave(self, seat: SeatState) -> dict[str, Any]:
        amount = await asyncio.to_thread(self.bank.leave, self.info.id, seat.user_id)
        del self.seats[seat.seat_no]
        return {"ecus": amount}

    async def _cmd_sit_out(self, username: str) -> dict[str, Any]:
        """"Se lever": keep the seat and the chips, receive no cards."""
        seat = self._seat_of(username)
        seat.sitting_out = True
        await asyncio.to_thread(self.bank.set_sitting_out, self.info.id, seat.user_id, True)
        if self._in_deal(seat):
            # "sitting out ... when it is your turn folds": play the time-out move now and after.
            seat.auto = "check_fold"
            self._play_auto(seat.name)
        return {}

    async def _cmd_sit_in(self, username: str, *, post: bool = False) -> dict[str, Any]:
        """"Se rasseoir": back in; at poker "the player must post a big blind
        again (or wait for the big blind to reach them)"."""
        seat = self._seat_of(username)
        if seat.sitting_out:
            await asyncio.to_thread(self.bank.set_sitting_out, self.info.id, seat.user_id, False)
            seat.owes_big_blind = self.game.blinds
        seat.sitting_out = False
        seat.timeouts = 0
        seat.post_now = bool(post)
        if seat.auto == "check_fold" and not self._in_deal(seat):
            seat.auto = None
        return {}

    async def _cmd_post(self, username: str) -> dict[str, Any]:
        """Choose to post the big blind at the next deal instead of waiting for it."""
        seat = self._seat_of(username)
        seat.post_now = True
        return {}

    async def _cmd_auto(self, username: str, *, auto: str | None) -> dict[str, Any]:
        if auto is not None and auto not in AUTO_ACTIONS:
            raise CommandError("unknown_auto", auto=auto, choices=list(AUTO_ACTIONS))
        seat = self._seat_of(username)
        seat.auto = auto
        if auto and self._in_deal(seat):
            self._play_auto(seat.name)
        return {}

    async def _cmd_client_seed(self, username: str, *, seed: str) -> dict[str, Any]:
        """A player's own contribution to the next decks he is dealt
        (docs/fairness.md); any connected player may set it, seated or not."""
        try:
            self.client_seeds[username] = fair.check_client_seed(seed)
        except fair.FairError:
            raise CommandError("bad_client_seed") from None
        return {"client_seed": seed}

    async def _cmd_act(self, username: str, *, action: str, seq: int | None = None,
                       args: dict[str, Any] | None = None) -> dict[str, Any]:
        seat = self._seat_of(username)
        # Stale: chosen before this player's legal actions were last shown to
        # him (another player's bet changed what a call costs...). A
        # publication that left them as they were (a seat taken, a socket
        # opened, another player's move at a showdown where all choose at
        # once) changes nothing his choice rests on.
        shown_at = self.legal_shown.get(username, ([], 0))[1]
        if seq is not None and not shown_at <= seq <= self.seq:
            raise CommandError("stale_move", seq=seq, now=self.seq)
        if not self._in_deal(seat):
            raise CommandError("not_in_deal")
        try:
            self._play(username, action, args or {})  # IllegalAction names the rule
        except TypeError:
            # An argument the action does not take (or of a type it cannot
            # use): the engines check their arguments before changing
            # anything, so this is a refusal, not a bug to log with a traceback.
            raise CommandError("bad_arguments", action=action, given=sorted(args or {})) from None
        if seat.timeouts:
            seat.notice = None  # he is back: the time-out's explanation goes
        seat.timeouts = 0
        seat.auto = seat.auto if seat.sitting_out else None
        self.deadlines.pop(username, None)
        return {}

    # --- the deal loop --------------------------------------------------------

    async def _tick(self) -> bool:
        """Time-outs, auto-actions, the end of a deal and the start of the next.
        Returns whether anything visible changed."""
        changed = False
        now = self.clock()
        if self.engine is not None and not self.engine.over:
            for name, deadline in list(self.deadlines.items()):
                if deadline <= now:
                    self._timeout(name)
                    changed = True
            changed = await self._arm_turns() or changed
        if self.engine is not None and self.engine.over and self.archive_id is not None:
            await self._finish_deal()
            changed = True
        if self.draining and self.next_deal_at is not None and self.next_deal_at <= now:
            # A deal due on a table being let go (a drain, a hand-over) never
            # starts: forget it, or the due time would wake the loop at once
            # again and again, and the inbox (Inbox.get with no time left)
            # would never be read — the hand-over's own command with it.
            self.next_deal_at = None
        if (self.engine is None or self.engine.over) and self.next_deal_at is not None and self.next_deal_at <= now \
                and self.closing_owner is None and not self.closed and not self.draining:
            if self._held(now):
                self.next_deal_at = now + DEAL_HOLD_STEP
            else:
                self.next_deal_at = None
                changed = await self._start_deal() or changed
        return changed

    def _held(self, now: float) -> bool:
        """Whether the deal due now waits a step (a reconnection storm; each
        deal waits MAX_DEAL_HOLD at most, so a busy site still deals)."""
        if self.hold_deals is None or not self.hold_deals():
            self.held_since = None
            return False
        if self.held_since is None:
            self.held_since = now
        if now - self.held_since < MAX_DEAL_HOLD:
            return True
        self.held_since = None
        return False

    def _play(self, name: str, action: str, args: dict[str, Any], by: str | None = None) -> None:
        """One move in the deal; its public events join the deal's story
        (what the log beside the felt tells, kept in the archived record)."""
        assert self.engine is not None
        events = self.engine.act(name, action, **args)
        for ev in events or []:
            entry = {**ev, "by": by} if by else dict(ev)
            self.story.append(entry)

    def _timeout(self, name: str) -> None:
        seat = self.dealt[name]
        if seat.time_bank >= 1.0 and name not in self.protected and seat.connections:
            # The time bank takes over once the action timer has run out.
            self.deadlines[name] = self.clock() + seat.time_bank
            seat.time_bank = 0.0
            return
        self.deadlines.pop(name, None)
        assert self.engine is not None  # a time-out happens in a deal
        move = self.engine.timeout_action(name)
        args = {k: v for k, v in move.items() if k != "action"}
        self._play(name, move["action"], args, by="timeout")
        seat.timeouts += 1
        # Tell him what happened (a time-out used to pass in silence).
        seat.notice = french("timed_out", {"timeouts": seat.timeouts, "most": MAX_TIMEOUTS})
        if seat.timeouts >= MAX_TIMEOUTS:  # "after three time-outs in a row the player is sat out"
            seat.sitting_out = True
            seat.auto = "check_fold"
            seat.notice = french("timed_out_sat_out")

    def _play_auto(self, name: str) -> bool:
        """Play ``name``'s auto-action if it is his turn and it applies."""
        seat = self.dealt.get(name)
        if seat is None or not seat.auto or self.engine is None or self.engine.over:
            return False
        if name not in self.engine.to_act():
            return False
        choice = _auto_choice(seat.auto, self.engine.legal_actions(name))
        if choice is None:
            if seat.sitting_out:
                choice = self.engine.timeout_action(name)
            else:
                seat.auto = None
                return False
        args = {k: v for k, v in choice.items() if k != "action"}
        self._play(name, choice["action"], args, by="auto")
        self.deadlines.pop(name, None)
        if not seat.sitting_out:
            seat.auto = None
        return True

    async def _arm_turns(self) -> bool:
        """Start the timer of whoever must act; play auto-actions and the
        disconnection protection as soon as the turn comes."""
        changed = False
        assert self.engine is not None  # turns are armed in a deal
        for _ in range(200):  # auto-actions may chain; bounded all the same
            if self.engine.over:
                break
            acted = False
            for name in self.engine.to_act():
                seat = self.dealt[name]
                if self._play_auto(name):
                    acted = changed = True
                    break
                if await self._maybe_protect(seat):
                    acted = changed = True
                    break
                if name not in self.deadlines:
                    self.deadlines[name] = self.clock() + self.info.action_timer_seconds
                    changed = True
            if not acted:
                break
        for name in list(self.deadlines):
            if self.engine.over or name not in self.engine.to_act():
                del self.deadlines[name]
        return changed

    async def _maybe_protect(self, seat: SeatState) -> bool:
        """Draw poker: "A player who loses the connection is treated as all-in for
        the rest of that hand — a protection allowed a limited number of times a
        day". The table decides after a grace period to reconnect."""
        if (not self.game.disconnect_protection or seat.connections or seat.disconnected_at is None
                or seat.name in self.protected):
            return False
        if self.clock() - seat.disconnected_at < self.grace:
            return False
        self.protected.add(seat.name)  # asked once per deal, whatever the answer
        if not await asyncio.to_thread(self.bank.use_disconnect_protection, seat.user_id):
            return False
        assert self.game.protect is not None  # a game with disconnect_protection has it
        self.game.protect(self.engine, seat.name)
        self.deadlines.pop(seat.name, None)
        return True

    def _ready(self) -> list[SeatState]:
        return [s for s in self.seats.values() if not s.sitting_out and s.chips > 0]

    async def _start_deal(self) -> bool:
        for s in self.seats.values():
            # A time-out's explanation stays until the player acts again.
            s.notice = None if not s.sitting_out and not s.timeouts else s.notice
        refused: dict[str, str] = {}
        while True:
            lineup = choose_lineup(self.game, [s for s in self._ready() if s.name not in refused],
                                   self.button_seat, self.min_players)
            if lineup is None:
                return bool(refused)
            seats = []
            for s in lineup.players:
                entry: dict[str, Any] = {"player": s.name, "chips": s.chips}
                if s.name in lineup.posting:
                    entry["post"] = True
                seats.append(entry)
            # The deck comes from the seed committed to before this deal and
            # the dealt players' own seeds, in seat order.
            names = [s.name for s in lineup.players]
            client_seeds = [self.client_seeds.get(n, "") for n in names]
            number = self.deals + 1
            stream = self.next_seed.stream(self.info.id, number, client_seeds)
            engine = self.game.new_deal(engine_config(self.info), seats, lineup.button, rng=stream,
                                        carry=self.carry)
            block = self.next_seed.block(self.info.id, number, names, client_seeds, stream)
            candidates = {s.name: s.user_id for s in lineup.players}
            archive_id, answer = await asyncio.to_thread(
                self.bank.begin_deal, self.info.id, self.info.tavern_id, candidates,
                registry.check_record(engine.record()).with_table(fair=block).dump())
            if archive_id is None:
                for name, why in answer.items():
                    refused[name] = why
                    self._by_name(name).notice = why  # "is not dealt in and is told why"
                continue
            break
        for name, info in answer.items():
            self._by_name(name).extra["hands"] = info
        self.engine = engine
        self.archive_id = archive_id
        logs.bind(deal=archive_id)  # the deal's archive id, as the admin's deal page shows it
        metrics.deal(self.info.game, "started")
        self.story = [{"event": "deal", "deal": self.deals + 1, "players": [s.name for s in lineup.players],
                       "dealer": lineup.players[lineup.button].name}]
        self.story_sent = 0  # a new story: sent whole
        self.deal_seed, self.fair_block = self.next_seed, block
        self.fair_stream = stream
        self.next_seed = fair.DealSeed(fair.new_server_seed(self.rng))  # a seed serves one deal only
        self.dealt = {s.name: s for s in lineup.players}
        self.button_seat = lineup.players[lineup.button].seat_no
        self.protected = set()
        self.deadlines = {}
        self.deals += 1
        for s in lineup.players:
            s.owes_big_blind = False
            s.post_now = False
        await self._arm_turns()
        return True

    def _by_name(self, name: str) -> SeatState:
        return next(s for s in self.seats.values() if s.name == name)

    async def _finish_deal(self) -> None:
        assert self.engine is not None and self.fair_stream is not None and self.archive_id is not None
        result = self.engine.result()
        # The reshuffles made during the deal came from the same stream.
        block = {**(self.fair_block or {}), "shuffles": list(self.fair_stream.shuffles)}
        record = registry.check_record(self.engine.record()).with_table(fair=block, story=self.story).dump()
        chips = result["chips"]
        deltas = {self.dealt[name].user_id: chips[name] - self.dealt[name].chips for name in self.dealt}
        rake = int(result.get("rake", 0) or 0)
        carried = self._carried(result.get("carry")) - self._carried(self.carry)
        await asyncio.get_running_loop().run_in_executor(  # not behind the deal starts (bank.SETTLEMENTS)
            SETTLEMENTS, self.bank.finish_deal, self.archive_id, self.info.id, self.info.owner_id,
            deltas, rake, record, result, carried)
        for name, seat in self.dealt.items():
            seat.chips = chips[name]
            if self.time_bank:  # a table without time bank never grows one
                seat.time_bank = min(TIME_BANK_MAX, seat.time_bank + TIME_BANK_REFILL)
        self.carry = result.get("carry")
        self.last_result = {"deal": self.deals, "result": _public_result(result, self.game)}
        self.settling = False
        # Revealed to the deal's players only (message_for): the seed and
        # everything the page needs to recompute the deck itself — the game
        # and its config too, since each shuffle starts from that game's packs.
        self.revealed = {"players": set(self.dealt),
                         "fair": {**block, "game": record["game"], "config": record["config"],
                                  "deck": record["deck"], "reshuffles": record.get("reshuffles") or []}}
        self.archive_id = None
        logs.bind(deal=None)
        metrics.deal(self.info.game, "settled")
        self.deadlines = {}
        for seat in list(self.seats.values()):
            if seat.leave_after_deal:
                await self._leave(seat)
            elif seat.sitting_out and seat.auto == "check_fold":
                seat.auto = None
        self.next_deal_at = self.clock() + self.deal_pause
        if self.closing_owner is not None:  # the owner asked to close during the deal
            owner, self.closing_owner = self.closing_owner, None
            try:
                await self._close(owner)
            except Exception as exc:  # the table stays open and deals on
                log.exception("table %s: closing after the deal failed", self.info.id)
                # A refusal is said in French; a bug is not shown to the players.
                why = exc.message if isinstance(exc, Refusal) else french("table_goes_on").lower()
                for seat in self.seats.values():
                    seat.notice = french("table_could_not_close", {"why": why})

    # --- the end of the game ----------------------------------------------------

    async def _cmd_close(self, username: str | None, *, owner_id: int) -> dict[str, Any]:
        """The owner closes the table (the web layer checked he owns it; the
        database checks again). Between deals it closes now; during a deal it
        closes at the deal's end and no new deal starts meanwhile."""
        if owner_id != self.info.owner_id:
            raise CommandError("owner_only_closes")
        if self.engine is not None and not self.engine.over:
            self.closing_owner = owner_id
            self.next_deal_at = None
            for seat in self.seats.values():
                seat.notice = french("owner_closes_after_deal")
            return {"closed": False, "notice": french("closing_after_deal")}
        if self.engine is not None and self.archive_id is not None:
            await self._finish_deal()  # a deal just over: settle it first
        try:
            return await self._close(owner_id)
        except ValueError as exc:  # TavernError, LedgerError: said to the owner
            raise CommandError.of(exc) from None

    async def _close(self, owner_id: int) -> dict[str, Any]:
        """Share out the carried chips among the seated players, cash everybody
        out and close the table — one database transaction — then tell the
        clients and stop."""
        seated = {s.seat_no: s.name for s in self.seats.values()}
        dealer_seat = self.button_seat
        if dealer_seat is None and seated:  # restarted since the last deal
            dealer = await asyncio.to_thread(self.bank.last_dealer, self.info.id)
            dealer_seat = next((n for n, name in seated.items() if name == dealer), None)
        awards, how = share_carry(self.game, self.carry, engine_config(self.info), seated,
                                  dealer_seat, self.rng)
        by_seat = sorted(self.seats.values(), key=lambda s: s.seat_no)
        record = {"game": self.info.game, "closing": True,
                  "seats": [{"player": s.name, "seat": s.seat_no, "chips": s.chips} for s in by_seat],
                  "carry": self.carry, "leftover": how}
        result = {"closing": True, "finished": True, "rake": 0, "carry": None, "awards": awards,
                  "chips": {s.name: s.chips + awards.get(s.name, 0) for s in by_seat}}
        ids = {s.name: s.user_id for s in by_seat}
        cashed = await asyncio.to_thread(self.bank.close_table, self.info.id, owner_id,
                                         {ids[name]: amount for name, amount in awards.items()}, record, result)
        ecus = {s.name: cashed.get(s.user_id, 0) for s in by_seat}
        summary = {"closed": True, "awards": awards, "ecus": ecus,
                   **({"method": how["method"], "winners": how.get("winners")} if how else {})}
        self.closed = True
        self.closed_for_good = True
        self.closing_owner = None
        self.next_deal_at = None
        self.deadlines = {}
        self.seats = {}
        self.last_result = {"deal": self.deals, "closing": summary}
        await self._publish_closed(summary, list(ecus))
        if self.on_closed is not None:
            self.on_closed()
        return summary

    async def _publish_closed(self, summary: dict[str, Any], players: list[str]) -> None:
        """The last messages: a ``state`` whose table is closed, then ``closed``."""
        await self.publish(players)
        text = json.dumps({"type": "closed", "seq": self.seq, "table_id": self.info.id, **summary},
                          separators=(",", ":"))
        await self.broadcaster.publish(self.info.id, {SPECTATORS: text, **{p: text for p in players}})

    def _carried(self, carry: dict[str, Any] | None) -> int:
        count = self.game.carried_chips
        return count(carry) if count is not None else 0

    # --- views ----------------------------------------------------------------

    def public_table(self) -> dict[str, Any]:
        now = self.clock()
        return {
            "id": self.info.id, "name": self.info.name, "game": self.info.game, "variant": self.info.variant,
            "label": self.game.label, "view": self.game.view,
            "stakes": self.info.stakes, "buy_in": [self.info.buy_in_min, self.info.buy_in_max],
            "seats": self.info.seats, "timer": self.info.action_timer_seconds,
            "button_seat": self.button_seat, "deal_no": self.deals, "closed": self.closed,
            # The deal is over and its settlement not yet committed: its result follows.
            "settling": self.settling,
            "players": [
                {"seat": s.seat_no, "name": s.name, "chips": s.chips, "sitting_out": s.sitting_out,
                 "waiting": s.owes_big_blind and self.game.blinds and s.name not in self.dealt,
                 "connected": s.connections > 0, "in_deal": s.name in self.dealt and self.engine is not None}
                for s in sorted(self.seats.values(), key=lambda s: s.seat_no)
            ],
            "clock": {name: round(max(0.0, d - now), 1) for name, d in self.deadlines.items()},
            # The commitments: the running deal's (if any) and the next one's.
            "fair": {"scheme": fair.SCHEME, "next": self.next_seed.commitment,
                     "deal": self.deal_seed.commitment if self.engine is not None and self.deal_seed else None},
        }

    def message_for(self, username: str | None, table: dict[str, Any] | None = None,
                    story_at: int = 0, shared: dict[str, Any] | None = None,
                    view: dict[str, Any] | None = None, own: Own | None = None) -> dict[str, Any]:
        """The message one recipient receives: his own view, never more.
        The deal's story goes from event ``story_at`` (0: all of it, as a
        (re)connection's snapshot needs; a publication sends what is new).
        ``shared``: the parts alike for every recipient, already encoded
        (:meth:`publish`); they replace ``table``, ``last_result`` and the
        story, and ``shared["result"]`` says whether ``last_result`` and the
        revealed seed go (a snapshot always carries them). ``view``: the
        dealt player's deal view, when the publication built them together;
        ``own``: what only he sees, sent beside the shared public view
        (``shared["deal"]``) instead of a view of his own."""
        if shared is None:
            shared = {"table": table or self.public_table(), "last_result": self.last_result, "result": True,
                      "story": self.story[story_at:], "deal": None, "fair": self.revealed and self.revealed["fair"]}
        return {**self._alike(story_at, shared), **self._recipients(username, shared, view, own)}

    def _alike(self, story_at: int, shared: dict[str, Any]) -> dict[str, Any]:
        """The part of a state message every recipient of a publication holds alike."""
        msg: dict[str, Any] = {"type": "state", "seq": self.seq, "table": shared["table"]}
        if shared["result"]:
            msg["last_result"] = shared["last_result"]
        msg.update(result_at=self.result_at, story_at=story_at, story=shared["story"])
        return msg

    def _recipients(self, username: str | None, shared: dict[str, Any],
                    view: dict[str, Any] | None, own: Own | None) -> dict[str, Any]:
        """The part of a state message that is this recipient's own: the deal
        as he sees it, his own cards and legal actions, his seat, the revealed
        seed of a deal he played. Never a key of :meth:`_alike`'s."""
        dealt = username in self.dealt
        deal = None
        if self.engine is not None:
            # Anyone not dealt in (a spectator, a seat waiting for the next
            # deal) sees the public view, encoded once per publication.
            if dealt and own is None:
                deal = view if view is not None else self._seated(self.engine.view(username))
            else:
                deal = shared["deal"] or self._seated(self.engine.view(None))
        msg: dict[str, Any] = {"deal": deal}
        if dealt and own is not None:
            msg["own"] = own
        if username is not None:
            seat = next((s for s in self.seats.values() if s.name == username), None)
            if seat is not None:
                msg["you"] = {"seat": seat.seat_no, "chips": seat.chips, "auto": seat.auto,
                              "sitting_out": seat.sitting_out, "owes_big_blind": seat.owes_big_blind,
                              "post_now": seat.post_now, "notice": seat.notice,
                              "leaving": seat.leave_after_deal, "time_bank": round(seat.time_bank, 1),
                              "hands": seat.extra.get("hands"),
                              "legal": self._legal_for(username, dealt),
                              "client_seed": self.client_seeds.get(username, "")}
            if shared["result"] and self.revealed is not None and username in self.revealed["players"]:
                msg["fair"] = shared["fair"]
        return msg

    def _seated(self, view: dict[str, Any]) -> dict[str, Any]:
        """The deal view with the table's seat numbers, as ``table`` and ``you`` give them."""
        return at_table_seats(view, {s.name: s.seat_no for s in self.seats.values()})

    def _legal_for(self, username: str, dealt: bool) -> list[dict[str, Any]]:
        """The player's legal actions, noting the publication that first showed them."""
        legal = self.engine.legal_actions(username) if self.engine is not None and dealt \
            and not self.engine.over else []
        if self.legal_shown.get(username, (None, 0))[0] != legal:
            self.legal_shown[username] = (legal, self.seq)
        return legal

    async def publish(self, also: list[str] | None = None) -> None:
        """One message per seated player (and per name in ``also``) and one for spectators."""
        self.seq += 1
        self.presence_due = None  # this publication says who is connected
        # The story's new events only: every client holds the rest (a
        # (re)connection gets it all in its snapshot; a gap asks for one).
        at = self.story_sent if self.story_sent <= len(self.story) else 0
        self.story_sent = len(self.story)
        # The last result and the revealed seed: only when they changed (a
        # quarter of a player's frame otherwise, resent at every action).
        result = self.result_sent[0] is not self.last_result or self.result_sent[1] is not self.revealed
        if result:
            self.result_sent, self.result_at = (self.last_result, self.revealed), self.seq
        names = [*(s.name for s in self.seats.values()), *(also or [])]
        # The spectators' view goes to anyone watching who is not seated (a
        # page open on the table): most tables have nobody so, and then it
        # is neither built nor encoded.
        watched = self.broadcaster.watched(self.info.id, names)
        # What every recipient's message holds alike is encoded once, and
        # joined to each recipient's own part (his seat, his part of the
        # deal), encoded alone. The deal: the public view encoded once and
        # each dealt player's own part beside it, when the engine gives them
        # apart (poker); otherwise the views built together (their public
        # part once), each encoded for its recipient, and the public one for
        # the watchers and the seats not dealt in.
        public_deal = None
        deals: dict[str | None, dict[str, Any]] = {}
        owns: dict[str, Own] = {}
        if self.engine is not None:
            dealt: list[str] = [n for n in names if n in self.dealt]
            split = public_and_own(self.engine, dealt)
            if split is not None:
                public, owns = split
                public_deal = encoded(self._seated(public))
            else:
                wanted: list[str | None] = [*dealt]
                if watched or len(wanted) < len(names):
                    wanted.append(None)
                deals = {k: self._seated(v) for k, v in views(self.engine, wanted).items()}
                if None in deals:
                    public_deal = encoded(deals[None])
        shared = {"table": encoded(self.public_table()), "result": result,
                  "last_result": encoded(self.last_result) if result else None,
                  "story": encoded(self.story[at:]),
                  "deal": public_deal,
                  "fair": encoded(self.revealed["fair"]) if result and self.revealed is not None else None}
        alike = _dumps(self._alike(at, shared))
        recipients: list[str | None] = [None, *names] if watched else [*names]
        messages = {SPECTATORS if name is None else name:
                    _joined(alike, _dumps(self._recipients(name, shared, deals.get(name),
                                                           owns.get(name) if name is not None else None)))
                    for name in recipients}
        await self.broadcaster.publish(self.info.id, messages)
        metrics.published(self.pending_act)
        self.pending_act = None


def _public_result(result: dict[str, Any], game: GameSpec) -> dict[str, Any]:
    """What everybody may see of a finished deal: the keys its game's spec
    names (:meth:`GameSpec.public_result`) — never the record's deck or the
    mucked cards."""
    out = game.public_result(result)
    if result.get("said"):
        # The engine says how the deal ended with catalogue codes (e.g. a
        # Rummoli deadlock): the page shows the French sentence as it is.
        out["said"] = [{**line, "text": french(line["code"], line.get("params"))} for line in result["said"]]
    return out
