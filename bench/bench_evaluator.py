"""7-card evaluations per second: ours against treys (pure Python) and eval7 (C).

Run by ``make bench``; bounded to well under a minute. All three evaluate the
same seeded random seven-card hands in the same run, each with its inputs
already converted to its own card type (treys ints, eval7 Card objects, our
strings or our encoded ints), so only evaluation is timed. Each figure is the
best of a few repeats, which filters out a busy machine's noise.

Goal from issue 3: ours at least 5x treys.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import itertools

import eval7
from treys import Card, Evaluator

from tavern.cards import deck52
from tavern.games.poker import evaluator as ours

HANDS = 20_000  # ours and eval7
TREYS_HANDS = 4_000  # treys is ~20x slower; fewer hands keep the run short
REPEATS = 5


def once(evaluate: Callable[[object], object], hands: Sequence[object]) -> float:
    """Evaluations per second over one pass of ``hands``."""
    start = time.perf_counter()
    for h in hands:
        evaluate(h)
    return len(hands) / (time.perf_counter() - start)


def main() -> None:
    rng = random.Random(20261121)
    deck = deck52()
    hands = [rng.sample(deck, 7) for _ in range(HANDS)]

    codes = [ours.encode_all(h) for h in hands]
    treys_hands = [[Card.new(c) for c in h] for h in hands[:TREYS_HANDS]]
    eval7_hands = [[eval7.Card(c) for c in h] for h in hands]

    # The three must agree before their speeds mean anything.
    t_eval = Evaluator()
    sample = list(zip(hands[:400], treys_hands[:400], eval7_hands[:400], strict=False))
    for (a, ta, ea), (b, tb, eb) in itertools.pairwise(sample):
        mine = (ours.rank7(a) > ours.rank7(b)) - (ours.rank7(a) < ours.rank7(b))
        # treys: lower is better.
        theirs = (t_eval.evaluate(ta[:2], ta[2:]) < t_eval.evaluate(tb[:2], tb[2:])) - (
            t_eval.evaluate(ta[:2], ta[2:]) > t_eval.evaluate(tb[:2], tb[2:])
        )
        e7 = (eval7.evaluate(ea) > eval7.evaluate(eb)) - (eval7.evaluate(ea) < eval7.evaluate(eb))
        assert mine == theirs == e7, (a, b)

    ours.build_tables()  # one-off, not an evaluation cost
    contenders: dict[str, tuple[Callable[[object], object], Sequence[object]]] = {
        "rank7": (ours.rank7, hands),  # type: ignore[dict-item]
        "rank7_codes": (ours.rank7_codes, codes),  # type: ignore[dict-item]
        "evaluate": (ours.evaluate, hands[:4000]),  # type: ignore[dict-item]
        "evaluate+cards": (lambda h: ours.evaluate(h).cards, hands[:4000]),  # type: ignore[arg-type]
        "treys": (lambda h: t_eval.evaluate(h[:2], h[2:]), treys_hands),  # type: ignore[index]
        "eval7": (eval7.evaluate, eval7_hands),  # type: ignore[dict-item]
    }
    # Round-robin repeats, best of each: on a shared machine a burst of load
    # then hits every contender alike instead of one of them.
    best = dict.fromkeys(contenders, 0.0)
    for _ in range(REPEATS):
        for name, (fn, data) in contenders.items():
            best[name] = max(best[name], once(fn, data))
    ours_str, ours_codes, treys, e7 = best["rank7"], best["rank7_codes"], best["treys"], best["eval7"]

    print(f"7-card evaluations per second, {HANDS:,} random hands, best of {REPEATS}")
    print(f"  ours rank7 (card codes)        {ours_str:12,.0f}/s")
    print(f"  ours rank7_codes (encoded)     {ours_codes:12,.0f}/s")
    print(f"  ours evaluate (checked)        {best['evaluate']:12,.0f}/s")
    print(f"  ours evaluate + .cards         {best['evaluate+cards']:12,.0f}/s")
    print(f"  treys Evaluator.evaluate       {treys:12,.0f}/s   (pure Python)")
    print(f"  eval7.evaluate                 {e7:12,.0f}/s   (compiled)")
    print(f"  ratio ours/treys: rank7 {ours_str / treys:5.1f}x   rank7_codes {ours_codes / treys:5.1f}x"
          f"   (goal >= 5x)")
    print(f"  ratio ours/eval7: rank7 {ours_str / e7:5.2f}x   rank7_codes {ours_codes / e7:5.2f}x")


if __name__ == "__main__":
    main()
