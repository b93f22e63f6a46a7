"""The card games' house players measured in duplicate format (issue 37 §3).

Run: ``.venv/bin/python bench/bench_cards.py --game rami --hero habitué --villain club --deals 3000``
(without ``--game``, as ``make bench`` runs it: every card game, 20 deals each — a smoke run).

Every deal is dealt once from its seed and played ``n`` times (``n`` the
players at the table), the seats rotated so that the measured player holds
each seat's hand once, the other seats held by the opponent (a fresh one per
deal: it remembers that deal only): the luck of the cards falls on both
sides alike. One deal's figure is the measured player's *edge* averaged over
its rotations — his chips won less the mean of the others' (where chips stay
on the table, Rams' pot, an equal player's edge is still 0). Reported: the
mean edge per deal with its 95 % interval (normal approximation over deals)
and the interval's width, the share of deals he ends ahead, and the p99 and
max of his decision time in CPU milliseconds.

Opponents: ``club`` (bench/_card_opponents.py, from the rules alone) or a
house level (``débutant``, ``habitué``, ``fort``). Rams' deals start with a
pot drawn from the seed (empty — forced, everybody plays — or 5, 10 or 20
chips, where speaking matters); Rummoli's with an empty board.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from _card_opponents import club
from tavern.bots import LEVELS, Policy, policy
from tavern.bots.arena import PLAYERS, new_deal, play

HERO = "H"


def opponent(game: str, name: str) -> Callable[[], Policy]:
    if name == "club":
        return lambda: club(game)
    if name in LEVELS:
        return lambda: policy(game, name)
    raise SystemExit(f"unknown opponent {name!r}: club or one of {', '.join(LEVELS)}")


def carry_for(game: str, rng: random.Random) -> dict[str, Any] | None:
    if game == "rams":
        pot = rng.choice([0, 5, 10, 20])
        return {"pot": pot, "forced": pot == 0}
    return None


def duplicate(game: str, hero_level: str, villain: Callable[[], Policy], deals: int, seed: int,
              times: list[float], hero: Callable[[], Policy] | None = None) -> list[tuple[float, float]]:
    """Per deal: the hero's edge and his share of rotations ended ahead, each
    averaged over the rotations (``hero``: another player than the house's
    at ``hero_level``, as the tests check the format with)."""
    n = PLAYERS[game]
    names = [HERO] + [f"V{i}" for i in range(1, n)]
    master = random.Random(seed)
    out: list[tuple[float, float]] = []
    for _ in range(deals):
        deal_seed = master.randrange(1 << 30)
        carry = carry_for(game, random.Random(deal_seed))
        edges, ahead = 0.0, 0.0
        for r in range(n):
            order = names[n - r:] + names[: n - r]  # the hero at seat r
            inner = hero() if hero is not None else policy(game, hero_level)

            def timed(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random,
                      inner: Policy = inner) -> dict[str, Any]:
                t = time.process_time()
                move = inner(view, legal, rng)
                times.append(time.process_time() - t)
                return move

            seats = {p: (timed if p == HERO else villain()) for p in order}
            engine = new_deal(game, order, 0, seed=deal_seed, carry=carry)
            play(engine, seats, random.Random(deal_seed + r))
            delta = engine.result()["delta"]
            others = [delta[p] for p in order if p != HERO]
            edges += delta[HERO] - sum(others) / len(others)
            ahead += delta[HERO] > max(others)
        out.append((edges / n, ahead / n))
    return out


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * (var / n) ** 0.5
    return m, m - half, m + half


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    games = sorted(g for g in PLAYERS if g not in ("ramponneau", "draw"))
    ap.add_argument("--game", choices=games, help="one game (default: every card game, a smoke run)")
    ap.add_argument("--hero", default="habitué", choices=LEVELS)
    ap.add_argument("--villain", default="club")
    ap.add_argument("--deals", type=int, default=None, help="deals (default 300 for one game, 20 each for all)")
    ap.add_argument("--seed", type=int, default=20261207)
    args = ap.parse_args()
    for game in [args.game] if args.game else games:
        report(game, args.hero, args.villain, args.deals or (300 if args.game else 20), args.seed)
    return 0


def report(game: str, hero: str, villain: str, deals: int, seed: int) -> None:
    times: list[float] = []
    t0 = time.perf_counter()
    rows = duplicate(game, hero, opponent(game, villain), deals, seed, times)
    m, lo, hi = mean_ci([e for e, _ in rows])
    share = sum(a for _, a in rows) / len(rows)
    ts = sorted(times)
    p99 = 1000 * ts[int(0.99 * (len(ts) - 1))]
    print(f"{game} {hero} vs {PLAYERS[game] - 1}×{villain}, {deals} deals duplicate "
          f"(seed {seed}): edge {m:+.2f} chips/deal [{lo:+.2f}, {hi:+.2f}] width {hi - lo:.2f}; "
          f"ahead {share:.1%} (even {1 / PLAYERS[game]:.0%}); decision p99 {p99:.1f} ms max {1000 * ts[-1]:.0f} ms CPU "
          f"({len(ts)} decisions, {time.perf_counter() - t0:.0f} s, load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    sys.exit(main())
