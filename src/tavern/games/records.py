"""The hand record: one model, one builder (docs/hand-records.md).

Every game's engine writes its record with :func:`hand_record`, the table adds
what belongs to it (the fair block, the deal's story) with
:meth:`HandRecord.with_table`, and :func:`tavern.games.registry.replay` reads
any of them back through :func:`tavern.games.registry.check_record`. The envelope is the same for
every game: what differs between games lives inside ``config``, ``carry`` and
the actions' arguments, which each engine validates with its own models when
it is built from the record (a Gin sheet in column 7 is refused by Gin's carry
model, not here) — so one envelope model serves every game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tavern.games.base import no_bool
from tavern.refusal import Invalid

#: The keys written only when they hold something (docs/hand-records.md:
#: ``carry`` "absent/null", ``fair`` and ``story`` "present in the records the
#: tables archive").
_OPTIONAL = ("carry", "fair", "story")


class RecordSeat(BaseModel):
    """A player dealt in, with his chips at the start of the deal."""

    model_config = ConfigDict(extra="forbid", strict=True)

    player: str = Field(min_length=1, max_length=40)
    chips: int = Field(ge=0)
    #: A poker player posting the big blind to enter: what the table hands the
    #: engine; the poker record writes it as a ``post`` action instead.
    post: bool = False


class RecordAction(BaseModel):
    """Every action names its player and its kind; its arguments are the game's."""

    model_config = ConfigDict(extra="allow", strict=True)

    player: str
    action: str


class HandRecord(BaseModel):
    """A deal's record (docs/hand-records.md), checked strictly: no unknown
    key, no ``true`` for a number. (That its game is registered is checked
    by :func:`tavern.games.registry.check_record`, which reads records: the
    games write them and never import the registry.)"""

    model_config = ConfigDict(extra="forbid", strict=True)

    format: int = 1
    game: str
    config: dict[str, Any] = {}
    seats: list[RecordSeat]
    button: int = Field(ge=0)
    deck: list[str]
    reshuffles: list[list[str]] = []
    carry: dict[str, Any] | None = None
    actions: list[RecordAction] = []
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

    def with_table(self, *, fair: Mapping[str, Any] | None = None,
                   story: Iterable[Mapping[str, Any]] | None = None) -> HandRecord:
        """The record the table archives: the engine's, with the fair block
        and the deal's story."""
        return self.model_copy(update={"fair": None if fair is None else dict(fair),
                                       "story": None if story is None else [dict(e) for e in story]})

    def dump(self) -> dict[str, Any]:
        """The JSON object docs/hand-records.md documents (fresh lists and
        dicts: the caller may keep it while the deal goes on)."""
        out = self.model_dump(exclude={"seats", *_OPTIONAL})
        # A seat's ``post`` is written only when set (the table's hand-in).
        out["seats"] = [s.model_dump(exclude_defaults=True) for s in self.seats]
        for key in _OPTIONAL:
            value = getattr(self, key)
            if value is not None:
                out[key] = self.model_dump(include={key})[key]
        # The documented order of the keys.
        order = ("format", "game", "config", "seats", "button", "deck", "reshuffles", "carry",
                 "actions", "fair", "story")
        return {k: out[k] for k in order if k in out}

    def deal(self) -> dict[str, Any]:
        """What the engine replays: the record without the table's parts."""
        out = self.dump()
        out.pop("fair", None)
        out.pop("story", None)
        return out


def hand_record(*, game: str, config: Mapping[str, Any], seats: Iterable[Mapping[str, Any]], button: int,
                deck: Iterable[str], actions: Iterable[Mapping[str, Any]],
                reshuffles: Iterable[Iterable[str]] = (), carry: Mapping[str, Any] | None = None,
                fair: Mapping[str, Any] | None = None,
                story: Iterable[Mapping[str, Any]] | None = None) -> HandRecord:
    """The one way a record is made, by every engine's ``record()`` (and the
    table through :meth:`HandRecord.with_table`)."""
    return HandRecord.model_validate({
        "format": 1, "game": game, "config": dict(config), "seats": [dict(s) for s in seats],
        "button": button, "deck": list(deck), "reshuffles": [list(r) for r in reshuffles],
        "carry": None if carry is None else dict(carry), "actions": [dict(a) for a in actions],
        "fair": None if fair is None else dict(fair),
        "story": None if story is None else [dict(e) for e in story],
    })
