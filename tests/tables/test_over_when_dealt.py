"""A deal over as soon as it is dealt — heads-up, a short stack all-in from
his blind and the other player with nothing to call — is settled by the
table by itself: nobody has a turn, so no click and no time-out would ever
wake it (it once waited for the next command forever)."""

from __future__ import annotations

import asyncio

import pytest
from tests.tables.conftest import Harness, build_world

pytestmark = pytest.mark.db


def test_a_deal_over_when_dealt_is_settled_without_any_command(session_factory) -> None:
    world = build_world(session_factory, names=("ana", "bob"), stakes={"small_blind": 20, "big_blind": 40},
                        rake_percent=0)
    h = Harness(world)

    async def scenario() -> tuple[int, int, object]:
        actor = await h.start()
        await h.sit("ana", 0, 20)  # the button posts the small blind heads-up: all-in
        await h.sit("bob", 1, 200)
        for _ in range(200):  # no command from now on: the table alone must finish the deal
            if actor.last_result is not None:
                break
            await asyncio.sleep(0.01)
        deals, settled = actor.deals, actor.last_result
        await actor.stop()
        return deals, world.chips("ana") + world.chips("bob"), settled

    deals, total, settled = asyncio.run(scenario())
    assert deals >= 1 and settled is not None, "the deal was dealt over and never settled"
    assert total == 220
    assert world.audit_ok()
