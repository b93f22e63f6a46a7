"""The floor of the stack: a bare Starlette WebSocket "room echo" server.

Started by the benchmark exactly as the tavern is (``uvicorn … --factory``,
loopback, one process). A text frame received on ``/ws/echo/{room}`` is sent
unchanged to every connection of that room (through each one's outbox) — the same fan-out as a table
publishing one state message per seated player — with no parsing, no
validation, no game and no database: what uvicorn + Starlette + the
WebSocket protocol cost by themselves.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


def create_app() -> Starlette:
    rooms: dict[str, set[asyncio.Queue[str]]] = defaultdict(set)

    async def echo(ws: WebSocket) -> None:
        room = ws.path_params["room"]
        await ws.accept()
        # One outbox and one sending task per connection, the stack's plain
        # way (two members' frames are never sent at once on one socket). The
        # tavern's channel writes most states at once instead (web/wsproto.py):
        # that saving is the tavern's own, the floor stays the plain stack.
        outbox: asyncio.Queue[str] = asyncio.Queue()

        async def pump() -> None:
            while True:
                await ws.send_text(await outbox.get())

        members = rooms[room]
        members.add(outbox)
        sender = asyncio.create_task(pump())
        try:
            while True:
                text = await ws.receive_text()
                for box in members:
                    box.put_nowait(text)
        except WebSocketDisconnect:
            pass
        finally:
            members.discard(outbox)
            sender.cancel()

    async def healthz(request):
        return PlainTextResponse("ok")

    return Starlette(routes=[Route("/healthz", healthz), WebSocketRoute("/ws/echo/{room}", echo)])
