"""The WebSocket channel of a table: ``/ws/tables/{id}``.

* authenticated by the session cookie (spectators must be logged in too);
* the Origin header must be one of the allowed origins (403 otherwise), so a
  page of another site cannot act with the player's cookie;
* every message received is validated (pydantic) and limited in size and
  rate; a refused one gets an ``error`` frame — the connection and the table
  carry on;
* every message sent is the receiving player's own view (or the spectators'
  view) with a sequence number; a (re)connection receives a full snapshot.

The protocol is documented in ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError
from starlette.websockets import WebSocketState

from tavern import logs, metrics
from tavern.bounds import MAX_ID
from tavern.catalogue import french, validation_refusals
from tavern.refusal import Refusal
from tavern.services.chat import RATE_LIMIT, RATE_WINDOW, ChatError
from tavern.store.db import is_store_away
from tavern.tables.actor import CommandError
from tavern.tables.chat import ChatDesk
from tavern.tables.cluster import ClusterUnreachable
from tavern.tables.commands import Connect, Disconnect
from tavern.tables.manager import TableMoved, TablePaused, moved_fence
from tavern.web import private_gate
from tavern.web.deps import CurrentUser
from tavern.web.protocol import commands
from tavern.web.rendering import BROWSER_COOKIE
from tavern.web.session import SessionData
from tavern.web.state import services
from tavern.web.wslimits import TOO_MANY_CONNECTIONS
from tavern.web.wsproto import SEND_NOW

router = APIRouter()
_MOVED = "moved"  #: the outbox's word for "close: the table changed worker"
log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096
RATE_PER_SECOND = 10  #: commands per connection, averaged over a burst of 20
BURST = 20
QUEUE_LIMIT = 256  #: messages waiting for a slow client before it is dropped
#: The send queues of this process's open table sockets (metrics: their lengths, sampled).
OUTBOXES: set[asyncio.Queue[str]] = set()
#: Close code "service restart": the table changed worker, reconnect (docs/protocol.md).
MOVED = 1012
#: Close code "try again later": play is paused, Redis is out of reach (docs/protocol.md).
PAUSED = 1013
#: A socket's own bookkeeping at its table (immutable: one of each serves every socket).
CONNECT, DISCONNECT = Connect(), Disconnect()


def _origin_allowed(ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")
    allowed = services(ws).settings.allowed_origins
    return origin is not None and origin in allowed


async def _user(ws: WebSocket, sess: SessionData) -> CurrentUser | None:
    # The same signed cookie as the pages, and the same server-side session:
    # a logged-out, banned or ended session opens no table either.
    if sess.user_id is None or not sess.token:
        return None
    found = await services(ws).socket_users.get((sess.user_id, sess.token))
    return CurrentUser(*found) if found is not None else None


@router.websocket("/ws/tables/{table_id}")
async def table_channel(ws: WebSocket, table_id: int) -> None:
    # Counted as opening until its snapshot is sent: hundreds at once are a
    # restart's reconnection storm, during which deals wait (tables/manager.py).
    with services(ws).tables.socket_opening() as opened:
        try:
            await _open(ws, table_id, opened)
        except DBAPIError as exc:
            if not is_store_away(exc):
                raise
            await _store_away(ws)


async def _open(ws: WebSocket, table_id: int, opened: Callable[[], None]) -> None:
    # This connection's log lines, uvicorn's « accepted » included (it is
    # logged from this task): filtering by table or request finds them all.
    logs.bind(request_id=uuid.uuid4().hex[:16], account=None, deal=None,
              table=table_id if 1 <= table_id <= MAX_ID else None)
    if not 1 <= table_id <= MAX_ID:
        # The HTTP routes' range (web.deps.Id): a larger id overflowed the database.
        await ws.close(code=1008, reason=french("ws_unknown_table"))
        return
    if not _origin_allowed(ws):
        await ws.close(code=1008, reason=french("ws_origin_refused"))  # HTTP 403 before the handshake
        return
    sess = services(ws).codec.load(ws)
    user = await _user(ws, sess)
    if user is None:
        await ws.close(code=1008, reason=french("ws_login_required"))
        return
    logs.bind(account=user.id)
    refused = await private_gate.watch_refusal(ws, table_id, user.id)  # among friends; a practice table
    if refused is not None:
        await ws.close(code=1008, reason=french(refused))
        return
    manager = services(ws).tables
    try:
        actor = await manager.get(table_id)
    except TablePaused:
        await _paused(ws)
        return
    except TableMoved:  # between two workers: the page tries again in a moment
        await ws.close(code=MOVED, reason=french("ws_table_moved"))
        return
    if actor is None:
        await ws.close(code=1008, reason=french("table_closed"))
        return
    address = ws.client.host if ws.client else "unknown"
    # The session's token: its session ending closes this socket.
    try:
        slot = await services(ws).ws_limits.take_shared(user.id, address, ws, sess.token)
    except ClusterUnreachable:
        await _paused(ws)
        return
    if slot is None:
        # Accepted, then closed with a code the client can read (docs/protocol.md).
        await ws.accept()
        await ws.close(code=TOO_MANY_CONNECTIONS, reason=french("ws_too_many_connections"))
        return
    try:
        _note_visit(ws, table_id, user.id, address)
        await _serve(ws, actor, user, table_id, opened)
    finally:
        slot.release()
        log.info("table socket: closed")


async def _paused(ws: WebSocket) -> None:
    """Redis is out of reach: the socket is accepted and closed at once with
    a French reason the page shows, and a code it retries soon (never a
    handshake answered 500: issue 38)."""
    log.info("table socket: play paused, Redis out of reach")
    await ws.accept()
    await ws.close(code=PAUSED, reason=french("ws_play_paused"))


async def _store_away(ws: WebSocket) -> None:
    """The database went away (a restart) under the handshake or the socket:
    closed with the pause's code, which the page retries in a moment, and a
    French reason — never a handshake answered 500 (issue 38)."""
    log.warning("table socket: play paused, the database is away")
    with contextlib.suppress(Exception):  # the socket may be gone or closed already
        if ws.client_state == WebSocketState.CONNECTING:
            await ws.accept()
        await ws.close(code=PAUSED, reason=french("ws_store_away"))


def _note_visit(ws: WebSocket, table_id: int, user_id: int, address: str) -> None:
    """Who plays from where, for the collusion report (web/visits.py: written
    in batches, off the connection's path). The browser cookie is hashed:
    only equality matters. No cookie (a bot, the API, a fresh private
    window) is noted as absent (None), never as a value two clients could
    share: an absent cookie is no shared browser."""
    cookie = ws.cookies.get(BROWSER_COOKIE, "")
    browser = hashlib.sha256(cookie.encode()).hexdigest() if cookie else None
    services(ws).visits.note((table_id, user_id, address[:64], browser))


async def _serve(ws: WebSocket, actor: Any, user: CurrentUser, table_id: int, opened: Callable[[], None]) -> None:
    """One connection from its snapshot to its close. Long because the
    frames' order (answers before the states they show, the outbox, the
    immediate write) lives in closures sharing this connection's state."""
    await ws.accept()
    log.info("table socket: open")
    name = user.username
    outbox: asyncio.Queue[str] = asyncio.Queue()
    desk = _desk(ws, table_id, user.id)
    # Under the project's protocol (wsproto) a state is written at once when
    # nothing waits before it on this socket: no task to wake, no ASGI send
    # chain, six or seven times an action. ``pumping`` is True while the
    # outbox's task holds a frame not yet written (and until the snapshot
    # is sent): a frame delivered then must queue behind it, in order.
    send_now: Callable[[str], bool] | None = (ws.scope.get("extensions") or {}).get(SEND_NOW)
    pumping = True
    # The states published while a command with an id is being answered,
    # held until its ``ok``/``error`` is sent: the answer always comes before
    # the state that shows the command done, whichever worker owns the table
    # (its state and its answer travel apart through Redis: docs/protocol.md
    # "Order"). None: no command waits for its answer.
    held: list[str] | None = None

    def write(text: str) -> bool:
        """Send at once if nothing waits before it on this socket."""
        return send_now is not None and not pumping and outbox.empty() and send_now(text)

    def deliver(text: str) -> None:
        if not desk.shows(text):
            return  # an author this reader hides (the chat: tables/chat.py)
        fence = moved_fence(text)
        if fence is not None:
            # The table has a new owner: a connection attached to another
            # fence reconnects (and finds it); the notice is never sent on.
            if fence != actor.fence:
                outbox.put_nowait(_MOVED)
            return
        if held is not None:
            held.append(text)
            return
        if write(text):
            return
        if outbox.qsize() < QUEUE_LIMIT:
            outbox.put_nowait(text)

    async def answer(cmd: Any) -> None:
        """Run a command; its answer goes out before the states held meanwhile."""
        nonlocal held
        if cmd.type in SOCKET_COMMANDS:  # ping: the socket's own worker answers, behind what is queued (web/protocol.py Ping)
            outbox.put_nowait(json.dumps({"type": "pong", "id": cmd.id}))
            return
        if cmd.id is None or cmd.type == "sync":
            await _run(ws, actor, name, user.id, cmd, desk)  # nothing to order: no answer, or a snapshot
            return
        held = []
        try:
            _, text = await _answer(actor, name, user.id, cmd, desk)
        finally:
            waiting, held = held, None
        if not write(text):
            outbox.put_nowait(text)  # behind the frames already queued; never dropped
        for state in waiting:
            deliver(state)

    unsubscribe = services(ws).broadcaster.subscribe(table_id, name, deliver)
    OUTBOXES.add(outbox)
    try:
        await actor.submit(CONNECT, name)
    except TableMoved:
        unsubscribe()
        OUTBOXES.discard(outbox)
        await ws.close(code=MOVED, reason=french("ws_table_moved"))
        return

    async def pump() -> None:
        nonlocal pumping
        try:
            while True:
                pumping = False
                text = await outbox.get()  # returns at once while the outbox holds frames
                pumping = True
                if text is _MOVED:
                    await ws.close(code=MOVED, reason=french("ws_table_moved"))
                    return
                await _send(ws, text)
        except (WebSocketDisconnect, RuntimeError):
            return  # the receiving loop sees the close too and cleans up

    sender: asyncio.Task[None] | None = None
    tokens, last = float(BURST), time.monotonic()
    try:
        # The full snapshot for this connection (the others keep their stream).
        # Inside the try: a socket closing this early is still counted out.
        await _send(ws, await actor.snapshot(name))
        opened()  # a reconnection storm is counted to the snapshot (tables/manager.py), not the chat's read
        await _send(ws, await desk.log())  # the chat's last messages come with the snapshot
        sender = asyncio.create_task(pump())
        while True:
            raw = await _receive(ws)
            now = time.monotonic()
            tokens = min(BURST, tokens + (now - last) * RATE_PER_SECOND)
            last = now
            if raw is not None and len(raw.encode()) > MAX_MESSAGE_BYTES:
                await _error(ws, None, CommandError("message_too_long", maximum=MAX_MESSAGE_BYTES))
                continue
            if tokens < 1:
                await _error(ws, None, CommandError("too_many_messages"))
                continue
            tokens -= 1
            if raw is None:  # a binary frame: the protocol is JSON text (docs/protocol.md "Limits")
                await _error(ws, None, CommandError("binary_frame"))
                continue
            try:
                cmd = commands.validate_json(raw)
            except ValidationError as exc:
                # The first problem, naming its field: « Place » : un nombre entier est attendu.
                problem = validation_refusals(exc.errors()[:1])[0]
                await _error(ws, None, CommandError("malformed_message", refusal=problem))
                continue
            await answer(cmd)
    except WebSocketDisconnect:
        pass
    except TableMoved:
        with contextlib.suppress(RuntimeError):
            await ws.close(code=MOVED, reason=french("ws_table_moved"))
    finally:
        unsubscribe()
        OUTBOXES.discard(outbox)
        if sender is not None:
            sender.cancel()
        with contextlib.suppress(TableMoved):
            await actor.submit(DISCONNECT, name)


