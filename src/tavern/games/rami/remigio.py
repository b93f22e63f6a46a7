"""Remigio (game ``remigio``): the Spanish rami where nothing is laid until a
player closes with his ten cards in combinations.

Rules: ``RULES.md`` § Rami family, "Remigio", and ``rules/rami.fr.txt``
("REMIGIO"). Melds come from the family's meld machinery
(:mod:`tavern.games.rami.melds`): runs (the ace after the king or before the
2, not around the corner), sets, jokers wild and worth 20.

Actions (see ``docs/records/rami.md``): ``draw`` (``source``: ``"stock"`` or
``"discard"``; once the stock is exhausted only ``"discard"``), then
``discard`` (``card``) or ``close`` (``card``: the discard; the ten cards kept
must all form combinations — sets and runs, or a "couleur", or an "escalera").

The others pay the closer the points of the cards left out of their best
combinations, times the closer's multiplier (×6 escalera without joker, ×5
escalera with joker, ×4 couleur without joker, ×3 couleur with joker, ×2
combinations without joker, ×1 combinations with a joker), times the table's
chips per point.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from tavern.cards import deck
from tavern.games.base import Event, IllegalAction, LegalAction, RecordError
from tavern.games.rami import melds
from tavern.games.rami.common import (
    DrawDiscardDeal,
    deal_from_left,
    deck_order_for,
    settle,
)
from tavern.games.rami.common import (
    replay_output as replay_output,  # this game's replay account (SPEC.replay_output)
)
from tavern.games.setup import Carry, Deck, Options, Reshuffles, Rng, Seats, check_count, check_seats, parse_config
from tavern.games.spec import GameSpec

GAME = "remigio"
#: Two to twelve players (RULES.md "Remigio"): said here once, for the
#: spec, the deck and the seats.
SEATS = (2, 12)
HAND = 10


class RemigioConfig(BaseModel):
    """Table options of Remigio."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: Chips per point.
    unit: int = Field(1, ge=0)
    #: "Deux à cinq joueurs peuvent également jouer au Remigio avec deux jeux de 54 cartes."
    two_decks: bool = False
    #: Ruling: the source keeps the Rami's values ("Les règles de base sont celles
    #: du Rami"), so the ace counts 1 even though it may follow the king.
    ace_points: int = Field(1, ge=0)
    #: Ruling: after the stock is exhausted the deal goes on by forced pick-up
    #: for at most this many rounds; if nobody closes, the deal is void.
    rounds_after_stock: int = Field(5, ge=1)


def meld_rules(cfg: RemigioConfig) -> melds.MeldRules:
    # "les séquences, l'as pouvant suivre le 2 aussi bien que le roi"
    return melds.MeldRules(ace_low=True, ace_high=True, jokers=True, ace_points=cfg.ace_points,
                           joker_points=20)


def decks_for(n_players: int, two_decks: bool) -> int:
    """"trois jeux de cartes pour six à huit joueurs, et quatre jeux pour neuf à douze"."""
    check_count(n_players, GAME, SEATS)
    if n_players <= 5:
        return 2 if two_decks else 1
    return 3 if n_players <= 8 else 4


def composition(n_players: int, two_decks: bool) -> list[str]:
    n = decks_for(n_players, two_decks)
    return deck(decks=n, jokers=2 * n)  # each 54-card deck brings its two jokers


# ------------------------------------------------------------------ closing


def closing_kind(cards: list[str], rules: melds.MeldRules) -> tuple[str, int] | None:
    """How ten cards close, with the multiplier, best first; None if they don't.

    "la couleur, dans le cas où les 10 cartes du joueur sont de la même couleur";
    "la séquence royale, où les 10 cartes du joueur sont de la même couleur et se suivent".
    """
    jokers = any(melds.is_joker(c) for c in cards)
    if is_couleur(cards):
        if _run_of_ten(cards, rules):
            return ("escalera", 5 if jokers else 6)
        return ("couleur", 3 if jokers else 4)
    if melds.min_deadwood(cards, rules) == 0:
        return ("combinations", 1 if jokers else 2)
    return None


def is_couleur(cards: list[str]) -> bool:
    """Ten cards of one suit (jokers count as any suit)."""
    return len(cards) == HAND and len({c[1] for c in cards if not melds.is_joker(c)}) == 1


def _run_of_ten(cards: list[str], rules: melds.MeldRules) -> bool:
    try:
        melds.classify(cards, rules, "run")
    except IllegalAction:
        return False
    return True


def left_over(cards: list[str], rules: melds.MeldRules) -> melds.Arrangement:
    """A player's cards not in his best combinations (a couleur counts as one)."""
    if is_couleur(cards):
        return melds.Arrangement([], [], 0)
    return melds.best_arrangement(cards, rules)


# ------------------------------------------------------------------ the deal


