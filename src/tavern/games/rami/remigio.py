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

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tavern.cards import CSPRNG, CardError, RandomSource, check_deck_order, deck, shuffle
from tavern.games.base import Event, IllegalAction, LegalAction
from tavern.games.rami import melds
from tavern.games.rami.common import check_seats, parse_config, replay_with, settle, take_cards

GAME = "remigio"
HAND = 10


class RemigioConfig(BaseModel):
    """Table options of Remigio."""

    model_config = ConfigDict(extra="forbid", frozen=True)

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
    if not 2 <= n_players <= 12:
        raise IllegalAction("remigio is played by 2 to 12 players")
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


class RemigioEngine:
    game = GAME
    ACTIONS: dict[str, tuple[str, ...]] = {"draw": ("source",), "discard": ("card",), "close": ("card",)}

    def __init__(self, cfg: RemigioConfig, seats: list[dict[str, Any]], button: int,
                 deck_order: list[str]) -> None:
        self.config = cfg
        self.rules = meld_rules(cfg)
        self.seats = [{"player": s["player"], "chips": s["chips"]} for s in seats]
        self.players = [s["player"] for s in seats]
        self.button = button
        self.deck = list(deck_order)
        n = len(self.players)
        self.hands: dict[str, list[str]] = {p: [] for p in self.players}
        for i in range(HAND * n):  # one at a time, from the dealer's left
            self.hands[self.players[(button + 1 + i) % n]].append(self.deck[i])
        # Ruling: no card is turned: "Le talon ne comportant que quatre cartes"
        # (five players: 54 - 50 = 4), the first player draws from the stock.
        self.stock = list(reversed(self.deck[HAND * n:]))  # top last
        self.discards: list[str] = []
        self.turn = (button + 1) % n
        self.phase: Literal["draw", "play", "over"] = "draw"
        self.drawn_from_discard: str | None = None
        self.turns_after_stock = 0
        self.actions: list[dict[str, Any]] = []
        self.outcome: dict[str, Any] | None = None
        self._delta = {p: 0 for p in self.players}
        self._close_cache: dict[tuple[str, ...], list[str]] = {}

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def current(self) -> str:
        return self.players[self.turn]

    def to_act(self) -> list[str]:
        return [] if self.over else [self.current]

    def sources(self) -> list[str]:
        if self.stock:
            return ["stock"] + (["discard"] if self.discards else [])
        # "après épuisement du talon, le jeu continue par prise obligatoire de
        # la première carte visible de l'écart"
        return ["discard"]

    def discardable(self, player: str) -> list[str]:
        return [c for c in dict.fromkeys(self.hands[player]) if c != self.drawn_from_discard]

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

    def legal_actions(self, player: str) -> list[LegalAction]:
        if self.over or player != self.current:
            return []
        if self.phase == "draw":
            return [{"action": "draw", "sources": self.sources()}]
        out: list[LegalAction] = [{"action": "discard", "cards": self.discardable(player)}]
        closing = self.closing_discards(player)
        if closing:
            out.append({"action": "close", "cards": closing})
        return out

    def timeout_action(self, player: str) -> dict[str, Any]:
        """Draw (the stock when there is one); then close if possible, else throw
        the card that leaves the least deadwood."""
        if self.over or player != self.current:
            raise IllegalAction("it is not your turn")
        if self.phase == "draw":
            return {"action": "draw", "source": self.sources()[0]}
        closing = self.closing_discards(player)
        if closing:
            return {"action": "close", "card": closing[0]}
        hand = self.hands[player]

        def left(c: str) -> tuple[int, int]:
            rest = list(hand)
            rest.remove(c)
            return (melds.min_deadwood(rest, self.rules), -melds.points(c, self.rules))

        return {"action": "discard", "card": min(self.discardable(player), key=left)}

    def act(self, player: str, action: str, **args: Any) -> list[Event]:
        if self.over:
            raise IllegalAction("the deal is over", player=player, action=action)
        if player not in self.players:
            raise IllegalAction(f"{player} is not dealt in", player=player, action=action)
        if action not in self.ACTIONS:
            raise IllegalAction(f"unknown action {action!r}; the actions are {', '.join(self.ACTIONS)}",
                                player=player, action=action)
        if player != self.current:
            raise IllegalAction(f"it is {self.current}'s turn", player=player, action=action)
        if set(args) != set(self.ACTIONS[action]):
            raise IllegalAction(f"{action} takes: {', '.join(self.ACTIONS[action])}",
                                player=player, action=action)
        try:
            events = getattr(self, "_" + action)(player, **args)
        except IllegalAction as exc:
            exc.player, exc.action = player, action
            raise
        self.actions.append({"player": player, "action": action, **args})
        return events

    def _draw(self, player: str, source: Any) -> list[Event]:
        if self.phase != "draw":
            raise IllegalAction("you have already drawn: now discard, or close")
        if source not in ("stock", "discard"):
            raise IllegalAction('draw from the "stock" or the "discard" pile')
        if source not in self.sources():
            if source == "stock":
                raise IllegalAction("the stock is exhausted: you must take the top card of the discard pile")
            raise IllegalAction("the discard pile is empty")
        card = self.stock.pop() if source == "stock" else self.discards.pop()
        self.drawn_from_discard = card if source == "discard" else None
        self.hands[player].append(card)
        self.phase = "play"
        event: Event = {"event": "draw", "player": player, "source": source}
        if source == "discard":
            event["card"] = card
        return [event]

    def _throw(self, player: str, card: Any) -> str:
        if self.phase != "play":
            raise IllegalAction("draw a card first: the top of the stock or of the discard pile")
        (card,) = take_cards(self.hands[player], [card])
        if card == self.drawn_from_discard:
            raise IllegalAction("you drew this card from the discard pile and must discard another")
        return card

    def _discard(self, player: str, card: Any) -> list[Event]:
        card = self._throw(player, card)
        self.hands[player].remove(card)
        self.discards.append(card)
        events: list[Event] = [{"event": "discard", "player": player, "card": card}]
        if not self.stock:
            self.turns_after_stock += 1
            if self.turns_after_stock >= self.config.rounds_after_stock * len(self.players):
                return events + self._end_void()
        self.turn = (self.turn + 1) % len(self.players)
        self.phase = "draw"
        self.drawn_from_discard = None
        return events + [{"event": "turn", "player": self.current}]

    def _close(self, player: str, card: Any) -> list[Event]:
        card = self._throw(player, card)
        kept = list(self.hands[player])
        kept.remove(card)
        kind = closing_kind(kept, self.rules)
        if kind is None:
            arr = melds.best_arrangement(kept, self.rules)
            raise IllegalAction(
                "to close, your 10 cards must all form combinations; "
                f"{', '.join(arr.deadwood)} left over"
            )
        self.hands[player].remove(card)
        self.discards.append(card)
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

    def result(self) -> dict[str, Any]:
        if not self.over:
            raise IllegalAction("the deal is not over")
        start = {s["player"]: s["chips"] for s in self.seats}
        return {
            "chips": {p: start[p] + self._delta[p] for p in self.players},
            "delta": dict(self._delta),
            "rake": 0,
            "scoring": dict(self.outcome or {}),
            "shown": {p: list(self.hands[p]) for p in self.players},
            "carry": None,
        }

    def view(self, player: str | None) -> dict[str, Any]:
        v: dict[str, Any] = {
            "game": self.game,
            "phase": self.phase,
            "dealer": self.players[self.button],
            "to_act": self.to_act(),
            "players": [{"player": s["player"], "chips": s["chips"], "cards": len(self.hands[s["player"]])}
                        for s in self.seats],
            "discard": {"top": self.discards[-1] if self.discards else None, "size": len(self.discards)},
            "stock": len(self.stock),
        }
        if not self.stock:
            left = self.config.rounds_after_stock * len(self.players) - self.turns_after_stock
            v["turns_left"] = left
        if player is not None and player in self.hands:
            v["hand"] = list(self.hands[player])
            v["legal"] = self.legal_actions(player)
            if player == self.current and self.drawn_from_discard is not None:
                v["drawn_from_discard"] = self.drawn_from_discard
        if self.over:
            v["result"] = self.result()
        return v

    def record(self) -> dict[str, Any]:
        return {
            "format": 1, "game": self.game, "config": self.config.model_dump(),
            "seats": [dict(s) for s in self.seats], "button": self.button,
            "deck": list(self.deck), "reshuffles": [], "actions": [dict(a) for a in self.actions],
        }


