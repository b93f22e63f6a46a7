"""What the house needs to know about a game, in one declaration.

Each game's package declares one :class:`GameSpec` (``SPEC``), registered in
:mod:`tavern.games.registry`; the table runtime, the closing of a table, the
owner's form and the pages ask it and never test a game's name. (As
scalachess describes each chess variant in one ``Variant`` object.) Adding a
game is one package with its engine and its ``SPEC``, and one line in the
registry: docs/architecture.md "Adding a game".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from tavern.cards import RandomSource

#: (carry, players in dealing order from the dealer, table options, rng) →
#: ({player: chips}, how): a game's own way to share the chips it carries
#: when its table closes (None: shared equally).
CarryShare = Callable[[dict[str, Any] | None, list[str], Mapping[str, Any], RandomSource | None],
                      tuple[dict[str, int], dict[str, Any]]]


@dataclass(frozen=True)
class TableTerms:
    """The owner's choices that reach the engine: stakes, options, variant, rake."""

    stakes: Mapping[str, Any]
    options: Mapping[str, Any] = field(default_factory=dict)
    variant: str = ""
    rake_percent: int = 0
    rake_cap: int | None = None
    no_flop_no_drop: bool = True


def plain_config(terms: TableTerms) -> dict[str, Any]:
    """Most games: the options and the stakes are the engine's config."""
    return {**terms.options, **terms.stakes}


@dataclass(frozen=True)
class GameSpec:
    #: The registry's name, stored with every table and record.
    name: str
    #: The French name players read.
    label: str
    #: Where RULES.md tells this game (an anchor of the rules page).
    rules: str
    #: Smallest and largest number of players.
    seats: tuple[int, int]
    #: Deck kind an owner must hold in his tavern to open a table.
    deck_kind: str
    #: Stakes the owner must give, each a whole number of chips above 0.
    stakes: tuple[str, ...]
    #: The cave's reference stake (the "big blind" of RULES.md "Cave").
    cave_unit: Callable[[Mapping[str, int]], int]
    #: Decks of ``deck_kind`` a table of n seats with these options uses.
    decks: Callable[[int, Mapping[str, Any]], int] = field(default=lambda n, options: 1)
    #: The table's seats when the owner says nothing (None: six, within ``seats``).
    usual_seats: int | None = None
    #: Betting structures the owner may pick as the table's variant ("" = none).
    variants: tuple[str, ...] = ("",)
    #: A newcomer owes the big blind to enter (poker), else dealt in at once.
    blinds: bool = False
    #: Play and the deal pass to the right (Rams), else to the left.
    turns_right: bool = False
    #: A disconnected player is made all-in (draw poker's protection).
    disconnect_protection: bool = False
    #: The table's terms as the engine's config.
    engine_config: Callable[[TableTerms], dict[str, Any]] = plain_config
    #: The engine's config model. A table's options are the fields of it that
    #: its other terms (stakes, variant, rake) do not set, checked against it
    #: when the table opens (services/taverns.py); None: the game has no option.
    config: type[BaseModel] | None = None
    #: Extra checks of the stakes (an error message, or None).
    check_stakes: Callable[[Mapping[str, Any]], str | None] = field(default=lambda stakes: None)
    #: How the carried chips are shared when the table closes (None: equally).
    share_carry: CarryShare | None = None
    #: The chips a carry holds over to the next deal (None: it holds none).
    carried_chips: Callable[[dict[str, Any] | None], int] | None = None
    #: Which result panel and felt the table page draws (static/table.js).
    view: str = "generic"

    def default_seats(self) -> int:
        lo, hi = self.seats
        return self.usual_seats if self.usual_seats is not None else max(lo, min(hi, 6))

    @property
    def min_players(self) -> int:
        return self.seats[0]
