"""The end of the game: who takes the chips still on the board.

"La partie se termine sur une décision convenue entre tous les joueurs. Tous
les jetons restant en jeux sont alors attribués à un joueur selon l'une des
deux méthodes suivantes: 1) on coupe un jeu de cartes; le plus haute remporte
les jetons ou... 2) on donne une main de poker ordinaire (5 cards) à chaque
joueur; la plus forte remporte les jetons."

The owner picks the method (table option ``leftover``: ``"cut"`` or
``"poker"``). Rulings where the source is silent:

* cut: each player cuts one card, in the order given; ace high, suits do not
  count; players tied for the highest cut again from the following cards; if
  the pack runs out first, the tied players share;
* poker: five cards each, dealt one at a time in the order given; equal best
  hands share;
* a share's odd chips go to the sharer earliest in the order given (the
  table passes the players starting at the dealer's left), as at poker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavern.cards import RANK_VALUE, CardError, RandomSource, check_deck_order, deck52, shuffle
from tavern.games.base import IllegalAction
from tavern.games.poker.evaluator import evaluate
from tavern.games.rummoli.poker_phase import split


def close_table(
    carry: dict[str, Any] | None,
    players: Sequence[str],
    method: str = "cut",
    *,
    deck: list[str] | None = None,
    rng: RandomSource | None = None,
) -> dict[str, Any]:
    """Share out the board left by the last deal (``result()["carry"]``).

    Returns ``{"method", "total", "awards": {player: chips}, "winners",
    "cards": [...], "deck", "board"}`` where ``board`` is the emptied board and
    ``cards`` what each player cut or was dealt (a list of rounds for a cut).
    Every chip of the board is awarded: nothing appears or disappears.
    """
    players = list(players)
    if len(players) < 1 or len(set(players)) != len(players):
        raise IllegalAction("rummoli_leftover_players")
    board = (carry or {}).get("board", {}) if isinstance(carry, dict) else None
    if not isinstance(board, dict) or any(not isinstance(v, int) or v < 0 for v in board.values()):
        raise IllegalAction("rummoli_carry_shape")
    order = list(deck) if deck is not None else shuffle(deck52(), rng)
    try:
        check_deck_order(order, deck52())
    except CardError as exc:
        raise IllegalAction("deck_order", refusal={"code": exc.code, "params": exc.params}) from None
    total = sum(board.values())
    cards: Any  # the cut cards, or each player's five
    if method == "cut":
        winners, cards = _cut(players, order)
    elif method == "poker":
        if 5 * len(players) > 52:
            raise IllegalAction("rummoli_leftover_poker_players")
        winners, cards = _poker(players, order)
    else:
        raise IllegalAction("rummoli_leftover_method")
    awards = {p: 0 for p in players}
    awards.update(split(total, winners))
    return {
        "method": method,
        "total": total,
        "awards": awards,
        "winners": winners,
        "cards": cards,
        "deck": order,
        "board": {sid: 0 for sid in board},
    }


def _cut(players: list[str], order: list[str]) -> tuple[list[str], list[dict[str, str]]]:
    rounds: list[dict[str, str]] = []
    cutting, pos = players, 0
    while len(cutting) > 1 and pos + len(cutting) <= len(order):
        cut = {p: order[pos + i] for i, p in enumerate(cutting)}
        pos += len(cutting)
        rounds.append(cut)
        top = max(RANK_VALUE[c[0]] for c in cut.values())
        cutting = [p for p in cutting if RANK_VALUE[cut[p][0]] == top]
    return cutting, rounds


def _poker(players: list[str], order: list[str]) -> tuple[list[str], list[dict[str, list[str]]]]:
    n = len(players)
    hands = {p: [order[i * n + k] for i in range(5)] for k, p in enumerate(players)}
    values = {p: evaluate(h) for p, h in hands.items()}
    top = max(values.values())
    return [p for p in players if values[p] == top], [hands]
