"""Card arithmetic of the Rummoli phase ("le ramy"): next cards, colours, leads.

Cards run 2 up to the ace in each suit. Hearts and diamonds are red, spades
and clubs black ("coeur et carreau sont de la même couleur; comme pique et
trèfle").
"""

from __future__ import annotations

from collections.abc import Iterable

from tavern.cards import BLACK_SUITS, RANK_VALUE, RANKS, RED_SUITS

SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def colour(suit: str) -> str:
    return "red" if suit in RED_SUITS else "black"


def other_colour(suit: str) -> str:
    return "black" if suit in RED_SUITS else "red"


def suits_of(colour_name: str) -> frozenset[str]:
    return RED_SUITS if colour_name == "red" else BLACK_SUITS


def next_card(card: str) -> str | None:
    """The card that continues the sequence after ``card``; None after the ace."""
    v = RANK_VALUE[card[0]]
    if v == 14:
        return None
    return RANKS[v - 1] + card[1]  # RANKS[v - 2] is card's own rank


def lowest_of_suit(hand: Iterable[str], suit: str) -> str | None:
    cards = [c for c in hand if c[1] == suit]
    return min(cards, key=lambda c: RANK_VALUE[c[0]]) if cards else None


def lead_options(hand: list[str], colour_required: str | None) -> list[str]:
    """The cards a player may lead: his lowest card of each allowed suit.

    ``colour_required`` is None for the first lead of the deal (any suit) and
    the other colour after a stop. A player with a single card left may play
    it only if it fits, which for a lead means: of the required colour. That
    is what the filter below does for him too.
    """
    allowed = "cdhs" if colour_required is None else "".join(sorted(suits_of(colour_required)))
    out = []
    for s in allowed:
        low = lowest_of_suit(hand, s)
        if low is not None:
            out.append(low)
    return sorted(out, key=lambda c: (RANK_VALUE[c[0]], c[1]))


def runs_from(hand: list[str], first: str) -> list[list[str]]:
    """The runs a player may play when ``first`` is called: ``[first]``,
    ``[first, next]``… as long as he holds each following card."""
    held = set(hand)
    out: list[list[str]] = []
    run: list[str] = []
    card: str | None = first
    while card is not None and card in held:
        run = run + [card]
        out.append(run)
        card = next_card(card)
    return out


def sort_hand(hand: Iterable[str]) -> list[str]:
    """By suit then rank, as the source lays the hand out (hearts, diamonds,
    clubs, spades; 2 to ace)."""
    order = {"h": 0, "d": 1, "c": 2, "s": 3}
    return sorted(hand, key=lambda c: (order[c[1]], RANK_VALUE[c[0]]))