class RemigioEngine(DrawDiscardDeal):
    game = GAME
    ACTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "draw": ("source",), "discard": ("card",), "close": ("card",),
    }
    ALREADY_DRAWN = "already_drawn_remigio"

    def __init__(self, cfg: RemigioConfig, seats: list[dict[str, Any]], button: int,
                 deck_order: list[str]) -> None:
        self._sit(cfg, seats, button, deck_order)
        self.rules = meld_rules(cfg)
        n = len(self.players)
        self.hands = deal_from_left(self.deck, self.players, button, HAND)
        # Ruling: no card is turned: "Le talon ne comportant que quatre cartes"
        # (five players: 54 - 50 = 4), the first player draws from the stock.
        self.stock = list(reversed(self.deck[HAND * n:]))  # top last
        self.turns_after_stock = 0
        self._close_cache: dict[tuple[str, ...], list[str]] = {}

    def draw_sources(self) -> list[str]:
        if self.stock:
            return super().draw_sources()
        # "après épuisement du talon, le jeu continue par prise obligatoire de
        # la première carte visible de l'écart"
        return ["discard"]

    def no_source_rule(self, source: str) -> str:
        if source == "stock":
            return "stock_exhausted_take_discard"
        return super().no_source_rule(source)

    def closing_discards(self, player: str) -> list[str]:
        """The discards after which the ten cards kept close the deal."""
        hand = self.hands[player]
        key = tuple(sorted(hand)) + ("|", self.drawn_from_discard or "")
        v = self._close_cache.get(key)
        if v is None:
            v = []
            after = melds.discard_options(hand, self.rules)  # candidate melds built once
            for c in self.discardable(player):
                rest = list(hand)
                rest.remove(c)
                # combinations need no deadwood; a couleur needs none of that
                if after[c] == 0 or is_couleur(rest):
                    v.append(c)
            self._close_cache[key] = v
        return list(v)

    def legal_plays(self, player: str) -> list[LegalAction]:
        out: list[LegalAction] = [{"action": "discard", "cards": self.discardable(player)}]
        closing = self.closing_discards(player)
        if closing:
            out.append({"action": "close", "cards": closing})
        return out

    def timeout_play(self, player: str) -> dict[str, Any]:
        """Close if possible, else throw the card that leaves the least deadwood."""
        closing = self.closing_discards(player)
        if closing:
            return {"action": "close", "card": closing[0]}
        hand = self.hands[player]

        def left(c: str) -> tuple[int, int]:
            rest = list(hand)
            rest.remove(c)
            return (melds.min_deadwood(rest, self.rules), -melds.points(c, self.rules))

        return {"action": "discard", "card": min(self.discardable(player), key=left)}

    def _close(self, player: str, card: Any) -> list[Event]:
        card = self._card_to_throw(player, card)
        kept = list(self.hands[player])
        kept.remove(card)
        kind = closing_kind(kept, self.rules)
        if kind is None:
            arr = melds.best_arrangement(kept, self.rules)
            raise IllegalAction(
                "close_needs_all", deadwood=list(arr.deadwood)
            )
        self._throw(player, card)
        name, factor = kind
        chips = {s["player"]: s["chips"] for s in self.seats}
        points: dict[str, int] = {}
        shown: dict[str, Any] = {}
        for p in self.players:
            if p == player:
                continue
            arr = left_over(self.hands[p], self.rules)
            points[p] = arr.points
            shown[p] = {"melds": [list(m.cards) for m in arr.melds], "left_over": list(arr.deadwood)}
        closer = melds.best_arrangement(kept, self.rules)
        debts = {p: pts * factor * self.config.unit for p, pts in points.items()}
        self._delta, paid = settle(chips, debts, [player])
        scoring = {
            "ending": "close", "closer": player, "discard": card, "combination": name,
            "factor": factor, "closer_melds": [list(m.cards) for m in closer.melds],
            "points": points, "hands": shown, "paid": paid,
        }
        self.phase = "over"
        self.outcome = scoring
        return [{"event": "close", "player": player, "card": card}, {"event": "end", **scoring}]

    def _end_void(self) -> list[Event]:
        self.phase = "over"
        self.outcome = {"ending": "void", "closer": None, "points": {}, "factor": 0}
        return [{"event": "end", **self.outcome}]

    def turn_ended(self) -> list[Event]:
        # Ruling: the forced pick-up after the stock lasts a limited number of rounds.
        if not self.stock:
            self.turns_after_stock += 1
            if self.turns_after_stock >= self.config.rounds_after_stock * len(self.players):
                return self._end_void()
        return []

    def public_view(self) -> dict[str, Any]:
        v = self.piles()
        if not self.stock:
            v["turns_left"] = self.config.rounds_after_stock * len(self.players) - self.turns_after_stock
        return v


# ------------------------------------------------------------ module contract


def deck_composition(config: dict[str, Any], n_players: int) -> list[str]:
    cfg = parse_config(RemigioConfig, config)
    return composition(n_players, cfg.two_decks)


def new_deal(config: Options, seats: Seats, button: int, *, deck: Deck = None, rng: Rng = None,
             reshuffles: Reshuffles = None, carry: Carry = None) -> RemigioEngine:
    """A new deal of Remigio (see the module docstring and ``base.py``)."""
    cfg = parse_config(RemigioConfig, config)
    check_seats(seats, button, GAME, SEATS)
    comp = composition(len(seats), cfg.two_decks)
    deck = deck_order_for(comp, deck, rng)
    if reshuffles:
        raise IllegalAction("no_reshuffles", game="remigio")
    if carry is not None:
        raise RecordError("carry", "carry_nothing", game="remigio")
    return RemigioEngine(cfg, seats, button, list(deck))


def _remigio_decks(seats: int, options: Any) -> int:
    """Decks a table uses: more players, more decks (docs/games/remigio.md)."""
    if seats >= 9:
        return 4
    if seats >= 6:
        return 3
    return 2 if options.get("two_decks") else 1


SPEC = GameSpec(
    name=GAME, label="Remigio", rules="remigio", seats=SEATS, deck_kind="deck52",
    stakes=("unit",), cave_unit=lambda s: 10 * s["unit"], decks=_remigio_decks, view="rami",
    config=RemigioConfig, new_deal=new_deal, replay_output=replay_output, deck_composition=deck_composition, result_story=("scoring",),
)
