"""Our Gin player (« habitué ») inside OpenSpiel's own ``gin_rummy`` game,
against its ``simple_gin_rummy_bot``.

OpenSpiel plays the common gin: one deck, ace low only and worth 1, knock
with at most 10 points of deadwood, the non-dealer may take the first
upcard or pass. The adapter turns its state, as our seat may see it (our
hand, the upcard, the discard pile, the cards the opponent took from it —
OpenSpiel shows its players all of these — and which actions are legal),
into our view and our legal
actions (``draw`` sources, ``discard``/``knock``/``gin`` cards), asks
:func:`tavern.bots.gin.gin_with` under OpenSpiel's meld rules, and plays
the answer as OpenSpiel's actions. The steps OpenSpiel has and our game
makes by itself — laying the melds after a knock, the opponent's lay-offs
and melds — are played as our engine plays them: the melds of the solver's
best arrangement, and each lay-off that lowers what is left in hand.
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel

from tavern.bots.gin import gin_with
from tavern.games.rami import melds

RULES = melds.MeldRules(ace_low=True, ace_high=False, ace_points=1)
SUITS, RANKS = "scdh", "A23456789TJQK"
GR = pyspiel.gin_rummy
UPCARD, STOCK, PASS, KNOCK = 52, 53, 54, 55


def card(i: int) -> str:
    return RANKS[i % 13] + SUITS[i // 13]


def card_id(c: str) -> int:
    return SUITS.index(c[1]) * 13 + RANKS.index(c[0])


class Adapter:
    def __init__(self, game: Any, rng: random.Random) -> None:
        self.utils = GR.GinRummyUtils(13, 4, 10)
        self.rng = rng
        self.knock_card: int | None = None  # chosen with the knock, thrown in the KNOCK phase

    @staticmethod
    def _pile(state: Any) -> list[str]:
        """The discard pile as every player sees it, the upcard last."""
        up = state.upcard()
        return [card(i) for i in state.discard_pile()] + ([card(up)] if up is not None and up >= 0 else [])

    @staticmethod
    def _story(state: Any, player: int) -> dict[str, Any]:
        """What the seat saw the opponent take from the pile (OpenSpiel's
        ``known_cards``: public, every player sees the pick)."""
        return {"opponent_took": [card(i) for i in state.known_cards()[1 - player]]}

    def _melds_for(self, hand: list[str], legal: list[int]) -> int | None:
        """The legal meld action that belongs to the best arrangement of ``hand``."""
        arr = melds.best_arrangement(hand, RULES)
        for m in arr.melds:
            try:
                a = self.utils.meld_to_int(sorted(card_id(c) for c in m.cards)) + 56
            except Exception:
                continue
            if a in legal:
                return int(a)
        return None

    def step(self, state: Any, player: int) -> int:
        legal = list(state.legal_actions())
        phase = str(state.current_phase())
        hand = [card(i) for i in state.hands()[player]]
        if phase.endswith("FIRST_UPCARD") or phase.endswith("DRAW"):
            sources = (["stock"] if (STOCK in legal or PASS in legal) else []) + (["discard"] if UPCARD in legal else [])
            top = state.upcard()
            view = {"hand": hand, "knock_limit": 10, **self._story(state, player),
                    "discard": {"top": card(top) if top is not None and top >= 0 else None, "pile": self._pile(state)}}
            move = gin_with(RULES, view, [{"action": "draw", "sources": sources}], self.rng, "habitué")
            if move["source"] == "discard":
                return UPCARD
            return STOCK if STOCK in legal else PASS
        if phase.endswith("DISCARD"):
            cards = [card(a) for a in legal if a < 52]
            options = melds.discard_options(hand, RULES)
            ours: list[dict[str, Any]] = [{"action": "discard", "cards": cards}]
            if KNOCK in legal:
                gins = [c for c in cards if options[c] == 0]
                knocks = [c for c in cards if 0 < options[c] <= 10]
                if knocks:
                    ours.append({"action": "knock", "cards": knocks})
                if gins:
                    ours.append({"action": "gin", "cards": gins, "grand": False})
            view = {"hand": hand, "discard": {"top": None, "pile": self._pile(state)}, "knock_limit": 10,
                    "stock": state.stock_size(), **self._story(state, player)}
            move = gin_with(RULES, view, ours, self.rng, "habitué")
            if move["action"] in ("knock", "gin"):
                self.knock_card = card_id(move["card"])
                return KNOCK
            return card_id(move["card"])
        if phase.endswith("KNOCK"):
            if self.knock_card is not None and self.knock_card in legal:
                c, self.knock_card = self.knock_card, None
                return c
            cards = [a for a in legal if a < 52]
            if cards:  # the discard after a knock we did not choose the card for
                return min(cards, key=lambda a: melds.discard_options(hand, RULES)[card(a)])
            found = self._melds_for(hand, legal)
            return found if found is not None else PASS
        if phase.endswith("LAYOFF"):
            # Lay off the card whose going leaves the least deadwood, while
            # that is less than keeping it (a card in one of our own melds stays).
            cards = [a for a in legal if a < 52]
            if cards:
                now = melds.min_deadwood(hand, RULES)
                left = {a: melds.min_deadwood([c for c in hand if c != card(a)], RULES) for a in cards}
                best = min(cards, key=lambda a: left[a])
                if left[best] < now:
                    return best
            found = self._melds_for(hand, legal)
            return found if found is not None else PASS
        if phase.endswith("WALL"):
            return KNOCK if KNOCK in legal else PASS
        return legal[0]


def against_simple_bot(hands: int, seed: int) -> tuple[int, int, int]:
    """Hands won, lost and drawn (nobody scores) by our player, seats alternating."""
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    wins = losses = draws = 0
    for h in range(hands):
        ours = h % 2
        state = game.new_initial_state()
        bot = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - ours)
        adapter = Adapter(game, random.Random(rng.randrange(1 << 30)))
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice([a for a, _ in outcomes]))
                continue
            p = state.current_player()
            state.apply_action(adapter.step(state, p) if p == ours else bot.step(state))
        r = state.returns()[ours]
        wins, losses, draws = wins + (r > 0), losses + (r < 0), draws + (r == 0)
    return wins, losses, draws
