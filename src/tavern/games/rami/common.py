"""Helpers shared by the rami family's engines (Gin rummy, Remigio, and
whoever wants them): table options, seats, the chips-per-point settlement and
the replay loop. Pure functions, no state of their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from tavern.cards import CardError, check_card
from tavern.games.base import IllegalAction


def parse_config(model: type[BaseModel], config: dict[str, Any] | BaseModel | None) -> BaseModel:
    """The validated table options, or :class:`IllegalAction` naming the bad one."""
    if isinstance(config, model):
        return config
    try:
        return model.model_validate(config or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise IllegalAction(f"bad table option {where}: {first['msg']}") from None


def check_seats(seats: list[dict[str, Any]], button: int, lo: int, hi: int, game: str) -> None:
    """Seats are distinct named players with whole, non-negative chips."""
    if not isinstance(seats, list) or not lo <= len(seats) <= hi:
        who = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise IllegalAction(f"{game} is played by {who} players")
    names = [s.get("player") if isinstance(s, dict) else None for s in seats]
    if len(set(names)) != len(names) or not all(isinstance(n, str) and n for n in names):
        raise IllegalAction("each seat needs a distinct player name")
    if not all(isinstance(s.get("chips"), int) and s["chips"] >= 0 for s in seats):
        raise IllegalAction("chips are a whole, non-negative number")
    if not isinstance(button, int) or isinstance(button, bool) or not 0 <= button < len(seats):
        raise IllegalAction("the dealer must be one of the seats")


def take_cards(hand: Sequence[str], cards: Any) -> list[str]:
    """The cards named, checked to be held (the hand is not changed)."""
    if not isinstance(cards, (list, tuple)) or not cards:
        raise IllegalAction("name the cards as a list of card codes")
    try:
        cards = [check_card(c) for c in cards]
    except CardError as exc:
        raise IllegalAction(str(exc)) from None
    missing = Counter(cards) - Counter(hand)
    if missing:
        raise IllegalAction(f"you do not hold {', '.join(sorted(missing.elements()))}")
    return cards


def settle(
    chips: dict[str, int], debts: dict[str, int], winners: list[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """Chips per point: each loser pays what he owes (``points × unit``), but
    never more than his chips (ruling: nobody goes below zero); the winners
    share it equally, odd chips to the first winners listed. Returns
    ``(delta, paid)``; the deltas always sum to zero."""
    delta = {p: 0 for p in chips}
    paid: dict[str, int] = {}
    for loser, owed in debts.items():
        amount = max(0, min(owed, chips[loser]))
        paid[loser] = amount
        delta[loser] -= amount
        share, odd = divmod(amount, len(winners))
        for i, w in enumerate(winners):
            delta[w] += share + (1 if i < odd else 0)
    return delta, paid


def replay_with(new_deal: Callable[..., Any], game: str, record: dict[str, Any]) -> dict[str, Any]:
    """Rebuild a deal from its record, apply every action, report the outcome."""
    if not isinstance(record, dict) or record.get("game") != game:
        raise IllegalAction(f"this is not a {game} record")
    for key in ("seats", "button", "deck"):
        if key not in record:
            raise IllegalAction(f"the record has no {key!r}")
    engine = new_deal(
        record.get("config") or {},
        record["seats"],
        record["button"],
        deck=record["deck"],
        reshuffles=record.get("reshuffles") or [],
        carry=record.get("carry"),
    )
    for a in record.get("actions", []):
        if not isinstance(a, dict) or "player" not in a or "action" not in a:
            raise IllegalAction("each action needs a player and an action name")
        args = {k: v for k, v in a.items() if k not in ("player", "action")}
        engine.act(a["player"], a["action"], **args)
    if not engine.over:
        return {
            "finished": False,
            "chips": {s["player"]: s["chips"] for s in record["seats"]},
            "rake": 0,
            "to_act": engine.to_act(),
        }
    return {"finished": True, **engine.result()}
