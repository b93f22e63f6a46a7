"""Properties of random legal play (Hypothesis), both poker games.

Whatever legal moves are chosen, for 2–10 (draw: 2–8) players with random
stacks: the deal ends; chips are conserved (stacks + rake = start, ARCHITECTURE.md
"Money never appears or disappears"); no stack goes negative; every chip of every
pot is awarded; and ``view(p)`` never shows another player's hidden card before
it is shown.
"""

from __future__ import annotations

import json
import random
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavern.cards import SeededSource, deck52, shuffle
from tavern.games import registry
from tavern.games.poker import draw, equity, ramponneau

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _hidden_from(engine, viewer: str) -> set[str]:
    """Cards ``viewer`` must not see: other players' unshown cards (a folded hand
    included), the undealt deck, the stock."""
    me = engine.index.get(viewer, -1)
    hidden = set(engine.stock) if engine.game == "draw" else set(engine.deck[2 * len(engine.players):]) - set(engine.board)
    for i, cards in enumerate(engine.hole):
        if i != me and i not in engine.shown:
            hidden.update(cards)
    if me >= 0 and not engine.b.folded[me]:
        hidden.difference_update(engine.hole[me])  # his own cards (one may come from a reshuffle)
    for cards in engine.shown.values():  # public, even if a folded hand once held one
        hidden.difference_update(cards)
    return hidden


def _check_views(engine, data) -> None:
    viewer = data.draw(st.sampled_from(engine.players + [None]), label="viewer")
    view = engine.view(viewer)
    text = json.dumps(view)
    leaked = {c for c in _hidden_from(engine, viewer) if f'"{c}"' in text}
    assert not leaked, (viewer, leaked)


def _play(engine, data, *, max_steps: int = 600) -> None:
    steps = 0
    while not engine.over:
        steps += 1
        assert steps < max_steps, "the deal must end"
        if data.draw(st.integers(0, 40), label="protect?") == 0:
            live = [p for i, p in enumerate(engine.players) if not engine.b.folded[i] and not engine.protected[i]]
            if live:
                engine.protect(data.draw(st.sampled_from(live), label="protected"))
                continue
        (player,) = engine.to_act()
        legal = engine.legal_actions(player)
        assert legal, "the player to act always has a legal move"
        for other in engine.players:
            if other != player:
                assert engine.legal_actions(other) == []
        move = data.draw(st.sampled_from(legal), label="move")
        action = move["action"]
        if action == "draw":
            k = data.draw(st.integers(0, len(move["cards"])), label="discards")
            engine.act(player, "draw", discard=move["cards"][:k])
        elif "min" in move:
            engine.act(player, action, amount=data.draw(st.integers(move["min"], move["max"]), label="amount"))
        else:
            engine.act(player, action)
        for stack in engine.b.stack:
            assert stack >= 0
        _check_views(engine, data)


def _check_result(engine, seats) -> None:
    res = engine.result()
    start = sum(s["chips"] for s in seats)
    assert sum(res["chips"].values()) + res["rake"] == start
    assert all(c >= 0 for c in res["chips"].values())
    assert sum(res["delta"].values()) == -res["rake"]
    for pot in res["pots"]:
        assert pot["amount"] > 0
        assert sum(pot["shares"].values()) + pot["rake"] == pot["amount"]
        assert pot["winners"] and set(pot["winners"]) <= set(pot["eligible"])
    assert sum(p["amount"] for p in res["pots"]) == sum(engine.b.total)


@SETTINGS
@given(st.data())
def test_random_ramponneau_deals(data):
    # Chips and pots here; the all-in equity's precision is test_allin_equity.py's.
    with mock.patch.object(equity, "PREFLOP_TRIALS", 500):
        _random_ramponneau_deal(data)


def _random_ramponneau_deal(data):
    n = data.draw(st.integers(2, 10), label="players")
    seats = [{"player": f"P{i}", "chips": data.draw(st.integers(1, 400))} for i in range(n)]
    blinds = data.draw(st.sampled_from([(1, 2), (5, 10), (0, 3)]))
    cfg = {"small_blind": blinds[0], "big_blind": blinds[1],
           "rake": {"percent": data.draw(st.sampled_from([0, 5, "2.5"])), "cap": data.draw(st.sampled_from([None, 3])),
                    "no_flop_no_drop": data.draw(st.booleans())}}
    deck = shuffle(deck52(), SeededSource(random.Random(data.draw(st.integers(0, 2 ** 32), label="deck"))))
    engine = ramponneau.new_deal(cfg, seats, data.draw(st.integers(0, n - 1)), deck=deck)
    _play(engine, data)
    _check_result(engine, seats)
    assert registry.replay(json.loads(json.dumps(engine.record())))["chips"] == engine.result()["chips"]


@SETTINGS
@given(st.data())
def test_random_draw_deals(data):
    n = data.draw(st.integers(2, 8), label="players")
    seats = [{"player": f"P{i}", "chips": data.draw(st.integers(1, 400))} for i in range(n)]
    cfg = {"big_blind": data.draw(st.sampled_from([2, 4, 5])),
           "structure": data.draw(st.sampled_from(["fixed-limit", "pot-limit", "no-limit"])),
           "draws": data.draw(st.sampled_from([1, 2])), "rake": {"percent": data.draw(st.sampled_from([0, 5]))}}
    rng = SeededSource(random.Random(data.draw(st.integers(0, 2 ** 32), label="seed")))
    engine = draw.new_deal(cfg, seats, data.draw(st.integers(0, n - 1)), deck=shuffle(deck52(), rng), rng=rng)
    _play(engine, data)
    _check_result(engine, seats)
    assert registry.replay(json.loads(json.dumps(engine.record())))["chips"] == engine.result()["chips"]
