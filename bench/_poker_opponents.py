"""The poker club players the house players are measured against (issue 37 §3).

Written from RULES.md and the habits any club player has, not from the
house players' code: no equity simulation, no reading of the others — a
starting-hand chart, the made hand (the engine's own evaluator names it,
as a player reads his cards), the outs of a draw by the rule of 2 and 4,
and the pot odds. Each player is a few lines:

* ``tag`` — tight-aggressive: plays about 16 % of his hands (the chart
  below) and raises them (3 big blinds; re-raises a raise with the best);
  bets two thirds of the pot with top pair or better, raises with two
  pair or better, calls a draw or a middle pair when the pot odds say so.
* ``lag`` — loose-aggressive: plays about 40 % and raises them, bets two
  thirds of the pot when checked to more often than not, raises any pair
  or draw, calls the rest of his pairs.
* ``station`` — the calling station: calls to see every flop with half his
  hands, never raises, then calls with any pair, any draw or an ace.
* ``rock`` — tight-passive: about 9 % of his hands, limped or called (raises
  only aces and kings), bets half the pot with two pair or better, calls
  with top pair, folds the rest.

Draw poker (fixed limit): the same four temperaments on the draw's own
chart — the opening pair, four to a flush or an open straight, the hand
after the draw — with the draw players learn: keep the made hand, the pair,
the four to a flush or a straight, else the highest card.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.games.poker.evaluator import rank

Move = dict[str, Any]
ORDER = "23456789TJQKA"
V = {r: i + 2 for i, r in enumerate(ORDER)}


def _find(legal: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((a for a in legal if a["action"] == name), None)


def _me(view: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in view["players"] if p["player"] == view["to_act"])  # type: ignore[no-any-return]


def chart(cards: list[str], share: str) -> bool:
    """Starting hands a club player learns: ``tag`` about 16 %, ``lag`` 40 %,
    ``station`` half, ``rock`` 9 %, ``premium`` the re-raising few."""
    hi, lo = sorted((V[c[0]] for c in cards), reverse=True)
    suited, pair = cards[0][1] == cards[1][1], hi == lo
    if share == "premium":
        return (pair and hi >= 10) or (hi == 14 and lo >= 13) or (hi == 14 and lo == 12 and suited)
    if share == "rock":
        return (pair and hi >= 7) or (hi == 14 and lo >= 12) or (suited and hi >= 13 and lo >= 11)
    if share == "tag":
        return (pair and hi >= 3) or (hi == 14 and (lo >= 10 or (suited and lo >= 7))) \
            or (hi >= 12 and lo >= 11) or (hi == 13 and lo >= 11) or (suited and lo >= 9 and hi - lo <= 2)
    if share == "lag":
        return pair or hi == 14 or (hi >= 10 and lo >= 9) or (suited and (hi >= 12 or hi - lo <= 2)) \
            or (hi - lo == 1 and lo >= 5)
    return pair or hi == 14 or lo >= 9 or suited or hi - lo <= 2 or hi >= 12  # station


def made(hole: list[str], board: list[str]) -> tuple[int, bool]:
    """The hand's category (0 high card … 8 straight flush) and whether it is
    a "top pair or better" a player bets for value (a pair from a hole card
    at least as high as the board's top card, or two pair and up using a
    hole card)."""
    cat = rank(hole + board) >> 20
    if not board:
        return cat, False
    board_cat = rank(board) >> 20 if len(board) >= 5 else (1 if len({c[0] for c in board}) < len(board) else 0)
    if cat >= 2 and cat > board_cat:
        return cat, True
    top = max(V[c[0]] for c in board)
    paired = [V[c[0]] for c in hole if any(c[0] == b[0] for b in board)] + \
        ([V[hole[0][0]]] if hole[0][0] == hole[1][0] else [])
    return cat, cat == 1 and bool(paired) and max(paired) >= top


def outs(hole: list[str], board: list[str]) -> int:
    """A draw's outs: four to a flush 9, four to an open straight 8, a gutshot 4."""
    cards = hole + board
    if any(sum(1 for c in cards if c[1] == s) == 4 for s in "cdhs"):
        return 9
    have = {V[c[0]] for c in cards} | ({1} if any(c[0] == "A" for c in cards) else set())
    best = 0
    for lo in range(1, 11):
        k = sum(1 for v in range(lo, lo + 5) if v in have)
        if k == 4:
            best = max(best, 8 if all(v in have for v in range(lo, lo + 4)) or all(v in have for v in range(lo + 1, lo + 5)) else 4)
    return best


