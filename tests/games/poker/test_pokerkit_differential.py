"""Differential replay against pokerkit: random Ramponneau deals with all-ins and
side pots (random stacks), written as PHH by ``to_phh`` and replayed by
``pokerkit.HandHistory``, must end with the same chips.

Amounts are multiples of 2520 (= lcm(1..10)), so that every split pot divides
evenly: where odd chips remain, pokerkit merges the side pots of players it
has already ruled out and splits the merged total, while we split each pot on
its own as RULES.md says ("Odd chips of a split go to the first winner left of
the button") — the two may then differ by an odd chip, by design.
"""

from __future__ import annotations

import random

import pytest

from tavern.cards import SeededSource
from tavern.games.poker import ramponneau
from tavern.games.poker.phh import to_phh

UNIT = 2520


def _random_deal(rng: random.Random):
    n = rng.randint(2, 10)
    # Short and deep stacks together: all-ins and side pots in most deals.
    seats = [{"player": f"P{i}", "chips": UNIT * rng.choice([rng.randint(1, 12), rng.randint(20, 150)])}
             for i in range(n)]
    engine = ramponneau.new_deal({"small_blind": UNIT, "big_blind": 2 * UNIT}, seats, rng.randrange(n),
                                 rng=SeededSource(rng))
    while not engine.over:
        (player,) = engine.to_act()
        legal = engine.legal_actions(player)
        if legal[0]["action"] == "show":
            engine.act(player, "show")  # pokerkit kills a mucked hand out of its side pots
            continue
        move = rng.choice(legal)
        if "min" in move:
            lo, hi = move["min"] // UNIT, move["max"] // UNIT
            k = rng.choice([lo, hi, rng.randint(lo, hi)])
            engine.act(player, move["action"], amount=k * UNIT)
        else:
            engine.act(player, move["action"])
    return engine


@pytest.mark.slow
def test_thousand_random_deals_end_with_pokerkits_chips():
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(20261122)
    side_pots = 0
    for deal in range(1000):
        engine = _random_deal(rng)
        side_pots += len(engine.result()["pots"]) > 1
        text = to_phh(engine.record())
        states = list(pokerkit.HandHistory.loads(text))
        state = states[-1] if states else None
        assert state is not None and not state.status, f"deal {deal}: pokerkit did not finish\n{text}"
        ours = [engine.b.stack[i] for i in range(len(engine.players))]
        assert list(state.stacks) == ours, f"deal {deal}\n{text}"
    assert side_pots > 100  # the sample really exercises side pots
