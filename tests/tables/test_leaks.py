"""No player ever sees a card he should not.

Issue: "over many random deals, no message sent to a player ever contains
another player's hidden card before showdown, nor any card of the deck."
Checked at the source: every publication of the actor, against the engine's
own state at that moment. The replay of the archived deals (« Mes donnes »)
is held to the same, step by step and for every game, in
tests/web/test_replay_leaks.py.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from tests.tables.conftest import Harness, build_world, random_policy

from tavern.tables.broadcast import SPECTATORS
from tavern.tables.chat import ChatDesk

pytestmark = [pytest.mark.db]

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def cards_in(obj) -> set[str]:
    return set(CARD.findall(json.dumps(obj)))


@pytest.mark.parametrize("game,stakes,variant", [
    ("ramponneau", {"small_blind": 1, "big_blind": 2}, ""),
    ("draw", {"small_bet": 2}, "no-limit"),
])
def test_no_message_leaks_a_hidden_card(session_factory, game, stakes, variant):
    world = build_world(session_factory, game=game, stakes=stakes, variant=variant,
                        options={"draws": 2} if game == "draw" else None)
    checked = {"messages": 0, "chat": 0}
    leaks: list[str] = []  # collected, not raised: the actor survives its publisher's errors

    async def scenario():
        h = Harness(world)
        real_publish = h.broadcaster.publish

        async def checking_publish(table_id, messages):
            eng = h.actor.engine
            if eng is not None:
                names = list(eng.players)
                hole = {n: set(eng.hole[i]) for i, n in enumerate(names)}
                shown = set().union(*(set(c) for c in eng.shown.values())) if eng.shown else set()
                dealt = set().union(*hole.values()) | set(eng.board)
                undealt = set(eng.deck) - dealt - set().union(*(set(r) for r in eng.reshuffles)) \
                    if not eng.reshuffles else set()
                for who, text in messages.items():
                    msg = json.loads(text)
                    # The deal's story (the log beside the felt) is checked too, and
                    # the player's own part sent beside the public view (protocol "own").
                    seen = cards_in(msg.get("deal")) | cards_in(msg.get("you")) | cards_in(msg.get("story")) \
                        | cards_in(msg.get("own"))
                    if msg["type"].startswith("chat"):  # the table's chat, said mid-deal: the whole frame
                        seen |= cards_in(msg)
                        checked["chat"] += 1
                    others = set().union(*(c for n, c in hole.items() if n != who)) - shown - set(eng.board)
                    if seen & others:
                        leaks.append(f"{who} sees another player's hidden cards {seen & others}")
                    if seen & (undealt - set(eng.board) - shown):
                        leaks.append(f"{who} sees the deck")
                    if who == SPECTATORS and not seen <= set(eng.board) | shown:
                        leaks.append(f"spectators see {seen - set(eng.board) - shown}")
                    checked["messages"] += 1
            await real_publish(table_id, messages)

        h.broadcaster.publish = checking_publish
        actor = await h.start(seated=("ana", "bob", "cid", "dan"))
        moves = random_policy(random.Random(11))
        # The players chat between moves (issue 30: "The never-leak tests read chat
        # messages too"): each message and each reader's chat log is checked as sent.
        desks = {n: ChatDesk(world.table_id, world.users[n], world.factory, world.factory, h.broadcaster,
                             lambda uid: 0) for n in ("ana", "bob", "cid", "dan")}
        chatter: list[asyncio.Task] = []
        talk = random.Random(5)

        async def chat(name):
            await desks[name].say("Bien joué !")
            log = json.loads(await desks[name].log())
            await checking_publish(world.table_id, {name: json.dumps(log)})

        def policy(name, legal):
            if len(chatter) < 60 and talk.random() < 0.5:
                chatter.append(asyncio.get_running_loop().create_task(chat(name)))
            return moves(name, legal)
        for k in range(25):
            # Someone speaks at every deal's start too: how many chat frames
            # are read must not hang on how long the shuffled deals last.
            chatter.append(asyncio.get_running_loop().create_task(chat(("ana", "bob", "cid", "dan")[k % 4])))
            await h.play_deal(policy)
            await h.settle()
            if actor.engine is None:
                break
        await asyncio.gather(*chatter)
        checked["said"] = len(chatter)
        await actor.stop()

    asyncio.run(scenario())
    # Each word said is read: its frame, and the speaker's chat log after it.
    assert checked["messages"] > 100 and checked["said"] > 10 and checked["chat"] > checked["said"]
    assert not leaks, leaks[:5]
    assert world.audit_ok()
