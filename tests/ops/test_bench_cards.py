"""``bench/bench_cards.py``: the duplicate format the card games' figures
rest on (docs/bots.md), and the club players it measures against."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_cards
from _card_opponents import club

GAMES = ["rami", "double_rami", "remigio", "gin", "rummoli", "rams"]


@pytest.mark.parametrize("game", GAMES)
def test_a_club_player_against_himself_is_even_deal_by_deal(game: str) -> None:
    """Every deal is played once per seat with the measured player holding
    each seat's hand: a club player measured against club players holds the
    very hands they hold, so each deal's edge is 0 — the luck of the cards
    cancels out, what the format is for. The club players' every move is
    legal (the engine raises on an illegal one) and each deal ends."""
    rows = bench_cards.duplicate(game, "habitué", lambda: club(game), 2, 7, [], hero=lambda: club(game))
    assert [round(e, 9) for e, _ in rows] == [0.0, 0.0]


def test_the_interval_is_the_normal_approximation() -> None:
    m, lo, hi = bench_cards.mean_ci([1.0, 3.0, 5.0, 7.0])
    assert m == 4.0
    assert hi - m == pytest.approx(1.96 * (20 / 3 / 4) ** 0.5)
    assert m - lo == pytest.approx(hi - m)
