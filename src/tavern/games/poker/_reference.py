"""The hand ranking written plainly from the rules, without tables.

Slow but obviously right: the tests check every entry of the evaluator's
tables, and random hands, against :func:`reference`. It follows
ramponneau.fr.txt ("L'ordre des combinaisons possibles") and RULES.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavern.cards import RANK_VALUE
from tavern.games.poker._tables import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    pack,
)


def straight_top(present: set[int]) -> int:
    """Top rank of the highest straight in ``present`` (ranks 2..14), or 0.

    "l'as peut apparaitre dans une quinte haute (10 Valet Dame Roi As), ou dans
    une quinte basse (As 2 3 4 5) dans ce dernier cas, il s'agit de la quinte
    la plus faible qui soit (c'est une quinte de hauteur 5)".
    """
    ranks = present | ({1} if 14 in present else set())
    for top in range(14, 4, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    return 0


def straight_ranks(top: int) -> list[int]:
    return list(range(top, top - 5, -1))  # wheel: 5 4 3 2 1


def best_plain(counts: dict[int, int]) -> int:
    """Best five-card value from a rank multiset {rank 2..14: count}, suits ignored."""
    desc = sorted(counts, reverse=True)

    def kickers(exclude: set[int], n: int) -> list[int]:
        return [r for r in desc if r not in exclude][:n]

    def of_at_least(n: int, exclude: int = 0) -> list[int]:
        return [r for r in desc if counts[r] >= n and r != exclude]

    quads = of_at_least(4)
    if quads:
        q = quads[0]
        return pack(QUADS, [q] * 4 + kickers({q}, 1))
    trips = of_at_least(3)
    if trips:
        t = trips[0]
        pairs = of_at_least(2, exclude=t)
        if pairs:
            return pack(FULL_HOUSE, [t] * 3 + [pairs[0]] * 2)
    top = straight_top(set(counts))
    if top:
        return pack(STRAIGHT, straight_ranks(top))
    if trips:
        t = trips[0]
        return pack(TRIPS, [t] * 3 + kickers({t}, 2))
    pairs = of_at_least(2)
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        return pack(TWO_PAIR, [hi, hi, lo, lo] + kickers({hi, lo}, 1))
    if pairs:
        p = pairs[0]
        return pack(PAIR, [p, p] + kickers({p}, 3))
    return pack(HIGH_CARD, desc[:5])


def best_suited(ranks: set[int]) -> int:
    """Best value from five or more ranks of one suit: flush or straight flush."""
    top = straight_top(ranks)
    if top:
        return pack(STRAIGHT_FLUSH, straight_ranks(top))
    return pack(FLUSH, sorted(ranks, reverse=True)[:5])


def reference(cards: Sequence[str]) -> int:
    """The value of the best five of ``cards``, straight from the rules.

    Tries every suit with five or more cards against the plain hand, so it
    does not rely on the evaluator's shortcut (with at most seven cards a
    flush leaves too few cards for quads or a full house).
    """
    by_suit: dict[str, set[int]] = {}
    counts: dict[int, int] = {}
    for c in cards:
        r = RANK_VALUE[c[0]]
        by_suit.setdefault(c[1], set()).add(r)
        counts[r] = counts.get(r, 0) + 1
    best = best_plain(counts)
    for ranks in by_suit.values():
        if len(ranks) >= 5:
            best = max(best, best_suited(ranks))
    return best
