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
#: (config, seats, button, *, deck, rng, reshuffles, carry) → a deal (games/base.py's ``new_deal``).
NewDeal = Callable[..., Any]
#: (config, number of players) → cards: the unshuffled deck, or each pack shuffled apart.
DeckComposition = Callable[[dict[str, Any], int], list[str]]
DeckPacks = Callable[[dict[str, Any], int], list[list[str]]]
#: The record's deal → (seats ``new_deal`` takes, actions left to apply).
ReplaySetup = Callable[[dict[str, Any]], tuple[list[dict[str, Any]], list[dict[str, Any]]]]

#: What every game's finished deal shows everybody (the result panel):
#: never the record's deck or the mucked cards.
PUBLIC_RESULT = ("chips", "delta", "pots", "rake", "shown", "scores", "winner", "winners", "ending")
#: The recorded action that is the table's own intervention, not a player's
#: decision (draw poker's disconnection protection; docs/hand-records.md).
PROTECT = "protect"


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
    """Everything the house asks of one game: its facts and its engine's
    entry points (games/base.py), so nothing outside the game's package
    finds a function by name."""

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
    #: The table makes a disconnected player all-in (draw poker's
    #: protection, through ``protect``).
    disconnect_protection: bool = False
    #: Which result panel and felt the table page draws (the page's module:
    #: ``VIEWS`` in static/table.js; "generic" draws any game).
    view: str = "generic"
    #: A new deal (games/base.py ``new_deal``).
    new_deal: NewDeal = field(kw_only=True)
    #: What a replay of a deal reports once its actions are applied.
    replay_output: Callable[[Any], Mapping[str, Any]] = field(kw_only=True)
    #: The unshuffled cards a deal uses (deck items, ``tavern verify``).
    deck_composition: DeckComposition = field(kw_only=True)
    #: Each pack in the order shuffled, when a deal shuffles several apart
    #: (Gin); None: the one ``deck_composition``.
    deck_packs: DeckPacks | None = field(default=None, kw_only=True)
    #: The replay's set-up when some recorded actions are the table's hand-in
    #: (poker's posts to enter); None: the record's seats and actions as they are.
    replay_setup: ReplaySetup | None = field(default=None, kw_only=True)
    #: Make a player all-in, the table's intervention recorded as a
    #: ``"protect"`` action (both poker engines can; only draw poker's table
    #: does, ``disconnect_protection``); None: the game's records hold none.
    protect: Callable[[Any, str], object] | None = field(default=None, kw_only=True)
    #: The result's keys that tell this game's story in the result panel,
    #: beside :data:`PUBLIC_RESULT` ("scoring", "tricks", "outcome").
    result_story: tuple[str, ...] = field(default=(), kw_only=True)

    def default_seats(self) -> int:
        lo, hi = self.seats
        return self.usual_seats if self.usual_seats is not None else max(lo, min(hi, 6))

    @property
    def min_players(self) -> int:
        return self.seats[0]

    def packs(self, config: dict[str, Any], n_players: int) -> list[list[str]]:
        """The packs a deal shuffles, each in the order shuffled (fair.py)."""
        if self.deck_packs is not None:
            return [list(p) for p in self.deck_packs(config, n_players)]
        return [list(self.deck_composition(config, n_players))]

    def replay_act(self, engine: Any, action: Mapping[str, Any]) -> None:
        """Apply one recorded action: a player's move, or the table's own
        intervention (:data:`PROTECT`) where the game has one."""
        if action["action"] == PROTECT and self.protect is not None:
            self.protect(engine, action["player"])
            return
        args = {k: v for k, v in action.items() if k not in ("player", "action")}
        engine.act(action["player"], action["action"], **args)

    def public_result(self, result: Mapping[str, Any]) -> dict[str, Any]:
        """What everybody may see of a finished deal: chips, pots, shown
        hands and this game's story — never the record's deck or the mucked cards."""
        return {k: result[k] for k in (*PUBLIC_RESULT, *self.result_story) if k in result}
