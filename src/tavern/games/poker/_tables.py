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
from itertools import combinations_with_replacement

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


def build_plain_table() -> dict[int, int]:
    """Rank-multiset key -> best non-flush value, for every 5-, 6- and 7-card
    rank multiset (73,775 of them).

    The same decisions as ``_reference.best_plain``, written for speed since
    it runs once per multiset; a test checks every entry against that one.
    """
    table: dict[int, int] = {}
    weight_of = RANK_WEIGHT.__getitem__
    straight_cache: dict[int, int] = {}
    for n in (5, 6, 7):
        for combo in combinations_with_replacement(range(13), n):
            cnt = [0] * 13
            for r in combo:
                cnt[r] += 1
            # Ranks present, grouped by how many times, highest first.
            groups: list[list[int]] = [[], [], [], [], []]
            bits = 0
            for r in range(12, -1, -1):
                c = cnt[r]
                if c:
                    if c > 4:
                        break  # a fifth card of one rank does not exist
                    bits |= 1 << r
                    groups[c].append(r + 2)
            else:
                ones, twos, threes, fours = groups[1], groups[2], groups[3], groups[4]
                if fours:
                    q = fours[0]
                    ranks = (q, q, q, q, max(threes[:1] + twos[:1] + ones[:1]))
                    cat = QUADS
                elif threes and (len(threes) > 1 or twos):
                    # Two sets of three: the lower one gives the pair.
                    t = threes[0]
                    p = max(threes[1:2] + twos[:1])
                    ranks = (t, t, t, p, p)
                    cat = FULL_HOUSE
                else:
                    top = straight_cache.get(bits)
                    if top is None:
                        top = straight_cache[bits] = straight_top_of_bits(bits)
                    if top:
                        ranks = (top, top - 1, top - 2, top - 3, top - 4)
                        cat = STRAIGHT
                    elif threes:
                        t = threes[0]
                        ranks = (t, t, t, ones[0], ones[1])
                        cat = TRIPS
                    elif len(twos) >= 2:
                        # A third pair's rank can be the kicker.
                        hi, lo = twos[0], twos[1]
                        ranks = (hi, hi, lo, lo, max(twos[2:3] + ones[:1]))
                        cat = TWO_PAIR
                    elif twos:
                        p = twos[0]
                        ranks = (p, p, ones[0], ones[1], ones[2])
                        cat = PAIR
                    else:
                        ranks = (ones[0], ones[1], ones[2], ones[3], ones[4])
                        cat = HIGH_CARD
                a, b, c, d, e = ranks
                table[sum(map(weight_of, combo))] = (
                    cat << 20 | a << 16 | b << 12 | c << 8 | d << 4 | e
                )
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
