"""Issue 15's reconnect storm: while table sockets open by the hundred (a
restart's pages all coming back), deal starts wait — the snapshots go out
first — but never more than MAX_DEAL_HOLD seconds a deal."""

from __future__ import annotations

import asyncio
import contextlib
from types import SimpleNamespace
from typing import Any

import pytest
from tests.tables.conftest import Harness, passive

from tavern.tables.actor import DEAL_HOLD_STEP, MAX_DEAL_HOLD
from tavern.tables.commands import Sync
from tavern.tables.manager import STORM_SOCKETS, TableManager

pytestmark = [pytest.mark.db]


def test_deal_starts_wait_while_a_storm_lasts_and_never_longer_than_the_hold(world) -> None:
    now = [1000.0]
    storm = [True]

    async def tick(actor: Any, seconds: float) -> None:
        now[0] += seconds
        await actor.submit(Sync())  # wakes the actor at the new time
        for _ in range(20):
            await asyncio.sleep(0)
        await actor.submit(Sync())

    async def scenario() -> None:
        h = Harness(world, clock=lambda: now[0], hold_deals=lambda: storm[0])
        actor = await h.start(seated=("ana", "bob"))
        await tick(actor, 0)
        assert actor.engine is None and actor.deals == 0  # due, held back
        await tick(actor, MAX_DEAL_HOLD - DEAL_HOLD_STEP)
        assert actor.engine is None  # still held
        await tick(actor, 2 * DEAL_HOLD_STEP)
        assert actor.deals == 1 and actor.engine is not None  # the storm goes on, the hold is over
        await h.play_deal(passive)
        await tick(actor, DEAL_HOLD_STEP)
        assert actor.deals == 1  # the next deal is held again...
        storm[0] = False
        await tick(actor, DEAL_HOLD_STEP)
        assert actor.deals == 2  # ...until the storm ends
        await actor.stop()

    asyncio.run(scenario())


def test_the_manager_counts_sockets_opening_until_their_snapshot() -> None:
    manager = TableManager(SimpleNamespace(load_tables=dict), None)  # type: ignore[arg-type]  # counting only
    with contextlib.ExitStack() as stack:
        dones = [stack.enter_context(manager.socket_opening()) for _ in range(STORM_SOCKETS)]
        assert manager.storming()
        dones[0]()
        dones[0]()  # once only
        assert manager.opening == STORM_SOCKETS - 1 and not manager.storming()
    assert manager.opening == 0  # the others counted out as they left
