"""store/batch.py: reads asked at the same moment made as one, and never an
answer from a read that started before it was asked."""

from __future__ import annotations

import asyncio
import threading

import pytest

from tavern.store.batch import Batched


def test_keys_asked_together_are_fetched_together_each_getting_its_own_answer() -> None:
    calls: list[list[int]] = []

    def fetch(keys: list[int]) -> dict[int, str]:
        calls.append(sorted(keys))
        return {k: f"v{k}" for k in keys if k != 3}

    async def main() -> list[str | None]:
        b: Batched[int, str] = Batched(fetch, max_batch=3)
        return list(await asyncio.gather(*(b.get(k) for k in (1, 2, 3, 4, 2, 5))))

    assert asyncio.run(main()) == ["v1", "v2", None, "v4", "v2", "v5"]
    # Asked in one turn of the event loop: fetched together, at most
    # max_batch keys a fetch (a key asked twice, once).
    assert calls == [[1, 2, 3], [4, 5]]


def test_a_key_asked_during_a_fetch_waits_for_a_read_started_after_it() -> None:
    """A logout committed while a lookup runs: a socket asking after it must
    not get the answer read before (the same key included)."""
    entered, release = threading.Event(), threading.Event()
    state = {"alive": True}
    calls: list[list[str]] = []

    def fetch(keys: list[str]) -> dict[str, bool]:
        calls.append(list(keys))
        seen = state["alive"]
        if len(calls) == 1:
            entered.set()
            release.wait(5)
        return dict.fromkeys(keys, seen)

    async def main() -> tuple[bool | None, bool | None]:
        b: Batched[str, bool] = Batched(fetch)
        first = asyncio.ensure_future(b.get("tok"))
        await asyncio.to_thread(entered.wait, 5)  # the first read is under way
        state["alive"] = False  # the session ends now
        second = asyncio.ensure_future(b.get("tok"))
        await asyncio.sleep(0.01)
        release.set()
        return await first, await second

    assert asyncio.run(main()) == (True, False)
    assert calls == [["tok"], ["tok"]]


def test_a_failed_fetch_fails_its_waiters_and_the_next_batch_runs() -> None:
    def fetch(keys: list[int]) -> dict[int, int]:
        if 0 in keys:
            raise RuntimeError("database down")
        return {k: k for k in keys}

    async def main() -> None:
        b: Batched[int, int] = Batched(fetch)
        with pytest.raises(RuntimeError, match="database down"):
            await b.get(0)
        assert await b.get(7) == 7

    asyncio.run(main())
