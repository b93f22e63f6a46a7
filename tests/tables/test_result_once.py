"""docs/protocol.md: ``last_result`` and the revealed seed (top-level ``fair``)
change once a deal, so a publication carries them only when they changed,
a snapshot always; ``result_at`` in every state names the publication that
last carried them."""

from __future__ import annotations

import asyncio
import json

import pytest
from tests.tables.conftest import Harness, build_world, passive

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
