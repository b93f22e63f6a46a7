"""Best-arrangement speed of the rami meld machinery, against OpenSpiel.

Run: ``.venv/bin/python bench/bench_melds.py`` (``make bench``), about a minute.

Measures, in the same run and on the same random joker-free 10-card hands
(one deck, ace low, figures 10, ace 1 — OpenSpiel's gin counting):

- ours: ``best_arrangement`` (melds + deadwood + points) and ``min_deadwood``
  (points only), pure Python;
- OpenSpiel's compiled ``GinRummyUtils.min_deadwood`` (C++ through pybind11),
  fed the same hands as its card integers (converted before timing);

then ours on 10-card hands holding one or two jokers (Double rami rules: two
decks, ace high too). The machine is shared, so the hands are timed in chunks,
the contenders in turn, each chunk's best of several rounds; the first, cold pass
is printed too, since our per-suit tables are memoized per rule set as hands come.
"""

from __future__ import annotations

import random
import sys
import time

from tavern.cards import deck
from tavern.games.rami.melds import MeldRules, best_arrangement, min_deadwood

N = 20_000
ROUNDS = 5
CHUNK = 500
RAMI = MeldRules()
DOUBLE = MeldRules(ace_high=True, jokers=True, ace_points=11, joker_points=15)


def rate(fn, items, rounds=ROUNDS) -> tuple[float, float]:
    """(cold rate, best rate) in calls per second."""
    rates = []
    for _ in range(rounds):
        t = time.perf_counter()
        for h in items:
            fn(h)
        rates.append(len(items) / (time.perf_counter() - t))
    return rates[0], max(rates)


def main() -> int:
    rng = random.Random(20261122)
    pack = deck()
    hands = [rng.sample(pack, 10) for _ in range(N)]
    try:
        import pyspiel
    except ImportError:  # pragma: no cover
        print("open-spiel is not installed: pip install -e '.[bench]'")
        return 1
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    ints = [["scdh".index(c[1]) * 13 + "A23456789TJQK".index(c[0]) for c in h] for h in hands]
    # same answers first (the test suite checks 20,000 more)
    for h, i in zip(hands[:2000], ints[:2000], strict=False):
        assert min_deadwood(h, RAMI) == utils.min_deadwood(i), h

    # cold: the very first pass over the hands (our per-suit tables fill up)
    cold_b = rate(lambda h: best_arrangement(h, RAMI), hands, 1)[0]
    cold_m = rate(lambda h: min_deadwood(h, RAMI), hands, 1)[0]
    # warm: chunk by chunk, the three contenders in turn, best of ROUNDS per chunk,
    # so that a busy neighbour (2 shared cores) hurts every side alike
    spent = {"peer": 0.0, "best": 0.0, "min": 0.0}
    calls = {
        "peer": lambda chunk_h, chunk_i: [utils.min_deadwood(i) for i in chunk_i],
        "best": lambda chunk_h, chunk_i: [best_arrangement(h, RAMI) for h in chunk_h],
        "min": lambda chunk_h, chunk_i: [min_deadwood(h, RAMI) for h in chunk_h],
    }
    for a in range(0, N, CHUNK):
        ch, ci = hands[a : a + CHUNK], ints[a : a + CHUNK]
        for name, fn in calls.items():
            times = []
            for _ in range(ROUNDS):
                t = time.perf_counter()
                fn(ch, ci)
                times.append(time.perf_counter() - t)
            spent[name] += min(times)
    peer, ours_b, ours_m = (N / spent[k] for k in ("peer", "best", "min"))

    jpack = deck(decks=2, jokers=2)
    jhands = []
    while len(jhands) < 3000:
        h = rng.sample(jpack, 10)
        if any(c[0] == "X" for c in h):
            jhands.append(h)
    # the general path keeps recent hands: warm it on other hands, then time
    # each measured hand once (no hand is seen twice)
    cold_j = rate(lambda h: best_arrangement(h, DOUBLE), jhands[:1500], 1)[0]
    ours_j = rate(lambda h: best_arrangement(h, DOUBLE), jhands[1500:], 1)[0]

    print(f"10-card hands, one deck, no joker ({N:,} hands; per {CHUNK}-hand chunk the best of {ROUNDS} rounds):")
    print(f"  OpenSpiel min_deadwood (C++)      {peer:>11,.0f} /s")
    print(f"  ours best_arrangement (Python)    {ours_b:>11,.0f} /s   (cold first round {cold_b:,.0f} /s)"
          f"   ratio OpenSpiel/ours = {peer / ours_b:.2f}x")
    print(f"  ours min_deadwood (Python)        {ours_m:>11,.0f} /s   (cold first round {cold_m:,.0f} /s)"
          f"   ratio OpenSpiel/ours = {peer / ours_m:.2f}x")
    print("  goal: within 3x of OpenSpiel")
    print("10-card hands with 1-2 jokers, two decks, Double rami rules (1,500 hands, each once):")
    print(f"  ours best_arrangement (Python)    {ours_j:>11,.0f} /s   (first 1,500 hands, cold: {cold_j:,.0f} /s)"
          "   (OpenSpiel has no jokers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
