"""The equity of hold'em hands shown at an all-in (issue 29 "Beyond").

When nobody can bet any more before the river, the hands are tabled and the
rest of the board is dealt (docs/games/poker.md "Rulings"); the table and the
replayer then show each hand's share of the pot, ties split, as the poker
rooms' broadcasts do. Valued with the evaluator's fast tables
(:func:`tavern.games.poker.evaluator.fast_tables`), the look-up the house
players' Monte Carlo inlines (``tavern.bots.equity``, which the engine may not
import: the bots import the engines).

Deterministic for a given deal: on the flop (at most 990 turn-river pairs,
heads-up) and the turn (at most 44 rivers) every runout is counted; before the flop a
Monte Carlo of :data:`PREFLOP_TRIALS` boards seeded from the hands themselves
(the same hands always give the same figures, at the table and in its replay).
Only the cards shown count as known: a folded hand's cards were never seen,
so they stay in the deck the runouts are drawn from (using them would tell
the table something it did not see).
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Iterable, Sequence
from itertools import combinations

from tavern.cards import deck52
from tavern.games.poker.evaluator import encode, fast_tables

#: Boards drawn before the flop: the standard error of a share is at most
#: 0.5 / sqrt(40,000) = 0.25 point, so the figure is within ±0.5 point 19
#: times in 20 (docs/bots.md "The equity at an all-in").
PREFLOP_TRIALS = 40_000
_DECK = tuple(deck52())


def shares(holes: Sequence[Sequence[str]], board: Sequence[str], trials: int | None = None) -> list[float]:
    """Each hand's share of a pot they all contest (0..1, ties split, the
    shares summing to 1), the board completed in every way (three or four
    board cards) or ``trials`` ways drawn with a seed made of the cards
    (fewer; :data:`PREFLOP_TRIALS` by default, read at each call). Five board
    cards: the showdown itself."""
    trials = trials or PREFLOP_TRIALS
    hands = [[encode(c) for c in h] for h in holes]
    shown = [encode(c) for c in board]
    known = {c for h in holes for c in h} | set(board)
    pool = [encode(c) for c in _DECK if c not in known]
    need = 5 - len(board)
    if need <= 2:
        runouts: Iterable[Sequence[int]] = combinations(pool, need)
        count = None
    else:
        runouts = _drawn(pool, need, trials, _seed(holes, board))
        count = trials
    wins = _count(hands, shown, runouts)
    total = count if count is not None else _ncr(len(pool), need)
    return [w / total for w in wins]


def permille(holes: Sequence[Sequence[str]], board: Sequence[str], trials: int | None = None) -> list[int]:
    """:func:`shares` in tenths of a percent, rounded (what the table sends:
    integers, never floats on the wire). Remembered for the last
    :data:`REMEMBERED` all-ins: the same cards always give the same figures,
    and each replay of a deal builds its engine again (up to 0.2 s of CPU
    before the flop)."""
    return list(_permille(tuple(tuple(h) for h in holes), tuple(board), trials or PREFLOP_TRIALS))


#: All-ins whose equity is kept (a few hundred bytes each).
REMEMBERED = 2048


@functools.lru_cache(maxsize=REMEMBERED)
def _permille(holes: tuple[tuple[str, ...], ...], board: tuple[str, ...], trials: int) -> tuple[int, ...]:
    return tuple(round(1000 * s) for s in shares(holes, board, trials))


def _count(hands: list[list[int]], shown: list[int], runouts: Iterable[Sequence[int]]) -> list[float]:
    """Pots won over ``runouts``, each split between its best hands. The
    look-up of ``evaluator.rank7_codes`` inlined, as the bots' loop does: a
    hand's seven codes summed index the plain table unless a suit holds
    five, then the suited one by the ranks held in that suit; a board with
    fewer than three cards of every suit (two boards in three) gives no hand
    a flush and skips the test."""
    plain, suited, flush_bits, shift, flush_mask = fast_tables()
    sums = [sum(h) for h in hands]
    shown_sum = sum(shown)
    # A suit's field reaches its flush bit with 5 + 5 per card (evaluator.py):
    # adding 12 to each field of a five-card board's sum sets the bit when
    # the board holds three of the suit or more.
    three = 12 * (flush_bits >> 5)
    n = len(hands)
    seats = range(n)
    wins = [0.0] * n
    for extra in runouts:
        table = shown_sum + sum(extra)
        best, winners = -1, []
        if (table + three) & flush_bits:
            for k in seats:
                s = table + sums[k]
                f = s & flush_bits
                v = suited[flush_mask([*hands[k], *shown, *extra], f)] if f else plain[s >> shift]
                if v > best:
                    best, winners = v, [k]
                elif v == best:
                    winners.append(k)
        else:
            for k in seats:
                v = plain[(table + sums[k]) >> shift]
                if v > best:
                    best, winners = v, [k]
                elif v == best:
                    winners.append(k)
        part = 1.0 / len(winners)
        for k in winners:
            wins[k] += part
    return wins


def _drawn(pool: list[int], need: int, trials: int, seed: int) -> Iterable[tuple[int, ...]]:
    """``trials`` boards of ``need`` cards from ``pool``, each a uniform
    sample (a partial Fisher–Yates in place, as the bots' loop)."""
    rnd = random.Random(seed).random
    pool = list(pool)
    steps = [(i, len(pool) - i) for i in range(need)]
    for _ in range(trials):
        for i, m in steps:
            j = i + int(rnd() * m)
            pool[i], pool[j] = pool[j], pool[i]
        yield tuple(pool[:need])


def _seed(holes: Sequence[Sequence[str]], board: Sequence[str]) -> int:
    """The deal's own data: the shown hands, in order, and the board."""
    text = "|".join(" ".join(h) for h in holes) + "/" + " ".join(board)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _ncr(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


__all__ = ["PREFLOP_TRIALS", "REMEMBERED", "permille", "shares"]
