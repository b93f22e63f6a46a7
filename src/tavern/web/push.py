"""A socket the server only speaks on (the live village's, a player's
notices): what it is given to send goes out in order, and what the page
sends is never read — binary, oversized or malformed frames alike — but its
close ends the socket."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import WebSocket, WebSocketDisconnect

from tavern.catalogue import french
from tavern.web.state import services
from tavern.web.wslimits import TOO_MANY_CONNECTIONS, Slot


async def refused_origin(ws: WebSocket) -> bool:
    """Close the socket (1008, before the handshake) unless its page is one of
    the site's (``allowed_origins``): a page of another site opens none of
    ours, as at a table (web/ws.py). True when refused."""
    origin = ws.headers.get("origin")
    if origin is not None and origin in services(ws).settings.allowed_origins:
        return False
    await ws.close(code=1008, reason=french("ws_origin_refused"))
    return True


async def push_slot(ws: WebSocket, user_id: int | None) -> Slot | None:
    """A place among the push sockets of this address (and account, when
    logged in) — ``TAVERN_PUSH_PER_ADDRESS`` / ``TAVERN_PUSH_PER_ACCOUNT``,
    site-wide with several workers — or None after closing the socket with
    :data:`TOO_MANY_CONNECTIONS` and its reason, as a table socket over its
    cap (docs/protocol.md). The caller releases the slot when it closes."""
    address = ws.client.host if ws.client else "unknown"
    slot = await services(ws).push_limits.take_shared(user_id, address)
    if slot is None:
        await ws.accept()  # accepted, then closed with a code the page can read
        await ws.close(code=TOO_MANY_CONNECTIONS, reason=french("ws_too_many_connections"))
    return slot


async def push_until_closed(ws: WebSocket, queue: asyncio.Queue[str]) -> None:
    """Send each text put in ``queue`` until the page closes the socket (or a
    send fails); the caller unsubscribes the queue afterwards."""

    async def drain() -> None:  # the page says nothing; its close ends the socket
        with contextlib.suppress(WebSocketDisconnect):
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass

    closed = asyncio.create_task(drain())
    try:
        while not closed.done():
            got = asyncio.create_task(queue.get())
            await asyncio.wait({got, closed}, return_when=asyncio.FIRST_COMPLETED)
            if not got.done():
                got.cancel()
                break
            await ws.send_text(got.result())
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        closed.cancel()
