"""« Carte haute »: the smallest game there is, for the recipe of
docs/architecture.md "Adding a game" — one module with its engine and its
``SPEC``, one registry line; the house reaches the game only through ``SPEC``. Each player antes one unit; each gets one card,
face down; in turn each shows or gives up; the highest card shown (by rank,
then clubs < diamonds < hearts < spades) takes the antes."""

from __future__ import annotations

from typing import Any

from tavern.cards import CSPRNG, RANKS, SUITS, RandomSource, check_deck_order, deck52, shuffle
from tavern.games.base import IllegalAction, RecordError
from tavern.games.records import hand_record
from tavern.games.spec import GameSpec

GAME = "highcard"


def _strength(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


class HighCard:
    game = GAME

    def __init__(self, config: dict[str, Any], seats: list[dict[str, Any]], deck: list[str]) -> None:
        unit = config.get("unit")
        if not isinstance(unit, int) or isinstance(unit, bool) or unit < 1 or set(config) - {"unit"}:
            raise RecordError("config.unit", "stake_positive")
        self.config, self.seats, self.deck = dict(config), [dict(s) for s in seats], list(deck)
        self.players = [s["player"] for s in seats]
        self.cards = {p: deck[i] for i, p in enumerate(self.players)}
        self.shown: dict[str, str] = {}
        self.out: set[str] = set()
        self.turn = 0
        self.actions: list[dict[str, Any]] = []

    @property
    def over(self) -> bool:
        return self.turn >= len(self.players)

    def to_act(self) -> list[str]:
        return [] if self.over else [self.players[self.turn]]

    def legal_actions(self, player: str) -> list[dict[str, Any]]:
        return [{"action": "show"}, {"action": "fold"}] if player in self.to_act() else []

    def act(self, player: str, action: str, **args: Any) -> list[dict[str, Any]]:
        if player not in self.to_act():
            raise IllegalAction("not_your_turn", player=player, action=action)
        if action not in ("show", "fold") or args:
            raise IllegalAction("unknown_action_of", player=player, action=action, actions=["show", "fold"])
        if action == "show":
            self.shown[player] = self.cards[player]
        else:
            self.out.add(player)
        self.turn += 1
        self.actions.append({"player": player, "action": action})
        return [{"event": action, "player": player, **({"card": self.cards[player]} if action == "show" else {})}]

    def timeout_action(self, player: str) -> dict[str, Any]:
        return {"action": "fold"}

    def seen(self, action: dict[str, Any], player: str | None) -> dict[str, Any]:
        return dict(action)  # a show's card is in the views, a fold names none

    def view(self, player: str | None) -> dict[str, Any]:
        return {"game": GAME, "to_act": self.to_act()[0] if not self.over else None,
                "players": [{"player": p, "cards": [self.cards[p]] if p == player or p in self.shown else None}
                            for p in self.players]}

    def result(self) -> dict[str, Any]:
        unit = self.config["unit"]
        start = {s["player"]: s["chips"] for s in self.seats}
        paying = [p for p in self.players if start[p] >= unit]
        best = max(self.shown, key=lambda p: _strength(self.shown[p]), default=None)
        delta = {p: -unit if p in paying else 0 for p in self.players}
        if best is None:  # everybody gave up: antes back
            delta = {p: 0 for p in self.players}
        else:
            delta[best] += unit * len(paying)
        return {"finished": True, "chips": {p: start[p] + delta[p] for p in self.players}, "delta": delta,
                "rake": 0, "winners": [best] if best else [], "shown": dict(self.shown), "carry": None}

    def record(self) -> dict[str, Any]:
        return hand_record(game=GAME, config=self.config, seats=self.seats, button=0, deck=self.deck,
                           actions=self.actions).dump()


def _deck_composition(config: dict[str, Any], n_players: int) -> list[str]:
    return deck52()


def _new_deal(config: dict[str, Any], seats: list[dict[str, Any]], button: int, *, deck: list[str] | None = None,
             rng: RandomSource | None = None, reshuffles: Any = None, carry: Any = None) -> HighCard:
    if deck is None:
        deck = shuffle(deck52(), rng or CSPRNG)
    check_deck_order(deck, deck52())
    return HighCard(config, seats, deck)


def _replay_output(deal: HighCard) -> dict[str, Any]:
    """What a replay reports (the loop is registry.replay's, as for every game).
    Private like the other entry points: the house reaches them through ``SPEC``."""
    return deal.result()


SPEC = GameSpec(name=GAME, label="Carte haute", rules="carte-haute", seats=(2, 4), deck_kind="deck52",
                stakes=("unit",), cave_unit=lambda s: 2 * s["unit"], new_deal=_new_deal,
                replay_output=_replay_output, deck_composition=_deck_composition)
