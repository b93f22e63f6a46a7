"""Poker hand evaluator: the best five of five to seven cards, high.

Two ways in:

* :func:`evaluate` — checks its input and returns a :class:`HandValue`, an
  ``int`` that orders hands (higher is better, equal hands are equal) and
  also says what the hand is (``.category``) and which five cards make it
  (``.cards``). Showdowns, hand histories and the UI use it.
* The fast path for engines that only compare: :func:`rank7` (seven card
  codes), :func:`rank` (five to seven codes), and the same on pre-encoded
  ints, :func:`encode` + :func:`rank_codes` / :func:`rank7_codes`. They return
  the very same number as ``int(evaluate(cards))`` but skip every check.

The number itself is readable: ``category << 20`` then the five ranks that
decide ties, most significant first, one hex digit each (2..14, the wheel's
ace counting 1). Two pair K-K-9-9-A is ``0x2_DD99E``; the wheel is
``0x4_54321``. Comparing these numbers is exactly the ranking of
RULES.md / ramponneau.fr.txt: category first, then the cards that matter in
the order the source compares them.

How the fast path works (see docs/games/evaluator.md): each card is encoded
as one int that *adds* — a base-5 digit for its rank (so the sum of the
cards is a unique key for the rank multiset) and suit counters arranged so
that a single mask tells whether some suit holds five cards. Evaluating
seven cards is then one ``sum``, one mask test and one dict lookup in a
table of every 5-, 6- and 7-card rank multiset (~74,000 entries, built on
first use in well under a second, so importing costs nothing). Only flushes (about 3 % of seven-card
hands) take a second, still table-driven, step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property
from itertools import combinations_with_replacement
from threading import Lock

from tavern.cards import RANKS, SUITS, CardError, check_card

__all__ = [
    "CATEGORIES",
    "HandValue",
    "category_of",
    "encode",
    "encode_all",
    "evaluate",
    "rank",
    "rank7",
    "rank7_codes",
    "rank_codes",
    "build_tables",
]

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

_CATEGORY_SHIFT = 20
_RANK_OF_CHAR = {r: i for i, r in enumerate(RANKS, start=2)}  # '2' -> 2 … 'A' -> 14
_CHAR_OF_RANK = {i: r for r, i in _RANK_OF_CHAR.items()}
_CHAR_OF_RANK[1] = "A"  # the wheel's ace


def _value(category: int, ranks: Sequence[int]) -> int:
    """Pack a category and up to five deciding ranks into one ordered int."""
    v = category
    for i in range(5):
        v = (v << 4) | (ranks[i] if i < len(ranks) else 0)
    return v


def category_of(value: int) -> str:
    """The category name of a value returned by :func:`evaluate` or :func:`rank7`."""
    return CATEGORIES[value >> _CATEGORY_SHIFT]


def _ranks_of(value: int) -> list[int]:
    return [(value >> (16 - 4 * i)) & 0xF for i in range(5)]


# --------------------------------------------------------------------------
# The rules, written once, from rank counts (used to build the tables and by
# the tests as the reference; slow but obviously right).
# --------------------------------------------------------------------------

def _straight_top(present: set[int]) -> int:
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


def _straight_ranks(top: int) -> list[int]:
    return list(range(top, top - 5, -1))  # wheel: 5 4 3 2 1


def _best_plain(counts: dict[int, int]) -> int:
    """Best five-card value from a rank multiset, ignoring suits (no flush)."""
    by_count = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    desc = sorted(counts, reverse=True)

    def kickers(exclude: set[int], n: int) -> list[int]:
        return [r for r in desc if r not in exclude][:n]

    quads = [r for r, c in by_count if c >= 4]
    if quads:
        q = quads[0]
        return _value(QUADS, [q] * 4 + kickers({q}, 1))
    trips = sorted((r for r, c in counts.items() if c >= 3), reverse=True)
    if trips:
        t = trips[0]
        pairs = sorted((r for r, c in counts.items() if c >= 2 and r != t), reverse=True)
        if pairs:
            return _value(FULL_HOUSE, [t] * 3 + [pairs[0]] * 2)
    top = _straight_top(set(counts))
    if top:
        return _value(STRAIGHT, _straight_ranks(top))
    if trips:
        t = trips[0]
        return _value(TRIPS, [t] * 3 + kickers({t}, 2))
    pairs = sorted((r for r, c in counts.items() if c >= 2), reverse=True)
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        return _value(TWO_PAIR, [hi, hi, lo, lo] + kickers({hi, lo}, 1))
    if pairs:
        p = pairs[0]
        return _value(PAIR, [p, p] + kickers({p}, 3))
    return _value(HIGH_CARD, desc[:5])


def _best_suited(ranks: set[int]) -> int:
    """Best value from five or more ranks of one suit: flush or straight flush."""
    top = _straight_top(ranks)
    if top:
        return _value(STRAIGHT_FLUSH, _straight_ranks(top))
    return _value(FLUSH, sorted(ranks, reverse=True)[:5])


def _reference(cards: Sequence[str]) -> int:
    """The value straight from the rules, no tables (slow; tests compare to it).

    With at most seven cards a suit holding five or more leaves at most two
    other cards, so neither four of a kind nor a full house can exist beside
    a flush: the flush (or straight flush) is then always the best hand.
    """
    by_suit: dict[str, set[int]] = {}
    counts: dict[int, int] = {}
    for c in cards:
        r = _RANK_OF_CHAR[c[0]]
        by_suit.setdefault(c[1], set()).add(r)
        counts[r] = counts.get(r, 0) + 1
    best = _best_plain(counts)
    for ranks in by_suit.values():
        if len(ranks) >= 5:
            best = max(best, _best_suited(ranks))
    return best


# --------------------------------------------------------------------------
# Fast path: additive card encoding and the lookup tables.
# --------------------------------------------------------------------------
#
# A card int is   (5**(rank-2) << 24)  +  suit counters (24 bits).
#
# * Rank part: base-5 digits. Any rank occurs at most 4 times, so the sum of
#   the cards' rank parts is a unique key for the hand's rank multiset.
# * Suit part: four 6-bit fields. A card adds 1 to every field and 5 more to
#   its own suit's field, so after exactly seven cards a field holds
#   7 + 5*n, which reaches 32 (bit 5 of the field) exactly when n >= 5 — one
#   AND with _FLUSH_BITS detects a flush without any per-suit counting. For
#   five or six cards we add the missing (7-n) "ones" (_PAD) first. The
#   largest field value, 7 + 5*7 = 42, stays below 64: no carry between fields.
# The whole sum stays below 2**55, so builtin ``sum`` keeps to its C fast path.

_SUIT_FIELD = 6
_ONES = sum(1 << (_SUIT_FIELD * s) for s in range(4))
_FLUSH_BITS = sum(32 << (_SUIT_FIELD * s) for s in range(4))
_RANK_SHIFT = 24
_PAD = {5: 2 * _ONES, 6: _ONES, 7: 0}

_CODE: dict[str, int] = {}
_RANKBIT: dict[int, int] = {}  # card int -> 1 << (rank-2): builds the flush mask
_SUIT_BIT: dict[int, int] = {}  # card int -> its own suit's flush bit
_CARD_OF_CODE: dict[int, str] = {}
for _s, _suit in enumerate(SUITS):
    for _r, _rank in enumerate(RANKS):
        _code = (5**_r << _RANK_SHIFT) + _ONES + (5 << (_SUIT_FIELD * _s))
        _CODE[_rank + _suit] = _code
        _RANKBIT[_code] = 1 << _r
        _SUIT_BIT[_code] = 32 << (_SUIT_FIELD * _s)
        _CARD_OF_CODE[_code] = _rank + _suit


def _straight_top_of_bits(bits: int) -> int:
    """Top rank (2..14) of the highest straight in a 13-bit rank mask, or 0."""
    for top in range(12, 3, -1):
        m = 0x1F << (top - 4)
        if bits & m == m:
            return top + 2
    return 5 if bits & 0x100F == 0x100F else 0  # A-2-3-4-5, "quinte de hauteur 5"


def _build_plain_table() -> dict[int, int]:
    """Rank-multiset key (sum of base-5 digits) -> best non-flush value.

    Same decisions as :func:`_best_plain`, written for speed because it runs
    ~74,000 times at import; a test checks every entry against the slow one.
    """
    table: dict[int, int] = {}
    weight = [5**r for r in range(13)]
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
                    kick = max(r for r in (threes[:1] + twos[:1] + ones[:1]))
                    ranks = (q, q, q, q, kick)
                    cat = QUADS
                elif threes and (len(threes) > 1 or twos):
                    t = threes[0]
                    p = max(threes[1:2] + twos[:1])
                    ranks = (t, t, t, p, p)
                    cat = FULL_HOUSE
                else:
                    top = straight_cache.get(bits)
                    if top is None:
                        top = straight_cache[bits] = _straight_top_of_bits(bits)
                    if top:
                        ranks = (top, top - 1, top - 2, top - 3, top - 4)
                        cat = STRAIGHT
                    elif threes:
                        t = threes[0]
                        ranks = (t, t, t, ones[0], ones[1])
                        cat = TRIPS
                    elif len(twos) >= 2:
                        hi, lo = twos[0], twos[1]
                        ranks = (hi, hi, lo, lo, max(twos[2:3] + ones[:1]))
                        cat = TWO_PAIR
                    elif twos:
                        p = twos[0]
                        ranks = (p, p, ones[0], ones[1], ones[2])
                        cat = PAIR
                    else:
                        ranks = tuple(ones[:5])
                        cat = HIGH_CARD
                a, b, c, d, e = ranks
                table[sum(weight[r] for r in combo)] = (
                    cat << 20 | a << 16 | b << 12 | c << 8 | d << 4 | e
                )
    return table


def _build_suited_table() -> dict[int, int]:
    """13-bit mask of the flush suit's ranks -> flush or straight flush value."""
    table: dict[int, int] = {}
    for mask in range(8192):
        if mask.bit_count() >= 5:
            top = _straight_top_of_bits(mask)
            if top:
                table[mask] = _value(STRAIGHT_FLUSH, (top, top - 1, top - 2, top - 3, top - 4))
            else:
                ranks = [r + 2 for r in range(12, -1, -1) if mask >> r & 1]
                table[mask] = _value(FLUSH, ranks[:5])
    return table


