"""What kind of table an actor runs: the hooks a :class:`TableActor` calls
where tables differ, composed into it rather than overridden.

A cash table runs :class:`CashPolicy` (no hook does anything); a contest
table runs the contest's (contests/table.py): stakes from the director's
level at each deal, time-outs that never sit a player out, no cave, no seat
to take or leave, and the director's own commands.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from pydantic import BaseModel

from tavern.tables.bank import SqlBank, TableInfo
from tavern.tables.seating import SeatState


class PolicyTable(Protocol):
    """What a policy's hooks may touch of their table (the actor)."""

    info: TableInfo
    bank: SqlBank
    seats: dict[int, SeatState]
    dealt: dict[str, SeatState]
    button_seat: int | None
    closed: bool

    async def end(self, summary: dict[str, Any], players: list[str]) -> None:
        """Close the table for good, telling ``players`` and the spectators."""
        ...

    async def notify(self, name: str, kind: str, notice: dict[str, Any]) -> None:
        """A message of its own to one player."""
        ...


#: A command's handler: the table, the command, the player who sent it (None:
#: the runtime), his user id.
Handler = Callable[[PolicyTable, Any, Any, int], Awaitable[Any]]


class TablePolicy(Protocol):
    #: Whether three time-outs in a row sit a player out (a cash table's
    #: rule), and whether a time-out is explained to him.
    timeouts_sit_out: bool

    def refusal(self, command: BaseModel) -> str | None:
        """The catalogue code refusing ``command`` at this kind of table, or None."""
        ...

    def commands(self) -> Mapping[type[BaseModel], Handler]:
        """Commands of this kind of table beside the players' (a director's)."""
        ...

    def started(self, actor: PolicyTable) -> None:
        """The table's seats are loaded, its loop not yet running."""
        ...

    async def before_deal(self, actor: PolicyTable) -> None:
        """A deal is about to be chosen (its players, its stakes)."""
        ...

    async def deal_ended(self, actor: PolicyTable, started: list[tuple[str, int]]) -> None:
        """A deal was settled: ``started``, its players and their chips
        before it, from the button's left (their seats hold the chips after)."""
        ...

    def dress(self, table: dict[str, Any]) -> None:
        """Add this kind of table's own keys to the public table."""
        ...


class CashPolicy:
    """An ordinary table of a tavern: the actor's own rules, nothing more."""

    timeouts_sit_out = True

    def refusal(self, command: BaseModel) -> str | None:
        return None

    def commands(self) -> Mapping[type[BaseModel], Handler]:
        return {}

    def started(self, actor: PolicyTable) -> None:
        return None

    async def before_deal(self, actor: PolicyTable) -> None:
        return None

    async def deal_ended(self, actor: PolicyTable, started: list[tuple[str, int]]) -> None:
        return None

    def dress(self, table: dict[str, Any]) -> None:
        return None
