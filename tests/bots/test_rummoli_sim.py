"""The Rummoli player's play-outs (bots/rummoli_sim.py): its quick poker
score against the engine's, what it deduces from a view."""

from __future__ import annotations

import itertools
import random

from tavern.bots.rummoli_sim import Table, card_of, code, poker_score
from tavern.games.rummoli.poker_phase import best_five


def test_poker_score_orders_hands_as_the_poker_phase() -> None:
    """« Poker phase: each player's best five cards » (RULES.md, Rummoli):
    the score used in the play-outs ranks two hands of 10 or 11 cards as
    the engine's best five does (the straight with the ace low included)."""
    rng = random.Random(7)
    hands = [["Ah", "2c", "3d", "4s", "5h", "9c", "9d", "Jc", "Qh", "Kd"],
             ["2h", "2c", "2d", "4s", "6h", "8c", "Td", "Jc", "Qh", "3s"]]
    hands += [[card_of(c) for c in rng.sample(range(52), rng.choice((10, 11)))] for _ in range(300)]
    for a, b in itertools.pairwise(hands):
        va, vb = best_five(a), best_five(b)
        if va != vb:
            assert (va > vb) == (poker_score([code(c) for c in a]) > poker_score([code(c) for c in b])), (a, b)


def test_a_card_after_one_played_and_not_called_is_dead() -> None:
    """« Whoever holds the next card must play it » (docs/games/rummoli.md):
    the 7 of hearts was played and the 8 was not called, so nobody holds
    the 8; B's shown cards are his; the other unseen cards are dealt to the
    hands by their sizes."""
    view = {"hand": ["2c", "3c"], "players": [
        {"player": "A", "cards": 2, "played": []},
        {"player": "B", "cards": 3, "played": ["7h"]},
        {"player": "C", "cards": 4, "played": []}],
        "poker": {"shown": {"B": ["Kd", "7h", "Ks"]}}, "board": {"rummoli": 4}, "pay_sections": []}
    table = Table(view, "A")
    assert code("8h") not in table.unseen
    for seed in range(20):
        owner = table.deal(random.Random(seed))
        assert owner[code("8h")] < 0 and owner[code("Kd")] == owner[code("Ks")] == 1
        assert [owner.count(i) for i in range(3)] == [2, 3, 4]


def test_play_out_the_seat_restarts_with_a_run_that_keeps_the_lead() -> None:
    """« The sequence stops at the ace or when the next card is dead; the
    last player to play restarts with his lowest card in a suit of the
    other colour » (RULES.md, Rummoli). Every hand known, A leads the 9 of
    hearts (the 10 is dead) and restarts black: K-A of spades stops at the
    ace, he restarts red (2♦, the 3 is dead), then black with his last
    card and is out; his lowest black card, the 2 of clubs, would call B,
    who goes out first (3-4 of clubs, then the 5 of hearts)."""
    hands = {"A": ["9h", "Ks", "As", "2c", "2d"], "B": ["3c", "4c", "5h"], "C": ["Jd"], "D": ["Qd"]}
    view = {"hand": hands["A"], "board": {"rummoli": 4}, "pay_sections": [],
            "players": [{"player": p, "cards": len(h), "played": []} for p, h in hands.items()],
            "poker": {"shown": {p: h for p, h in hands.items() if p != "A"}}}
    table = Table(view, "A")
    owner = table.deal(random.Random(1))
    # out: the Rummoli pot and a chip for each card the others still hold
    assert table.play_out(owner, code("9h"), table.me) > 0
