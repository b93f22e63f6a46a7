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
    """Share ``amount`` equally; the odd chips go to the first winner left of
    the dealer (``winners_in_order`` is already in that order), as RULES.md
    rules for poker ("Odd chips of a split go to the first winner left of the
    button")."""
    share, odd = divmod(amount, len(winners_in_order))
    out = {p: share for p in winners_in_order}
    out[winners_in_order[0]] += odd
    return out
