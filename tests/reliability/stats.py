"""Chi-square statistics of shuffled decks, for tests/reliability/test_shuffle.py
and ``make reliability`` (which records the figures in docs/reliability.md).

Two tables are counted over N shuffled 52-card decks, as RNG evaluations of
card games do (GLI-19 "shuffle" checks):

* **position × card** (52 × 52): how often each card lands at each position.
  Every cell expects N/52. For uniform permutations the statistic follows a
  chi-square law with (52 − 1)² = 2601 degrees of freedom (rows and columns
  both sum to N).
* **first card × second card** (52 × 51 ordered pairs, one per deck): every
  pair expects N/2652; a multinomial over 2652 cells, 2651 degrees of freedom.
  A shuffle whose neighbouring cards depend on each other fails here.

The p-value uses the Wilson–Hilferty normal approximation of the chi-square
law (accurate to a few per mille at these degrees of freedom): no SciPy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

N_CARDS = 52


@dataclass(frozen=True)
class ChiSquare:
    name: str
    statistic: float
    dof: int

    @property
    def z(self) -> float:
        """Wilson–Hilferty: (X/k)^(1/3) is nearly normal."""
        k = self.dof
        return ((self.statistic / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))

    @property
    def p_upper(self) -> float:
        """P(chi-square ≥ statistic): small when the counts stray too far."""
        return 0.5 * math.erfc(self.z / math.sqrt(2))


def count_decks(decks: Iterable[list[str]], order: list[str]) -> tuple[int, list[list[int]], list[int]]:
    """(decks counted, positions[pos][card], pairs[first * 52 + second])."""
    index = {card: i for i, card in enumerate(order)}
    positions = [[0] * N_CARDS for _ in range(N_CARDS)]
    pairs = [0] * (N_CARDS * N_CARDS)
    n = 0
    for deck in decks:
        n += 1
        for row, card in zip(positions, deck, strict=False):
            row[index[card]] += 1
        pairs[index[deck[0]] * N_CARDS + index[deck[1]]] += 1
    return n, positions, pairs


def chi_squares(n: int, positions: list[list[int]], pairs: list[int]) -> tuple[ChiSquare, ChiSquare]:
    expected = n / N_CARDS
    pos_stat = sum((c - expected) ** 2 for row in positions for c in row) / expected
    expected_pair = n / (N_CARDS * (N_CARDS - 1))
    pair_stat = sum((pairs[a * N_CARDS + b] - expected_pair) ** 2
                    for a in range(N_CARDS) for b in range(N_CARDS) if a != b) / expected_pair
    # A card never follows itself: a count there is a broken shuffle.
    assert all(pairs[a * N_CARDS + a] == 0 for a in range(N_CARDS)), "a card followed itself"
    return (ChiSquare("position × card", pos_stat, (N_CARDS - 1) ** 2),
            ChiSquare("first × second card", pair_stat, N_CARDS * (N_CARDS - 1) - 1))
