"""A house player with a memory (issue 37): one object per seat, shown its
seat's views, that remembers the other players from deal to deal.

:func:`tavern.bots.policy` is a pure function of one view; a player who
reads his opponents needs what he saw in the earlier deals — what each
did, what each showed down. :class:`HousePlayer` keeps it: it is called
like a policy on its turns (``player(view, legal, rng)``) and shown, with
:meth:`HousePlayer.seen`, the views it is shown between its turns — at
least the deal's end, with the hands shown at showdown (tables/practice.py's
driver declares ``deal_ends`` for it). It never sees more than the seat:
what a spectator sees plus the seat's own cards.

The games whose house player keeps no memory (all but the poker ones,
at « débutant » every game) play their pure policy.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.bots import Policy, policy
from tavern.bots.levels import BEGINNER
from tavern.bots.moves import Move
from tavern.bots.reader import TableReader
from tavern.games.base import LegalAction

#: The games whose house player reads the other players.
READING = ("ramponneau", "draw")


class HousePlayer:
    """A seat's house player (module's docstring)."""

    def __init__(self, game: str, level: str) -> None:
        self.game, self.level = game, level
        self.pure: Policy = policy(game, level)  # also refuses an unknown game or level
        self.reader: TableReader | None = TableReader() if game in READING and level != BEGINNER else None
        self.name: str | None = None

    def __call__(self, view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
        if self.reader is None:
            return self.pure(view, legal, rng)
        self.name = str(view["to_act"])
        self.reader.observe(view, self.name)
        from tavern.bots import poker

        play = poker.draw_poker if self.game == "draw" else poker.holdem
        move = play(view, legal, rng, self.level, self.reader)
        self.reader.acted(view, move)
        return move

    def seen(self, view: dict[str, Any], name: str | None = None) -> None:
        """A view of the seat between its turns (the deal's end above all)."""
        who = name or self.name
        if self.reader is None or who is None or not view.get("players"):
            return
        if view.get("to_act") == who:
            return  # its turn: read when it decides
        self.name = who
        self.reader.observe(view, who)


def house_player(game: str, level: str) -> HousePlayer:
    """The house player of ``game`` at ``level`` for one seat."""
    return HousePlayer(game, level)
