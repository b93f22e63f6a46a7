"""What a table computes at each deal's end, per game, new against old
(issue 41 §1: the CPU an action went partly there).

At the end of a deal the table works out which positions each player saw
(``fair_cards.seen_positions``: the per-card reveal, issue 42 §6), builds
each player's openings (``DealCards.reveal``) and counts the players'
figures (``stats.deal_figures``: VPIP, PFR, showdowns…) in the settlement.
Before issue 41 the first replayed the deal reading every player's whole
view, legal actions included, after every step (Gin's knock arrangements
made most of it), and the figures replayed poker deals again; now the views
are read without legal actions by a flat walk, and the table hands the
first betting round's moves to the figures (no replay). The old code is
kept verbatim in bench/_deal_end_old.py and run here on the same deals.

Run: ``.venv/bin/python bench/bench_deal_end.py [DEALS]`` (``make bench``),
about a minute. For each game, ``DEALS`` deals (16 by default) shuffled by
the fair stream and played to their end by the house players (« débutant »
and « habitué » in turn, chips of 40, 200 or 1,000: all-ins happen), each
timed best of 3 runs (the machine is shared), old then new on the same
deal; checks that both give the same positions and figures; prints median
and worst per deal in milliseconds and the ratio of the summed times.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _deal_end_old as old
from tavern import fair_cards
from tavern.bots.arena import fair_deal
from tavern.bots.levels import BEGINNER, REGULAR
from tavern.games import registry
from tavern.services import stats


def best(run: Callable[[], Any], times: int = 3) -> float:
    out = []
    for _ in range(times):
        t = time.perf_counter()
        run()
        out.append(time.perf_counter() - t)
    return min(out) * 1000


def deal_end_old(game: str, cards: fair_cards.DealCards, record: dict[str, Any], result: dict[str, Any]
                 ) -> tuple[Any, Any]:
    """The deal's end before issue 41: the seen positions by the whole
    views, the openings, the figures with poker's replay."""
    seen = old.seen_positions(record)
    own = {p: old.reveal(cards, map(tuple, seen.get(p, []))) for p in seen}
    figures = stats.deal_figures(game, record, result)  # no first round handed in: the replay
    return seen, own, figures


def deal_end_new(game: str, cards: fair_cards.DealCards, engine: Any, record: dict[str, Any],
                 result: dict[str, Any]) -> tuple[Any, Any]:
    """The deal's end now, as tables/deals.py finish runs it."""
    seen, own = fair_cards.deal_end(cards, record, list(seen_players(record)))
    moves = getattr(engine, "first_round_moves", None)
    figures = stats.deal_figures(game, record, result, moves() if moves is not None else None)
    return seen, own, figures


def seen_players(record: dict[str, Any]) -> list[str]:
    return [s["player"] for s in record["seats"]]


def main(deals: int) -> int:
    print(f"{'game':<12} {'actions':>7} {'old median':>10} {'old worst':>9} {'new median':>10} {'new worst':>9}"
          f" {'old/new':>7}")
    total_old = total_new = 0.0
    for game in registry.GAMES:
        olds, news, actions = [], [], []
        for k in range(deals):
            engine, record = fair_deal(game, 1000 + k, BEGINNER if k % 2 == 0 else REGULAR)
            result = engine.result()
            # The table's commitments, made as the deal was dealt (tables/deals.py: never at its end).
            cards = fair_cards.deal_cards(record)
            cards.digests()
            if deal_end_old(game, cards, record, result) != deal_end_new(game, cards, engine, record, result):
                print(f"{game} deal {k}: the new deal's end differs from the old", file=sys.stderr)
                return 1
            olds.append(best(lambda: deal_end_old(game, cards, record, result)))  # noqa: B023 (called at once)
            news.append(best(lambda: deal_end_new(game, cards, engine, record, result)))  # noqa: B023
            actions.append(len(record["actions"]))
        total_old += sum(olds)
        total_new += sum(news)
        print(f"{game:<12} {statistics.median(actions):>7.0f} {statistics.median(olds):>10.2f} {max(olds):>9.2f}"
              f" {statistics.median(news):>10.2f} {max(news):>9.2f} {sum(olds) / sum(news):>6.1f}×")
    print(f"all games: old {total_old:.0f} ms, new {total_new:.0f} ms for {deals} deals each: {total_old / total_new:.1f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 16))
