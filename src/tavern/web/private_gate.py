"""Whether a socket may open a table among friends (issue 30 §2): the
table socket (web/ws.py) asks here before it accepts, so a private table
without spectators is watched by its invited players only, and a practice
table by its player only. The rules are
services/private_tables.py's."""

from __future__ import annotations

import asyncio

from fastapi import WebSocket

from tavern.services import private_tables
from tavern.web.state import services


def _refusal(ws: WebSocket, table_id: int, user_id: int) -> str | None:
    with services(ws).read_sessions() as s:
        return private_tables.watch_refusal(s, table_id, user_id)


async def watch_refusal(ws: WebSocket, table_id: int, user_id: int) -> str | None:
    """Why the socket may not open the table (a catalogue code: a private
    table without spectators, another player's practice table), or None.
    One read (a primary-key row; a grant's only at a private table without
    spectators), off the event loop."""
    return await asyncio.to_thread(_refusal, ws, table_id, user_id)
