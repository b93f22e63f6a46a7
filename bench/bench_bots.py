"""Every figure issue 37 asks of the house players, in one run.

Run (the machine is shared: ``nice``, one process)::

    .venv/bin/python bench/bench_bots.py --quick                  # make bench: every line, tiny sizes (a smoke run)
    nice -n 10 .venv/bin/python bench/bench_bots.py               # the issue's sizes: many hours
    nice -n 10 .venv/bin/python bench/bench_bots.py --games gin --levels fort --opponents habitué

What it prints, every figure with its 95 % interval, its width, its size,
the seed and its decision time:

* **strength, duplicate format** (every deal played again with the seats
  rotated, bench/_duplicate.py and bench/bench_cards.py): each level
  (« débutant », « habitué », « fort ») against the club players written
  from the rules alone — at poker the tight-aggressive, loose-aggressive,
  calling station and rock of bench/_poker_opponents.py (Ramponneau
  heads-up and 6-max, draw poker heads-up), at every other game the club
  player of bench/_card_opponents.py — then « fort » against « habitué »
  and « habitué » against « débutant ». Poker in bb/100, the other games
  in chips a deal (the measured player's edge: his chips won less the
  others' mean);
* **the house purse** (§4): one tight-aggressive player against five house
  seats at 6-max Ramponneau, at « habitué » and at « fort », in bb/100;
* **decision time**: the p99 of each level's decisions per game (CPU time)
  against its budget (20 ms at « débutant » and « habitué », 200 ms at « fort »).

Sizes (``--quick`` divides them by ``QUICK``): the issue's — 20,000 hands
heads-up hold'em (10,000 a rotation), 6,000 at 6-max, 6,000 of draw poker,
3,000 deals of each card game but Gin's 2,000 hands, the purse's 10,000
hands. ``--scale`` multiplies them. The single benches (bench/bench_poker.py,
bench/bench_cards.py) run one line each.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_cards
import bench_poker
from _duplicate import run
from tavern.bots.arena import CONFIGS, PLAYERS
from tavern.bots.levels import BEGINNER, FORT, LEVELS, REGULAR

#: (game, table size, hands a rotation) of the poker lines.
POKER = [("ramponneau", 2, 10_000), ("ramponneau", 6, 1_000), ("draw", 2, 3_000)]
POKER_CLUB = ("tag", "lag", "station", "rock")
#: Deals of each card game (Gin: hands).
CARDS = {"rami": 3000, "double_rami": 3000, "remigio": 3000, "gin": 2000, "rummoli": 3000, "rams": 3000}
PURSE_HANDS = 10_000
QUICK = 100
BUDGET_MS = {BEGINNER: 20.0, REGULAR: 20.0, FORT: 200.0}
#: Each level against the level below it (§2: « fort » beats « habitué », « habitué » beats « débutant »).
LADDER = ((FORT, REGULAR), (REGULAR, BEGINNER))


@dataclass
class Sizes:
    scale: float

    def of(self, n: int, least: int) -> int:
        return max(least, round(n * self.scale))


def p99_ms(ts: list[float]) -> float:
    s = sorted(ts)
    return 1000 * s[min(len(s) - 1, int(0.99 * len(s)))] if s else 0.0


def line(label: str, m: float, lo: float, hi: float, unit: str, size: str, seed: int, p99: float) -> str:
    return (f"  {label:34s} {m:+9.2f} {unit} [{lo:+9.2f}, {hi:+9.2f}] width {hi - lo:7.2f}  "
            f"{size}, seed {seed}; p99 {p99:6.1f} ms")


def poker_line(game: str, table: int, level: str, opp: str, hands: int, seed: int, times: dict[tuple[str, str], list[float]],
               purse: bool = False) -> None:
    session = 50 if table == 2 else 25
    match = bench_poker.make_match(game, table, level, opp, hands, session, seed, purse)
    out = run(match)
    bb = CONFIGS[game]["big_blind"]
    o = out[0]
    if purse:  # chips move between seats only: the purse wins what the club player loses
        o.per_block = [-x for x in o.per_block]
        ts = [t for x in out[1:] for t in x.times]
    else:
        ts = o.times
    times.setdefault((game, level), []).extend(ts)
    m, lo, hi = (100 / bb * v for v in o.interval())
    played = match.blocks * session * table
    who = f"purse: {table - 1}×{level} vs {opp}" if purse else f"{level} vs {opp}"
    print(line(f"{table}-max {who}", m, lo, hi, "bb/100", f"{played:,} hands", seed, p99_ms(ts)), flush=True)


def card_line(game: str, level: str, opp: str, deals: int, seed: int, times: dict[tuple[str, str], list[float]]) -> None:
    ts: list[float] = []
    rows = bench_cards.duplicate(game, level, bench_cards.opponent(game, opp), deals, seed, ts)
    times.setdefault((game, level), []).extend(ts)
    m, lo, hi = bench_cards.mean_ci([e for e, _ in rows])
    n = PLAYERS[game]
    print(line(f"{level} vs {n - 1}×{opp}", m, lo, hi, "chips/deal", f"{deals:,} deals x {n} seats", seed,
               p99_ms(ts)), flush=True)


def pairings(levels: list[str], club: tuple[str, ...], wanted: set[str]) -> list[tuple[str, str]]:
    """(measured level, opponent): each level against each club player, then the ladder."""
    out = [(lv, c) for lv in levels for c in club]
    out += [(hi, lo) for hi, lo in LADDER if hi in levels]
    return [(lv, o) for lv, o in out if not wanted or o in wanted]


def report_times(times: dict[tuple[str, str], list[float]]) -> None:
    print("== decision time, p99 of each level's decisions (ms of CPU time) against its budget")
    for (game, level), ts in sorted(times.items()):
        p, budget = p99_ms(ts), BUDGET_MS[level]
        print(f"  {game:12s} {level:9s} p99 {p:7.2f}  max {1000 * max(ts, default=0):7.1f}  budget {budget:5.0f}  "
              f"{'within' if p <= budget else 'OVER'}  ({len(ts)} decisions)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help=f"every line at 1/{QUICK} of the issue's sizes (a smoke run)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the sizes")
    ap.add_argument("--games", default=",".join(g for g in PLAYERS), help="games (comma-separated)")
    ap.add_argument("--levels", default=",".join(LEVELS), help="measured levels (comma-separated)")
    ap.add_argument("--opponents", default="", help="only these opponents (club styles or levels; default all)")
    ap.add_argument("--no-purse", action="store_true")
    ap.add_argument("--seed", type=int, default=37)
    args = ap.parse_args()
    sizes = Sizes(args.scale / (QUICK if args.quick else 1))
    games = [g for g in args.games.split(",") if g]
    levels = [lv for lv in args.levels.split(",") if lv]
    wanted = {o for o in args.opponents.split(",") if o}
    times: dict[tuple[str, str], list[float]] = {}
    t0 = time.perf_counter()
    for game, table, hands in POKER:
        if game not in games:
            continue
        print(f"== {game} {table}-max, duplicate, bb/100 [95 %]", flush=True)
        for level, opp in pairings(levels, POKER_CLUB, wanted):
            vs = opp if opp in POKER_CLUB else f"level:{opp}"
            poker_line(game, table, level, vs, sizes.of(hands, 50), args.seed, times)
    for game, deals in CARDS.items():
        if game not in games:
            continue
        print(f"== {game}, duplicate, chips a deal [95 %] (the edge: chips won less the others' mean)", flush=True)
        for level, opp in pairings(levels, ("club",), wanted):
            card_line(game, level, opp, sizes.of(deals, 10), args.seed, times)
    if "ramponneau" in games and not args.no_purse:
        print("== the house purse (§4): one tag against 5 house seats, 6-max Ramponneau, bb/100 [95 %]", flush=True)
        for level in (lv for lv in levels if lv != BEGINNER):
            poker_line("ramponneau", 6, level, "tag", sizes.of(PURSE_HANDS // 6, 50), args.seed, times, purse=True)
    report_times(times)
    print(f"({time.perf_counter() - t0:.0f} s; load average {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