# Filled in place by build_tables() on first use, so that importing the
# module (every poker engine, the CLI, the web app) costs nothing. The fast
# functions look up first and only fall back to _first_use() on a KeyError:
# a try block is free in CPython 3.11 when nothing is raised.
_PLAIN: dict[int, int] = {}
_SUITED: dict[int, int] = {}
_BUILDING = Lock()  # threads of a web worker may all hit their first showdown at once


def build_tables() -> None:
    """Fill the lookup tables now (idempotent, ~0.3–0.7 s).

    Done automatically on the first evaluation; a server may call it at
    start-up so that no player's showdown pays for it.
    """
    with _BUILDING:
        if not _PLAIN:
            # _SUITED first: a non-empty _PLAIN is the sign that both are ready.
            _SUITED.update(_build_suited_table())
            _PLAIN.update(_build_plain_table())


def _first_use(codes: Sequence[int]) -> int:
    """A lookup missed: the tables were still empty, or there is no such hand."""
    build_tables()  # returns at once if they are built (maybe by another thread)
    s = sum(codes) + _PAD.get(len(codes), 0)
    f = s & _FLUSH_BITS
    try:
        return _SUITED[_flush_mask(codes, f)] if f else _PLAIN[s >> _RANK_SHIFT]
    except KeyError:
        raise CardError("not a poker hand: 5 to 7 distinct cards are needed") from None