#: Commands the socket answers itself, without the table or the chat.
SOCKET_COMMANDS = frozenset({"ping"})

# The chat's commands, run by the socket's chat desk, never by the actor
# (the table's own commands go to the actor as parsed: tables/commands.py).
ChatHandler = Callable[[ChatDesk, Any], Awaitable[Any]]
CHAT_HANDLERS: dict[str, ChatHandler] = {
    "chat_say": lambda desk, c: desk.say(c.text),
    "chat_hide": lambda desk, c: desk.hide(c.author, c.hide),
    "chat_report": lambda desk, c: desk.report(c.message),
}


def _desk(ws: WebSocket, table_id: int, user_id: int) -> ChatDesk:
    """This socket's side of the table's chat; its rate counted in the
    database's throttles, so every worker counts the same messages."""
    site = services(ws)
    return ChatDesk(table_id, user_id, site.write_sessions, site.read_sessions, site.broadcaster,
                    lambda s, uid: site.throttles.hit_in(s, (f"chat:{uid}",), RATE_LIMIT, RATE_WINDOW))


async def _run(ws: WebSocket, actor: Any, name: str, user_id: int, cmd: Any, desk: ChatDesk) -> None:
    """A command without an id (answered only when refused), or ``sync``."""
    if cmd.type == "sync":
        await _send(ws, await actor.snapshot(name))
        await _send(ws, await desk.log())
        return
    done, text = await _answer(actor, name, user_id, cmd, desk)
    # Without an id the client asked for no answer: the next state shows
    # the command done (a page's moves go so: one frame fewer a move).
    if not done:
        await _send(ws, text)


