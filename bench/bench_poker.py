"""The poker house players against the club players, in the duplicate format (issue 37).

Run (the machine is shared: ``nice``, one worker)::

    nice -n 10 .venv/bin/python bench/bench_poker.py --game ramponneau --table 2 --opponent tag --hands 20000
    nice -n 10 .venv/bin/python bench/bench_poker.py --game ramponneau --table 6 --opponent tag --hands 6000
    nice -n 10 .venv/bin/python bench/bench_poker.py --game draw --table 2 --opponent tag --hands 6000
    nice -n 10 .venv/bin/python bench/bench_poker.py --table 6 --purse --opponent tag --hands 500   # the house purse

One house player (``--level``: « habitué » by default; ``débutant``, ``fort``)
sits with ``--table - 1`` club players of one style (bench/_poker_opponents.py:
``tag``, ``lag``, ``station``, ``rock``, written from RULES.md alone) or with
another level (``--opponent level:débutant``). Every deal is played again with
the seats rotated (bench/_duplicate.py), ``--session`` deals running in a row
at each seat so that the house player's memory of the others carries as at a
table; chips reset each hand (200 big blinds deep at Ramponneau, 100 at draw
poker's fixed limit). The house player is a :class:`tavern.bots.players.HousePlayer`:
shown every deal's end as its seat sees it, never more.

Prints the house player's result in big blinds per 100 hands with its 95 %
interval (normal, over blocks) and its width, and the p99 of its decision
time (CPU time).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from _duplicate import Match, report, run
from _poker_opponents import draw_player, holdem_player
from tavern.bots.arena import CONFIGS
from tavern.bots.players import house_player


def opponent(game: str, name: str) -> Any:
    """A factory of the opponent ``name``: a club style or ``level:<level>``."""
    if name.startswith("level:"):
        return lambda: house_player(game, name.split(":", 1)[1])
    make = holdem_player if game == "ramponneau" else draw_player
    return lambda: make(name)


def make_match(game: str, table: int, level: str, opponent_name: str, hands: int, session: int, seed: int,
               purse: bool = False) -> Match:
    """The duplicate match ``main`` plays (also bench/bench_bots.py's): ``hands``
    per rotation in blocks of ``session``; with ``purse`` one club player
    against house players at ``level`` in every other seat."""
    cfg = CONFIGS[game]
    bb = cfg["big_blind"]
    house = [lambda: house_player(game, level)]
    club = [opponent(game, opponent_name)]
    lineup = club + house * (table - 1) if purse else house + club * (table - 1)
    timed = tuple(range(1, table)) if purse else (0,)
    return Match(game, lineup, blocks=max(2, hands // session), seed=seed, session=session,
                 chips=(200 if game == "ramponneau" else 100) * bb, config=cfg, timed=timed, reset_chips=True,
                 stable_names=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="ramponneau", choices=("ramponneau", "draw"))
    ap.add_argument("--table", type=int, default=2, help="players at the table (2 heads-up, 6 six-max)")
    ap.add_argument("--opponent", default="tag", help="tag, lag, station, rock, or level:<level>")
    ap.add_argument("--level", default="habitué")
    ap.add_argument("--hands", type=int, default=2000, help="hands per rotation (each is played --table times)")
    ap.add_argument("--session", type=int, default=50, help="hands in a row at one seat (a block's length)")
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--purse", action="store_true",
                    help="the other way round: one club player (--opponent) against house players at --level "
                         "in every other seat; prints the house purse's result (issue 37 §4)")
    args = ap.parse_args()
    match = make_match(args.game, args.table, args.level, args.opponent, args.hands, args.session, args.seed,
                       args.purse)
    t0 = time.perf_counter()
    out = run(match, jobs=args.jobs)
    hands = match.blocks * args.session
    bb = CONFIGS[args.game]["big_blind"]
    print(f"{args.game} {args.table}-max, {args.level} vs {args.opponent}, {hands} hands x {args.table} seats, "
          f"seed {args.seed}:")
    if args.purse:
        # Chips move between seats only (no rake here): the purse wins what the club player loses.
        out[0].per_block = [-x for x in out[0].per_block]
        print(report(f"  house purse vs {args.opponent}", out[0], scale=100 / bb, unit="bb/100"))
        ts = sorted(t for o in out[1:] for t in o.times)
    else:
        print(report(f"  {args.level:9s}", out[0], scale=100 / bb, unit="bb/100"))
        ts = sorted(out[0].times)
    p99 = 1000 * ts[min(len(ts) - 1, int(0.99 * len(ts)))] if ts else 0.0
    print(f"  decision p99 {p99:.1f} ms CPU ({len(ts)} decisions); {time.perf_counter() - t0:.0f} s, "
          f"load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(__file__))
    sys.exit(main())
