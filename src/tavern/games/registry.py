"""Which module plays which game. Modules are imported on first use."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from tavern.games.base import IllegalAction

GAMES: dict[str, str] = {
    "ramponneau": "tavern.games.poker.ramponneau",
    "draw": "tavern.games.poker.draw",
    "rami": "tavern.games.rami.francais",
    "double_rami": "tavern.games.rami.double",
    "remigio": "tavern.games.rami.remigio",
    "gin": "tavern.games.rami.gin",
    "rummoli": "tavern.games.rummoli",
    "rams": "tavern.games.rams",
}


def load(game: str) -> ModuleType:
    try:
        return importlib.import_module(GAMES[game])
    except KeyError:
        raise IllegalAction(f"unknown game {game!r}; known: {', '.join(sorted(GAMES))}") from None


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a hand record of any game (see ``docs/hand-records.md``)."""
    if not isinstance(record, dict) or "game" not in record:
        raise IllegalAction("a hand record is a JSON object with a 'game' field")
    if record.get("format", 1) != 1:
        raise IllegalAction(f"unsupported hand record format {record.get('format')!r}")
    # The "fair" block (docs/fairness.md) belongs to the table, not the game:
    # the engine replays the deck it holds, ``tavern verify`` checks the block.
    deal = {k: v for k, v in record.items() if k != "fair"}
    return load(record["game"]).replay(deal)
