"""Issue 29 "Beyond" at the live table: "When every player still in a
Ramponneau deal is all in before the river, the table ... show[s] each
hand's equity at that moment".

The ruling followed (docs/games/poker.md "Rulings"): "In an all-in run-out
(cards dealt with nobody left to bet) and for protected players every hand
is tabled" — so the equity goes with hands that are face up, in the state
that shows them, and names nobody whose cards that state does not show. Every
message to each player and to the spectators is read as sent.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading

import pytest
from tests.tables.conftest import Harness, build_world

from tavern.games.base import lay_own
from tavern.games.poker import equity

pytestmark = [pytest.mark.db]

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
NAMES = ("ana", "bob", "cid", "dan")


def shove_or_call(folders):
    """The first to speak goes all in; the others call, but ``folders`` fold."""
    def policy(name, legal):
        by = {a["action"]: a for a in legal}
        if name in folders and "fold" in by:
            return {"action": "fold"}
        if "raise" in by:
            return {"action": "raise", "amount": by["raise"]["max"]}
        if "call" in by:
            return {"action": "call"}
        return {"action": "check" if "check" in by else next(iter(by))}
    return policy


def test_the_equity_goes_with_the_tabled_hands_to_every_seat_and_the_spectators(session_factory, monkeypatch):
    calls: list[int] = []
    threads: set[threading.Thread] = set()
    real = equity.permille
    monkeypatch.setattr(equity, "permille",
                        lambda h, b, *a: threads.add(threading.current_thread()) or calls.append(len(b)) or real(h, b, *a))
    world = build_world(session_factory, game="ramponneau", stakes={"small_blind": 1, "big_blind": 2})
    seen: dict[str | None, list[dict]] = {}

    async def scenario():
        h = Harness(world)
        actor = await h.start(seated=NAMES)
        await h.settle()  # the first deal starts
        await h.play_deal(shove_or_call(folders={"bob"}))
        await h.settle()
        await actor.stop()
        for who in (*NAMES, None):
            seen[who] = [m for m in h.inbox[who] if m["type"] == "state"]

    asyncio.run(scenario())
    with_equity = {who: [m for m in states if m.get("deal") and "equity" in m["deal"]] for who, states in seen.items()}
    assert all(with_equity.values()), "every seat and the spectators are told"
    told = with_equity[None][0]["deal"]["equity"]
    named = set(told[0]["permille"])
    assert "bob" not in named and len(named) >= 2  # the folded hand is not in it
    # Computed once for the deal (a street each), whatever the number of publications.
    assert calls == [0, 3, 4][-len(told):]
    # Off the table's event loop (up to 0.2 s of CPU before the flop): the other tables go on.
    assert threading.main_thread() not in threads and threads
    for who, states in seen.items():
        for m in states:
            deal = m.get("deal")
            if not deal:
                continue
            if "own" in m:
                deal = lay_own(deal, m["own"])
            if "equity" not in deal:
                assert deal["phase"] != "over" or not deal["board"], who  # told in every state of the finished deal
                continue
            assert deal["phase"] == "over" and deal["equity"] == told, who
            shown = {p["player"]: p["cards"] for p in deal["players"] if p["cards"] and not p["folded"]}
            for street in deal["equity"]:
                # Only hands this very message shows face up, on the board it shows.
                assert set(street["permille"]) <= set(shown), (who, street)
                assert street["board"] == deal["board"][:len(street["board"])]
                assert len(street["board"]) < 5
            if who != "bob":
                assert [p["cards"] for p in deal["players"] if p["player"] == "bob"] == [None]  # folded, hidden
            # The figures are those of the hands the table saw, nothing else.
            order = [n for n in (p["player"] for p in deal["players"]) if n in named]
            first = told[0]
            assert first["permille"] == dict(zip(order, real([shown[n] for n in order], first["board"]), strict=True))
    # The spectators' states that carry it name no card but the board and the hands tabled.
    for m in with_equity[None]:
        public = set(m["deal"]["board"]) | {c for p in m["deal"]["players"] if p["cards"] for c in p["cards"]}
        assert set(CARD.findall(json.dumps(m["deal"]))) <= public


def test_no_equity_while_a_seat_with_chips_still_acts_or_when_all_but_one_fold(session_factory):
    world = build_world(session_factory, game="ramponneau", stakes={"small_blind": 1, "big_blind": 2})
    seen: list[dict] = []

    async def scenario():
        h = Harness(world)
        actor = await h.start(seated=NAMES)
        await h.settle()  # the first deal starts
        # The first to speak goes all in, everyone else folds: no showdown, no equity.
        await h.play_deal(shove_or_call(folders=set(NAMES) - {actor.engine.to_act()[0]}))
        await h.settle()
        await actor.stop()
        seen.extend(m for who in (*NAMES, None) for m in h.inbox[who] if m["type"] == "state")

    asyncio.run(scenario())
    assert any(m.get("deal") and m["deal"]["phase"] == "over" for m in seen)
    assert not [m for m in seen if m.get("deal") and "equity" in m["deal"]]
