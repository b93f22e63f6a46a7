"""Issue 41 §2: "a seat change on every visitor's village p99 < 1 s (push
what changed; do not rebuild the village for each visitor)". The feed
sends a visitor the whole summary once, then only what changed, one text
for every visitor; a slow visitor gets the whole summary again instead of
the changes he missed."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from tavern.web import village_feed
from tavern.web.village_feed import VillageFeed, changes


def _summary(tables: list[list[int]], pots: list[list[int]] | None = None,
             contests: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"type": "village", "tables": tables, "pots": pots or [], "contests": contests or []}


def test_changes_name_only_what_changed() -> None:
    before = _summary([[1, 2, 4, 0], [2, 4, 4, 1], [3, 0, 6, 0]], pots=[[1, 40], [2, 12]])
    after = _summary([[1, 3, 4, 0], [2, 4, 4, 1], [4, 1, 2, 0]], pots=[[2, 12], [4, 8]])
    assert changes(before, after) == {
        "type": "village_changes",
        "tables": [[1, 3, 4, 0], [4, 1, 2, 0]],  # a seat taken; a table opened
        "closed": [3],
        "pots": [[1, None], [4, 8]],  # table 1's last deal too old now; table 4's first
    }
    assert changes(after, after) is None
    contests = [{"id": 7, "text": "demain"}]
    assert changes(after, _summary(after["tables"], after["pots"], contests)) == {
        "type": "village_changes", "tables": [], "closed": [], "pots": [], "contests": contests}


class _Village:
    """A village whose summary the test sets; ``read`` is the feed's query."""

    def __init__(self) -> None:
        self.now = _summary([[1, 0, 4, 0], [2, 1, 6, 0]])
        self.reads = asyncio.Event()

    def read(self) -> str:
        self.reads.set()
        return orjson.dumps(self.now).decode()

    async def next_read(self) -> None:
        self.reads.clear()
        await asyncio.wait_for(self.reads.wait(), 30)
        await asyncio.sleep(0)  # the feed hands the read out on its loop


async def _frame(queue: asyncio.Queue[str]) -> dict[str, Any]:
    return orjson.loads(await asyncio.wait_for(queue.get(), 30))


def test_a_visitor_gets_the_whole_village_once_then_only_changes() -> None:
    async def run() -> None:
        village = _Village()
        feed = VillageFeed(village.read, every=0.01)
        first, queue = feed.watch()
        assert await _frame(queue) == village.now  # the whole village first
        village.now = _summary([[1, 1, 4, 0], [2, 1, 6, 0]])
        got = await _frame(queue)
        assert got == {"type": "village_changes", "tables": [[1, 1, 4, 0]], "closed": [], "pots": []}
        # A second visitor: the whole village as it is now, then the same changes as the first.
        _, later = feed.watch()
        assert await _frame(later) == village.now
        village.now = _summary([[1, 1, 4, 0], [2, 2, 6, 1]])
        one, other = await _frame(queue), await _frame(later)
        assert one == other == {"type": "village_changes", "tables": [[2, 2, 6, 1]], "closed": [], "pots": []}
        feed.leave(first)
    asyncio.run(run())


def test_a_slow_visitor_gets_the_whole_village_instead_of_what_he_missed() -> None:
    async def run() -> None:
        village = _Village()
        feed = VillageFeed(village.read, every=0.01)
        key, queue = feed.watch()
        await village.next_read()
        for taken in range(1, village_feed.QUEUE_LIMIT + 3):  # he reads nothing meanwhile
            village.now = _summary([[1, taken % 5, 4, 0], [2, taken, 60, 0]])
            await village.next_read()
            await village.next_read()
        frames = [orjson.loads(queue.get_nowait()) for _ in range(queue.qsize())]
        # More changes than his queue holds: it was emptied and the whole village put first.
        assert frames[0]["type"] == "village" and len(frames) <= village_feed.QUEUE_LIMIT
        # Applying what he got, in order, shows the village as it is.
        shown: dict[int, list[int]] = {}
        for frame in frames:
            if frame["type"] == "village":
                shown = {row[0]: row for row in frame["tables"]}
            else:
                shown.update({row[0]: row for row in frame["tables"]})
        assert list(shown.values()) == village.now["tables"]
        feed.leave(key)
    asyncio.run(run())
