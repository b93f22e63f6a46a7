"""The simple players the house players are measured against (bench/bench_simple_bots.py,
docs/bots.md "Measured"). Same interface as :func:`tavern.bots.policy`.

* :func:`random_player` — a random legal move (:func:`tavern.bots.moves.random_move`).
* :func:`greedy_player` — looks one move ahead for the most immediate gain and
  no further: at poker it raises the minimum with a pair or better and calls
  everything else (never folds), draws to its pairs; in the rami family it
  goes out whenever it may, lays and adds whatever it can, takes the
  discard only when it completes a meld and throws its highest card outside
  a meld; at Rams it always plays its hand and its highest legal card; at
  Rummoli it keeps its hand, never bids, leads its first card and plays the
  longest run offered.
* :func:`always_call` — poker: checks or calls, always.
* :func:`raise_call_fold` — poker: raises (about the pot) with a strong hand,
  calls with a fair one, folds the rest (checks when free).
"""

from __future__ import annotations

import random
from typing import Any

from tavern.bots import Policy
from tavern.bots.equity import preflop_score
from tavern.bots.moves import Move, find, random_move, sized
from tavern.games.base import LegalAction
from tavern.games.poker.evaluator import rank
from tavern.games.rami import melds

_ORDER = "23456789TJQKA"


def random_player(view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
    return random_move(legal, rng)


def _seat(view: dict[str, Any]) -> dict[str, Any]:
    mine: dict[str, Any] = next(p for p in view["players"] if p["player"] == view["to_act"])
    return mine


def _category(cards: list[str]) -> int:
    return rank(cards) >> 20 if len(cards) >= 5 else (1 if len({c[0] for c in cards}) < len(cards) else 0)


def always_call(view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
    for name in ("show", "check", "call"):
        if find(legal, name):
            return {"action": name}
    if find(legal, "draw"):
        return {"action": "draw", "discard": []}
    return {"action": "fold"}


def raise_call_fold(view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
    if find(legal, "show"):
        return {"action": "show"}
    if find(legal, "draw"):
        return _greedy_draw(view)
    cards = list(_seat(view)["cards"]) + list(view.get("board") or [])
    if len(cards) == 2:
        s = preflop_score(*cards)
        strong, fair = s >= 0.62, s >= 0.4
    else:
        cat = _category(cards)
        strong, fair = cat >= 2, cat >= 1
    up = find(legal, "raise", "bet")
    if strong and up:
        call = find(legal, "call")
        target = (call["amount"] if call else 0) + view["pot"]
        return sized(up, target)
    if find(legal, "check"):
        return {"action": "check"}
    if fair and find(legal, "call"):
        return {"action": "call"}
    return {"action": "fold"}


def _greedy_draw(view: dict[str, Any]) -> Move:
    hand = list(_seat(view)["cards"])
    ranks = [c[0] for c in hand]
    paired = [c for c in hand if ranks.count(c[0]) >= 2]
    return {"action": "draw", "discard": [c for c in hand if c not in paired] if paired and len(paired) < 5 else []}


def _greedy_poker(view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
    if find(legal, "show"):
        return {"action": "show"}
    if find(legal, "draw"):
        return _greedy_draw(view)
    cards = list(_seat(view)["cards"]) + list(view.get("board") or [])
    up = find(legal, "raise", "bet")
    if up and _category(cards) >= 1:
        return sized(up, up["min"])
    return {"action": "check"} if find(legal, "check") else {"action": "call"}


_RULES = {
    "rami": melds.MeldRules(jokers=True),
    "double_rami": melds.MeldRules(ace_high=True, jokers=True, ace_points=11, joker_points=15),
    "remigio": melds.MeldRules(ace_high=True, jokers=True, ace_points=1),
    "gin": melds.MeldRules(ace_high=True, ace_points=15),
}


def _greedy_rami(game: str) -> Policy:
    rules = _RULES[game]

    def play(view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
        hand = list(view["hand"])
        drawing = find(legal, "draw")
        if drawing:
            top = view["discard"]["top"]
            takes = "discard" in drawing["sources"] and (
                drawing["sources"] == ["discard"]
                or top in {c for m in melds.best_arrangement(hand + [top], rules).melds for c in m.cards})
            return {"action": "draw", "source": "discard" if takes else drawing["sources"][0]}
        won = find(legal, "gin")
        if won:
            return {"action": "gin"} if won.get("grand") else {"action": "gin", "card": won["cards"][0]}
        for name in ("close", "knock"):
            out = find(legal, name)
            if out:
                return {"action": name, "card": out["cards"][0]}
        lay = find(legal, "lay")
        if lay:
            return {"action": "lay", "cards": list(lay["melds"][0])}
        add = find(legal, "add")
        if add:
            o = add["options"][0]
            return {"action": "add", "meld": o["meld"], "cards": list(o["cards"])}
        allowed = list(find(legal, "discard")["cards"])  # type: ignore[index]  # a rami turn that offers no add offers a discard
        dead = set(melds.best_arrangement(hand, rules).deadwood)
        pool = [c for c in allowed if c in dead] or allowed
        return {"action": "discard", "card": max(pool, key=lambda c: melds.points(c, rules))}

    return play


def _greedy_rams(view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
    if view["phase"] == "exchange":
        return {"action": "exchange"}
    if view["phase"] == "speak":
        return {"action": "speak", "choice": "play"}
    return max((dict(a) for a in legal), key=lambda a: "789TJQKA".index(a["card"][0]))


def _greedy_rummoli(view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
    names = {a["action"] for a in legal}
    if "keep" in names:
        return {"action": "keep"}
    if "pass" in names:
        return {"action": "pass"}
    if names & {"check", "call"}:
        return {"action": "check" if "check" in names else "call"}
    if "play" in names:
        return {"action": "play", "cards": max((list(a["cards"]) for a in legal if a["action"] == "play"), key=len)}
    first = legal[0]
    return {k: v for k, v in first.items()}


def greedy_player(game: str) -> Policy:
    """The greedy one-move player of ``game`` (see the module's docstring)."""
    if game in ("ramponneau", "draw"):
        return _greedy_poker
    if game in _RULES:
        return _greedy_rami(game)
    return _greedy_rams if game == "rams" else _greedy_rummoli
