"""Issue 29 "Beyond": "When every player still in a Ramponneau deal is all in
before the river, the table and the replayer show each hand's equity at that
moment, as the rooms' broadcasts do."

The numbers (tavern.games.poker.equity) and when the engine's view carries
them (``equity`` in the public view of a finished deal, docs/protocol.md).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from tavern.cards import deck52
from tavern.games import registry
from tavern.games.poker import equity, ramponneau
from tavern.games.poker.evaluator import encode, rank7
from tavern.games.poker.records import stacked_deck

CFG = {"small_blind": 5, "big_blind": 10}


def seats(*names, chips=1000):
    return [{"player": p, "chips": chips} for p in names]


def play(engine, moves):
    for player, action, *amount in moves:
        if amount:
            engine.act(player, action, amount=amount[0])
        else:
            engine.act(player, action)


def exact(holes, board, dead=()):
    """Every runout counted with the evaluator's plain ``rank7``, in exact
    fractions: the reference the fast loop is checked against (``dead``:
    cards taken out of the runouts as well)."""
    known = {c for h in holes for c in h} | set(board) | set(dead)
    rest = [c for c in deck52() if c not in known]
    won = [Fraction(0)] * len(holes)
    runs = list(combinations(rest, 5 - len(board)))
    for extra in runs:
        values = [rank7([*h, *board, *extra]) for h in holes]
        best = max(values)
        winners = [k for k, v in enumerate(values) if v == best]
        for k in winners:
            won[k] += Fraction(1, len(winners))
    return [w / len(runs) for w in won]


# -- the numbers ----------------------------------------------------------------

def test_a_made_hand_against_a_dead_draw_is_100_to_0():
    # The royal flush is made on the flop: nothing the turn and river bring beats it.
    assert equity.permille([["As", "Ks"], ["9h", "8h"]], ["Qs", "Js", "Ts"]) == [1000, 0]
    # On the turn, four kings against two queens: no river saves the queens.
    assert equity.permille([["Kc", "Kd"], ["Qc", "Qd"]], ["Ks", "Kh", "2c", "7d"]) == [1000, 0]


def test_a_board_that_plays_for_both_is_split_50_50():
    """RULES.md: "equal hands split the pot": four sevens on the board, both
    players' ace kicker, whatever the river."""
    assert equity.permille([["Ac", "2d"], ["Ad", "3c"]], ["7c", "7d", "7h", "7s"]) == [500, 500]
    assert equity.shares([["Ac", "2d"], ["Ad", "3c"]], ["7c", "7d", "7h", "7s"]) == [0.5, 0.5]


@pytest.mark.parametrize("holes,board", [
    ([["Ah", "Kh"], ["Qc", "Qd"]], ["2h", "7h", "Qs"]),  # a flush draw against a set
    ([["Jc", "Tc"], ["As", "Ad"], ["8d", "8h"]], ["9c", "8c", "2d"]),  # three ways, straight-flush draw, ties
    ([["5s", "4s"], ["5d", "4d"]], ["6c", "7h", "Kd"]),  # the same hand: splits and flushes each way
])
def test_the_flop_and_the_turn_count_every_runout_exactly(holes, board):
    want = exact(holes, board)
    assert equity.shares(holes, board) == pytest.approx([float(w) for w in want], abs=1e-12)
    assert equity.permille(holes, board) == [round(1000 * w) for w in want]
    turn = [*board, next(c for c in deck52() if c not in {x for h in holes for x in h} | set(board))]
    assert equity.shares(holes, turn) == pytest.approx([float(w) for w in exact(holes, turn)], abs=1e-12)


