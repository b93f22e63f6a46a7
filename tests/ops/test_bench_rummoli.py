"""``bench/bench_rummoli.py``: two ways of the Rummoli player on the very
same deals — the pairing its figure rests on (docs/bots.md)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavern.bots import rummoli, rummoli_sim

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_rummoli


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    keep, samples, widow = rummoli_sim.KEEP_LEAD, rummoli.SAMPLES, rummoli.WIDOW_SAMPLES
    yield
    rummoli_sim.KEEP_LEAD, rummoli.SAMPLES, rummoli.WIDOW_SAMPLES = keep, samples, widow


def test_a_deal_played_twice_the_same_way_ends_the_same() -> None:
    """The difference is of the two ways alone: a deal's seed gives one
    deal, and one way plays it alike every time (its own generator)."""
    for seed in range(5):
        assert bench_rummoli.edge(seed) == bench_rummoli.edge(seed)


def test_the_ways_set_what_they_name() -> None:
    bench_rummoli.way("restarts", False)
    assert rummoli_sim.KEEP_LEAD is False
    bench_rummoli.way("samples", True)
    assert rummoli.SAMPLES == rummoli.WIDOW_SAMPLES == 80
