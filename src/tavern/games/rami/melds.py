"""The one meld machinery of the rami family (Rami français, Double rami,
Remigio, Gin rummy).

A *meld* is a set (3 or 4 cards of one rank) or a run (3 or more consecutive
cards of one suit). A card belongs to one meld only (rami.fr.txt: "Une même
carte ne peut participer à deux combinaisons différentes"). Jokers are wild:
each one *stands for* a card, which :class:`Meld` remembers.

Rulings (the sources are silent, RULES.md leaves them to us; see docs/games/rami.md):

- a meld needs at least ``min_natural`` real cards (default 1), so that its
  rank or suit is always known;
- with ``distinct_suits_in_set`` (the default) a set holds at most one card of
  each suit even with two or more decks, so a set is 3 or 4 cards; a joker in a
  set stands for a missing suit;
- a run is at most 13 cards: no ace may appear twice in one run, even with
  both ``ace_low`` and ``ace_high``.

Ranks inside this module are indices ``0..12`` for ``A 2 … K``. A run lives on
a *line* of positions: ``0..12`` (ace low), ``1..13`` where 13 is the ace
(ace high), both, or the 13-position circle (ace around the corner).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from tavern.games.base import IllegalAction
from tavern.games.rami.meldcore import (  # noqa: F401  (re-exported: the family's one meld API)
    _FACE,
    _SUIT_NAMES,
    ORDER,
    RANK_INDEX,
    SUIT_INDEX,
    SUITS,
    Arrangement,
    Meld,
    MeldRules,
    _check,
    _code,
    _line,
    _wild,
    _windows,
    is_joker,
    points,
)

# ---------------------------------------------------------------- classify


def _run_readings(cards: Sequence[str], rules: MeldRules) -> list[Meld]:
    """Every way ``cards`` read as a run (jokers assigned in the order given)."""
    n = len(cards)
    naturals = [c for c in cards if not _wild(c, rules)]
    wild = [c for c in cards if _wild(c, rules)]
    if n < rules.min_run or len(naturals) < rules.min_natural or not naturals:
        return []
    suits = {c[1] for c in naturals if not is_joker(c)}
    if any(is_joker(c) for c in naturals) or len(suits) != 1:
        return []
    suit = naturals[0][1]
    ranks = [RANK_INDEX[c[0]] for c in naturals]
    if len(set(ranks)) != len(ranks):
        return []
    out = []
    for win in _windows(rules, n):
        if not set(ranks) <= set(win):
            continue
        by_rank = {RANK_INDEX[c[0]]: c for c in naturals}
        jokers = iter(wild)
        cs: list[str] = []
        sf: list[str | None] = []
        for r in win:
            if r in by_rank:
                cs.append(by_rank[r])
                sf.append(None)
            else:
                cs.append(next(jokers))
                sf.append(_code(r, suit))
        out.append(Meld("run", tuple(cs), tuple(sf)))
    return out


def _set_reading(cards: Sequence[str], rules: MeldRules) -> Meld | None:
    n = len(cards)
    naturals = [c for c in cards if not _wild(c, rules)]
    wild = [c for c in cards if _wild(c, rules)]
    if n not in rules.set_sizes or len(naturals) < rules.min_natural or not naturals:
        return None
    if any(is_joker(c) for c in naturals) or len({c[0] for c in naturals}) != 1:
        return None
    suits = [c[1] for c in naturals]
    if rules.distinct_suits_in_set and (len(set(suits)) != len(suits) or n > 4):
        return None
    rank = naturals[0][0]
    missing = [s for s in SUITS if s not in suits] or list(SUITS)
    sf = [None] * len(naturals) + [rank + missing[i % len(missing)] for i in range(len(wild))]
    return Meld("set", tuple(naturals) + tuple(wild), tuple(sf))


def _why_not(cards: Sequence[str], rules: MeldRules) -> IllegalAction:
    """Why ``cards`` are no meld: the refusal to raise."""
    if not rules.jokers and any(is_joker(c) for c in cards):
        return IllegalAction("meld_no_jokers")
    naturals = [c for c in cards if not _wild(c, rules)]
    if len(naturals) < rules.min_natural:
        return IllegalAction("meld_real_cards", minimum=rules.min_natural)
    ranks = {c[0] for c in naturals}
    suits = {c[1] for c in naturals if not is_joker(c)}
    if len(ranks) == 1 and len(cards) >= 2:
        if len(cards) not in rules.set_sizes:
            return IllegalAction("set_size", sizes=list(rules.set_sizes))
        return IllegalAction("set_suits")
    if len(suits) == 1 and len(ranks) > 1:
        return IllegalAction("run_consecutive")
    if len(suits) > 1 and len(ranks) > 1:
        return IllegalAction("meld_set_or_run")
    return IllegalAction("run_consecutive")


def classify(
    cards: Sequence[str], rules: MeldRules, kind: Literal["set", "run"] | None = None
) -> Meld:
    """The meld these cards form, or :class:`IllegalAction` saying why not.

    When the cards read both ways (a joker and one real card) the set reading
    wins unless ``kind`` asks for the run. A run keeps the order given when it
    is already a valid order; otherwise jokers extend the run upwards.
    """
    for c in cards:
        _check(c)
    if len(cards) < min(rules.min_run, min(rules.set_sizes)):
        raise IllegalAction("meld_three_cards")
    if kind in (None, "set"):
        m = _set_reading(cards, rules)
        if m is not None:
            return m
        if kind == "set":
            one_rank = len({c[0] for c in cards if not _wild(c, rules)}) == 1
            raise _why_not(cards, rules) if one_rank else IllegalAction("set_three_or_four")
    readings = _run_readings(cards, rules)
    if readings:
        given = tuple(cards)
        for m in readings:
            if m.cards == given:
                return m
        return readings[-1]
    raise _why_not(cards, rules)


def is_meld(cards: Sequence[str], rules: MeldRules) -> bool:
    try:
        classify(cards, rules)
    except IllegalAction:
        return False
    return True


def extend(meld: Meld, cards: Sequence[str], rules: MeldRules) -> Meld:
    """``meld`` with ``cards`` added (a lay-off, or adding to one's own meld).

    The meld keeps its kind, and in a run every joker already laid keeps the
    card it stands for (a joker only moves by the Double rami rule).
    """
    for c in cards:
        _check(c)
    if not cards:
        raise IllegalAction("add_a_card")
    allc = list(meld.cards) + list(cards)
    if meld.kind == "set":
        m = _set_reading(allc, rules)
        if m is None:
            why = _why_not(allc, rules)
            raise IllegalAction("cannot_join_set", cards=list(cards), refusal={"code": why.code, "params": why.params})
        return m
    fixed = {c: s for c, s in zip(meld.cards, meld.stands_for, strict=False) if s is not None}
    naturals = [c for c in allc if not _wild(c, rules)]
    new_wild = [c for c in cards if _wild(c, rules)]
    if len({c[1] for c in naturals}) != 1 or any(is_joker(c) for c in naturals):
        raise IllegalAction("run_wrong_suit")
    suit = naturals[0][1]
    # Each natural card, then each joker laid, goes at the rank it is (stands
    # for): the window must hold them all, one card a rank.
    placed = [(c, RANK_INDEX[c[0]]) for c in naturals] + [(j, RANK_INDEX[s[0]]) for j, s in fixed.items()]
    for win in _windows(rules, len(allc)):
        by_rank: dict[int, str] = {}
        for card, r in placed:
            if r in by_rank or r not in win:
                break
            by_rank[r] = card
        if len(by_rank) != len(placed):
            continue
        ok = True
        free = iter(new_wild)
        cs: list[str] = []
        sf: list[str | None] = []
        for r in win:
            got = by_rank.get(r)
            if got is None:
                got = next(free, None)
                if got is None:
                    ok = False
                    break
            c = got
            cs.append(c)
            sf.append(_code(r, suit) if _wild(c, rules) else None)
        if ok:
            return Meld("run", tuple(cs), tuple(sf))
    raise IllegalAction("run_not_extended")


# ---------------------------------------------------------------- best arrangement


def min_deadwood(hand: Sequence[str], rules: MeldRules) -> int:
    """``best_arrangement(hand, rules).points``, without building the melds."""
    return _solver.min_points(hand, rules)


def best_discard(hand: Sequence[str], rules: MeldRules) -> tuple[str, Arrangement]:
    """For a hand one card over (Gin's 11 cards): the discard leaving the least
    deadwood, and the arrangement of what is kept."""
    return _solver.best_discard(hand if isinstance(hand, list) else list(hand), rules)


def discard_options(hand: Sequence[str], rules: MeldRules) -> dict[str, int]:
    """For each distinct card of ``hand``: the least deadwood the other cards
    leave (which discards allow a knock, a gin, a close)."""
    return _solver.discard_options(list(hand), rules)


# The solver imports the names above, so it comes last (no import cycle at use).
from tavern.games.rami import _solver  # noqa: E402

#: ``best_arrangement(hand: Sequence[str], rules: MeldRules) -> Arrangement``: the
#: melds leaving the fewest deadwood points (see :mod:`._solver` for how).
best_arrangement = _solver.best_arrangement

__all__ = [
    "Arrangement",
    "Meld",
    "MeldRules",
    "best_arrangement",
    "best_discard",
    "classify",
    "discard_options",
    "extend",
    "is_joker",
    "is_meld",
    "min_deadwood",
    "points",
]
