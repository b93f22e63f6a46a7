"""Which module plays which game. Modules are imported on first use."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tavern.games.base import IllegalAction, RecordError, no_bool, record_error
from tavern.games.spec import GameSpec
from tavern.refusal import Invalid

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
    """What the house knows of ``game`` (its module's ``SPEC``)."""
    return load(game).SPEC


def specs() -> dict[str, GameSpec]:
    """Every registered game's spec, in the registry's order."""
    return {name: spec(name) for name in GAMES}


def register(name: str, module: str) -> None:
    """Add a game: its name and the module holding its engine and ``SPEC``
    (the registry line of docs/architecture.md "Adding a game"; tests use it
    for a game of their own)."""
    GAMES[name] = module


class _Seat(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    player: str = Field(min_length=1, max_length=40)
    chips: int = Field(ge=0)
    post: bool = False  #: a poker player posting the big blind to enter


class _Action(BaseModel):
    """Every action names its player and its kind; its arguments are the game's."""

    model_config = ConfigDict(extra="allow", strict=True)

    player: str
    action: str


class HandRecordEnvelope(BaseModel):
    """What every game's record holds (docs/hand-records.md), checked strictly
    before the game reads it: no unknown key, no ``true`` for a number."""

    model_config = ConfigDict(extra="forbid", strict=True)

    format: int = 1
    game: str
    config: dict[str, Any] = {}
    seats: list[_Seat]
    button: int = Field(ge=0)
    deck: list[str]
    reshuffles: list[list[str]] = []
    carry: dict[str, Any] | None = None
    actions: list[_Action] = []
    #: the provably fair shuffle's block (docs/fairness.md), checked by ``tavern verify``
    fair: dict[str, Any] | None = None
    #: the deal's public events as the table told them (docs/hand-records.md)
    story: list[dict[str, Any]] | None = None

    _numbers = field_validator("format", "button", mode="before")(no_bool)

    @field_validator("format")
    @classmethod
    def _format(cls, value: int) -> int:
        if value != 1:
            raise Invalid("record_format", value=value)
        return value

    @field_validator("game")
    @classmethod
    def _game(cls, value: str) -> str:
        if value not in GAMES:
            raise Invalid("unknown_game", game=value)
        return value


def check_record(record: Any) -> HandRecordEnvelope:
    """The record's envelope, or :class:`RecordError` naming the bad field."""
    if not isinstance(record, dict):
        raise RecordError("", "record_not_object")
    try:
        return HandRecordEnvelope.model_validate(record)
    except ValidationError as exc:
        raise record_error(exc) from None


def replay_steps(record: dict[str, Any]) -> Iterator[tuple[Any, dict[str, Any] | None]]:
    """A deal rebuilt from its record, one action at a time: yields the deal
    before the first action, then after each one, with that action — what the
    replayer shows a player step by step (``engine.view(player)``)."""
    check_record(record)
    module = load(record["game"])
    deal = {k: v for k, v in record.items() if k not in ("fair", "story")}
    setup = getattr(module, "replay_setup", None)
    seats, actions = setup(deal) if setup is not None else (deal["seats"], deal.get("actions") or [])
    engine = module.new_deal(deal.get("config") or {}, seats, deal["button"], deck=deal["deck"],
                             reshuffles=deal.get("reshuffles") or [], carry=deal.get("carry"))
    yield engine, None
    for a in actions:
        args = {k: v for k, v in a.items() if k not in ("player", "action")}
        if a["action"] == "protect":  # the table's own intervention (draw poker)
            engine.protect(a["player"])
        else:
            engine.act(a["player"], a["action"], **args)
        yield engine, a


def replay(record: dict[str, Any]) -> dict[str, Any]:
    """Replay a hand record of any game (see ``docs/hand-records.md``)."""
    check_record(record)
    # The "fair" block (docs/fairness.md) belongs to the table, not the game:
    # the engine replays the deck it holds, ``tavern verify`` checks the block.
    deal = {k: v for k, v in record.items() if k not in ("fair", "story")}
    return load(record["game"]).replay(deal)
