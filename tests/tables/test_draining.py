"""A table being let go (a drain, a hand-over for balance: issue 32 §5)
still reads its inbox while a deal it will not start is due, and stops when
told to, whatever a library does with the cancellation."""

from __future__ import annotations

import asyncio

import pytest
from tests.tables.conftest import Harness

from tavern.tables.broadcast import LocalBroadcaster
from tavern.tables.commands import Sync
from tavern.tables.tasks import cancel_and_wait

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


class SwallowingBroadcaster(LocalBroadcaster):
    """A publication that swallows the first cancellation landing inside it
    and returns, as redis-py 8.1's asyncio client was measured doing (about
    one cancel in five delivered during a PUBLISH)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside: asyncio.Event | None = None
        self.swallowed = 0

    async def publish(self, table_id: int, messages: dict[str, str]) -> None:
        if self.inside is not None:
            self.inside.set()
        try:
            await asyncio.sleep(0.2)
        except asyncio.CancelledError:
            if self.swallowed:
                raise
            self.swallowed += 1
        await super().publish(table_id, messages)


def test_a_table_stops_even_when_a_library_swallows_its_cancellation(world) -> None:
    """Seen in the CI's cluster runs: a table handed over between deals was
    stopped while its loop sat in a publication to Redis, the client
    swallowed the cancellation, the loop went back to its empty inbox and
    the hand-over waited on it forever (the table, still leased, never
    dealt again). The stop must end the loop all the same."""
    harness = Harness(world)
    harness.broadcaster = broadcaster = SwallowingBroadcaster()

    async def scenario() -> bool:
        broadcaster.inside = asyncio.Event()
        actor = await harness.start()
        await harness.sit("ana", 0)  # one player: no deal, nothing due, the inbox empty
        await asyncio.wait_for(broadcaster.inside.wait(), 5)  # his seat's publication under way
        stopping = asyncio.create_task(actor.stop())
        done, _ = await asyncio.wait({stopping}, timeout=5)
        return stopping in done and actor._task is not None and actor._task.done()

    assert asyncio.run(scenario())
    assert broadcaster.swallowed == 1


def test_cancel_and_wait_cancels_again_a_loop_that_swallowed_the_first_cancel() -> None:
    """A loop that does not look at any flag of its own: only a second
    cancellation ends it."""
    turns = []

    async def stubborn() -> None:
        swallowed = False
        while True:
            try:
                turns.append(1)
                await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed = True

    async def scenario() -> bool:
        task = asyncio.create_task(stubborn())
        await asyncio.sleep(0.05)
        stopping = asyncio.create_task(cancel_and_wait(task))
        done, _ = await asyncio.wait({stopping}, timeout=5)
        return stopping in done and task.cancelled()

    assert asyncio.run(scenario())
    assert len(turns) > 2


def test_cancel_and_wait_raises_the_loops_own_failure() -> None:
    async def failing() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            raise RuntimeError("the loop's own failure") from None

    async def scenario() -> None:
        task = asyncio.create_task(failing())
        await asyncio.sleep(0)
        await cancel_and_wait(task)

    with pytest.raises(RuntimeError, match="own failure"):
        asyncio.run(scenario())