@pytest.mark.slow  # the 1.7 million boards: about 3 s
def test_before_the_flop_the_monte_carlo_is_within_half_a_point_and_the_same_each_time():
    """Checked against the exact count of all 1,712,304 boards (the fast loop,
    checked above against the plain evaluator)."""
    holes = [["As", "Ad"], ["Kh", "Kd"]]
    hands = [[encode(c) for c in h] for h in holes]
    pool = [encode(c) for c in deck52() if c not in {"As", "Ad", "Kh", "Kd"}]
    won = equity._count(hands, [], combinations(pool, 5))
    truth = [w / sum(won) for w in won]
    drawn = equity.shares(holes, [])
    assert drawn == pytest.approx(truth, abs=0.005)
    assert equity.shares(holes, []) == drawn  # seeded from the hands: the same deal, the same figure
    assert equity.shares([["Kh", "Kd"], ["As", "Ad"]], []) != drawn[::-1]  # the seed is the deal's own


# -- when the engine's view carries them -----------------------------------------

BOARD = ["2c", "7d", "9h", "Js", "3s"]


def test_all_in_before_the_flop_shows_the_equity_then_and_after_each_street():
    holes = [["Ah", "Ad"], ["Kh", "Kd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", chips=300), 1, deck=stacked_deck(holes, BOARD))
    play(e, [("B", "raise", 300)])
    assert "equity" not in e.view(None)  # A still has chips and must act
    play(e, [("A", "call")])
    got = e.view(None)["equity"]
    assert [g["board"] for g in got] == [[], BOARD[:3], BOARD[:4]]
    assert got[0]["permille"] == dict(zip("AB", equity.permille(holes, []), strict=True))
    assert got[1]["permille"] == dict(zip("AB", equity.permille(holes, BOARD[:3]), strict=True))
    assert got[2]["permille"] == {"A": 955, "B": 45}  # two kings left among 44 rivers
    for who in ("A", "B", None):
        assert e.view(who)["equity"] == got


def test_a_covering_player_who_called_has_nobody_to_bet_against():
    """Every player still in is all in but the one who covered them: nobody
    can bet any more, the hands are tabled (docs/games/poker.md)."""
    holes = [["Ah", "Ad"], ["Kh", "Kd"]]
    s = [{"player": "A", "chips": 1000}, {"player": "B", "chips": 200}]
    e = ramponneau.new_deal(CFG, s, 1, deck=stacked_deck(holes, BOARD))
    play(e, [("B", "call"), ("A", "check")])  # to the flop
    play(e, [("A", "bet", 50), ("B", "raise", 190), ("A", "call")])
    got = e.view(None)["equity"]
    assert [g["board"] for g in got] == [BOARD[:3], BOARD[:4]]


def test_not_while_a_player_with_chips_still_acts_nor_when_the_others_go_on_betting():
    holes = [["Ah", "Ad"], ["Kh", "Kd"], ["Qh", "Qd"]]
    s = [{"player": "A", "chips": 1000}, {"player": "B", "chips": 1000}, {"player": "C", "chips": 100}]
    e = ramponneau.new_deal(CFG, s, 2, deck=stacked_deck(holes, BOARD))
    play(e, [("C", "raise", 100), ("A", "call"), ("B", "call")])
    assert e.board == BOARD[:3] and "equity" not in e.view(None)  # A and B still bet
    for _ in range(3):
        play(e, [("A", "check"), ("B", "check")])
    while not e.over:  # a beaten hand may muck: shown here
        play(e, [(e.to_act()[0], "show")])
    assert set(e.result()["shown"]) == {"A", "B", "C"} and "equity" not in e.view(None)


def test_not_when_the_all_in_comes_on_the_river():
    holes = [["Ah", "Ad"], ["Kh", "Kd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", chips=300), 1, deck=stacked_deck(holes, BOARD))
    play(e, [("B", "call"), ("A", "check")])
    for _ in range(2):
        play(e, [("A", "check"), ("B", "check")])
    play(e, [("A", "bet", 290), ("B", "call")])
    play(e, [("B", "show")])  # beaten, he might have mucked
    assert e.over and set(e.result()["shown"]) == {"A", "B"} and "equity" not in e.view(None)


