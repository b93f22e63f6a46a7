"""docs/protocol.md: ``last_result`` and the revealed seed (top-level ``fair``)
change once a deal, so a publication carries them only when they changed,
a snapshot always; ``result_at`` in every state names the publication that
last carried them."""

from __future__ import annotations

import asyncio
import json

import pytest
from tests.tables.conftest import Harness, build_world, passive

from tavern.tables.commands import Act
from tavern.tables.publication import HELD

pytestmark = [pytest.mark.db]


def test_the_result_goes_once_and_every_snapshot_carries_it(session_factory) -> None:
    world = build_world(session_factory, stakes={"small_blind": 1, "big_blind": 2})

    async def deal_now(h: Harness) -> None:
        h.actor.next_deal_at = h.actor.clock()
        await h.settle()  # the tick after this answer starts the deal
        await h.settle()

    async def scenario():
        h = Harness(world, deal_pause=60.0)  # no deal until told
        actor = await h.start(seated=("ana", "bob", "cid"))
        await deal_now(h)
        seen = {name: len(h.inbox[name]) for name in ("ana", None)}
        await h.play_deal(passive)
        await h.settle()
        await deal_now(h)  # the next deal's publications
        assert actor.engine is not None and not actor.engine.over
        for name in ("ana", None):
            states = [m for m in h.inbox[name][seen[name]:] if m["type"] == "state"]
            carriers = [m for m in states if "last_result" in m]
            # Once: with the publication after the settlement, not again.
            assert len(carriers) == 1, [m["seq"] for m in carriers]
            [carrier] = carriers
            assert carrier["last_result"]["deal"] == actor.deals - 1 and carrier["result_at"] == carrier["seq"]
            later = states[states.index(carrier) + 1:]
            assert later, "the next deal was published"
            assert all(m["result_at"] == carrier["seq"] and "fair" not in m for m in later)
            # The seed to the deal's players only, with the result.
            assert ("fair" in carrier) == (name is not None)
            # A (re)connection's snapshot carries them, naming the same publication.
            snap = json.loads(await actor.snapshot(name))
            assert snap["last_result"] == carrier["last_result"] and snap["result_at"] == carrier["seq"]
            assert snap.get("fair") == carrier.get("fair")
            assert h.held(name)["last_result"] == carrier["last_result"]
        await actor.stop()

    asyncio.run(scenario())


def test_the_table_settings_go_once_a_deal_and_a_snapshot_mid_deal_has_everything(session_factory) -> None:
    """docs/protocol.md: the table's keys that change at most once a deal
    (its settings, the fair commitments) go with a publication only when
    they changed, ``table_at`` naming the last that carried them; a page
    that (re)connects mid-deal gets them all in its first frame, with its
    own cards and nobody else's."""
    world = build_world(session_factory, stakes={"small_blind": 1, "big_blind": 2})

    async def scenario():
        h = Harness(world, deal_pause=60.0)  # no deal until told
        actor = await h.start(seated=("ana", "bob", "cid"))
        actor.next_deal_at = actor.clock()
        await h.settle()
        await h.settle()
        assert actor.engine is not None and not actor.engine.over
        start = len(h.inbox["ana"])
        for _ in range(2):  # two moves of the deal: publications that change nothing held
            name = actor.engine.to_act()[0]
            await actor.submit(Act(action=passive(name, actor.engine.legal_actions(name))["action"]), name,
                               user_id=world.users[name])
            await h.settle()
        states = [m for m in h.inbox["ana"] if m["type"] == "state"]
        carrier = next(m for m in reversed(states) if "id" in m["table"])
        # The deal's start carried them: its commitments and per-card digests.
        assert carrier["table_at"] == carrier["seq"] and carrier["table"]["fair"]["deal"]
        assert carrier["table"]["fair"]["cards"]
        moves = [m for m in h.inbox["ana"][start:] if m["type"] == "state"]
        assert len(moves) >= 2
        for m in moves:
            assert not set(HELD) & set(m["table"]), sorted(set(HELD) & set(m["table"]))
            assert m["table_at"] == carrier["seq"]
            assert "players" in m["table"] and "clock" in m["table"]  # what moves still goes
        # A page joining now: the whole picture in its first frame.
        snap = json.loads(await actor.snapshot("ana"))
        assert snap["table_at"] == carrier["seq"]
        public = actor.public_table()
        for key in ("id", "name", "game", "stakes", "buy_in", "seats", "timer", "label", "view", "fair"):
            assert snap["table"][key] == public[key] == carrier["table"][key], key
        assert snap["story_at"] == 0 and snap["story"][0]["event"] == "deal"
        mine = next(p for p in snap["deal"]["players"] if p["player"] == "ana")
        assert mine["cards"] == actor.engine.view("ana")["players"][[p["player"] for p in
                                                                        actor.engine.view("ana")["players"]].index("ana")]["cards"]
        assert len(mine["cards"]) == 2
        # Never another's hidden card, in a player's or a watcher's snapshot.
        assert all(p["cards"] is None for p in snap["deal"]["players"] if p["player"] != "ana")
        watcher = json.loads(await actor.snapshot(None))
        assert all(p["cards"] is None for p in watcher["deal"]["players"])
        assert watcher["table"]["fair"] == carrier["table"]["fair"]
        # As a client holds the last frame: the held keys put back.
        assert h.last("ana")["table"]["name"] == public["name"]
        # The next deal changes the commitments: carried again, with it.
        seen = len(h.inbox["ana"])
        await h.play_deal(passive)
        await h.settle()
        actor.next_deal_at = actor.clock()
        await h.settle()
        await h.settle()
        after = [m for m in h.inbox["ana"][seen:] if m["type"] == "state"]
        carriers = [m for m in after if "id" in m["table"]]
        assert carriers and all(m["table_at"] == m["seq"] for m in carriers)
        assert carriers[-1]["table"]["fair"]["deal"] == carrier["table"]["fair"]["next"]  # the seed promised
        assert after[-1]["table_at"] == carriers[-1]["seq"]
        await actor.stop()

    asyncio.run(scenario())
