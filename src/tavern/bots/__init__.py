"""The house players (« les joueurs de la maison »): one policy per game.

A policy sees what a seat sees and nothing more — the seat's view as the
engine builds it for that seat (``engine.view(player)``), its legal actions
(``engine.legal_actions(player)``) and a seeded :class:`random.Random` — and
returns one move the engine accepts, ``{"action": name, **args}`` (what the
table takes from a player's command). It never reads the engine's state, so
it cannot know the other hands, the stock or the widow (tests/bots checks
it by changing them).

Two levels, named in French: « débutant » makes human mistakes (slips,
ignores the price of a call, keeps bad cards), « habitué » plays well.
docs/bots.md says how each game's policy decides.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tavern.bots.levels import BEGINNER, LEVELS
from tavern.bots.moves import Move
from tavern.games.base import IllegalAction, LegalAction

__all__ = ["LEVELS", "Move", "Policy", "decide", "player_of", "policy"]


#: ``policy(view, legal, rng) -> move``.
Policy = Callable[[dict[str, Any], list[LegalAction], random.Random], Move]
_Play = Callable[[dict[str, Any], list[LegalAction], random.Random, str], Move]


def _games() -> dict[str, _Play]:
    # Imported on first use, as the registry imports the engines.
    from tavern.bots import gin, poker, rami, rams, rummoli

    return {
        "ramponneau": poker.holdem,
        "draw": poker.draw_poker,
        "rami": rami.rami,
        "double_rami": rami.double_rami,
        "remigio": rami.remigio,
        "gin": gin.gin,
        "rummoli": rummoli.rummoli,
        "rams": rams.rams,
    }


def _seated(game: str, level: str) -> Policy | None:
    """The rami family's players remember the deal at their seat (bots/rami_read.py): one memory a policy."""
    if game in ("rami", "double_rami", "remigio", "gin") and level != BEGINNER:
        from tavern.bots.seated import Seated

        return Seated(game, level)
    return None


def policy(game: str, level: str) -> Policy:
    """The house player of ``game`` at ``level``; a refusal for an unknown game or level."""
    plays = _games().get(game)
    if plays is None:
        raise IllegalAction("unknown_game", game=game)
    if level not in LEVELS:
        raise IllegalAction("bot_level", level=level, choices=list(LEVELS))

    seated = _seated(game, level)

    def decide_one(view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
        if not legal:
            raise IllegalAction("not_your_turn")
        if seated is not None:
            return seated(view, legal, rng)
        return plays(view, legal, rng, level)

    return decide_one


def decide(game: str, level: str, view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
    """One decision: :func:`policy` applied once."""
    return policy(game, level)(view, legal, rng)


def player_of(view: dict[str, Any]) -> str:
    """Whose view this is when he must act (every game's view names who acts)."""
    who = view["to_act"]
    return str(who if isinstance(who, str) else who[0])
