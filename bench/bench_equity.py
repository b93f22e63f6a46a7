"""Hold'em equity trials per second: ours (tavern.bots.equity) against the
same computation written with eval7 (issue 29).

Run: ``.venv/bin/python bench/bench_equity.py`` (``make bench``, about half a
minute); ``--trials`` per spot and ``--repeats``.

The eval7 version is the very same Monte Carlo as ``equity()``: the unseen
cards in the same order, the same partial shuffle from the same seed (so
the same positions are drawn: both give the same equity, which the run
checks), the same range redraws, ties split the same way; it differs only in
valuing each seven-card hand with ``eval7.evaluate`` on eval7 ``Card``
objects (converted once, before the loop) instead of our inlined table
look-up. Times are the process's CPU time (``time.process_time``: on a
shared machine the wall clock also counts the moments other people's work
holds the core). Each figure is the best of ``--repeats`` runs of a spot, ours and
eval7's runs interleaved so that both meet the same load, which filters out
a shared machine's noise. Goal: ours at least as many trials per second.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import eval7

from tavern.bots.equity import DECK, Range, any_two, equity, top

_E7 = {c: eval7.Card(c) for c in DECK}


def equity_eval7(hole: Sequence[str], board: Sequence[str], opponents: int, rng: random.Random,
                 trials: int = 300, ranges: Sequence[Range] | None = None) -> float:
    """``equity()`` with eval7 valuing the hands (the ranges as sets of
    eval7 card pairs, as ours are sets of encoded pairs)."""
    known = set(hole) | set(board)
    pool = [_E7[c] for c in DECK if c not in known]
    mine = [_E7[c] for c in hole]
    shown = [_E7[c] for c in board]
    n, picks = len(pool), opponents * 2 + 5 - len(board)
    first_board = opponents * 2
    hand_steps = [(i, n - i) for i in range(first_board)]
    board_steps = [(i, n - i) for i in range(first_board, picks)]
    spare = n - picks
    checks = [] if ranges is None or spare < 2 else \
        [(2 * k, _pairs7(r)) for k, r in enumerate(ranges[:opponents]) if r is not any_two]
    evaluate = eval7.evaluate
    rnd = rng.random
    total = 0.0
    for _ in range(trials):
        for i, m in hand_steps:
            j = i + int(rnd() * m)
            pool[i], pool[j] = pool[j], pool[i]
        for i, m in board_steps:
            j = i + int(rnd() * m)
            c = pool[j]
            pool[j] = pool[i]
            pool[i] = c
        for k, ok in checks:
            for _retry in range(3):
                if (pool[k], pool[k + 1]) in ok:
                    break
                j = picks + int(rnd() * spare)
                pool[k], pool[j] = pool[j], pool[k]
                j = picks + int(rnd() * spare)
                pool[k + 1], pool[j] = pool[j], pool[k + 1]
        table = shown + pool[first_board:picks]
        me = evaluate(mine + table)
        ties = 0
        for k in range(0, first_board, 2):
            v = evaluate([pool[k], pool[k + 1], *table])
            if v > me:
                break
            if v == me:
                ties += 1
        else:
            total += 1.0 / (1 + ties)
    return total / trials


@lru_cache(maxsize=64)
def _pairs7(in_range: Range) -> frozenset[tuple[object, object]]:
    return frozenset((_E7[a], _E7[b]) for a in DECK for b in DECK if a != b and in_range(a, b))


#: The spots timed: hole, board, opponents, range (None: any two cards).
SPOTS: list[tuple[str, list[str], list[str], int, Range | None]] = [
    ("heads-up pre-flop", ["Ah", "Kd"], [], 1, None),
    ("heads-up flop, a range", ["Qs", "Qd"], ["2s", "7s", "9c"], 1, top(0.35)),
    ("3 opponents, turn", ["7h", "8h"], ["9h", "Tc", "2d", "Kh"], 3, None),
    ("5 opponents pre-flop, ranges", ["As", "Ks"], [], 5, top(0.6)),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=3_000)
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args()
    equity(["Ah", "Kd"], [], 1, random.Random(0), 10)  # builds the evaluator's tables outside the timing
    ratios = []
    print(f"== hold'em equity, trials per second (best of {args.repeats} × {args.trials:,} trials)")
    for name, hole, board, opp, rng_ in SPOTS:
        ranges = None if rng_ is None else [rng_] * opp
        rates = {"ours": 0.0, "eval7": 0.0}
        values = {}
        for _ in range(args.repeats):  # interleaved: both meet the same load
            for label, fn in (("ours", equity), ("eval7", equity_eval7)):
                t = time.process_time()
                values[label] = fn(hole, board, opp, random.Random(7), args.trials, ranges)
                rates[label] = max(rates[label], args.trials / (time.process_time() - t))
        same = "same equity" if values["ours"] == values["eval7"] else f"DIFFERENT: {values}"
        ratio = rates["ours"] / rates["eval7"]
        ratios.append(ratio)
        print(f"  {name:30s} ours {rates['ours']:9,.0f}/s  eval7 {rates['eval7']:9,.0f}/s  "
              f"ratio {ratio:4.2f}x  equity {values['ours']:.4f} ({same})")
    print(f"  lowest ratio {min(ratios):.2f}x (goal ≥ 1.00x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
