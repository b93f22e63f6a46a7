"""The shuffle is uniform: chi-square tests over a million shuffled decks.

ARCHITECTURE/RULES: every deal is shuffled by Fisher–Yates from the
operating system's CSPRNG (``tavern.cards.shuffle``). The decks come from
:func:`tavern.cards.shuffled_decks`, the seam where another random stream
(a provably fair one) would be put to the same test.

Bounds: each statistic's upper tail p-value must stay above 1e-5 — and below
1 − 1e-5 (a fit too perfect is suspicious too). With a true CSPRNG a run
fails by chance about twice in 100,000.
"""

from __future__ import annotations

import os
import random

import pytest
from tests.reliability.stats import chi_squares, count_decks

from tavern import cards
from tavern.cards import SeededSource, deck52, shuffled_decks

#: GLI-style evaluations use at least a million decks; ``TAVERN_SHUFFLE_DECKS``
#: raises it for ``make reliability``.
DECKS = max(1_000_000, int(os.environ.get("TAVERN_SHUFFLE_DECKS", "0") or 0))
ALPHA = 1e-5


def _check(n_decks: int, decks) -> list:
    n, positions, pairs = count_decks(decks, deck52())
    assert n == n_decks
    return list(chi_squares(n, positions, pairs))


@pytest.mark.slow
def test_a_million_shuffled_decks_are_uniform(record_property) -> None:
    results = _check(DECKS, shuffled_decks(DECKS))
    for r in results:
        record_property(r.name, f"X2={r.statistic:.1f} dof={r.dof} p={r.p_upper:.4f}")
        print(f"{DECKS} decks, {r.name}: X2 = {r.statistic:.1f}, dof {r.dof}, p = {r.p_upper:.4f}")
        assert ALPHA < r.p_upper < 1 - ALPHA, r


def _naive_swap(cards: list[str], rng: random.Random) -> list[str]:
    """The classic broken shuffle: swap each card with *any* position."""
    out = list(cards)
    for i in range(len(out)):
        j = rng.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    return out


def test_the_statistics_catch_a_biased_shuffle() -> None:
    """The test has teeth: the naive swap-with-anyone shuffle, whose bias is
    a few per cent per cell, fails at once on 50,000 decks, while the real
    Fisher–Yates from a seeded source passes on as many."""
    rng = random.Random(12)
    biased = _check(50_000, (_naive_swap(deck52(), rng) for _ in range(50_000)))
    assert biased[0].p_upper < ALPHA
    fair = _check(50_000, shuffled_decks(50_000, rng=SeededSource(random.Random(12))))
    assert all(ALPHA < r.p_upper < 1 - ALPHA for r in fair), fair


#: The provably fair stream (docs/fairness.md) is slower than the CSPRNG in
#: pure Python; 200,000 decks still give ≥ 75 per cell of the pair table.
FAIR_DECKS = 200_000


@pytest.mark.slow
def test_the_provably_fair_stream_is_uniform(record_property) -> None:
    """The same χ² tests on the decks of the HMAC stream: one server seed,
    the deal number running, as a table deals them."""
    from tavern import fair

    seed = fair.new_server_seed(cards.CSPRNG)
    decks = (fair.FairStream(seed, 1, deal, ["3f9a1c"]).shuffle(deck52()) for deal in range(FAIR_DECKS))
    for r in _check(FAIR_DECKS, decks):
        record_property(f"fair {r.name}", f"X2={r.statistic:.1f} dof={r.dof} p={r.p_upper:.4f}")
        print(f"{FAIR_DECKS} fair decks, {r.name}: X2 = {r.statistic:.1f}, dof {r.dof}, p = {r.p_upper:.4f}")
        assert ALPHA < r.p_upper < 1 - ALPHA, r
