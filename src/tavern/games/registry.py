"""Which module plays which game. Modules are imported on first use."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from pydantic import ValidationError

from tavern.games.base import IllegalAction, RecordError, in_action, record_error
from tavern.games.records import HandRecord
from tavern.games.spec import GameSpec

__all__ = ["GAMES", "HandRecord", "check_record", "load", "register", "replay", "replay_steps", "seen_steps", "spec",
           "specs"]

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
        raise IllegalAction("unknown_game", game=game) from None


def spec(game: str) -> GameSpec:
    """What the house knows of ``game`` (its module's ``SPEC``): the one name
    the registry reads in a game's module; everything else is on the spec."""
    found = load(game).SPEC
    if not isinstance(found, GameSpec):  # a module that is not a game
        raise TypeError(f"{GAMES[game]}.SPEC is not a GameSpec")
    return found


def specs() -> dict[str, GameSpec]:
    """Every registered game's spec, in the registry's order."""
    return {name: spec(name) for name in GAMES}


def register(name: str, module: str) -> None:
    """Add a game: its name and the module holding its engine and ``SPEC``
    (the registry line of docs/architecture.md "Adding a game"; tests use it
    for a game of their own)."""
    GAMES[name] = module


def check_record(record: Any) -> HandRecord:
    """The record as a :class:`HandRecord` of a registered game, or
    :class:`RecordError` naming the bad field."""
    if not isinstance(record, dict):
        raise RecordError("", "record_not_object")
    try:
        checked = HandRecord.model_validate(record)
    except ValidationError as exc:
        raise record_error(exc) from None
    if checked.game not in GAMES:
        raise RecordError("game", "unknown_game", game=checked.game)
    return checked


def replay_steps(record: Any, mark: Callable[[dict[str, Any]], dict[str, Any]] | None = None
                 ) -> Iterator[tuple[Any, dict[str, Any] | None]]:
    """A deal rebuilt from its record, one action at a time: yields the deal
    before the first action, then after each one, with that action — what the
    replayer shows a player step by step (``engine.view(player)``) and what
    :func:`replay` runs to the end. The one replay loop of every game: the
    game's spec gives its ``new_deal``, its ``replay_setup`` when it has one
    (poker: the posts to enter become the seats' flags) and applies each
    action (:meth:`GameSpec.replay_act`: a move, or the table's protection).

    A refusal names the action counted from 1 in the record's ``actions``,
    with its player and kind (docs/hand-records.md). ``mark``: the deal
    handed in changed first (``fair_cards.seen_positions`` tags its cards
    with their positions)."""
    deal = check_record(record).deal()
    if mark is not None:
        deal = mark(deal)
    game = spec(deal["game"])
    setup = game.replay_setup
    seats, actions = setup(deal) if setup is not None else (deal["seats"], deal["actions"])
    skip = len(deal["actions"]) - len(actions)  # the actions the setup took in
    engine = game.new_deal(deal["config"], seats, deal["button"], deck=deal["deck"],
                           reshuffles=deal["reshuffles"], carry=deal.get("carry"))
    yield engine, None
    for k, a in enumerate(actions, start=skip):
        try:
            game.replay_act(engine, a)
        except IllegalAction as exc:
            if isinstance(exc, RecordError):
                raise
            raise in_action(k, a["player"], a["action"], exc) from None
        yield engine, a


def seen_steps(record: Any, player: str) -> Iterator[dict[str, Any]]:
    """The deal of ``record`` step by step as ``player`` saw it at the table
    (the replayer of « Mes donnes »): before the first action, then after
    each one, the action as he saw it (``engine.seen``: another's discards
    or face-down cards only counted) and his own view (``engine.view``: no
    card hidden from him at that moment). The one place a record is cut
    down for one player; the whole record stays with the admins and
    ``tavern replay``/``tavern verify``."""
    for engine, action in replay_steps(record):
        # Copied: a view may share lists with the deal, which the next action changes.
        yield {"action": None if action is None else engine.seen(action, player),
               "view": copy.deepcopy(engine.view(player))}


def replay(record: Any) -> dict[str, Any]:
    """Replay a hand record of any game (docs/hand-records.md): the deal
    rebuilt and played to the last recorded action, then the game's own
    account of it (its spec's ``replay_output``). The record's ``fair``
    block and ``story`` belong to the table: the engine replays the deck the
    record holds, ``tavern verify`` checks the block."""
    engine = None
    for step in replay_steps(record):
        engine = step[0]  # the same deal, one action further
    assert engine is not None
    return dict(spec(engine.game).replay_output(engine))
