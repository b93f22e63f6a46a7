"""What the per-card reveal costs a table at each deal's end (issue 42 §6):
``fair_cards.seen_positions`` replays the finished deal and reads each
player's view after every step, in a worker thread before the settlement.

Run: ``.venv/bin/python bench/bench_fair_reveal.py [DEALS]`` (``make bench``),
under a minute. For each of the eight games, ``DEALS`` deals (20 by default)
shuffled by the fair stream and played to their end by each engine's own
time-out move (what a table plays for an absent player), 3 players (Gin 2);
prints the deal's actions and the time to work out who saw which position:
median and worst, in milliseconds, best of 3 runs per deal (the machine is
shared). The players' views are the table's own (``engine.view``); their
cost is the game's, paid at every publication during the deal too.
"""

from __future__ import annotations

import statistics
import sys
import time

from tavern import fair, fair_cards
from tavern.games import registry

CONFIGS = {"ramponneau": {"small_blind": 1, "big_blind": 2}, "draw": {"small_blind": 1, "big_blind": 2}}


def played(game: str, k: int) -> dict:
    names = ["ana", "bob"] if game == "gin" else ["ana", "bob", "cid"]
    dealt = fair.DealSeed(bytes([k % 256, k // 256]) + bytes(30))
    seeds = [f"s{k}{n}" for n in names]
    stream = dealt.stream(1, k + 1, seeds)
    engine = registry.load(game).new_deal(CONFIGS.get(game, {}), [{"player": n, "chips": 500} for n in names],
                                          k % len(names), rng=stream)
    for _ in range(5000):
        if engine.over:
            break
        who = engine.to_act()[0]
        move = dict(engine.timeout_action(who))
        engine.act(who, move.pop("action"), **move)
    return {**engine.record(), "fair": dealt.block(1, k + 1, names, seeds, stream)}


def main(deals: int) -> None:
    print(f"{'game':<12} {'actions':>8} {'median ms':>10} {'worst ms':>9}")
    for game in registry.GAMES:
        times, actions = [], []
        for k in range(deals):
            record = played(game, k)
            best = min(_timed(record) for _ in range(3))
            times.append(best * 1000)
            actions.append(len(record["actions"]))
        print(f"{game:<12} {statistics.median(actions):>8.0f} {statistics.median(times):>10.1f} {max(times):>9.1f}")


def _timed(record: dict) -> float:
    t = time.perf_counter()
    fair_cards.seen_positions(record)
    return time.perf_counter() - t


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
