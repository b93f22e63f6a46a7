"""The Rams player: the widow, the trump exchange, « je passe » and the tricks.

It counts the tricks its hand should take (:func:`expected_tricks`: the
high trumps, the length in trumps, the side aces) and speaks from that:
play a hand that should take a trick, take the widow (« la fille ») with a
hand that should not, pass when it may and neither looks good, announce
« rams général » only with a hand that takes everything. The dealer gives
his weakest card for the turned trump. In the tricks: lead the top trumps
when long in them, then side aces, else a low card; follow with the
cheapest card that takes the trick, or throw the lowest.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.bots.levels import BEGINNER
from tavern.bots.moves import Move, find, random_move
from tavern.cards import PIQUET_RANKS
from tavern.games.base import LegalAction

_ORDER = {r: i for i, r in enumerate(PIQUET_RANKS)}  # 7 lowest, ace highest
_TRUMP_TRICKS = {"A": 0.95, "K": 0.8, "Q": 0.6, "J": 0.45, "T": 0.3, "9": 0.25, "8": 0.2, "7": 0.2}


def expected_tricks(hand: list[str], trump: str | None) -> float:
    """Roughly how many tricks ``hand`` takes with ``trump`` as trumps."""
    trumps = [c for c in hand if c[1] == trump]
    e = sum(_TRUMP_TRICKS[c[0]] for c in trumps) + 0.25 * max(0, len(trumps) - 2)
    for c in hand:
        if c[1] == trump:
            continue
        if c[0] == "A":
            e += 0.8
        elif c[0] == "K" and any(d == "A" + c[1] for d in hand):
            e += 0.5
    return e


def _weakest(cards: list[str], trump: str | None) -> str:
    return min(cards, key=lambda c: (c[1] == trump, _ORDER[c[0]]))


def _beats(card: str, best: str, led: str, trump: str | None) -> bool:
    if card[1] == best[1]:
        return _ORDER[card[0]] > _ORDER[best[0]]
    return card[1] == trump  # a trump over a card of another suit


def _winning(cards: list[str], trump: str | None) -> str:
    led = cards[0][1]
    best = cards[0]
    for c in cards[1:]:
        if _beats(c, best, led, trump):
            best = c
    return best


def rams(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str) -> Move:
    hand = list(view["hand"])
    trump = view.get("trump")
    if level == BEGINNER and rng.random() < 0.1:
        return random_move(legal, rng)
    if view["phase"] == "exchange":
        # The dealer takes the turned trump for his weakest card.
        turned = view.get("turned")
        worst = _weakest(hand, trump)
        if turned and (level != BEGINNER or rng.random() < 0.5) and _ORDER[turned[0]] > (_ORDER[worst[0]] if worst[1] == trump else -1):
            return {"action": "exchange", "card": worst}
        return {"action": "exchange"}
    if view["phase"] == "speak":
        return _speak(view, legal, hand, trump, level)
    return _play(view, legal, trump, level)


def _speak(view: dict[str, Any], legal: list[LegalAction], hand: list[str], trump: str | None, level: str) -> Move:
    choices = [a["choice"] for a in legal if a["action"] == "speak"]
    e = expected_tricks(hand, trump)
    n = len(hand)
    if "general" in choices and e >= n - 0.2 and level != BEGINNER:
        return {"action": "speak", "choice": "general"}
    play_from = 0.8 if level != BEGINNER else 0.5
    if e >= play_from:
        return {"action": "speak", "choice": "play"}
    if "widow" in choices and e < 0.8:
        return {"action": "speak", "choice": "widow"}
    if "pass" in choices:
        return {"action": "speak", "choice": "pass"}
    return {"action": "speak", "choice": "widow" if "widow" in choices else "play"}


def _play(view: dict[str, Any], legal: list[LegalAction], trump: str | None, level: str) -> Move:
    options = [a["card"] for a in legal if a["action"] == "play"]
    if not options:
        first = find(legal, "play", "speak", "exchange")
        return dict(first) if first else dict(legal[0])
    tricks = view.get("tricks") or []
    current = [p["card"] for p in tricks[-1]["cards"]] if tricks else []
    if not current:
        return {"action": "play", "card": _lead(options, trump, level)}
    best = _winning(current, trump)
    led = current[0][1]
    winners = [c for c in options if _beats(c, best, led, trump)]
    if winners and level != BEGINNER:
        return {"action": "play", "card": min(winners, key=lambda c: (c[1] == trump, _ORDER[c[0]]))}
    if winners and level == BEGINNER:
        return {"action": "play", "card": max(winners, key=lambda c: _ORDER[c[0]])}  # wastes his best card
    return {"action": "play", "card": _weakest(options, trump)}


def _lead(options: list[str], trump: str | None, level: str) -> str:
    trumps = sorted((c for c in options if c[1] == trump), key=lambda c: -_ORDER[c[0]])
    if level != BEGINNER and len(trumps) >= 2 and trumps[0][0] in "AK":
        return trumps[0]
    aces = [c for c in options if c[0] == "A" and c[1] != trump]
    if aces:
        return aces[0]
    side = [c for c in options if c[1] != trump]
    return _weakest(side or options, trump)
