"""The table protocol as types (docs/protocol.md): one model per command a
client sends, one per message the server sends, each a member of a
discriminated union on ``type``. Commands are parsed once (web/ws.py);
the messages are built by the table runtime and checked against these
models by the tests (tests/web/test_protocol.py), which also hold
docs/protocol.md to their JSON Schema.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from tavern.bounds import Amount

# --- client → server ---------------------------------------------------------------
# The commands are the table's own types (tables/commands.py: the actor
# takes them as they are parsed here), named again for the protocol.
from tavern.tables.commands import (
    Act,
    Auto,
    Cave,
    ClientSeed,
    Leave,
    PlayerCommand,
    Post,
    Sit,
    SitIn,
    SitOut,
    Sync,
)


class _ChatCommand(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Amount | None = Field(default=None, description="echoed back in the reply")


class ChatSay(_ChatCommand):
    """A message in the table's chat (services/chat.py checks it: 300 characters, no control character)."""

    type: Literal["chat_say"]
    text: str


class ChatHide(_ChatCommand):
    """Hide (``hide: false``: show again) an author's messages, for yourself only."""

    type: Literal["chat_hide"]
    author: str = Field(max_length=40)
    hide: bool = True


class ChatReport(_ChatCommand):
    """Report a message of this table to the admins."""

    type: Literal["chat_report"]
    message: Amount = Field(ge=1)


class Ping(BaseModel):
    """Is this socket's server alive? Answered ``pong`` by the socket's own
    worker, behind the frames already queued, without the table: a page that
    has heard nothing for a while asks, and reconnects when no answer comes
    (a worker stopped or frozen keeps its sockets open and silent: issue 38)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["ping"]
    id: Amount | None = Field(default=None, description="echoed back in the pong")


#: What a socket may send: the table's commands (the actor's) and the chat's
#: (the socket's chat desk: tables/chat.py), parsed once.
Command = Annotated[PlayerCommand | ChatSay | ChatHide | ChatReport | Ping, Field(discriminator="type")]
commands: TypeAdapter[Command] = TypeAdapter(Command)

__all__ = [
    "COMMAND_TYPES",
    "MESSAGE_TYPES",
    "Act",
    "Auto",
    "Cave",
    "ChatHide",
    "ChatReport",
    "ChatSay",
    "ClientSeed",
    "Command",
    "Leave",
    "Message",
    "Post",
    "Sit",
    "SitIn",
    "SitOut",
    "Sync",
    "commands",
    "messages",
]

# --- server → client ---------------------------------------------------------------


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class State(_Message):
    """The whole table as this recipient may see it."""

    type: Literal["state"]
    seq: int
    #: The owner's fence (issue 38 §2): frames are ordered by (epoch, seq),
    #: so a new owner's frames are never taken for stale ones.
    epoch: int
    #: The public table; its settings and fair commitments (publication.HELD)
    #: only when they changed since the publication ``table_at`` (a snapshot: always).
    table: dict[str, Any]
    table_at: int
    deal: dict[str, Any] | None
    #: What only this player sees, to lay over ``deal`` (the public view):
    #: ``[path, value]`` pairs (games.base.Own). Absent: ``deal`` is his view.
    own: list[tuple[list[str | int], Any]] | None = None
    #: Absent when unchanged since the publication ``result_at`` (so is ``fair``).
    last_result: dict[str, Any] | None = None
    result_at: int
    story_at: int
    story: list[dict[str, Any]]
    you: dict[str, Any] | None = None
    #: With ``you``: the publication that last carried its daily hands and client seed.
    you_at: int | None = None
    fair: dict[str, Any] | None = None
    #: A player in the table's waiting list: his place and the seat offered to him.
    waiting: dict[str, Any] | None = None


class Ok(_Message):
    type: Literal["ok"]
    id: int | None
    result: dict[str, Any]


class Pong(_Message):
    """The answer to ``ping``: the socket's server is alive."""

    type: Literal["pong"]
    id: int | None


class Error(_Message):
    """A refused command: the catalogue's code, its French message and its
    parameters (tavern.catalogue)."""

    type: Literal["error"]
    id: int | None
    code: str
    message: str
    params: dict[str, Any]


class Closed(_Message):
    """The table has closed: what each player was paid."""

    type: Literal["closed"]
    seq: int
    table_id: int
    closed: Literal[True]
    awards: dict[str, int]
    ecus: dict[str, int]
    method: str | None = None
    winners: list[str] | None = None
    contest_id: int | None = None
    #: A practice table, closed because its player left it (or was gone past the grace).
    practice: bool | None = None


class Contest(_Message):
    """The contest director's word to one player."""

    type: Literal["contest"]
    seq: int
    table_id: int
    event: Literal["moved", "out", "won"]
    contest_id: int
    to_table: int | None = None
    place: int | None = None


class ChatLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: int
    author: str
    text: str
    at: str  #: UTC, ``2026-11-27T07:30:00Z``


class Chat(ChatLine):
    """A new message of the table's chat, the same for every reader."""

    type: Literal["chat"]
    table_id: int


class ChatLog(_Message):
    """The chat's part of a snapshot, sent right after each ``state`` snapshot."""

    type: Literal["chat_log"]
    table_id: int
    messages: list[ChatLine]
    hidden: list[str]
    may_write: bool


class ChatDeleted(_Message):
    type: Literal["chat_deleted"]
    table_id: int
    id: int


class ChatMuted(_Message):
    """To a muted account, at every table it has open."""

    type: Literal["chat_muted"]
    table_id: int
    until: str
    message: str


Message = Annotated[State | Ok | Pong | Error | Closed | Contest | Chat | ChatLog | ChatDeleted | ChatMuted,
                    Field(discriminator="type")]
messages: TypeAdapter[Message] = TypeAdapter(Message)

#: Every command and message type, for the documentation check.
COMMAND_TYPES = ("sit", "cave", "leave", "sit_out", "post", "sync", "sit_in", "auto", "act", "client_seed",
                 "wait_join", "wait_leave", "seat_offer_accept", "seat_offer_pass",
                 "chat_say", "chat_hide", "chat_report", "ping")
MESSAGE_TYPES = ("state", "ok", "pong", "error", "closed", "contest", "chat", "chat_log", "chat_deleted", "chat_muted")