# ------------------------------------------------------------ module contract


def deck_composition(config: dict[str, Any], n_players: int) -> list[str]:
    cfg = parse_config(RemigioConfig, config)
    return composition(n_players, cfg.two_decks)  # type: ignore[attr-defined]


def new_deal(
    config: dict[str, Any],
    seats: list[dict[str, Any]],
    button: int,
    *,
    deck: list[str] | None = None,
    rng: RandomSource | None = None,
    reshuffles: list[list[str]] | None = None,
    carry: dict[str, Any] | None = None,
) -> RemigioEngine:
    """A new deal of Remigio (see the module docstring and ``base.py``)."""
    cfg = parse_config(RemigioConfig, config)
    check_seats(seats, button, 2, 12, "remigio")
    comp = composition(len(seats), cfg.two_decks)  # type: ignore[attr-defined]
    if deck is None:
        deck = shuffle(comp, rng or CSPRNG)
    else:
        try:
            check_deck_order(deck, comp)
        except CardError as exc:
            raise IllegalAction(str(exc)) from None
    if reshuffles:
        raise IllegalAction("remigio never rebuilds its stock: the record's reshuffles must be empty")
    return RemigioEngine(cfg, seats, button, list(deck))  # type: ignore[arg-type]


def replay(record: dict[str, Any]) -> dict[str, Any]:
    return replay_with(new_deal, GAME, record)
