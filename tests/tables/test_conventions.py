"""One convention for the seats and one place for the legal actions, in the
states of every game (issue 33, item 10; docs/protocol.md "Seats" and
"`state`").

An outside client reads a player's seat in ``table.players[].seat``,
``you.seat``, ``table.button_seat`` and — at poker — ``deal.players[].seat``
and ``deal.button``: each must be the same number, the table's seat counted
from 0 (the number the ``sit`` command takes). And it reads its legal
actions in ``deal.legal`` (the same list as ``you.legal``) whatever the game:
Rams and Rummoli sent them as ``legal_actions`` only.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.tables.conftest import Harness, build_world

from tavern.games import registry
from tavern.games.base import lay_own
from tavern.tables.commands import Act

pytestmark = [pytest.mark.db]

#: Seats with gaps, so that a seat's place among the dealt players (0, 1, 2)
#: cannot pass for its number at the table.
SEATS = (1, 3, 5)
STAKES = {"ramponneau": {"small_blind": 1, "big_blind": 2}, "draw": {"small_bet": 2}}


def _seat_problems(msg: dict[str, Any], seat_of: dict[str, int]) -> list[str]:
    """Every seat number the state gives, against the table's."""
    out = []
    table, deal, you = msg["table"], msg.get("deal"), msg.get("you")
    shown = {p["name"]: p["seat"] for p in table["players"]}
    if shown != seat_of:
        out.append(f"table.players: {shown} (seated {seat_of})")
    if table["button_seat"] is not None and table["button_seat"] not in seat_of.values():
        out.append(f"table.button_seat {table['button_seat']} is nobody's seat")
    if you is not None and you["seat"] != seat_of.get(you.get("name", ""), you["seat"]):
        out.append(f"you.seat {you['seat']}")
    if deal:
        for p in deal.get("players", []):
            if isinstance(p, dict) and "seat" in p and p["seat"] != seat_of[p["player"]]:
                out.append(f"deal.players: {p['player']} at seat {p['seat']}, at the table {seat_of[p['player']]}")
        if type(deal.get("button")) is int and deal["button"] != table["button_seat"]:
            out.append(f"deal.button {deal['button']}, table.button_seat {table['button_seat']}")
    return out


@pytest.mark.parametrize("game", list(registry.GAMES))
def test_every_game_numbers_seats_alike_and_sends_legal_in_deal(session_factory, game) -> None:
    lo, hi = registry.spec(game).seats
    names = ("ana", "bob", "cid")[:max(lo, min(hi, 3))]
    world = build_world(session_factory, game=game, stakes=STAKES.get(game, {"unit": 1}), rake_percent=0,
                        names=(*names, "dan"))
    seat_of = dict(zip(names, SEATS, strict=False))

    async def scenario() -> dict[str | None, list[dict[str, Any]]]:
        h = Harness(world)
        for name in names:
            h.bank.sit(world.table_id, world.users[name], seat_of[name], 200)
        actor = await h.start()
        await h.settle()
        # One move of whoever acts first, so that a publication (not only the
        # opening one) is checked too.
        if actor.engine is not None and actor.engine.to_act():
            mover = actor.engine.to_act()[0]
            move = dict(actor.engine.timeout_action(mover))  # a legal move in every game
            action = move.pop("action")
            await actor.submit(Act(action=action, args=move), mover)
            await h.settle()
        await actor.stop()
        return h.inbox

    inbox = asyncio.run(scenario())
    problems: list[str] = []
    turns = 0
    for who, messages in inbox.items():
        for msg in (m for m in messages if m["type"] == "state"):
            deal = msg.get("deal")
            if deal is not None and "own" in msg:
                deal = msg["deal"] = lay_own(deal, msg.pop("own"))
            if who is not None and msg.get("you") is not None:
                msg["you"]["name"] = who
            problems += [f"{who} seq {msg['seq']}: {p}" for p in _seat_problems(msg, seat_of)]
            if deal is None or who not in seat_of:
                continue
            # "his legal actions (the same list as deal.legal when it is his turn)"
            if deal.get("legal") != msg["you"]["legal"]:
                problems.append(f"{who} seq {msg['seq']}: deal.legal {deal.get('legal')!r}, "
                                f"you.legal {msg['you']['legal']!r}")
            turns += bool(msg["you"]["legal"])
    assert not problems, problems[:5]
    assert turns, "no state offered anybody a move: nothing was checked"
