"""A player's own notices, on any page of the site (issue 30 §3–4):
``/ws/notices``, opened by every page of a logged-in player
(static/notices.js, from the base template).

It carries the notices of one account only: the seat a full table's
waiting list holds for him, and its end (tables/waiting.py; docs/protocol.md
"The notices socket"). They are published by the table's owner on the
broadcaster's notice channel (:data:`~tavern.tables.waiting.NOTICES`), keyed
by player name as a table's messages are, so they reach this socket
whichever worker holds it (Redis pub/sub when configured); a seat held for
him since before the page opened is told as the socket opens (the table
keeps the offer's end in the database). The player sends nothing; the Origin and the session are checked as at a table's socket.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket

from tavern.catalogue import french
from tavern.services import waiting
from tavern.store.models import utcnow
from tavern.tables.waiting import NOTICES, offer_notice
from tavern.web.deps import CurrentUser
from tavern.web.push import push_slot, push_until_closed, refused_origin
from tavern.web.state import services

pages = APIRouter()

#: Notices waiting for a slow page: an offer is a notice or two a minute.
QUEUE_LIMIT = 32


async def _user(ws: WebSocket) -> tuple[CurrentUser, str] | None:
    """The page's account and session token, by its session cookie (a table
    socket's way: web/ws.py)."""
    sess = services(ws).codec.load(ws)
    if sess.user_id is None or not sess.token:
        return None
    found = await services(ws).socket_users.get((sess.user_id, sess.token))
    return (CurrentUser(*found), sess.token) if found is not None else None


@pages.websocket("/ws/notices")
async def notices_channel(ws: WebSocket) -> None:
    if await refused_origin(ws):
        return
    found = await _user(ws)
    if found is None:
        await ws.close(code=1008, reason=french("ws_login_required"))
        return
    user, token = found
    # A page each: capped per account and per address as the village's
    # socket (web/push.py), apart from the table sockets' caps.
    slot = await push_slot(ws, user.id)
    if slot is None:
        return
    # Closed with its session (logout, « log out everywhere », a password change, a ban), as a table's socket.
    forget = services(ws).ws_limits.follow(user.id, token, ws)
    try:
        await ws.accept()
        await _serve(ws, user)
    finally:
        forget()
        slot.release()


def _offers(ws: WebSocket, user_id: int) -> list[tuple[int, str, int, float]]:
    with services(ws).read_sessions() as s:
        return waiting.offers_to(s, user_id, utcnow())


async def _serve(ws: WebSocket, user: CurrentUser) -> None:
    queue: asyncio.Queue[str] = asyncio.Queue(maxsize=QUEUE_LIMIT)

    def deliver(text: str) -> None:
        if not queue.full():  # a page that reads nothing misses notices, never grows the queue
            queue.put_nowait(text)

    unsubscribe = services(ws).broadcaster.subscribe(NOTICES, user.username, deliver)
    # A seat held for him since before this page opened: told here too.
    for table_id, name, seat, left in await asyncio.to_thread(_offers, ws, user.id):
        deliver(offer_notice(table_id, name, seat, round(left, 1)))

    try:
        await push_until_closed(ws, queue)
    finally:
        unsubscribe()
