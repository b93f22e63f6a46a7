"""A seat played by a program: what it is shown, and how it answers.

A socket's player sees his state messages and sends commands; a program
sitting at a table does the same without the JSON. :meth:`TableActor.drive`
gives the seat's name to a :class:`SeatDriver` and returns a
:class:`SeatHandle`: after every publication the driver is shown a
:class:`SeatView` of its seat (what the same player's socket would show),
and it answers through the handle with the very command models a socket
sends (tables/commands.py), refused exactly as a socket's are. While a
program drives a seat, the commands sent for that player from anywhere else
(his own page) are refused (``seat_driven``).

``seen`` is called on the table's own task: it must return at once, and
answer by :meth:`SeatHandle.post` (or a task of its own awaiting
:meth:`SeatHandle.submit`), never by awaiting the table inline.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from tavern.tables.commands import TableCommand


@dataclass(frozen=True)
class SeatView:
    """One seat's state after a publication."""

    name: str
    #: The publication's number: an ``Act`` chosen on this view carries it
    #: (``seq``), so that a move chosen on an older view is refused as stale.
    seq: int
    #: The seat's legal actions now (empty: not his turn, or not dealt in).
    legal: list[dict[str, Any]]
    #: The deal as this player sees it (his own cards, the table's seat
    #: numbers), or None between deals and when not dealt in.
    deal: dict[str, Any] | None
    chips: int
    sitting_out: bool
    #: The table closed: the driver may let go.
    closed: bool


class SeatDriver(Protocol):
    """A program at a seat. It may also declare, as class attributes read with
    :func:`declares` (absent: false): ``socketless`` — its account has no page
    (a house player's cannot log in), so the table builds no state message for
    the seat, only its :class:`SeatView`; ``turns_only`` — it reads the deal
    only when it has legal actions, so the view's ``deal`` is built then only
    (``None`` otherwise); ``deal_ends`` — with ``turns_only``, it is also
    shown the ``deal`` once the deal is over (a poker house player learns
    the hands shown down, issue 37). They spare the table work at every
    publication."""

    def seen(self, view: SeatView) -> None:
        """The seat's new state (see the module's docstring: never blocks)."""
        ...


def declares(driver: SeatDriver, what: str) -> bool:
    """Whether ``driver`` declares ``what`` (``socketless``, ``turns_only``, ``deal_ends``)."""
    return bool(getattr(driver, what, False))


#: How a handle reaches its table: queue ``command`` for ``name`` as sent by ``handle``.
Poster = Callable[[TableCommand, str, int, "SeatHandle"], "asyncio.Future[Any]"]


class SeatHandle:
    """A program's hold on one seat: its commands go through the table's
    inbox in turn with everybody else's."""

    def __init__(self, name: str, user_id: int, driver: SeatDriver, poster: Poster) -> None:
        self.name = name
        self.user_id = user_id
        self.driver = driver
        self._poster = poster

    def post(self, command: TableCommand) -> asyncio.Future[Any]:
        """Queue ``command`` without waiting: the future holds its answer or
        its refusal (:class:`~tavern.tables.actor.CommandError`)."""
        fut = self._poster(command, self.name, self.user_id, self)
        fut.add_done_callback(_retrieved)  # a refusal nobody reads is no "never retrieved"
        return fut

    async def submit(self, command: TableCommand) -> Any:
        """Run ``command`` at the table and return its answer."""
        return await self.post(command)


def _retrieved(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled():
        fut.exception()
