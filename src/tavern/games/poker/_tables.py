"""Hand values and the evaluator's lookup tables (private to evaluator.py).

A value is ``category << 20`` then the five ranks that decide ties, most
significant first, one hex digit each (2..14; the wheel's ace counts 1), so
comparing two ints is comparing two hands as ramponneau.fr.txt does:
category first, then the cards in the order the source compares them.

The tables are keyed the way :mod:`tavern.games.poker.evaluator` encodes
cards: the plain table by the sum of ``5 ** (rank - 2)`` over the cards (a
unique key for the rank multiset, no rank occurring more than four times),
the suited table by the 13-bit mask of the ranks held in the flush suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product
from operator import mul

#: Low to high, as RULES.md lists them ("Hand ranking, low to high").
CATEGORIES: tuple[str, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_SHIFT = 20

#: Rank-multiset key weight of each rank index (0 = deuce … 12 = ace).
RANK_WEIGHT: tuple[int, ...] = tuple(5**r for r in range(13))


def pack(category: int, ranks: Sequence[int]) -> int:
    """One ordered int from a category and up to five deciding ranks."""
    v = category
    for i in range(5):
        v = (v << 4) | (ranks[i] if i < len(ranks) else 0)
    return v


def unpack_ranks(value: int) -> tuple[int, ...]:
    """The five deciding ranks of a value, most significant first."""
    return tuple((value >> shift) & 0xF for shift in (16, 12, 8, 4, 0))


def straight_top_of_bits(bits: int) -> int:
    """Top rank (2..14) of the highest straight in a 13-bit rank mask, or 0."""
    for top in range(12, 3, -1):
        m = 0x1F << (top - 4)
        if bits & m == m:
            return top + 2
    return 5 if bits & 0x100F == 0x100F else 0  # A-2-3-4-5, "quinte de hauteur 5"


def _shapes(k: int) -> list[tuple[tuple[int, ...], int, tuple[int, ...], bool]]:
    """Every way of holding ``k`` distinct ranks 5 to 7 times in all (each at
    most 4 times), with what it makes.

    The ranks are taken high to low, so "the highest other rank" is simply
    "the first other position": the category and the positions of the five
    deciding ranks depend only on the multiplicities, not on the ranks. Each
    shape is ``(multiplicities, category << 20, five positions, a straight
    among the ranks would beat it)``.
    """
    shapes = []
    for mults in product(range(1, 5), repeat=k):
        if not 5 <= sum(mults) <= 7:
            continue

        def positions(at_least: int, exclude: tuple[int, ...] = (), mults: tuple[int, ...] = mults) -> list[int]:
            return [i for i in range(k) if mults[i] >= at_least and i not in exclude]

        fours, threes, twos = positions(4), positions(3), positions(2)
        if fours:
            q = fours[0]
            cat, five = QUADS, [q] * 4 + positions(1, (q,))[:1]
        elif threes and len(twos) >= 2:
            # With two sets of three the lower one gives the pair.
            t = threes[0]
            p = positions(2, (t,))[0]
            cat, five = FULL_HOUSE, [t, t, t, p, p]
        elif threes:
            t = threes[0]
            cat, five = TRIPS, [t] * 3 + positions(1, (t,))[:2]
        elif len(twos) >= 2:
            # A third pair's rank can be the kicker.
            hi, lo = twos[0], twos[1]
            cat, five = TWO_PAIR, [hi, hi, lo, lo] + positions(1, (hi, lo))[:1]
        elif twos:
            p = twos[0]
            cat, five = PAIR, [p, p] + positions(1, (p,))[:3]
        else:
            cat, five = HIGH_CARD, [0, 1, 2, 3, 4]
        shapes.append((mults, cat << CATEGORY_SHIFT, tuple(five), k >= 5 and cat < STRAIGHT))
    return shapes


def build_plain_table() -> dict[int, int]:
    """Rank-multiset key -> best non-flush value, for every 5-, 6- and 7-card
    rank multiset (73,775 of them).

    Works shape by shape (see :func:`_shapes`) over every set of distinct
    ranks, so each entry costs a key sum and a pack; a test checks every
    entry against ``_reference.best_plain``.
    """
    table: dict[int, int] = {}
    for k in range(2, 8):
        shapes = _shapes(k)
        for idx in combinations(range(12, -1, -1), k):  # rank indexes, high to low
            ranks = [r + 2 for r in idx]
            weights = [RANK_WEIGHT[r] for r in idx]
            straight = 0
            if k >= 5:
                top = straight_top_of_bits(sum(1 << r for r in idx))
                if top:
                    straight = pack(STRAIGHT, (top, top - 1, top - 2, top - 3, top - 4))
            for mults, cat, (a, b, c, d, e), straight_beats_it in shapes:
                key = sum(map(mul, weights, mults))
                if straight_beats_it and straight:
                    table[key] = straight
                else:
                    table[key] = cat | ranks[a] << 16 | ranks[b] << 12 | ranks[c] << 8 | ranks[d] << 4 | ranks[e]
    return table


def build_suited_table() -> dict[int, int]:
    """13-bit mask of the flush suit's ranks -> flush or straight flush value
    (7,099 masks with five or more ranks)."""
    table: dict[int, int] = {}
    for mask in range(8192):
        if mask.bit_count() >= 5:
            top = straight_top_of_bits(mask)
            if top:
                table[mask] = pack(STRAIGHT_FLUSH, (top, top - 1, top - 2, top - 3, top - 4))
            else:
                ranks = [r + 2 for r in range(12, -1, -1) if mask >> r & 1]
                table[mask] = pack(FLUSH, ranks[:5])
    return table
