"""What a rami-family seat remembers of the deal, and the hand's worth ahead.

A house player is asked at its own turns only (tables/house.py reads the
deal on its turn), so its memory is what its views showed it there: the top
discard at each of its turns (the card the player before threw; buried
since, it will not come back), the melds on the table, its own discards and
whether the next player took them (the pile did not grow by one card a
player between two of its turns). Nothing else: the view carries no hidden
card, and a new deal (the dealer changes, or the stock grows) starts a new
memory.

From it, :func:`unseen` is the cards that may still be drawn (the deck less
every card seen), and :func:`worth_ahead` the mean deadwood a hand reaches
with a few of those cards drawn — a card whose melding partners are all
seen (a dead run, a set whose other cards are gone) has no such future, so
it is thrown before a card of a live pair or near-run.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tavern.cards import is_joker
from tavern.games.rami import melds
from tavern.games.rami.meldcore import MeldRules

_ONE = [r + s for s in "scdh" for r in "A23456789TJQK"]
#: The deck each game draws from, at its default table (the view does not
#: carry the options; a joker the player has not counted only makes him cautious).
DECKS: dict[str, list[str]] = {
    "rami": _ONE,
    "double_rami": _ONE * 2 + ["X1", "X2"],
    "remigio": _ONE + ["X1", "X2"],
    "gin": _ONE,
}
_RANK = "A23456789TJQK"


def near(a: str, b: str) -> bool:
    """Two cards that may meld together: a pair, or one suit one or two ranks apart."""
    if is_joker(a) or is_joker(b):
        return True
    return a[0] == b[0] or (a[1] == b[1] and abs(_RANK.index(a[0]) - _RANK.index(b[0])) <= 2)


@dataclass
class Memory:
    """One seat's memory of one deal (see the module's docstring)."""

    game: str
    key: tuple[Any, ...] = ()
    stock: int = 1 << 30
    buried: list[str] = field(default_factory=list)  # tops seen at our turns, no longer on top
    top: str | None = None
    fed: list[str] = field(default_factory=list)  # our discards the next player took
    last: tuple[str, int] | None = None  # our last discard and the pile's size after it

    def observe(self, view: dict[str, Any]) -> None:
        """Take in a view of our turn (a draw or a play)."""
        players = view.get("players") or []
        key = (view.get("dealer"), tuple(p.get("player") for p in players))
        stock = int(view.get("stock") or 0)
        if key != self.key or stock > self.stock:
            self.__init__(self.game, key)  # type: ignore[misc]  # a new deal: a new memory
        self.stock = stock
        pile = view.get("discard") or {}
        top = pile.get("top")
        if view.get("phase") == "draw" and self.last is not None:
            if int(pile.get("size") or 0) <= self.last[1] + len(players) - 2:
                self.fed.append(self.last[0])
            self.last = None
        if top != self.top and self.top is not None and self.top not in (view.get("hand") or []):
            self.buried.append(self.top)
        self.top = top

    def discarded(self, card: str, view: dict[str, Any]) -> None:
        self.last = (card, int((view.get("discard") or {}).get("size") or 0) + 1)
        self.top = card

    def feeds(self, card: str) -> bool:
        """Whether ``card`` would go with a card the next player took from us."""
        return any(near(card, f) and not is_joker(f) for f in self.fed) and not is_joker(card)


def seen_cards(view: dict[str, Any], memory: Memory | None) -> list[str]:
    hand = list(view.get("hand") or [])
    table = [c for m in view.get("table") or [] for c in m.get("cards", [])]
    top = (view.get("discard") or {}).get("top")
    pile = list((view.get("discard") or {}).get("pile") or [])
    took = list(view.get("opponent_took") or [])
    return hand + table + ([top] if top and not pile else pile) + took + (memory.buried if memory else [])


def unseen(game: str, view: dict[str, Any], memory: Memory | None) -> list[str]:
    """The cards of the deck this seat has not seen (a multiset)."""
    left = Counter(DECKS[game])
    left.subtract(Counter(seen_cards(view, memory)))
    return [c for c, k in left.items() for _ in range(max(0, k))]


def own_melds(view: dict[str, Any]) -> list[list[str]]:
    """The melds this seat laid (the table shows each meld's owner)."""
    me = view["to_act"][0] if view.get("to_act") else None
    return [list(m["cards"]) for m in view.get("table") or [] if m.get("owner") == me]


def extends(card: str, laid: list[list[str]], rules: MeldRules) -> bool:
    """Whether ``card`` may be added to one of ``laid``."""
    return any(melds.is_meld(m + [card], rules) for m in laid)


def goes_on(cards: list[str], laid: list[list[str]], rules: MeldRules) -> frozenset[str]:
    """Which of ``cards`` go onto our own laid melds (never a joker: it is kept).

    Asked once per decision for the hand and the unseen cards, rather than
    for every card of every draw of every candidate (the melds do not change
    within a decision): the meld check was 84 % of a Double rami discard."""
    if not laid:
        return frozenset()
    return frozenset(c for c in set(cards) if not is_joker(c) and extends(c, laid, rules))


def worth_ahead(kept: list[str], draws: list[list[str]], free_cards: frozenset[str], rules: MeldRules) -> float:
    """The mean least deadwood of ``kept`` with each of ``draws`` added, the
    cards of ``free_cards`` (:func:`goes_on`) left out: they cost nothing."""
    total = 0
    for d in draws:
        hand = kept + d
        total += melds.min_deadwood([c for c in hand if c not in free_cards] if free_cards else hand, rules)
    return total / len(draws)


def sample_draws(pool: list[str], ahead: int, n: int, rng: random.Random) -> list[list[str]]:
    k = min(ahead, len(pool))
    return [rng.sample(pool, k) for _ in range(n)] if k else [[]]
