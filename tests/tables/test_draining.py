"""A table being let go (a drain, a hand-over for balance: issue 32 §5)
still reads its inbox while a deal it will not start is due."""

from __future__ import annotations

import asyncio

import pytest
from tests.tables.conftest import Harness

from tavern.tables.commands import Sync

pytestmark = [pytest.mark.db]


def test_a_draining_table_between_deals_still_answers_its_commands(world) -> None:
    """Seen in a rolling restart: a table handed over just as its players
    sat (a deal due, not started because it drains) spun on the due time
    and never read its inbox again — the hand-over's own `sync` never
    answered, the table stuck for good."""
    harness = Harness(world, deal_pause=0.05)

    async def scenario() -> bool:
        actor = await harness.start(seated=("ana", "bob"))
        actor.draining = True  # before the first deal is due (0.05 s)
        await asyncio.sleep(0.2)  # the deal is due now, and never starts
        try:
            await asyncio.wait_for(actor.submit(Sync()), 2)
            return not actor.dealing and actor.next_deal_at is None
        finally:
            await actor.stop()

    assert asyncio.run(scenario())
