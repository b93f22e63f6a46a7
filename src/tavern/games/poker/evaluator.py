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
the order the source compares them (layout and tables: ``_tables.py``; the
same ranking written plainly, for the tests: ``_reference.py``).

How the fast path works (see docs/games/evaluator.md): each card is encoded
as one int that *adds* — a base-5 digit for its rank (so the sum of the
cards is a unique key for the rank multiset) and suit counters arranged so
that a single mask tells whether some suit holds five cards. Evaluating
seven cards is then one ``sum``, one mask test and one dict lookup in a
table of every 5-, 6- and 7-card rank multiset (~74,000 entries, built on
first use in a fraction of a second, so importing costs nothing). Only
flushes (about 3 % of seven-card hands) take a second, still table-driven,
step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from threading import Lock

from tavern.cards import RANKS, SUITS, CardError, check_card
from tavern.games.poker._tables import (
    CATEGORIES,
    CATEGORY_SHIFT,
    FLUSH,
    RANK_WEIGHT,
    STRAIGHT_FLUSH,
    build_plain_table,
    build_suited_table,
    unpack_ranks,
)

__all__ = [
    "CATEGORIES",
    "HandValue",
    "build_tables",
    "category_of",
    "encode",
    "encode_all",
    "evaluate",
    "fast_tables",
    "rank",
    "rank7",
    "rank7_codes",
    "rank_codes",
]

_CHAR_OF_RANK = {i: r for i, r in enumerate(RANKS, start=2)}  # 2 -> '2' … 14 -> 'A'
_CHAR_OF_RANK[1] = "A"  # the wheel's ace


def category_of(value: int) -> str:
    """The category name of a value returned by :func:`evaluate` or :func:`rank7`."""
    return CATEGORIES[value >> CATEGORY_SHIFT]


# --------------------------------------------------------------------------
# Fast path: additive card encoding and the lookup tables.
# --------------------------------------------------------------------------
#
# A card int is   (5**(rank-2) << 24)  +  suit counters (24 bits).
#
# * Rank part: base-5 digits (RANK_WEIGHT). Any rank occurs at most 4 times,
#   so the sum of the cards' rank parts is a unique key for the hand's rank
#   multiset: the key of _PLAIN.
# * Suit part: four 6-bit fields. A card adds 1 to every field and 5 more to
#   its own suit's field, so after exactly seven cards a field holds
#   7 + 5*n, which reaches 32 (bit 5 of the field) exactly when n >= 5 — one
#   AND with _FLUSH_BITS detects a flush without any per-suit counting. For
#   five or six cards we add the missing (7-n) "ones" (_PAD) first. The
#   largest field value, 7 + 5*7 = 42, stays below 64: no carry between fields.
# The whole sum stays below 2**55, so builtin ``sum`` keeps to its C fast path.
#
# With at most seven cards, a suit holding five leaves at most two other
# cards: no four of a kind nor full house can exist beside a flush, so a
# flush hand is looked up in _SUITED alone.

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
        _code = (RANK_WEIGHT[_r] << _RANK_SHIFT) + _ONES + (5 << (_SUIT_FIELD * _s))
        _CODE[_rank + _suit] = _code
        _RANKBIT[_code] = 1 << _r
        _SUIT_BIT[_code] = 32 << (_SUIT_FIELD * _s)
        _CARD_OF_CODE[_code] = _rank + _suit

# Filled in place by build_tables() on first use, so that importing the
# module (every poker engine, the CLI, the web app) costs nothing. The fast
# functions look up first and only fall back to _first_use() on a KeyError:
# a try block is free in CPython 3.11 when nothing is raised.
_PLAIN: dict[int, int] = {}
_SUITED: dict[int, int] = {}
_BUILDING = Lock()  # threads of a web worker may all hit their first showdown at once


def build_tables() -> None:
    """Fill the lookup tables now (idempotent; ~0.2 s on an idle core).

    Done automatically on the first evaluation; a server may call it at
    start-up so that no player's showdown pays for it.
    """
    with _BUILDING:
        if not _PLAIN:
            # _SUITED first: a non-empty _PLAIN is the sign that both are ready.
            _SUITED.update(build_suited_table())
            _PLAIN.update(build_plain_table())


