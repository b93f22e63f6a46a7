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

from tavern.games.poker.evaluator import encode, rank_codes

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]
_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}


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


def equity(hole: Sequence[str], board: Sequence[str], opponents: int, rng: random.Random,
           trials: int = 300, ranges: Sequence[Range] | None = None) -> float:
    """The share of the pot ``hole`` wins against ``opponents`` hands drawn
    from ``ranges`` (one per opponent; any two cards when absent), the board
    completed at random. A hand the range refuses is redrawn a few times,
    then kept (a range never empties the deck)."""
    if opponents <= 0:
        return 1.0
    known = set(hole) | set(board)
    rest = [c for c in DECK if c not in known]
    codes = {c: encode(c) for c in DECK}
    mine = [codes[c] for c in hole]
    shown = [codes[c] for c in board]
    missing = 5 - len(board)
    picks = opponents * 2 + missing
    total = 0.0
    for _ in range(trials):
        sample = rng.sample(rest, picks)
        if ranges is not None:
            for k in range(opponents):
                rng_ok = ranges[k]
                for _retry in range(3):
                    if rng_ok(sample[2 * k], sample[2 * k + 1]):
                        break
                    sample = _redraw(sample, k, rest, rng)
        extra = [codes[c] for c in sample[opponents * 2:]]
        table = shown + extra
        me = rank_codes(mine + table)
        best_other = max(rank_codes([codes[sample[2 * k]], codes[sample[2 * k + 1]], *table]) for k in range(opponents))
        if me > best_other:
            total += 1.0
        elif me == best_other:
            ties = 1 + sum(1 for k in range(opponents)
                           if rank_codes([codes[sample[2 * k]], codes[sample[2 * k + 1]], *table]) == me)
            total += 1.0 / ties
    return total / trials


def _redraw(sample: list[str], k: int, rest: list[str], rng: random.Random) -> list[str]:
    """``sample`` with opponent ``k``'s two cards drawn again among the unused ones."""
    used = set(sample)
    while True:
        a, b = rng.sample(rest, 2)
        if a not in used and b not in used:
            break
    out = list(sample)
    out[2 * k], out[2 * k + 1] = a, b
    return out
