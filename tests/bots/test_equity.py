"""The hold'em equity's Monte Carlo (bots/equity.py): the fast loop counts
what a plain one counts."""

from __future__ import annotations

import random

import pytest

from tavern.bots.equity import DECK, any_two, equity, pairs_of, top
from tavern.games.poker.evaluator import rank7


def _plain_equity(hole: list[str], board: list[str], opponents: int, rng: random.Random, trials: int) -> float:
    """The same Monte Carlo written the obvious way: sample, value every hand, split ties."""
    rest = [c for c in DECK if c not in set(hole) | set(board)]
    total = 0.0
    for _ in range(trials):
        drawn = rng.sample(rest, 2 * opponents + 5 - len(board))
        table = board + drawn[2 * opponents:]
        me = rank7(hole + table)
        others = [rank7(drawn[2 * k:2 * k + 2] + table) for k in range(opponents)]
        if me >= max(others):
            total += 1.0 / (1 + others.count(me))
    return total / trials


@pytest.mark.parametrize("opponents", [1, 2, 5])
def test_a_board_everyone_plays_splits_the_pot_evenly(opponents: int) -> None:
    """A royal flush on the board: every hand is the board, each gets 1 / players."""
    board = ["As", "Ks", "Qs", "Js", "Ts"]
    assert equity(["2c", "3d"], board, opponents, random.Random(1), 200) == pytest.approx(1 / (opponents + 1))


def test_the_nuts_win_every_trial_and_a_dead_hand_none() -> None:
    board = ["Qs", "Js", "Ts", "2d", "3c"]
    assert equity(["As", "Ks"], board, 4, random.Random(2), 300, [top(0.35)] * 4) == 1.0
    # Four aces and a king on the board: nothing beats the board, every hand splits.
    assert equity(["2c", "3d"], ["Ah", "Ad", "Ac", "As", "Kd"], 3, random.Random(3), 300) == 0.25
    # Seven high against any two cards on the river: a tie at best, rarely.
    assert equity(["2c", "3d"], ["Ah", "Kd", "9s", "7c", "5h"], 1, random.Random(3), 300) < 0.05


@pytest.mark.parametrize(("hole", "board", "opponents"), [
    (["Ah", "Kd"], [], 1), (["7h", "8h"], ["9h", "Tc", "2d"], 3), (["Qs", "Qd"], ["2s", "7s", "9c", "Th"], 5),
])
def test_the_fast_loop_agrees_with_the_plain_one(hole: list[str], board: list[str], opponents: int) -> None:
    """8,000 trials each: two estimates of one equity, 4 standard errors apart at most."""
    fast = equity(hole, board, opponents, random.Random(4), 8000)
    plain = _plain_equity(hole, board, opponents, random.Random(5), 8000)
    assert abs(fast - plain) < 4 * (0.25 / 8000) ** 0.5 * 2 ** 0.5


def test_ranges_are_tested_by_the_sum_of_codes_when_that_is_enough() -> None:
    """A top-x range depends on the ranks and suitedness only: a set of code
    sums; a range on one exact card needs the pairs themselves."""
    assert pairs_of(any_two) is None
    sums = pairs_of(top(0.35))
    assert sums is not None and sums[1] is True
    exact = pairs_of(lambda a, b: "Ah" in (a, b))
    assert exact is not None and exact[1] is False and len(exact[0]) == 2 * 51
    # The range is applied: against the best 35 %, a middling hand is worth less.
    wide = equity(["9c", "8d"], [], 1, random.Random(6), 4000)
    narrow = equity(["9c", "8d"], [], 1, random.Random(6), 4000, [top(0.35)])
    assert narrow < wide - 0.03