async def _answer(actor: Any, name: str, user_id: int, cmd: Any, desk: ChatDesk) -> tuple[bool, str]:
    """Run a command at the table: whether it was done, and its ``ok`` or ``error`` frame."""
    chat = CHAT_HANDLERS.get(cmd.type)
    try:
        # The parsed command itself: the table dispatches it on its type.
        out = await (chat(desk, cmd) if chat else actor.submit(cmd, name, user_id=user_id))
    except (CommandError, ChatError) as exc:
        return False, _error_text(cmd.id, exc)
    except TypeError:  # arguments the engine does not take
        action = getattr(cmd, "action", cmd.type)
        return False, _error_text(cmd.id, CommandError("bad_arguments", action=action, given=[]))
    return True, json.dumps({"type": "ok", "id": cmd.id, "result": out or {}}, separators=(",", ":"))


def _error_text(msg_id: int | None, refusal: Refusal) -> str:
    """Every error frame is built here, so every refusal is counted here."""
    metrics.child(metrics.REFUSALS, refusal.code).inc()
    return json.dumps({"type": "error", "id": msg_id, **refusal.as_dict()}, ensure_ascii=False)


async def _receive(ws: WebSocket) -> str | None:
    """The next text frame, or None for a binary one. Starlette's
    ``receive_text`` reads a binary frame's missing text as a ``KeyError``:
    the handler died with a traceback and the socket dropped (1006)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


async def _error(ws: WebSocket, msg_id: int | None, refusal: Refusal) -> None:
    """An ``error`` frame: the refusal's code, its French message, its parameters."""
    await _send(ws, _error_text(msg_id, refusal))


async def _send(ws: WebSocket, text: str) -> None:
    """Send, or report the connection closed as a disconnection: a client may
    leave while its command is still being answered."""
    try:
        await ws.send_text(text)
    except (RuntimeError, OSError) as exc:  # "Cannot call send once a close message has been sent"
        raise WebSocketDisconnect(code=1006) from exc