def _first_use(codes: Sequence[int]) -> int:
    """A lookup missed: the tables were still empty, or there is no such hand."""
    build_tables()  # returns at once if they are built (maybe by another thread)
    s = sum(codes) + _PAD.get(len(codes), 0)
    f = s & _FLUSH_BITS
    try:
        return _SUITED[_flush_mask(codes, f)] if f else _PLAIN[s >> _RANK_SHIFT]
    except KeyError:
        raise CardError("poker_hand_size") from None


def encode(card: str) -> int:
    """The additive int of one card code, for :func:`rank_codes`."""
    try:
        return _CODE[card]
    except (KeyError, TypeError):  # TypeError: not even hashable
        check_card(card)
        raise CardError("joker_in_poker_hand") from None


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


def fast_tables() -> tuple[dict[int, int], dict[int, int], int, int, Callable[[Iterable[int], int], int]]:
    """The fast path's pieces, for a hot loop that inlines :func:`rank7_codes`
    (the bots' Monte Carlo: one function call less per hand and trial):
    ``(plain, suited, flush_bits, rank_shift, flush_mask)``. Seven codes
    summed to ``s`` are worth ``suited[flush_mask(codes, s & flush_bits)]``
    when ``s & flush_bits``, else ``plain[s >> rank_shift]``. The tables are
    built first."""
    build_tables()
    return _PLAIN, _SUITED, _FLUSH_BITS, _RANK_SHIFT, _flush_mask


def rank7_codes(codes: Sequence[int]) -> int:
    """Value of seven encoded, distinct cards (five or six also work, via
    :func:`rank_codes`). No other checks: engines only."""
    if len(codes) != 7:  # the flush test below counts on exactly seven
        return rank_codes(codes)
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
    """Value of seven distinct card codes (``"As"``…), the hold'em fast path.

    Same number as ``int(evaluate(cards))``. Five or six cards also work (via
    :func:`rank`), only seven take the shortest road. No checks: a bad code
    raises KeyError, duplicates give a meaningless value.
    """
    if len(cards) != 7:  # the flush test below counts on exactly seven
        return rank(cards)
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

    def __new__(cls, value: int, hand: Sequence[str]) -> HandValue:
        self = int.__new__(cls, value)
        self.hand = tuple(hand)
        return self

    @cached_property
    def cards(self) -> tuple[str, ...]:
        """The best five, deciding cards first (pair before kickers…)."""
        return _best_five(self.hand, int(self))

    @property
    def category(self) -> str:
        return CATEGORIES[int(self) >> CATEGORY_SHIFT]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five deciding ranks, most significant first (2..14, wheel ace = 1)."""
        return unpack_ranks(int(self))

    def __repr__(self) -> str:
        return f"HandValue({self.category}, {' '.join(self.cards)})"

    # str(), f"{v}" and JSON stay the plain number, like any int: records and
    # logs that store a value must not get the description above.
    __str__ = int.__repr__

    def __getnewargs__(self) -> tuple[int, tuple[str, ...]]:  # type: ignore[override]  # pickle, copy: the hand too
        return (int(self), self.hand)


_int_new = int.__new__


def _check_hand(hand: Sequence[str]) -> None:
    """Raise the :class:`CardError` that says what is wrong with ``hand``."""
    if not 5 <= len(hand) <= 7:
        raise CardError("poker_hand_size", count=len(hand))
    for c in hand:
        encode(c)  # raises CardError on a bad code or a joker
    if len(set(hand)) != len(hand):
        dupes = sorted({c for c in hand if hand.count(c) > 1})
        raise CardError("card_twice_in_hand", cards=dupes)


def _best_five(hand: Sequence[str], value: int) -> tuple[str, ...]:
    """The five cards that make ``value``, most significant first.

    Where several cards would do (the kicker's rank held twice), the one
    given first wins; the value does not depend on that choice.
    """
    category = value >> CATEGORY_SHIFT
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