def test_not_at_a_fold():
    holes = [["Ah", "Ad"], ["Kh", "Kd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", chips=300), 1, deck=stacked_deck(holes, BOARD))
    play(e, [("B", "raise", 300), ("A", "fold")])
    assert e.over and "equity" not in e.view(None)


def test_a_folded_hand_stays_unknown_to_the_equity():
    """A folded hand was never seen: its cards stay among the runouts, as the
    table saw it. Here C threw away two of A's outs; counting them as known
    would say more than the table knew."""
    holes = [["Ah", "Kh"], ["Qc", "Qd"], ["3h", "4h"]]
    board = ["2h", "7h", "Qs", "Jc", "5c"]
    s = [{"player": "A", "chips": 300}, {"player": "B", "chips": 300}, {"player": "C", "chips": 300}]
    e = ramponneau.new_deal(CFG, s, 2, deck=stacked_deck(holes, board))
    play(e, [("C", "call"), ("A", "call"), ("B", "check")])
    play(e, [("A", "bet", 290), ("B", "call"), ("C", "fold")])
    got = e.view(None)["equity"]
    assert set(got[0]["permille"]) == {"A", "B"}
    seen = exact(holes[:2], board[:3])
    assert got[0]["permille"] == {"A": round(1000 * seen[0]), "B": round(1000 * seen[1])}
    omniscient = exact(holes[:2], board[:3], dead=holes[2])
    assert round(1000 * omniscient[0]) != got[0]["permille"]["A"]


def test_computed_once_for_every_view_and_replayed_the_same(monkeypatch):
    calls = []
    real = equity.permille
    monkeypatch.setattr(equity, "permille", lambda h, b, *a: calls.append(len(b)) or real(h, b, *a))
    holes = [["Ah", "Ad"], ["Kh", "Kd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", chips=300), 1, deck=stacked_deck(holes, BOARD))
    play(e, [("B", "raise", 300), ("A", "call")])
    for _ in range(3):
        e.views(["A", "B", None])
        e.public_and_own(["A", "B"])
    assert calls == [0, 3, 4]  # once per street, however many publications
    steps = list(registry.seen_steps(e.record(), "A"))
    assert steps[-1]["view"]["equity"] == e.view(None)["equity"]
    assert all("equity" not in s["view"] for s in steps[:-1])


def test_a_protected_player_counts_as_all_in():
    """docs/games/poker.md: a disconnected player is protected, "all-in for the
    rest of the deal"; with the other all in too nobody can bet: the hands are
    tabled and the equity shown."""
    holes = [["Ah", "Ad"], ["Kh", "Kd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", chips=300), 1, deck=stacked_deck(holes, BOARD))
    play(e, [("B", "call"), ("A", "check")])  # to the flop
    play(e, [("A", "bet", 290)])
    e.protect("B")
    assert e.over and set(e.result()["shown"]) == {"A", "B"}
    assert [g["board"] for g in e.view(None)["equity"]] == [BOARD[:3], BOARD[:4]]


def test_an_all_in_replayed_is_valued_once():
    """Each replay of a deal builds its engine again: the same cards give the
    same figures, so the second asking is the first one's answer, computed
    once (and a caller changing the list it got changes nothing kept)."""
    holes, board = [["Ah", "Kh"], ["Qc", "Qd"]], []  # before the flop: the Monte Carlo, the costly one
    equity._permille.cache_clear()
    first = equity.permille(holes, board, trials=2_000)
    first[0] = -1
    again = equity.permille(holes, board, trials=2_000)
    assert again[0] != -1 and sum(again) in (999, 1000, 1001)
    assert equity._permille.cache_info().hits == 1 and equity._permille.cache_info().misses == 1
    # Another number of trials is another figure, not the one kept.
    equity.permille(holes, board, trials=1_000)
    assert equity._permille.cache_info().misses == 2
