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


def test_young_collections_run_on_the_clock_and_leave_the_older_generations():
    """``TAVERN_GC_YOUNG_SECONDS``: the youngest generation is collected on a
    clock (not only when Python's allocation count says so), and no young
    collection walks what already survived one."""
    before = gc.get_threshold()
    # Python's own trigger out of reach for the test's few allocations: what
    # frees the young cycle below can only be the collector's clock.
    gc.set_threshold(1_000_000, before[1], before[2])

    async def scenario():
        collector = Collector(full_seconds=60, young_seconds=0.05)
        collector.start()
        try:
            thresholds = gc.get_threshold()
            c, d = Node(), Node()
            c.other, d.other = d, c
            gc.collect(0)  # c and d survive a young collection: now in the middle generation
            middle = weakref.ref(c)
            del c, d
            # Made after that collection: only the collector's clock can free it.
            a, b = Node(), Node()
            a.other, b.other = b, a
            young = weakref.ref(a)
            del a, b
            runs = collector.young_collections
            for _ in range(40):
                if young() is None and collector.young_collections >= runs + 5:
                    break
                await asyncio.sleep(0.05)
            return thresholds, young() is None, middle() is not None, collector.young_collections - runs
        finally:
            await collector.close()

    try:
        thresholds, young_freed, middle_kept, runs = asyncio.run(scenario())
    finally:
        gc.set_threshold(*before)
    assert thresholds == (1_000_000, NEVER, NEVER)
    assert runs >= 5, "no young collection on the collector's clock"
    assert young_freed, "a young cycle outlived the young collections"
    assert middle_kept, "a young collection walked the middle generation"
    gc.collect()
