"""The table actor's inbox (tables/inbox.py): commands in order of arrival,
a wait that ends with a command or with its time limit."""

from __future__ import annotations

import asyncio

import pytest

from tavern.tables.inbox import Inbox


def test_commands_come_out_in_the_order_they_arrived():
    async def scenario():
        inbox: Inbox[str] = Inbox()
        for c in ("sit", "act", "leave"):
            inbox.put_nowait(c)
        return [await inbox.get(), await inbox.get(5.0), await inbox.get()]

    assert asyncio.run(scenario()) == ["sit", "act", "leave"]


def test_a_timer_due_goes_before_the_commands_waiting():
    """The actor's loop passes the time left before its next timer: at zero
    (a player's time ran out, the next deal is due) the timer is handled
    first, the commands queued behind it after."""
    async def scenario():
        inbox: Inbox[str] = Inbox()
        inbox.put_nowait("act")
        return [await inbox.get(0), await inbox.get(-1.0), await inbox.get(5.0)]

    assert asyncio.run(scenario()) == [None, None, "act"]


def test_a_waiting_table_wakes_on_the_next_command_before_its_timer():
    async def scenario():
        inbox: Inbox[str] = Inbox()
        loop = asyncio.get_running_loop()
        loop.call_later(0.01, inbox.put_nowait, "act")
        t = loop.time()
        got = await inbox.get(5.0)
        return got, loop.time() - t

    got, waited = asyncio.run(scenario())
    assert got == "act" and waited < 1.0


def test_a_timer_due_ends_the_wait_with_nothing():
    async def scenario():
        inbox: Inbox[str] = Inbox()
        loop = asyncio.get_running_loop()
        t = loop.time()
        assert await inbox.get(0.05) is None
        waited = loop.time() - t
        inbox.put_nowait("sync")  # and the inbox still works after a time-out
        return waited, await inbox.get(0.05)

    waited, after = asyncio.run(scenario())
    assert 0.04 <= waited < 1.0 and after == "sync"


def test_a_cancelled_wait_loses_no_command():
    async def scenario():
        inbox: Inbox[str] = Inbox()
        waiting = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        inbox.put_nowait("act")
        return await inbox.get(1.0)

    assert asyncio.run(scenario()) == "act"
