"""How a Rams deal is laid out: hand size, widow ("la fille"), turned card.

RULES.md: "With a widow: 3–5 players 5 cards, 6 players 4, 7 players 4 (the
turned card belongs to the dealer). Without: 6 players 5, 7 players 4, 8
players 4 (the last card is turned and belongs to the dealer)."

Record convention (HAND_RECORDS.md, "Rams: going right"): the deck is dealt one
card at a time starting with the player on the dealer's right and going right,
the dealer last, one round per card of a hand; then the widow (as many cards as
a hand); then the turned card when it is not the dealer's own last card. The
cards left over stay undealt. Real dealers deal by twos or threes and serve the
widow before themselves; a record fixes one convention so that a deck order
means one deal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tavern.cards import Stock
from tavern.games.base import IllegalAction

#: Where the trump comes from: a separate turned card the dealer may take in
#: exchange, the dealer's own last card, or the first card played (option).
TurnedKind = Literal["separate", "dealer", "first_card"]


@dataclass(frozen=True)
class Layout:
    hand_size: int
    widow: bool
    turned: TurnedKind


def layout(n_players: int, *, widow: bool, trump_by_first_card: bool) -> Layout:
    """The deal for ``n_players`` (2 only occurs at the end of a partie)."""
    if not 2 <= n_players <= 8:
        raise IllegalAction("players_range", game="rams", lo=3, hi=8)
    if n_players <= 5:
        size, has_widow, kind = 5, True, "separate"
    elif n_players == 6:
        size, has_widow, kind = (4, True, "separate") if widow else (5, False, "separate")
    elif n_players == 7:
        size, has_widow, kind = (4, True, "dealer") if widow else (4, False, "separate")
    else:
        size, has_widow, kind = 4, False, "dealer"
    if trump_by_first_card:
        kind = "first_card"
    return Layout(size, has_widow, kind)  # type: ignore[arg-type]  # kind is one of TurnedKind's strings, set above


@dataclass
class Dealt:
    hands: dict[str, list[str]]
    widow: list[str]
    #: the turned card (also in the dealer's hand when ``layout.turned == "dealer"``).
    turned: str | None
    stock: list[str]


def deal(order: list[str], plan: Layout, deck: list[str]) -> Dealt:
    """Deal ``deck`` to ``order`` (speaking order: dealer's right first, dealer last)."""
    stock = Stock(deck)
    hands: dict[str, list[str]] = {p: [] for p in order}
    for _ in range(plan.hand_size):
        for p in order:
            hands[p].append(stock.draw_one())
    widow = stock.draw(plan.hand_size) if plan.widow else []
    if plan.turned == "separate":
        turned: str | None = stock.draw_one()
    elif plan.turned == "dealer":
        turned = hands[order[-1]][-1]
    else:
        turned = None
    return Dealt(hands, widow, turned, stock.remaining())
