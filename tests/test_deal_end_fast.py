"""Issue 41 §1: the deal's end takes back the CPU it had grown — and
changes nothing it computes. Each fast path is held equal, deal by deal in
every game, to the code it replaced (kept verbatim in bench/_deal_end_old.py,
also what bench/bench_deal_end.py measures against):

* the positions each player saw (``fair_cards.seen_positions``, the
  per-card reveal of issue 42 §6: « the openings of the positions whose
  card he saw »), now read from views without legal actions by a flat walk;
* VPIP and PFR (docs/statistics.md: « chips put in by choice in the first
  betting round », « a bet or raise there »), now from the first round's
  moves the table's engine saw (``PokerDeal.first_round_moves``) instead of
  a replay of the deal.

The deals are real: shuffled by the fair stream and played to their end by
the house players, with all-ins (short stacks) and, at poker, the table's
disconnect protection at a random moment.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import _deal_end_old as old
from tavern import fair, fair_cards
from tavern.bots import policy
from tavern.bots.arena import CONFIGS, PLAYERS, fair_deal
from tavern.bots.levels import BEGINNER, REGULAR
from tavern.games import registry
from tavern.games.base import IllegalAction
from tavern.services import stats


@pytest.mark.parametrize("game", list(registry.GAMES))
def test_the_seen_positions_are_the_old_replays_deal_by_deal(game: str) -> None:
    # The rami family's « habitué » thinks long: fewer of his deals.
    levels = [BEGINNER] * 6 + [REGULAR] * (1 if game in ("rami", "double_rami", "remigio", "gin") else 3)
    for k, level in enumerate(levels):
        _, record = fair_deal(game, 7000 + k, level)
        fast = fair_cards.seen_positions(record)
        assert fast == old.seen_positions(record), (game, k, level)
        assert any(fast.values())  # a deal where nobody saw a card would prove nothing


def _poker_deal(game: str, seed: int) -> tuple[object, dict, dict]:
    """A poker deal played by house players, one player protected (all in
    for the rest of the deal, the table's disconnect protection) at a random
    moment in a third of them."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(rng.randint(2, PLAYERS[game]))]
    stream = fair.DealSeed(rng.randbytes(32)).stream(1, 1, ["" for _ in names])
    seats = [{"player": n, "chips": rng.choice((3, 40, 200, 1000))} for n in names]
    engine = registry.load(game).new_deal(CONFIGS[game], seats, seed % len(names), rng=stream)
    players = {n: policy(game, rng.choice((BEGINNER, REGULAR))) for n in names}
    protect_at = rng.randrange(12) if seed % 3 == 0 else -1
    for step in range(500):
        if engine.over:
            break
        if step == protect_at:
            try:
                engine.protect(rng.choice(names))
            except IllegalAction:
                pass
            continue
        who = engine.to_act()[0]
        engine.act(who, **players[who](engine.view(who), engine.legal_actions(who), rng))
    return engine, engine.record(), engine.result()


@pytest.mark.parametrize("game", ["ramponneau", "draw"])
def test_vpip_and_pfr_from_the_tables_moves_are_the_replays(game: str) -> None:
    counted = {"vpip": 0, "pfr": 0, "showdowns": 0, "protected": 0}
    for seed in range(80):
        engine, record, result = _poker_deal(game, seed)
        live = stats.deal_figures(game, record, result, engine.first_round_moves())
        assert live == stats.deal_figures(game, record, result), (game, seed)  # the replay, as ``stats rebuild``
        replayed = old.poker_first_round(record)
        assert replayed is not None
        vpip, pfr, _ = replayed
        assert {p: f.vpip for p, f in live.items() if f.vpip} == vpip, (game, seed)
        assert {p: f.pfr for p, f in live.items() if f.vpip} == pfr, (game, seed)
        counted["vpip"] += sum(f.vpip for f in live.values())
        counted["pfr"] += sum(f.pfr for f in live.values())
        counted["showdowns"] += sum(f.showdowns for f in live.values())
        counted["protected"] += any(a["action"] == "protect" for a in record["actions"])
    # Deals where each figure happens, or the equality would be of zeros.
    assert all(n >= 5 for n in counted.values()), counted
