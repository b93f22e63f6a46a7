"""The server's garbage-collection schedule (web/collector.py): no full
collection started by Python at an arbitrary moment (a pause of every
table), one every ``TAVERN_GC_FULL_SECONDS`` instead, and the process left
as it was when the app stops."""

from __future__ import annotations

import asyncio
import gc
import weakref

from tavern.web.collector import NEVER, Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def old_cycle() -> weakref.ref[Node]:
    """Two objects referring to each other, aged into the oldest generation,
    then dropped: only a full collection can free them."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    gc.collect(1)  # survivors of the young generations move to the oldest
    return weakref.ref(a)


def test_full_collections_run_on_the_schedule_and_only_then():
    before = gc.get_threshold()

    async def scenario():
        collector = Collector(full_seconds=0.3)
        collector.start()
        try:
            assert gc.get_threshold()[2] == NEVER and gc.get_freeze_count() > 0
            ref = old_cycle()
            # Plenty of young collections (allocations), no full one: the old
            # cycle is still there.
            for _ in range(50):
                junk = [[i] for i in range(10_000)]
                del junk
            survived_young = ref() is not None
            for _ in range(40):
                if collector.collections:
                    break
                await asyncio.sleep(0.05)
            return survived_young, ref() is None, collector.collections
        finally:
            await collector.close()

    survived_young, freed, runs = asyncio.run(scenario())
    assert survived_young, "Python started a full collection by itself"
    assert runs >= 1 and freed, "the scheduled full collection did not free the old cycle"
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_zero_leaves_pythons_own_schedule():
    before = gc.get_threshold()

    async def scenario():
        collector = Collector(full_seconds=0)
        collector.start()
        during = gc.get_threshold(), gc.get_freeze_count()
        await collector.close()
        return during

    assert asyncio.run(scenario()) == (before, 0)
