"""Validated configs of the poker games (checked once, at ``new_deal``).

The engines then copy the few numbers they need into plain attributes: no
pydantic inside the betting loop.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tavern.games.base import no_bool, record_error
from tavern.games.poker.betting import Rake
from tavern.refusal import Invalid


class RakeConfig(BaseModel):
    """``percent`` of every pot (an int, or a decimal such as ``2.5`` or
    ``"2.5"``), rounded down, at most ``cap`` chips a pot (``null``: no cap).
    ``no_flop_no_drop``: no rake on a deal that ends in its first betting
    round (before the flop; at draw poker, before the first draw)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    percent: int | float | str = 0
    cap: int | None = Field(default=None, ge=0)
    no_flop_no_drop: bool = True

    @field_validator("percent")
    @classmethod
    def _percent(cls, v: Any) -> Any:
        try:
            f = Fraction(str(v))
        except (ValueError, ZeroDivisionError):
            raise Invalid("rake_not_a_number") from None
        if not 0 <= f <= 100:
            raise Invalid("rake_range", maximum=100)
        return v

    def make(self) -> Rake:
        return Rake(self.percent, self.cap, self.no_flop_no_drop)


class RamponneauConfig(BaseModel):
    """No-limit hold'em: the two blinds, the ante (a contest's later levels:
    every player dealt in puts it in the pot before the blinds; 0 at cash
    tables) and the rake."""

    model_config = ConfigDict(extra="forbid", strict=True)

    small_blind: int = Field(ge=0)
    big_blind: int = Field(ge=1)
    ante: int = Field(default=0, ge=0)
    rake: RakeConfig = Field(default_factory=RakeConfig)

    @model_validator(mode="after")
    def _blinds(self) -> RamponneauConfig:
        if self.small_blind > self.big_blind:
            raise Invalid("small_blind_above_big_blind")
        return self


class DrawConfig(BaseModel):
    """Five-card draw: the big blind is the small bet (fixed limit: the big
    bet is twice it); the small blind is half of it, rounded down."""

    model_config = ConfigDict(extra="forbid", strict=True)

    big_blind: int = Field(ge=1)
    small_blind: int | None = None
    structure: Literal["fixed-limit", "pot-limit", "no-limit"] = "fixed-limit"
    draws: Literal[1, 2] = 1

    _no_bool_draws = field_validator("draws", mode="before")(no_bool)
    rake: RakeConfig = Field(default_factory=lambda: RakeConfig(no_flop_no_drop=False))

    @model_validator(mode="after")
    def _blinds(self) -> DrawConfig:
        # "No flop, no drop" is a hold'em default: at draw poker it is off
        # unless the owner asks for it (no rake before the first draw).
        if "no_flop_no_drop" not in self.rake.model_fields_set:
            self.rake.no_flop_no_drop = False
        half = self.big_blind // 2
        if self.small_blind is None:
            self.small_blind = half
        elif self.small_blind != half:
            raise Invalid("draw_small_blind_half", half=half)
        return self


_CACHE: dict[tuple[type, str], tuple[Any, dict[str, Any], Rake]] = {}
_LAST: dict[type, tuple[Any, Any, tuple[Any, dict[str, Any], Rake]]] = {}


def validate(model: type[BaseModel], config: Any, game: str) -> tuple[Any, dict[str, Any], Rake]:
    """The validated config, its JSON form and its rake. A table deals
    thousands of hands with the same config: validation is remembered by
    value (the three are never mutated)."""
    last = _LAST.get(model)
    if last is not None and last[0] is config and last[1] == config:
        return last[2]  # the same dict as last deal, unchanged
    key = (model, repr(config))
    hit = _CACHE.get(key)
    if hit is not None:
        _LAST[model] = (config, copy.deepcopy(config), hit)
        return hit
    try:
        cfg = model.model_validate(config)
    except ValidationError as exc:
        raise record_error(exc, "config") from None
    if len(_CACHE) > 256:
        _CACHE.clear()
    dumped = cfg.model_dump()
    if dumped.get("ante") == 0:  # records without antes stay as they were
        dumped.pop("ante")
    hit = _CACHE[key] = (cfg, dumped, cfg.rake.make())  # type: ignore[attr-defined]  # both configs' rake is a RakeConfig
    return hit
