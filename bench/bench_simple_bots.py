"""How strong the house players are, and how fast they decide (issue 29).

Run: ``.venv/bin/python bench/bench_simple_bots.py`` (``make bench``: the default
sizes take a few minutes on a shared machine); ``--deals``, ``--hands`` and
``--gin-hands`` for bigger runs, ``--games`` to pick games, ``--no-openspiel``.

Measures, every seat but one held by the opponent, the « habitué » seat moving
round the table with the button:

* every game but Ramponneau: « habitué » against the random legal player,
  the greedy one-move player (tavern.bots.simple) and « débutant »: the
  share of deals the habitué ends ahead (chips won > 0) with its Wilson 95 %
  interval, beside an even share (1 / players), and his mean chips won per
  deal with its 95 % interval (normal approximation); deals are played in
  sessions of ten carrying the pot/board/match sheet as a table does;
* Ramponneau, heads-up and 6-max, 200 big blinds deep, chips reset each
  hand: bb/100 with its 95 % interval (normal approximation) against
  always-call, random, raise-strong/call-fair/fold-rest and « débutant »;
* the p99 of the habitué's decision time (CPU time), every game together and per game;
* Gin against OpenSpiel's ``simple_gin_rummy_bot`` in OpenSpiel's own
  ``gin_rummy`` (bench/_openspiel_gin.py): win rate, Wilson 95 %.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from tavern.bots import Policy, policy
from tavern.bots.arena import PLAYERS, new_deal, play
from tavern.bots.simple import always_call, greedy_player, raise_call_fold, random_player
from tavern.games import registry

HERO = "H"
SESSION = 10


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """The share k/n and its Wilson score interval."""
    if n == 0:
        return 0.0, 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, centre - half, centre + half


def mean_ci(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return m, m - half, m + half


class Timed:
    """A policy whose decision times are kept (seconds of the process's CPU
    time: on a shared machine the wall clock also counts the moments other
    people's work holds the core, which says nothing of the policy)."""

    def __init__(self, inner: Policy, into: list[float]) -> None:
        self.inner, self.into = inner, into

    def __call__(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        t = time.process_time()
        move = self.inner(view, legal, rng)
        self.into.append(time.process_time() - t)
        return move


def series(game: str, hero: Policy, villain: Callable[[], Policy], deals: int, n: int, seed: int) -> list[int]:
    """The habitué's chips won, deal by deal, in sessions of ``SESSION`` deals."""
    return [won for won, _ in series_edge(game, hero, villain, deals, n, seed)]


def series_edge(game: str, hero: Policy, villain: Callable[[], Policy], deals: int, n: int,
                seed: int) -> list[tuple[int, float]]:
    """Deal by deal, the habitué's chips won and his *edge*: his chips won
    less the mean of the others'. Where chips stay on the table from deal to
    deal (Rummoli's unwon sections and deadlock pot, Rams' pot) every seat
    loses on average, so his chips won, even for a player as good as the
    others, are below 0; the edge of an equal player is 0 whatever the
    table keeps (the seats are alike)."""
    names = [HERO] + [f"V{i}" for i in range(1, n)]
    rng = random.Random(seed)
    won: list[tuple[int, float]] = []
    while len(won) < deals:
        chips: dict[str, int] = {p: 1000 for p in names}
        carry = None
        order = names[:]
        rng.shuffle(order)
        for k in range(SESSION):
            if len(won) >= deals:
                break
            engine = new_deal(game, order, k % n, seed=rng.randrange(1 << 30), chips=chips, carry=carry)
            seats = {p: (hero if p == HERO else villain()) for p in order}
            play(engine, seats, rng)
            res = engine.result()
            others = [res["delta"][p] for p in order if p != HERO]
            won.append((res["delta"][HERO], res["delta"][HERO] - sum(others) / len(others)))
            chips = {p: res["chips"][p] for p in order}
            carry = res.get("carry")
            if min(chips.values()) <= 0:
                break
    return won


def holdem(hero: Policy, villain: Policy, hands: int, n: int, seed: int, bb: int = 2) -> list[float]:
    """The habitué's result in big blinds, hand by hand."""
    names = [HERO] + [f"V{i}" for i in range(1, n)]
    rng = random.Random(seed)
    out: list[float] = []
    for k in range(hands):
        order = names[:]
        rng.shuffle(order) if k % n == 0 else None
        engine = new_deal("ramponneau", order, k % n, seed=rng.randrange(1 << 30), chips=200 * bb)
        play(engine, {p: (hero if p == HERO else villain) for p in order}, rng)
        out.append(engine.result()["delta"][HERO] / bb)
    return out


def p99(xs: list[float]) -> float:
    s = sorted(xs)
    return 1000 * s[min(len(s) - 1, int(0.99 * len(s)))] if s else 0.0


def report_times(times: dict[str, list[float]]) -> None:
    print("== decision time at « habitué » (ms of CPU time): p99 per game, then all together")
    for game, ts in times.items():
        print(f"  {game:12s} p99 {p99(ts):6.2f}  max {1000 * max(ts, default=0):6.1f}  ({len(ts)} decisions)")
    every = [t for ts in times.values() for t in ts]
    print(f"  {'all':12s} p99 {p99(every):6.2f}  ({len(every)} decisions; goal ≤ 20 ms)")


def against_openspiel(hands: int, seed: int) -> None:
    try:
        from _openspiel_gin import against_simple_bot
    except ImportError as exc:  # pragma: no cover
        print(f"OpenSpiel not available ({exc}): pip install -e '.[bench]'")
        return
    wins, losses, draws = against_simple_bot(hands, seed)
    p, lo, hi = wilson(wins, wins + losses)
    print(f"== gin vs OpenSpiel simple_gin_rummy_bot, {hands} hands: won {wins}, lost {losses}, "
          f"void {draws}; win rate of decided hands {p:.1%} [{lo:.1%}, {hi:.1%}] (Wilson 95 %)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=150, help="deals per game and opponent (not Ramponneau)")
    ap.add_argument("--hands", type=int, default=400, help="Ramponneau hands per opponent and table size")
    ap.add_argument("--gin-hands", type=int, default=300, help="hands against OpenSpiel's simple gin bot")
    ap.add_argument("--games", default=",".join(registry.GAMES), help="games to measure (comma-separated)")
    ap.add_argument("--tables", default="2,6", help="Ramponneau table sizes (comma-separated)")
    ap.add_argument("--opponents", default="", help="only these opponents (comma-separated names; default: all)")
    ap.add_argument("--no-openspiel", action="store_true")
    ap.add_argument("--seed", type=int, default=20261127)
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g]
    wanted = {o for o in args.opponents.split(",") if o}
    times: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    for game in games:
        times[game] = []
        hero = Timed(policy(game, "habitué"), times[game])
        if game == "ramponneau":
            print(f"== ramponneau: habitué, bb/100 with 95 % interval (normal approx.), {args.hands} hands each, 200 bb deep")
            opponents: dict[str, Policy] = {"always-call": always_call, "random": random_player,
                                            "raise/call/fold": raise_call_fold, "débutant": policy(game, "débutant")}
            for n in (int(t) for t in args.tables.split(",")):
                for name, villain in opponents.items():
                    if wanted and name not in wanted:
                        continue
                    t1 = time.perf_counter()
                    xs = holdem(hero, villain, args.hands, n, args.seed + n)
                    m, lo, hi = mean_ci(xs)
                    print(f"  {n}-max vs {name:16s} {100 * m:+8.1f} bb/100  [{100 * lo:+8.1f}, {100 * hi:+8.1f}]"
                          f"  ({time.perf_counter() - t1:.0f} s)", flush=True)
            continue
        n = PLAYERS[game]
        print(f"== {game}: habitué vs {n - 1} opponents, {args.deals} deals each; even share = {1 / n:.0%}")
        villains: dict[str, Callable[[], Policy]] = {
            "random": lambda: random_player, "greedy": lambda g=game: greedy_player(g),
            "débutant": lambda g=game: policy(g, "débutant"),
        }
        for name, make in villains.items():
            if wanted and name not in wanted:
                continue
            pairs = series_edge(game, hero, make, args.deals, n, args.seed)
            p, lo, hi = wilson(sum(1 for w, _ in pairs if w > 0), len(pairs))
            m, mlo, mhi = mean_ci([float(w) for w, _ in pairs])
            e, elo, ehi = mean_ci([d for _, d in pairs])
            print(f"  vs {name:9s} ahead {p:6.1%} [{lo:6.1%}, {hi:6.1%}]   chips/deal {m:+8.2f} [{mlo:+8.2f}, {mhi:+8.2f}]"
                  f"   edge {e:+8.2f} [{elo:+8.2f}, {ehi:+8.2f}]", flush=True)
    report_times(times)
    if not args.no_openspiel and "gin" in games:
        against_openspiel(args.gin_hands, args.seed)
    print(f"({time.perf_counter() - t0:.0f} s; load average {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
