"""The poker phase's hand comparison, on top of the shared evaluator.

A Rummoli hand holds 5 to 13 cards ("certains joueurs auront plus de cartes
que les autres"); the shared evaluator takes 5 to 7. The best five of a
bigger hand is the best of its five-card subsets, compared on the
evaluator's fast path; the winner is then described by ``evaluate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from tavern.games.poker.evaluator import HandValue, encode_all, evaluate, rank_codes


def best_five(cards: Sequence[str]) -> HandValue:
    """The value of the best five cards among ``cards`` (5 or more)."""
    hand = list(cards)
    if len(hand) <= 7:
        return evaluate(hand)
    codes = encode_all(hand)
    best_idx = max(combinations(range(len(hand)), 5), key=lambda idx: rank_codes([codes[i] for i in idx]))
    return evaluate([hand[i] for i in best_idx])


def split(amount: int, winners_in_order: Sequence[str]) -> dict[str, int]:
    """Share ``amount`` equally; the odd chips go one each to the winners
    nearest the dealer's left (``winners_in_order`` is already in that order),
    as at a poker table."""
    share, odd = divmod(amount, len(winners_in_order))
    return {p: share + (1 if i < odd else 0) for i, p in enumerate(winners_in_order)}
