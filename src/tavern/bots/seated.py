"""A house player of the rami family at one seat, with its memory of the deal.

Its own module: it names Gin's player, which builds on the rami family's
(bots/gin.py imports bots/rami.py), so neither of those may hold it.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.bots import rami_read as read
from tavern.bots.gin import gin
from tavern.bots.moves import Move
from tavern.bots.rami import double_rami, rami, remigio
from tavern.games.base import LegalAction


class Seated:
    """A house player of the rami family at one seat: the game's policy with
    that seat's memory of the deal (bots/rami_read.py), fed by each view it
    is shown at its turns."""

    def __init__(self, game: str, level: str) -> None:
        self.level = level
        self.memory = read.Memory(game)
        self.plays = {"rami": rami, "double_rami": double_rami, "remigio": remigio, "gin": gin}[game]

    def __call__(self, view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
        self.memory.observe(view)
        return self.plays(view, legal, rng, self.level, self.memory)
