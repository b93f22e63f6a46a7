"""Legal actions as offered (``engine.legal_actions``) turned into moves the
engine accepts (``engine.act(player, **move)``).

Each game describes its choices in its own shape: a range (``{"action":
"raise", "min": 4, "max": 1000}``), a list to pick from (``{"action":
"discard", "cards": [...]}``), options (``{"action": "add", "options":
[{"meld": 0, "cards": ["5h"]}]}``) or the move itself (Rams). This module
knows those shapes, so that the policies and the bench's simple players
speak one language: a *move* is ``{"action": name, **args}``.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.games.base import LegalAction

Move = dict[str, Any]


def find(legal: list[LegalAction], *names: str) -> LegalAction | None:
    """The first legal action named one of ``names``, in that order of preference."""
    for name in names:
        for a in legal:
            if a["action"] == name:
                return a
    return None


def sized(a: LegalAction, amount: int) -> Move:
    """A bet or raise of ``amount``, held inside the offered range."""
    return {"action": a["action"], "amount": max(a["min"], min(a["max"], amount))}


def expand(a: LegalAction, rng: random.Random | None = None) -> list[Move]:
    """Every move one offered action stands for (a range: its two ends and,
    with ``rng``, one amount drawn inside it; a draw of poker: standing pat
    only, the random player draws at random with :func:`random_move`)."""
    name = a["action"]
    if "min" in a and "max" in a:
        ends = {a["min"], a["max"]}
        if rng is not None:
            ends.add(rng.randint(a["min"], a["max"]))
        return [{"action": name, "amount": v} for v in sorted(ends)]
    if name == "draw" and "sources" in a:  # rami family: where to draw from
        return [{"action": "draw", "source": s} for s in a["sources"]]
    if name == "draw" and "cards" in a:  # draw poker: which cards to throw
        return [{"action": "draw", "discard": []}]
    if name == "lay" and "melds" in a:
        return [{"action": "lay", "cards": list(m)} for m in a["melds"]]
    if name in ("add",) and "options" in a:
        return [{"action": name, "meld": o["meld"], "cards": list(o["cards"])} for o in a["options"]]
    if name == "move_joker":
        return [{"action": name, "meld": o["meld"], "card": o["card"], "end": e} for o in a["options"] for e in o["ends"]]
    if name == "gin":
        out: list[Move] = [{"action": "gin", "card": c} for c in a["cards"]]
        return out + ([{"action": "gin"}] if a.get("grand") else [])
    if name in ("discard", "knock", "close") and "cards" in a:
        return [{"action": name, "card": c} for c in a["cards"]]
    if name == "call":  # the amount is the engine's to compute, not an argument
        return [{"action": "call"}]
    return [{k: v for k, v in a.items()}]  # the move itself (Rams, Rummoli's plays, fold, check)


def all_moves(legal: list[LegalAction], rng: random.Random | None = None) -> list[Move]:
    return [m for a in legal for m in expand(a, rng)]


def random_move(legal: list[LegalAction], rng: random.Random) -> Move:
    """A random legal move: an offered action at random, then one of its moves
    at random (an amount anywhere in a range, random cards at a draw)."""
    a = rng.choice(legal)
    if a["action"] == "draw" and "cards" in a:
        hand = list(a["cards"])
        return {"action": "draw", "discard": rng.sample(hand, rng.randint(0, min(len(hand), a.get("max", len(hand)))))}
    if "min" in a and "max" in a:
        return {"action": a["action"], "amount": rng.randint(a["min"], a["max"])}
    return rng.choice(expand(a))
