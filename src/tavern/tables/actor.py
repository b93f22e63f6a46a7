"""One actor per open table: an asyncio task draining a queue of commands.

Every command for a table — seat, cave, "Ramasser ses gains", "Se lever", "Se rasseoir", posting to enter,
auto-actions, actions in the deal, and the timer's own ticks — goes through the queue, so a table's state is
only ever touched by its own task: no locks, no races between two players clicking at once. Database work
(caves, hands counted, settlement, archive) runs in a worker thread so the event loop serves the other tables.

The actor changes the table; what it tells goes through its :class:`~tavern.tables.publication.Publisher`,
whose turn it is and for how long through its :class:`~tavern.tables.turns.Turns`, and what differs at a
contest's table through its :class:`~tavern.tables.policy.TablePolicy`. Commands arrive as their parsed
models (tables/commands.py), from a socket (web/ws.py), another worker (tables/manager.py) or a program
driving a seat (tables/driving.py), and are dispatched once, on their type.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from tavern import fair, fair_cards, logs, metrics
from tavern.cards import CSPRNG, CardError, RandomSource
from tavern.games import registry
from tavern.games.base import Engine, IllegalAction
from tavern.tables import deals, seat_commands, waiting
from tavern.tables.bank import LostTable, SqlBank, TableInfo, TableStart
from tavern.tables.broadcast import Broadcaster
from tavern.tables.commands import (
    BOOKKEEPING,
    Act,
    Auto,
    Cave,
    ClientSeed,
    Close,
    CommandError,
    Connect,
    Disconnect,
    Leave,
    OfferAccept,
    OfferPass,
    Post,
    Sit,
    SitIn,
    SitOut,
    Sync,
    TableCommand,
    WaitJoin,
    WaitLeave,
)
from tavern.tables.driving import SeatDriver, SeatHandle, SeatView, declares
from tavern.tables.inbox import Inbox
from tavern.tables.policy import CashPolicy, TablePolicy
from tavern.tables.publication import Publisher, encode
from tavern.tables.publication import public_result as _public_result
from tavern.tables.seating import SeatState
from tavern.tables.store_fault import TickFailures
from tavern.tables.tasks import cancel_and_wait
from tavern.tables.turns import TIME_BANK_START, Turns

log = logging.getLogger(__name__)

__all__ = ["DEAL_HOLD_STEP", "MAX_DEAL_HOLD", "CommandError", "TableActor", "_public_result"]

#: Seconds a change of presence (a socket opened or closed) may wait before it is published: the
#: connections of a reconnecting table (six sockets within a moment) make one publication, not one each.
PRESENCE_DELAY = 0.25
#: A reconnection storm (a restart: every page reconnecting at once) holds
#: deal starts back, a step at a time, for at most MAX_DEAL_HOLD seconds per
#: deal: the sockets' snapshots go out first (issue 15, bench_capacity --storm).
DEAL_HOLD_STEP = 0.25
MAX_DEAL_HOLD = 10.0

#: A queued command: the command, its player (None: the runtime's own), his user id, the program's
#: handle that sent it (None: anyone else) and its answer.
Item = tuple[BaseModel, "str | None", int, "SeatHandle | None", "asyncio.Future[Any]"]
#: A command's handler: the actor, the command, its player's name (a player's command always has one:
#: _handle refuses it otherwise), his user id.
Handler = Callable[["TableActor", Any, Any, int], Awaitable[Any]]


def _quiet(command: BaseModel, seq: int) -> dict[str, Any] | None:
    """A closed table's answer to a connection's bookkeeping."""
    return None if isinstance(command, Disconnect) else {"seq": seq}


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
        policy: TablePolicy | None = None,
    ) -> None:
        """Long because every piece of the table's state is named and said
        here, once: the seats, the deal, the fair shuffle, the life cycle."""
        self.info = info
        self.bank = bank
        self.broadcaster = broadcaster
        self.rng = rng
        self.clock = clock
        self.deal_pause = deal_pause
        self.grace = grace
        self.time_bank = time_bank
        #: What kind of table this is (a cash table's, a contest's: tables/policy.py).
        self.policy: TablePolicy = policy if policy is not None else CashPolicy()
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
        self.button_seat: int | None = None
        self.carry: dict[str, Any] | None = None
        self.last_result: dict[str, Any] | None = None
        self.deals = 0
        self.next_deal_at: float | None = None
        self.next_settle_at: float | None = None  #: a settlement that failed is tried again then (deals.finish)
        self.tick_failures = TickFailures(log, "table %s: tick failed")  # its fault shown at the table
        self._queue: Inbox[Item] = Inbox()
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
        #: A graceful stop: the running deal ends, no new one starts, then the table moves to another
        #: worker (TableManager.drain).
        self.draining = False
        #: The provably fair shuffle (docs/fairness.md): the next deal's secret seed, whose commitment every
        #: view shows before the deal, the players' client seeds, the running deal's seed, stream, cards.
        self.next_seed = fair.DealSeed(fair.new_server_seed(rng))
        self.client_seeds: dict[str, str] = {}
        self.deal_seed: fair.DealSeed | None = None
        self.deal_cards: fair_cards.DealCards | None = None
        self.fair_block: dict[str, Any] | None = None
        self.fair_stream: fair.FairStream | None = None
        #: The last deal's reveal, for its players: {"players", "fair", "own"}.
        self.revealed: dict[str, Any] | None = None
        #: The deal's move that ended it is shown; its settlement is running.
        self.settling = False
        #: The seats played by a program (tables/driving.py), by player name.
        self.driven: dict[str, SeatHandle] = {}
        #: Driven seats whose account has no page: no state message is built for them (tables/driving.py).
        self.socketless: set[str] = set()
        self.waiting = waiting.WaitingList()  #: « Liste d'attente » (tables/waiting.py)
        self.publisher = Publisher(self, broadcaster)
        self.turns = Turns(self)
        self._handlers: dict[type[BaseModel], Handler] = {**HANDLERS, **self.policy.commands()}

    # --- what the publisher and the clocks keep ----------------------------------

    @property
    def seq(self) -> int:
        """The number of the last publication (docs/protocol.md)."""
        return self.publisher.seq

    @property
    def legal_shown(self) -> dict[str, tuple[list[dict[str, Any]], int]]:
        return self.publisher.legal_shown

    @property
    def deadlines(self) -> dict[str, float]:
        return self.turns.deadlines

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
        self.waiting.line = await asyncio.to_thread(self.bank.waiting_line, self.info.id)  # kept across a move
        self.policy.started(self)
        self.next_deal_at = self.clock() + self.deal_pause
        self._task = asyncio.create_task(self._run(), name=f"table-{self.info.id}")

    async def stop(self) -> None:
        self.closed = True
        await cancel_and_wait(self._task)

    async def submit(self, command: BaseModel, username: str | None = None, *, user_id: int = 0) -> Any:
        """Run ``command`` (a :data:`~tavern.tables.commands.TableCommand`, or
        one of the policy's own) for ``username`` (``user_id``: his account,
        for a seat to take) in turn and return its answer; raises
        :class:`CommandError`. A closed table refuses every command, except
        a connection's own bookkeeping (connect, disconnect, sync), answered quietly."""
        if self.closed:
            if isinstance(command, BOOKKEEPING):
                return _quiet(command, self.seq)
            raise CommandError("table_closed")
        return await self._post(command, username, user_id, None)

    def _post(self, command: BaseModel, username: str | None, user_id: int,
              origin: SeatHandle | None) -> asyncio.Future[Any]:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if isinstance(command, Act):
            self.publisher.pending_act = metrics.acted(self.publisher.pending_act)
        self._queue.put_nowait((command, username, user_id, origin, fut))
        return fut

    def post_nowait(self, command: BaseModel) -> None:
        """Queue a command of the runtime's (a contest director's) without
        waiting for it (the director must never wait on a table that may be
        waiting on it)."""
        fut = self._post(command, None, 0, None)
        fut.add_done_callback(lambda f: f.exception())  # nobody awaits it: never "never retrieved"

    def drive(self, name: str, user_id: int, driver: SeatDriver) -> SeatHandle:
        """Have a program play ``name``'s seat (tables/driving.py): it is
        shown the seat after every publication and sends its commands through
        the returned handle; the player's commands from anywhere else are
        refused meanwhile. Connected while driven, from this very call: a
        house player seated by a deal's start hook is dealt in by that start."""
        if name in self.driven:
            raise CommandError("seat_driven")
        handle = SeatHandle(name, user_id, driver, self._handle_post)
        self.driven[name] = handle
        if declares(driver, "socketless"):
            self.socketless.add(name)
        self._connected(name)
        return handle

    def release(self, handle: SeatHandle) -> None:
        """The program lets its seat go: the player's own commands count
        again, and the seat is one connection fewer."""
        if self.driven.get(handle.name) is handle:
            handle.post(Disconnect())
            del self.driven[handle.name]
            self.socketless.discard(handle.name)

    def _handle_post(self, command: TableCommand, name: str, user_id: int,
                     handle: SeatHandle) -> asyncio.Future[Any]:
        if self.closed:
            fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            if isinstance(command, BOOKKEEPING):
                fut.set_result(_quiet(command, self.seq))
            else:
                fut.set_exception(CommandError("table_closed"))
            return fut
        return self._post(command, name, user_id, handle)

    async def _run(self) -> None:
        """Long because it is the table's one loop: a command (answered, its change published),
        then the timers, then the publication, each failure kept inside the table."""
        logs.bind(table=self.info.id, request_id=None, account=None)  # this task's log lines name the table
        while not self.closed:  # stopped: even if a library swallowed the cancel (tables/tasks.py)
            item = await self._queue.get(self._next_wake())  # None: a timer is due
            changed = False
            if item is not None:
                command, username, user_id, origin, fut = item
                try:
                    out = await self._handle(command, username, user_id, origin)
                    if isinstance(command, (Connect, Disconnect)):
                        # Who is connected: published with the next change, or within
                        # PRESENCE_DELAY (the socket itself got its snapshot already).
                        if self.publisher.presence_due is None:
                            self.publisher.presence_due = self.clock() + PRESENCE_DELAY
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
                    log.exception("table %s: command %s failed", self.info.id, type(command).__name__)
                    if not fut.done():
                        fut.set_exception(CommandError("table_failed"))
            try:
                if changed and self.engine is not None and self.engine.over and self.archive_id is not None:
                    # The move that ended the deal is shown at once (the cards turned over); the settlement's
                    # transaction follows, then the result, final once it is committed, in its own publication.
                    self.settling = True
                    # The finished deal's public view made once off the loop: what it costs once a deal
                    # (hold'em's all-in equity, up to 0.2 s before the flop: docs/bots.md) the engine
                    # keeps, and the other tables' moves go on meanwhile.
                    await asyncio.to_thread(self.engine.view, None)
                    await self.publish()
                    changed = False
                changed = await self._tick() or changed
                if self.closed:
                    break
                due = self.publisher.presence_due
                if due is not None and due <= self.clock():
                    changed = True
                faulted = self.tick_failures.fault
                self.tick_failures.succeeded(self.info.id)
                if changed or faulted:
                    await self.publish()
            except LostTable:
                self._lost()
                break
            except Exception:  # once whole, then a summary now and then: a fault retried each second floods nothing
                faulted = self.tick_failures.fault
                self.tick_failures.failed(self.info.id)
                if self.tick_failures.fault != faulted:  # the players are told why the deal waits
                    with contextlib.suppress(Exception):
                        await self.publish()
        self._refuse_queued()

    def _refuse_queued(self) -> None:
        """Closed: whatever is still queued is refused (a connection's own
        bookkeeping answered quietly), nobody waits forever."""
        while not self._queue.empty():
            command, _, _, _, fut = self._queue.get_nowait()
            if fut.done():
                continue
            if isinstance(command, BOOKKEEPING):
                fut.set_result(_quiet(command, self.seq))
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

    # --- what the table tells --------------------------------------------------

    async def snapshot(self, username: str | None) -> str:
        """A connection's full snapshot, as its JSON text (the same call on a
        table owned by another worker: tables/manager.py ``RemoteTable``)."""
        return encode(self.publisher.message_for(username))

    def message_for(self, username: str | None) -> dict[str, Any]:
        """The state one recipient's snapshot holds (:meth:`Publisher.message_for`)."""
        return self.publisher.message_for(username)

    def public_table(self) -> dict[str, Any]:
        return self.publisher.public_table()

    async def publish(self, also: list[str] | None = None) -> None:
        """One message per seated player (and per name in ``also``) and one
        for spectators; then each program driving a seat is shown it."""
        await self.publisher.publish(also)
        if self.driven:
            self._show_drivers()

    async def publish_closed(self, summary: dict[str, Any], players: list[str]) -> None:
        """The last messages: a ``state`` whose table is closed, then ``closed``."""
        await self.publisher.publish_closed(summary, players)
        if self.driven:
            self._show_drivers()

    async def notify(self, name: str, kind: str, notice: dict[str, Any]) -> None:
        await self.publisher.notify(name, kind, notice)

    def _show_drivers(self) -> None:
        """Each driven seat's view of the publication just sent: its legal
        actions as its socket was shown them, its own view of the deal."""
        seq = self.seq
        for name, handle in list(self.driven.items()):
            seat = next((s for s in self.seats.values() if s.name == name), None)
            dealt = seat is not None and name in self.dealt and self.engine is not None
            legal = list(self.legal_shown.get(name, ([], 0))[0]) if seat else []
            ends = self.engine is not None and self.engine.over and declares(handle.driver, "deal_ends")
            wanted = dealt and (bool(legal) or not declares(handle.driver, "turns_only") or ends)
            deal = self.publisher.seated(self.engine.view(name)) if wanted and self.engine is not None else None
            view = SeatView(name, seq, legal, deal, seat.chips if seat else 0, seat.sitting_out if seat else False, self.closed)
            try:
                handle.driver.seen(view)
            except Exception:  # a program's bug is not the table's
                log.exception("table %s: the program driving %s failed", self.info.id, name)

    # --- the commands' small helpers ----------------------------------------------

    def _want_deal(self) -> None:
        """After a change of seats: deal when enough players are ready."""
        if (self.engine is None or self.engine.over) and self.next_deal_at is None and not self.draining \
                and self.closing_owner is None and not self.closed and len(self._ready()) >= self.min_players:
            self.next_deal_at = self.clock() + self.deal_pause

    def _next_wake(self) -> float | None:
        if self.engine is not None and self.engine.over and self.archive_id is not None:
            # A deal over as soon as dealt (everybody all-in from the blinds):
            # settle it now — no turn to time, nobody to click would wake us.
            return max(0.0, (self.next_settle_at or 0.0) - self.clock())
        times = list(self.turns.deadlines.values())
        if self.next_deal_at is not None:
            times.append(self.next_deal_at)
        if self.publisher.presence_due is not None:
            times.append(self.publisher.presence_due)
        times += self.waiting.deadlines()  # a seat offered runs out
        return min(times) - self.clock() if times else None

    def _seat_of(self, username: str | None) -> SeatState:
        for s in self.seats.values():
            if s.name == username:
                return s
        raise CommandError("not_seated")

    def _in_deal(self, seat: SeatState) -> bool:
        return self.engine is not None and not self.engine.over and seat.name in self.dealt

    def _ready(self) -> list[SeatState]:
        return [s for s in self.seats.values() if not s.sitting_out and s.chips > 0]

    def _by_name(self, name: str) -> SeatState:
        return next(s for s in self.seats.values() if s.name == name)

    async def _handle(self, command: BaseModel, username: str | None, user_id: int,
                      origin: SeatHandle | None) -> Any:
        """The one dispatch: the command's type names its handler."""
        handler = self._handlers.get(type(command))
        if handler is None:
            raise CommandError("unknown_command", command=str(getattr(command, "type", type(command).__name__)))
        if type(command) in PLAYER_COMMANDS:
            if username is None:
                raise CommandError("login_to_play")
            # A driven seat takes its program's commands only, and a program
            # only its own seat's, while it drives it.
            if self.driven.get(username) is not origin:
                raise CommandError("seat_driven")
        code = self.policy.refusal(command)
        if code is not None:
            raise CommandError(code)
        return await handler(self, command, username, user_id)

    # --- the commands ---------------------------------------------------------------

    async def _sync(self, command: Sync, username: str | None, user_id: int) -> dict[str, Any]:
        return {"seq": self.seq}

    async def _connect(self, command: Connect, username: str | None, user_id: int) -> dict[str, Any]:
        self._connected(username)
        return {"seq": self.seq}

    def _connected(self, username: str | None) -> None:
        # Every socket of a player counts, seated or not yet: a second tab
        # opened before he sat keeps him connected when the first one closes.
        if username is not None:
            self.sockets[username] += 1
        for s in self.seats.values():
            if s.name == username:
                s.connections = self.sockets[username]
                s.disconnected_at = None

    async def _disconnect(self, command: Disconnect, username: str | None, user_id: int) -> None:
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

    async def _act(self, command: Act, username: str, user_id: int) -> dict[str, Any]:
        seat = self._seat_of(username)
        # Stale: chosen before this player's legal actions were last shown to him (another player's bet
        # changed what a call costs...). A publication that left them as they were (a seat taken, a socket
        # opened, another player's move at a showdown where all choose at once) changes nothing his choice rests on.
        seq = command.seq
        shown_at = self.legal_shown.get(username, ([], 0))[1]
        if seq is not None and not shown_at <= seq <= self.seq:
            raise CommandError("stale_move", seq=seq, now=self.seq)
        if not self._in_deal(seat):
            raise CommandError("not_in_deal")
        try:
            self.play(username, command.action, command.args)  # IllegalAction names the rule
        except TypeError:
            # An argument the action does not take (or of a type it cannot use): the engines check their
            # arguments before changing anything, so this is a refusal, not a bug to log with a traceback.
            raise CommandError("bad_arguments", action=command.action, given=sorted(command.args)) from None
        if seat.timeouts:
            seat.notice = None  # he is back: the time-out's explanation goes
        seat.timeouts = 0
        seat.auto = seat.auto if seat.sitting_out else None
        self.turns.acted(username)
        return {}

    async def _close_command(self, command: Close, username: str | None, user_id: int) -> dict[str, Any]:
        return await deals.close_command(self, command.owner_id)

    # --- the deal loop --------------------------------------------------------

    def play(self, name: str, action: str, args: dict[str, Any], by: str | None = None) -> None:
        """One move in the deal; its public events join the deal's story
        (what the log beside the felt tells, kept in the archived record)."""
        assert self.engine is not None
        self.publisher.tell(self.engine.act(name, action, **args), by)

    async def _tick(self) -> bool:
        """Time-outs, auto-actions, the end of a deal and the start of the next.
        Returns whether anything visible changed."""
        changed = False
        now = self.clock()
        if self.engine is not None and not self.engine.over:
            changed = self.turns.due(now)
            changed = await self.turns.arm() or changed
        if self.engine is not None and self.engine.over and self.archive_id is not None and (self.next_settle_at or 0.0) <= now:
            await deals.finish(self)
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
                changed = await deals.start(self) or changed
        return await waiting.review(self) or changed  # seats freed go to the first in line

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

    async def end(self, summary: dict[str, Any], players: list[str]) -> None:
        """The table closes for good: its last publication (``players``, the
        ones cashed out, told beside the seated), then the manager forgets it."""
        self.closed = True
        self.closed_for_good = True
        self.next_deal_at = None
        self.turns.deadlines = {}
        self.last_result = {"deal": self.deals, "closing": summary}
        await self.publish_closed(summary, players)
        if self.on_closed is not None:
            self.on_closed()


#: The one dispatch table: a command's type, its handler.
HANDLERS: dict[type[BaseModel], Handler] = {
    Act: TableActor._act, Sit: seat_commands.sit, Cave: seat_commands.cave, Leave: seat_commands.leave,
    SitOut: seat_commands.sit_out, SitIn: seat_commands.sit_in, Post: seat_commands.post_blind,
    Auto: seat_commands.auto, ClientSeed: seat_commands.client_seed,
    Sync: TableActor._sync, Connect: TableActor._connect, Disconnect: TableActor._disconnect,
    Close: TableActor._close_command, WaitJoin: waiting.join, WaitLeave: waiting.leave,
    OfferAccept: waiting.accept, OfferPass: waiting.pass_offer,
}
#: The commands a player sends for his own seat: they need his name, and a seat a program drives takes
#: them from that program only.
PLAYER_COMMANDS = frozenset({Act, Sit, Cave, Leave, SitOut, SitIn, Post, Auto, ClientSeed,
                             WaitJoin, WaitLeave, OfferAccept, OfferPass})
