"""The cost of one all-in equity (issue 29 "Beyond"): the figures a finished
Ramponneau deal carries when nobody could bet any more before the river
(``tavern.games.poker.equity.permille``), at each street, 2 to 6 hands.

Run: ``.venv/bin/python bench/bench_allin_equity.py`` (about ten seconds);
``--repeats`` random spots per cell. Each spot is dealt from a seeded
shuffle (the same spots every run) and timed in CPU time
(``time.process_time``: on a shared machine the wall clock also counts the
moments other people's work holds the core). Printed: the median and the
slowest spot of each cell, in milliseconds. A deal computes it once, with
the street it went all in on and each street after it before the river
(before the flop: the three cells of its row added up).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tavern.cards import deck52
from tavern.games.poker.equity import permille
from tavern.games.poker.evaluator import build_tables

STREETS = {"pre-flop": 0, "flop": 3, "turn": 4}


def spot(rng: random.Random, hands: int, board: int) -> tuple[list[list[str]], list[str]]:
    deck = deck52()
    rng.shuffle(deck)
    return [deck[2 * k:2 * k + 2] for k in range(hands)], deck[2 * hands:2 * hands + board]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    build_tables()  # once per process, as a server does at start
    rng = random.Random(29)
    print(f"{'hands':>5} " + " ".join(f"{s:>18}" for s in STREETS))
    for hands in range(2, 7):
        cells = []
        for board in STREETS.values():
            times = []
            for _ in range(args.repeats):
                holes, cards = spot(rng, hands, board)
                t = time.process_time()
                permille(holes, cards)
                times.append(1000 * (time.process_time() - t))
            cells.append(f"{statistics.median(times):8.1f} (max {max(times):5.1f})")
        print(f"{hands:>5} " + " ".join(f"{c:>18}" for c in cells))


if __name__ == "__main__":
    main()
