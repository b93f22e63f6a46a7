"""The commands a table takes, as types: what :meth:`TableActor.submit`
receives, parsed once.

The players' commands are the WebSocket protocol's (docs/protocol.md; the
web layer parses them with :data:`commands` and re-exports them in
``web/protocol.py``); a program driving a seat sends the same models
(docs/architecture.md "The live table"). The others are the runtime's own:
a connection's bookkeeping, the owner's close, the contest director's
wake-ups. :data:`table_commands` reads any of them back from JSON, for a
command carried to the worker owning the table (tables/manager.py).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

# Every number a client sends is bounded (tavern.bounds, docs/web.md "Bad input").
from tavern.bounds import MAX_AMOUNT, Amount, out_of_bounds
from tavern.refusal import Invalid, Refusal


class CommandError(Refusal):
    """A refused command: a catalogue code and its parameters (the player
    is shown the French message, the socket's ``error`` frame carries all three)."""

    @classmethod
    def of(cls, exc: Exception) -> CommandError:
        """Any refusal (an engine's, a service's) as the table's refusal."""
        if isinstance(exc, Refusal):
            return cls(exc.code, **exc.params)
        return cls("refused")


# --- the players' (client → server) -------------------------------------------


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: Amount | None = Field(default=None, description="echoed back in the reply")


class Sit(_Command):
    type: Literal["sit"] = "sit"
    seat: int = Field(ge=0, le=9)
    cave: Amount = Field(gt=0)


class Cave(_Command):
    type: Literal["cave"] = "cave"
    amount: Amount = Field(gt=0)


class Leave(_Command):
    """"Ramasser ses gains"."""

    type: Literal["leave"] = "leave"


class SitOut(_Command):
    """"Se lever"."""

    type: Literal["sit_out"] = "sit_out"


class Post(_Command):
    """Post the big blind at the next deal instead of waiting for it."""

    type: Literal["post"] = "post"


class Sync(_Command):
    """Ask for a snapshot (answered by the connection itself, web/ws.py);
    from the runtime, a round trip through the table's inbox."""

    type: Literal["sync"] = "sync"


class SitIn(_Command):
    type: Literal["sit_in"] = "sit_in"
    post: bool = False


class Auto(_Command):
    type: Literal["auto"] = "auto"
    auto: Literal["check_fold", "check", "call_any", "fold_any"] | None


class Act(_Command):
    type: Literal["act"] = "act"
    action: str = Field(min_length=1, max_length=20)
    seq: Amount | None = None
    args: dict[str, Any] = Field(default_factory=dict)

    @field_validator("args")
    @classmethod
    def _bounded(cls, args: dict[str, Any]) -> dict[str, Any]:
        # Free-form (each game's moves take their own), but no number past the bounds.
        where = out_of_bounds(args)
        if where is not None:
            raise Invalid("less_than_equal", field=f"act.args.{where}", le=MAX_AMOUNT)
        return args


class ClientSeed(_Command):
    """The player's own contribution to the next decks (docs/fairness.md)."""

    type: Literal["client_seed"] = "client_seed"
    seed: str = Field(max_length=64, pattern=r"^[A-Za-z0-9_-]*$")


class WaitJoin(_Command):
    """« Liste d'attente »: take a place in a full table's waiting list (tables/waiting.py)."""

    type: Literal["wait_join"] = "wait_join"


class WaitLeave(_Command):
    type: Literal["wait_leave"] = "wait_leave"


class OfferAccept(_Command):
    """« Prendre la place »: the seat offered, with a cave (None: the table's smallest)."""

    type: Literal["seat_offer_accept"] = "seat_offer_accept"
    cave: Amount | None = Field(default=None, gt=0)


class OfferPass(_Command):
    """« Laisser passer »: the seat offered goes to the next in line."""

    type: Literal["seat_offer_pass"] = "seat_offer_pass"


PlayerCommand = (Sit | Cave | Leave | SitOut | Post | Sync | SitIn | Auto | Act | ClientSeed
                 | WaitJoin | WaitLeave | OfferAccept | OfferPass)
Command = Annotated[PlayerCommand, Field(discriminator="type")]
commands: TypeAdapter[Command] = TypeAdapter(Command)

# --- the runtime's own ----------------------------------------------------------


class Connect(_Command):
    """A socket opened on the table (seated or not)."""

    type: Literal["connect"] = "connect"


class Disconnect(_Command):
    type: Literal["disconnect"] = "disconnect"


class Close(_Command):
    """The owner closes the table (the web layer checked he owns it)."""

    type: Literal["close"] = "close"
    owner_id: int


#: A connection's own bookkeeping: answered quietly even by a closed table.
BOOKKEEPING = (Connect, Disconnect, Sync)

TableCommand = PlayerCommand | Connect | Disconnect | Close
table_commands: TypeAdapter[TableCommand] = TypeAdapter(
    Annotated[TableCommand, Field(discriminator="type")])
