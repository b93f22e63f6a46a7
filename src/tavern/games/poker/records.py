"""Shared record helpers of the poker games: replaying a hand record, the
leading ``post`` actions, and a deck order that deals chosen cards.

The record format is documented in ``docs/records/poker.md``.
"""

from __future__ import annotations

from typing import Any

from tavern.cards import CardError, deck52
from tavern.games.base import IllegalAction, in_action
from tavern.games.poker.betting import build_pots
from tavern.games.poker.deal import SHOWDOWN

_DECK52 = tuple(deck52())


def stacked_deck(holes: list[list[str]], board: list[str] | tuple[str, ...] = (),
                 then: list[str] | tuple[str, ...] = ()) -> list[str]:
    """A deck order that deals ``holes`` (in player index order: the seat left
    of the button first, the button last), then ``board`` (hold'em) and
    ``then`` (the next cards of the stock), the rest in a fixed order. For
    examples, tests and hand-written records."""
    n, h = len(holes), len(holes[0])
    top = [holes[i][r] for r in range(h) for i in range(n)] + list(board) + list(then)
    used = set(top)
    if len(used) != len(top):
        raise CardError("card_dealt_twice")
    return top + [c for c in _DECK52 if c not in used]


def _posts_to_seats(seats: Any, actions: Any, config: Any) -> tuple[Any, Any]:
    """Leading ``post`` actions (a big blind posted to enter, or big and small
    after missed blinds) become the seats' ``post`` flags the engine takes."""
    if not isinstance(actions, list) or not isinstance(seats, list) or not isinstance(config, dict):
        return seats, actions
    k = 0
    seats = [dict(s) if isinstance(s, dict) else s for s in seats]
    by_name = {s.get("player"): s for s in seats if isinstance(s, dict)}
    big, small = config.get("big_blind"), config.get("small_blind")
    if small is None and isinstance(big, int):
        small = big // 2  # draw poker's rule
    while k < len(actions) and isinstance(actions[k], dict) and actions[k].get("action") == "post":
        a = actions[k]
        seat = by_name.get(a.get("player"))
        if seat is None or seat.get("waiting") or seat.get("post"):
            raise IllegalAction("record_post_once", index=k + 1)
        if a.get("amount") == big:
            seat["post"] = True
        elif isinstance(big, int) and isinstance(small, int) and a.get("amount") == big + small:
            seat["post"] = "both"
        else:
            raise IllegalAction("record_post_amount", index=k + 1, big=big)
        k += 1
    for j in range(k, len(actions)):
        if isinstance(actions[j], dict) and actions[j].get("action") == "post":
            raise IllegalAction("record_posts_first", index=j + 1)
    return seats, actions[k:]


def replay_setup(record: dict[str, Any]) -> tuple[Any, Any]:
    """The seats and the decisions of a record: posts to enter become the
    seats' ``post`` (what ``new_deal`` takes), the rest are the actions."""
    return _posts_to_seats(record["seats"], record["actions"], record["config"])


def replay_record(new_deal: Any, record: dict[str, Any]) -> dict[str, Any]:
    """Rebuild a deal from its record, apply every action, return the replay
    output. Showdown decisions missing at the end: cards speak."""
    for key in ("config", "seats", "button", "deck", "actions"):
        if key not in record:
            raise IllegalAction("record_needs", key=key)
    if not isinstance(record["deck"], list):
        raise IllegalAction("record_deck_list")
    if not isinstance(record["actions"], list):
        raise IllegalAction("record_actions_list")
    reshuffles = record.get("reshuffles") or []
    if not isinstance(reshuffles, list) or not all(isinstance(r, list) for r in reshuffles):
        raise IllegalAction("record_reshuffles_list")
    seats, actions = _posts_to_seats(record["seats"], record["actions"], record["config"])
    engine = new_deal(record["config"], seats, record["button"], deck=record["deck"], reshuffles=reshuffles)
    skip = len(record["actions"]) - len(actions)
    for k, a in enumerate(actions, start=skip):
        if not isinstance(a, dict) or "player" not in a or "action" not in a:
            raise IllegalAction("record_action_fields", index=k + 1)
        args = {key: v for key, v in a.items() if key not in ("player", "action")}
        try:
            if a["action"] == "protect":
                engine.protect(a["player"])
            else:
                engine.act(a["player"], a["action"], **args)
        except IllegalAction as exc:
            raise in_action(k, a["player"], a["action"], exc) from None
    while engine.phase == SHOWDOWN:
        p = engine.to_act()[0]
        engine.act(p, "show")  # cards speak
    if engine.over:
        res = engine.result()
        return {"finished": True, "chips": res["chips"], "delta": res["delta"], "pots": res["pots"],
                "rake": res["rake"], "shown": res["shown"], "hands": res["hands"]}
    chips = {s["player"]: s["chips"] for s in engine.seats}
    for i, p in enumerate(engine.players):
        chips[p] = engine.b.stack[i]
    pots = [{"amount": a, "eligible": [engine.players[i] for i in e], "winners": []}
            for a, e in build_pots(engine.b.total, engine.b.folded)]
    return {"finished": False, "chips": chips, "pots": pots, "rake": 0,
            "to_act": engine.to_act()}