def encode(card: str) -> int:
    """The additive int of one card code, for :func:`rank_codes`."""
    try:
        return _CODE[card]
    except (KeyError, TypeError):  # TypeError: not even hashable
        check_card(card)
        raise CardError(f"a joker has no place in a poker hand: {card}") from None


def encode_all(cards: Iterable[str]) -> list[int]:
    return [encode(c) for c in cards]


def _flush_mask(codes: Iterable[int], flush_bits: int) -> int:
    """Ranks held in the flush suit, as a 13-bit mask.

    Only one suit can hold five of at most seven cards, and ``flush_bits``
    (the sum masked with _FLUSH_BITS) is that suit's own bit.
    """
    mask = 0
    for c in codes:
        if _SUIT_BIT[c] & flush_bits:
            mask |= _RANKBIT[c]
    return mask


def rank7_codes(codes: Sequence[int]) -> int:
    """Value of exactly seven encoded, distinct cards. No checks: engines only."""
    s = sum(codes)
    f = s & _FLUSH_BITS
    try:
        if f:
            return _SUITED[_flush_mask(codes, f)]
        return _PLAIN[s >> _RANK_SHIFT]
    except KeyError:
        return _first_use(codes)


def rank_codes(codes: Sequence[int]) -> int:
    """Value of five to seven encoded, distinct cards. No checks: engines only."""
    s = sum(codes) + _PAD[len(codes)]
    f = s & _FLUSH_BITS
    try:
        if f:
            return _SUITED[_flush_mask(codes, f)]
        return _PLAIN[s >> _RANK_SHIFT]
    except KeyError:
        return _first_use(codes)