def _price(view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[int, float]:
    call = _find(legal, "call")
    to_call = call["amount"] - _me(view)["bet"] if call else 0
    return to_call, (to_call / (view["pot"] + to_call) if to_call else 0.0)


def _bet(legal: list[dict[str, Any]], amount: int) -> Move | None:
    up = _find(legal, "raise") or _find(legal, "bet")
    return {"action": up["action"], "amount": max(up["min"], min(up["max"], amount))} if up else None


def _passive(legal: list[dict[str, Any]], call_it: bool) -> Move:
    if _find(legal, "check"):
        return {"action": "check"}
    return {"action": "call"} if call_it and _find(legal, "call") else {"action": "fold"}


def holdem_player(style: str) -> Any:
    """The hold'em club player of ``style`` (module's docstring)."""

    def play(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> Move:
        if _find(legal, "show"):
            return {"action": "show"}
        me, board, bb = _me(view), list(view["board"]), view["big_blind"]
        hole = list(me["cards"])
        to_call, odds = _price(view, legal)
        top_bet = me["bet"] + to_call
        if not board:
            if not chart(hole, style):
                return _passive(legal, False)
            aces_kings = hole[0][0] == hole[1][0] and V[hole[0][0]] >= 13
            raiser = style in ("tag", "lag") or (style == "rock" and aces_kings)
            if raiser and (top_bet <= bb or chart(hole, "premium") or (style == "lag" and rng.random() < 0.3)):
                return _bet(legal, 3 * top_bet if top_bet > bb else 3 * bb) or _passive(legal, True)
            limit = {"tag": 0.34, "lag": 0.4, "station": 0.5, "rock": 0.3}[style]
            return _passive(legal, odds <= limit or chart(hole, "premium"))
        cat, value = made(hole, board)
        draw = outs(hole, board) if len(board) < 5 else 0
        chance = draw * (4 if len(board) == 3 else 2) / 100
        pot = view["pot"]
        if style == "station":
            return _passive(legal, cat >= 1 or draw > 0 or any(c[0] == "A" for c in hole))
        if style == "rock":
            if cat >= 2 and value:
                return _bet(legal, top_bet + pot // 2) if not to_call else _passive(legal, True)
            return _passive(legal, value and odds <= 0.35)
        strong = value and (cat >= 2 or style == "lag" or rng.random() < 0.9)
        if strong and (not to_call or cat >= 2 or (style == "lag" and rng.random() < 0.5)):
            return _bet(legal, top_bet + 2 * (pot + to_call) // 3) or _passive(legal, True)
        if style == "lag" and not to_call and (draw or rng.random() < 0.55):
            return _bet(legal, 2 * pot // 3) or _passive(legal, False)
        if style == "lag" and draw and rng.random() < 0.4:
            return _bet(legal, top_bet + pot) or _passive(legal, True)
        guess = max(chance, 0.7 if value else 0.35 if cat >= 1 else 0.0)
        return _passive(legal, guess >= odds)

    play.__name__ = f"holdem_{style}"
    return play


def draw_keep(hand: list[str]) -> list[str]:
    """The cards a club player keeps at the draw (module's docstring)."""
    ranks = [c[0] for c in hand]
    if rank(hand) >> 20 >= 4:
        return hand
    grouped = [c for c in hand if ranks.count(c[0]) >= 2]
    if grouped:
        return grouped
    for s in "cdhs":
        if sum(1 for c in hand if c[1] == s) == 4:
            return [c for c in hand if c[1] == s]
    by = sorted(hand, key=lambda c: V[c[0]])
    for i in range(2):
        run = by[i:i + 4]
        if [V[c[0]] for c in run] == list(range(V[run[0][0]], V[run[0][0]] + 4)):
            return run
    return by[-1:]


def draw_player(style: str) -> Any:
    """The draw poker club player of ``style``: opens a pair of jacks or
    better (the station any pair, the loose player any pair or draw),
    draws as :func:`draw_keep`, then bets two pair or better (the loose one
    any pair of jacks), calls what its temperament calls."""

    def play(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> Move:
        if _find(legal, "show"):
            return {"action": "show"}
        hand = list(_me(view)["cards"])
        if _find(legal, "draw"):
            keep = draw_keep(hand)
            return {"action": "draw", "discard": [c for c in hand if c not in keep]}
        _to_call, odds = _price(view, legal)
        cat = rank(hand) >> 20
        pair = max((V[c[0]] for c in hand if [x[0] for x in hand].count(c[0]) >= 2), default=0)
        before = view["round"] == 0
        keep = draw_keep(hand)
        drawing = len(keep) == 4 and cat == 0
        if before:
            opens = {"tag": pair >= 11 or cat >= 2, "lag": cat >= 1 or drawing, "rock": pair >= 13 or cat >= 2,
                     "station": False}[style]
            plays = {"tag": pair >= 7 or cat >= 2 or (drawing and odds <= 0.25), "lag": True,
                     "rock": pair >= 11 or cat >= 2, "station": cat >= 1 or drawing}[style]
        else:
            opens = {"tag": cat >= 2, "lag": cat >= 2 or pair >= 11 or (rng.random() < 0.3), "rock": cat >= 3,
                     "station": False}[style]
            plays = {"tag": pair >= 10 or cat >= 2, "lag": cat >= 1, "rock": cat >= 2 or pair >= 13,
                     "station": cat >= 1 or any(c[0] == "A" for c in hand)}[style]
        if opens:
            return _bet(legal, 0) or _passive(legal, True)
        return _passive(legal, plays)

    play.__name__ = f"draw_{style}"
    return play


STYLES = ("tag", "lag", "station", "rock")
