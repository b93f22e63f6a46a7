"""Two ways of the Rummoli « habitué » on the very same deals (docs/bots.md, Rummoli).

Run: ``.venv/bin/python bench/bench_rummoli.py --deals 6000`` (about two
minutes). Each deal is dealt once from its seed and played twice, the
habitué at one seat against three greedy players, once per way, each time
with a policy generator seeded alike; the figure is the difference of his
edge (his chips won less the others' mean), deal by deal, with its 95 %
interval (normal approximation). Paired so: in bench_simple_bots.py the policies
draw from the generator that seeds the next deals, so two players part ways
after their first different move and their runs are not on the same deals.

``--vary restarts``: his own restarts in the play-outs keep the lead
(``rummoli_sim.KEEP_LEAD``) or go at his lowest card; ``--vary samples``:
80 deals a decision against 40 (``rummoli.SAMPLES``, ``WIDOW_SAMPLES``).
Single deals, a fresh board each (no carry).
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from tavern.bots import policy, rummoli, rummoli_sim
from tavern.bots.arena import new_deal, play
from tavern.bots.simple import greedy_player

NAMES = ["H", "V1", "V2", "V3"]


def edge(seed: int) -> float:
    """The habitué's edge over the deal dealt from ``seed``."""
    order = NAMES[:]
    random.Random(seed).shuffle(order)
    engine = new_deal("rummoli", order, seed % len(order), seed=seed)
    seats = {p: policy("rummoli", "habitué") if p == "H" else greedy_player("rummoli") for p in order}
    play(engine, seats, random.Random(7 * seed + 1))
    delta = engine.result()["delta"]
    return float(delta["H"] - sum(delta[p] for p in order if p != "H") / (len(order) - 1))


def way(vary: str, first: bool) -> None:
    """Set the module constants for one of the two ways compared."""
    if vary == "restarts":
        rummoli_sim.KEEP_LEAD = first
    else:
        rummoli.SAMPLES = rummoli.WIDOW_SAMPLES = 80 if first else 40


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=100000, help="the first deal's seed (the next ones follow)")
    ap.add_argument("--vary", choices=("restarts", "samples"), default="restarts")
    args = ap.parse_args()
    diffs = []
    for seed in range(args.seed, args.seed + args.deals):
        way(args.vary, True)
        a = edge(seed)
        way(args.vary, False)
        diffs.append(a - edge(seed))
    n = len(diffs)
    m = sum(diffs) / n
    half = 1.96 * math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1) / n)
    same = sum(1 for x in diffs if x == 0)
    print(f"{args.vary}: edge of the first way less the second, {n} deals: {m:+.3f} [{m - half:+.3f}, {m + half:+.3f}]"
          f" chips a deal; {same} deals played alike")
    return 0


if __name__ == "__main__":
    sys.exit(main())