_code_of = _CODE.__getitem__


def rank7(cards: Sequence[str]) -> int:
    """Value of exactly seven distinct card codes (``"As"``…). No checks.

    Same number as ``int(evaluate(cards))``; a bad code raises KeyError.
    """
    s = sum(map(_code_of, cards))  # no list: the flush path maps again
    f = s & _FLUSH_BITS
    try:
        if f:
            return _SUITED[_flush_mask(map(_code_of, cards), f)]
        return _PLAIN[s >> _RANK_SHIFT]
    except KeyError:
        return _first_use(list(map(_code_of, cards)))


def rank(cards: Sequence[str]) -> int:
    """Value of five to seven distinct card codes. No checks."""
    return rank_codes(list(map(_code_of, cards)))


# --------------------------------------------------------------------------
# The checked, descriptive entry point.
# --------------------------------------------------------------------------

class HandValue(int):
    """A hand's value: an ``int`` (compare, sort, use as a key) that also
    knows its ``category``, its best five ``cards`` and the ``hand`` it was
    made from.

    Equality and ordering are those of the int: two hands of equal value are
    equal whatever their suits or their unused cards — they split the pot.
    ``cards`` is worked out on first access only: a showdown that just
    compares values never pays for it.
    """

    hand: tuple[str, ...]

    def __new__(cls, value: int, hand: Sequence[str]) -> "HandValue":
        self = int.__new__(cls, value)
        self.hand = tuple(hand)
        return self

    @cached_property
    def cards(self) -> tuple[str, ...]:
        """The best five, deciding cards first (pair before kickers…)."""
        return _best_five(self.hand, int(self))

    @property
    def category(self) -> str:
        return CATEGORIES[int(self) >> _CATEGORY_SHIFT]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five deciding ranks, most significant first (2..14, wheel ace = 1)."""
        return tuple(_ranks_of(int(self)))

    def __repr__(self) -> str:
        return f"HandValue({self.category}, {' '.join(self.cards)})"

    def __getnewargs__(self) -> tuple[int, tuple[str, ...]]:  # pickle, copy
        return (int(self), self.hand)


_int_new = int.__new__


def _check_hand(hand: Sequence[str]) -> None:
    """Raise the :class:`CardError` that says what is wrong with ``hand``."""
    if not 5 <= len(hand) <= 7:
        raise CardError(f"a poker hand is made from 5 to 7 cards, not {len(hand)}")
    for c in hand:
        encode(c)  # raises CardError on a bad code or a joker
    if len(set(hand)) != len(hand):
        dupes = sorted({c for c in hand if hand.count(c) > 1})
        raise CardError(f"the same card twice in one hand: {dupes}")


def _best_five(hand: Sequence[str], value: int) -> tuple[str, ...]:
    """The five cards that make ``value``, most significant first.

    Where several cards would do (the kicker's rank held twice), the one
    given first wins; the value does not depend on that choice.
    """
    category = value >> _CATEGORY_SHIFT
    pool: Iterable[str] = hand
    if category == FLUSH or category == STRAIGHT_FLUSH:
        suits = "".join(c[1] for c in hand)
        suit = max(SUITS, key=suits.count)  # the one suit holding five or more
        pool = [c for c in hand if c[1] == suit]
    out: list[str] = []
    for shift in (16, 12, 8, 4, 0):  # the five deciding ranks, one hex digit each
        wanted = _CHAR_OF_RANK[value >> shift & 0xF]  # the wheel's ace (1) is 'A'
        for c in pool:
            if c[0] == wanted and c not in out:
                out.append(c)
                break
    return tuple(out)


def evaluate(cards: Sequence[str]) -> HandValue:
    """Best five of 5–7 distinct card codes, as a :class:`HandValue`.

    Raises :class:`~tavern.cards.CardError` on a bad code, a joker, a
    duplicate or a wrong number of cards.
    """
    hand = tuple(cards)
    try:
        codes = [_CODE.get(c) for c in hand]
    except TypeError:  # unhashable: certainly not a card code
        codes = [None]
    if None in codes or not 5 <= len(hand) <= 7 or len(set(hand)) != len(hand):
        _check_hand(hand)
    # Same as HandValue(value, hand), without a Python-level __new__ call.
    result = _int_new(HandValue, rank_codes(codes))  # type: ignore[arg-type]  # no None here
    result.hand = hand
    return result
