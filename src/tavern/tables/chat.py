"""A table's chat on its live channel, beside the game (issue 30 §1).

The chat needs nothing of the game's state, so it never enters the table's
actor: a message is written in the database (services/chat.py) by whichever
worker holds the writer's socket, then published on the table's channel
(tables/broadcast.py), which reaches the sockets of every worker (Redis
pub/sub). One :class:`ChatDesk` serves one socket: it runs that reader's
commands (say, hide, report), builds the chat part of his snapshot, and
keeps from him the messages of the authors he hides.

Frames (docs/protocol.md "Chat"): ``chat_log`` after each snapshot,
``chat`` for a new message, ``chat_deleted`` when an admin deletes one,
``chat_muted`` to a muted account at every table it has open.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy.orm import Session, sessionmaker

from tavern.services import chat
from tavern.store.db import run_transaction
from tavern.tables.broadcast import SPECTATORS, Broadcaster

#: The first characters of a chat message's frame: only these are looked
#: into before a socket sends them (the authors its reader hides).
CHAT_PREFIX = '{"type":"chat","table_id":'

#: Counts one message of an account against the shared rate, in the
#: message's own transaction; returns the seconds to wait when over it
#: (web/ratelimit.py's throttles), else 0.
RateHit = Callable[[Session, int], int]


def _frame(kind: str, table_id: int, **fields: Any) -> str:
    return orjson.dumps({"type": kind, "table_id": table_id, **fields}).decode()


def chat_frame(table_id: int, line: chat.Line) -> str:
    return _frame("chat", table_id, **line.out())


def author_of(text: str) -> str | None:
    """The author of a chat message's frame; ``None`` for any other frame."""
    if not text.startswith(CHAT_PREFIX):
        return None
    author = orjson.loads(text).get("author")
    return author if isinstance(author, str) else None


@dataclass(eq=False)
class ChatDesk:
    """One reader's side of a table's chat (one per socket)."""

    table_id: int
    user_id: int
    writes: sessionmaker[Session]
    reads: sessionmaker[Session]
    broadcaster: Broadcaster
    rate: RateHit
    #: The authors this reader hides (his, site-wide), read with each log.
    hidden: set[str] = field(default_factory=set)

    def shows(self, text: str) -> bool:
        """Whether this reader is sent ``text`` (a hidden author's message is not)."""
        return not self.hidden or author_of(text) not in self.hidden

    async def log(self) -> str:
        """The ``chat_log`` frame sent after each snapshot."""
        def read(s: Session) -> str:
            hidden = chat.hidden_authors(s, self.user_id)
            mode = chat.may_write(s, self.table_id, self.user_id)
            lines = [line.out() for line in chat.history(s, self.table_id, self.user_id)]
            self.hidden = set(hidden)
            return _frame("chat_log", self.table_id, messages=lines, hidden=hidden, may_write=mode)
        return await asyncio.to_thread(run_transaction, self.reads, read)

    async def say(self, text: Any) -> dict[str, Any]:
        """Write a message and publish it to the table (a refusal: nothing stored)."""
        clean = chat.normalise(text)  # bad input refused before it counts or touches the database

        def write(s: Session) -> chat.Line:
            # The rate counted and the message written in one transaction (one
            # commit a message); refused, neither is kept.
            wait = self.rate(s, self.user_id)
            if wait:
                raise chat.ChatError("chat_too_fast", wait=wait)
            return chat.say(s, self.table_id, self.user_id, clean)

        line = await asyncio.to_thread(run_transaction, self.writes, write)
        await self.broadcaster.publish(self.table_id, {SPECTATORS: chat_frame(self.table_id, line)})
        return {"message": line.id}

    async def hide(self, author: Any, hidden: bool) -> dict[str, Any]:
        names = await asyncio.to_thread(run_transaction, self.writes,
                                        lambda s: chat.hide(s, self.user_id, author, hidden))
        self.hidden = set(names)
        return {"hidden": names}

    async def report(self, message_id: int) -> dict[str, Any]:
        await asyncio.to_thread(run_transaction, self.writes,
                                lambda s: chat.report(s, self.table_id, self.user_id, message_id))
        return {"reported": message_id}


async def publish_deleted(broadcaster: Broadcaster, table_id: int, message_id: int) -> None:
    """An admin deleted a message: every reader of its table drops it."""
    await broadcaster.publish(table_id, {SPECTATORS: _frame("chat_deleted", table_id, id=message_id)})


async def publish_muted(broadcaster: Broadcaster, tables: list[int], username: str, until: dt.datetime,
                        message: str) -> None:
    """A mute reaches the muted account at once, at every table listed
    (whichever worker holds his sockets): his page stops offering to write."""
    stamp = until.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    for table_id in tables:
        frame = _frame("chat_muted", table_id, until=stamp, message=message)
        await broadcaster.publish(table_id, {username: frame})
