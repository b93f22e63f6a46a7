"""A hand's equity: Monte Carlo on the project's own evaluator.

``equity(hole, board, opponents, rng, trials)`` deals the unseen cards at
random (the opponents' holes from a *range*, then the rest of the board) and
counts the share of the pot the hand wins, ties split. The cards are
pre-encoded once (:func:`tavern.games.poker.evaluator.encode`) and each trial
is a ``sum`` and a table look-up per player (``rank7_codes``), which is what
keeps a decision within its time budget in pure Python.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from tavern.games.poker.evaluator import encode, fast_tables

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}
_CODES = {c: encode(c) for c in DECK}
_NAMES = {v: c for c, v in _CODES.items()}


def preflop_score(a: str, b: str) -> float:
    """A quick 0..1 strength of two hole cards (Chen-like): pairs high,
    suited and connected cards above the rest. Only ranks a range; the
    decisions use :func:`equity`."""
    x, y = sorted((_VALUE[a[0]], _VALUE[b[0]]), reverse=True)
    if x == y:
        s = 10.0 + 1.5 * x
    else:
        s = x + 0.55 * y
        if a[1] == b[1]:
            s += 3
        gap = x - y
        s -= {1: 0, 2: 1, 3: 2.5, 4: 4}.get(gap, 5.5)
    return max(0.0, min(1.0, (s - 2.0) / 31.0))


#: A range: which hole cards an opponent may hold (a predicate on the two cards).
Range = Callable[[str, str], bool]


@lru_cache(maxsize=32)
def top(share: float) -> Range:
    """Roughly the best ``share`` of starting hands by :func:`preflop_score`
    (a set of pairs, both orders, so that a trial's test is one look-up)."""
    cut = _cut_for(round(share, 2))
    allowed = frozenset((DECK[i], DECK[j]) for i in range(52) for j in range(52)
                        if i != j and preflop_score(DECK[i], DECK[j]) >= cut)
    return lambda a, b: (a, b) in allowed


@lru_cache(maxsize=32)
def _cut_for(share: float) -> float:
    scores = sorted((preflop_score(DECK[i], DECK[j]) for i in range(52) for j in range(i + 1, 52)), reverse=True)
    k = max(0, min(len(scores) - 1, int(share * len(scores)) - 1))
    return scores[k]


def any_two(a: str, b: str) -> bool:
    return True


def pairs_of(in_range: Range) -> tuple[frozenset[int] | frozenset[tuple[int, int]], bool] | None:
    """``in_range`` as a set a trial tests in one look-up; None for any two
    cards. The set holds the *sums* of the two cards' codes when the range
    depends only on what such a sum keeps — the two ranks and whether the
    suits match, as every :func:`top` range — (the flag is then True: the
    sum is also what the hand's value starts from), else the pairs."""
    if in_range is any_two:
        return None
    return _pairs_of(in_range)


@lru_cache(maxsize=64)
def _pairs_of(in_range: Range) -> tuple[frozenset[int] | frozenset[tuple[int, int]], bool]:
    pairs = [(_CODES[a], _CODES[b], in_range(a, b)) for a in DECK for b in DECK if a != b]
    sums_in = {x + y for x, y, ok in pairs if ok}
    if not sums_in & {x + y for x, y, ok in pairs if not ok}:
        return frozenset(sums_in), True
    return frozenset((x, y) for x, y, ok in pairs if ok), False


def equity(hole: Sequence[str], board: Sequence[str], opponents: int, rng: random.Random,
           trials: int = 300, ranges: Sequence[Range] | None = None) -> float:
    """The share of the pot ``hole`` wins against ``opponents`` hands drawn
    from ``ranges`` (one per opponent; any two cards when absent), the board
    completed at random. A hand the range refuses is redrawn a few times,
    then kept (a range never empties the deck).

    Long because it is the hot loop of every hold'em decision, written for
    speed: the unseen cards' codes sit in one ``pool`` that each trial
    partially shuffles in place (its first ``picks`` cards are a uniform
    sample whatever order earlier trials left it in: no copy, and
    ``random()`` is cheaper than ``sample()``); a refused hand swaps its
    cards with unused ones from the rest of the pool; the evaluator's
    :func:`rank7_codes` is inlined (the board's codes are summed once per
    trial and each hand adds its two cards to it), the flush test skipped
    when the board holds no three cards of a suit; and a trial stops at the
    first hand that beats ours."""
    if opponents <= 0:
        return 1.0
    plain, suited, flush_bits, shift, flush_mask = fast_tables()
    known = set(hole) | set(board)
    pool = [_CODES[c] for c in DECK if c not in known]
    mine = [_CODES[c] for c in hole]
    shown = [_CODES[c] for c in board]
    mine_sum, shown_sum = sum(mine), sum(shown)
    n, picks = len(pool), opponents * 2 + 5 - len(board)
    first_board = opponents * 2
    hand_steps = [(i, n - i) for i in range(first_board)]
    board_steps = [(i, n - i) for i in range(first_board, picks)]
    spare = n - picks  # unused cards a refused hand swaps with
    checks: list[tuple[int, frozenset[Any], bool]] = [] if ranges is None or spare < 2 else \
        [(2 * k, *test) for k, r in enumerate(ranges[:opponents]) if (test := pairs_of(r)) is not None]
    sum_checks = [(k, ok) for k, ok, by_sum in checks if by_sum]
    pair_checks = [(k, ok) for k, ok, by_sum in checks if not by_sum]
    seats = range(0, first_board, 2)
    # The board's five codes plus 12 in each suit's field set the field's
    # flush bit when the suit holds three board cards or more (a field is 5
    # + 5 per card of its suit: 20 for three; see evaluator.py).
    three = 12 * (flush_bits >> 5)
    rnd = rng.random
    total = 0.0
    for _ in range(trials):
        for i, m in hand_steps:
            j = i + int(rnd() * m)
            pool[i], pool[j] = pool[j], pool[i]
        table = shown_sum  # the board's sum, made while its cards are drawn
        for i, m in board_steps:
            j = i + int(rnd() * m)
            c = pool[j]
            pool[j] = pool[i]
            pool[i] = c
            table += c
        for k, ok in sum_checks:
            for _retry in range(3):
                if pool[k] + pool[k + 1] in ok:
                    break
                j = picks + int(rnd() * spare)
                pool[k], pool[j] = pool[j], pool[k]
                j = picks + int(rnd() * spare)
                pool[k + 1], pool[j] = pool[j], pool[k + 1]
        for k, ok in pair_checks:
            for _retry in range(3):
                if (pool[k], pool[k + 1]) in ok:
                    break
                j = picks + int(rnd() * spare)
                pool[k], pool[j] = pool[j], pool[k]
                j = picks + int(rnd() * spare)
                pool[k + 1], pool[j] = pool[j], pool[k + 1]
        ties = 0
        if not (table + three) & flush_bits:
            # Fewer than three board cards of any suit: no hand holds a
            # flush, each is one look-up (about two trials in three).
            me = plain[(table + mine_sum) >> shift]
            for k in seats:
                v = plain[(table + pool[k] + pool[k + 1]) >> shift]
                if v >= me:
                    if v > me:
                        break
                    ties += 1
            else:
                total += 1.0 / (1 + ties)
            continue
        s = table + mine_sum
        f = s & flush_bits
        me = suited[flush_mask(mine + shown + pool[first_board:picks], f)] if f else plain[s >> shift]
        for k in seats:
            a, b = pool[k], pool[k + 1]
            s = table + a + b
            f = s & flush_bits
            v = suited[flush_mask([a, b, *shown, *pool[first_board:picks]], f)] if f else plain[s >> shift]
            if v >= me:  # one test for the usual case, a weaker hand
                if v > me:
                    break  # beaten: the trial is lost, the other hands do not matter
                ties += 1
        else:
            total += 1.0 / (1 + ties)
    return total / trials
