"""The capacity bench's chat (``bench/bench_capacity.py --chat-per-min X``,
issue 30 §4's check: "the capacity bench still holds its figures with 2
chat messages per table per minute"): each table's players say X messages
a minute between them with the table socket's real ``chat_say``, and the
bench counts what was said, what was accepted and the chat frames read."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import _tables_bots as bots


class FakeSocket:
    """What a bot sends, and the frames it is to read."""

    def __init__(self, frames: list[dict[str, Any]]) -> None:
        self.sent: list[dict[str, Any]] = []
        self.frames = [json.dumps(f) for f in frames]

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def __aiter__(self) -> Any:
        return self._read()

    async def _read(self) -> Any:
        for f in self.frames:
            yield f


def _bot(ws: FakeSocket, name: str, stats: bots.Stats) -> bots.TableBot:
    async def reopen() -> Any:
        raise AssertionError("no reconnection here")

    return bots.TableBot(ws, name, 0, 100, stats, random.Random(1), 0.0, False, reopen)  # type: ignore[arg-type]


def _window() -> bots.Stats:
    stats = bots.Stats()
    stats.t0, stats.t1 = 0.0, float("inf")  # the whole run is the measured window
    return stats


def test_a_message_is_the_socket_chat_say_and_is_counted_in_the_window() -> None:
    stats = _window()
    ws = FakeSocket([])
    asyncio.run(_bot(ws, "ana", stats).say("Bien joué !"))
    assert ws.sent == [{"type": "chat_say", "text": "Bien joué !"}]  # as the page sends it: no id
    assert stats.chat_said == 1
    before = bots.Stats()  # the window not started yet: sent, not counted
    asyncio.run(_bot(ws, "ana", before).say("encore"))
    assert len(ws.sent) == 2 and before.chat_said == 0


def test_chat_frames_are_read_and_the_authors_own_frame_says_accepted() -> None:
    stats = _window()
    frames = [{"type": "chat", "table_id": 1, "id": 7, "author": "ana", "text": "Bien joué !"},
              {"type": "chat", "table_id": 1, "id": 8, "author": "bob", "text": "Merci"},
              {"type": "error", "id": None, "code": "chat_too_fast", "message": "Doucement : attendez 3 s."}]
    bot = _bot(FakeSocket(frames), "ana", stats)
    bot.stopping = True  # read the frames, sit nowhere, and return at their end
    asyncio.run(bot.run())
    assert (stats.chat_frames, stats.chat_accepted) == (2, 1)
    assert stats.errors == {"Doucement ": 1}  # a refused message is counted with the refusals


def test_a_table_says_per_min_messages_a_minute_from_its_own_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """The gaps are drawn around 60 / X seconds (±50 %), the speaker among the table's players."""
    waits: list[float] = []
    said: list[str] = []
    real_sleep = asyncio.sleep

    class Done(Exception):
        pass

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) > 40:
            raise Done
        await real_sleep(0)

    class Speaker:
        def __init__(self, name: str) -> None:
            self.name = name

        async def say(self, text: str) -> None:
            said.append(self.name)

    monkeypatch.setattr(bots.asyncio, "sleep", sleep)
    with pytest.raises(Done):
        asyncio.run(bots._chatter([Speaker("ana"), Speaker("bob"), Speaker("cid")], 2.0,  # type: ignore[list-item]
                                  random.Random(3)))
    assert len(said) == 40 and set(said) == {"ana", "bob", "cid"}
    assert 0 <= waits[0] <= 30 and all(15 <= w <= 45 for w in waits[1:])
    assert 25 <= sum(waits[1:]) / len(waits[1:]) <= 35  # 2 a minute: one every 30 s on average


def test_a_readers_delay_is_read_from_the_time_the_message_carries() -> None:
    """Issue 41 §2: "chat delivered p99 < 100 ms" — each reader's delay is
    the frame's arrival less the time written in the text when it was said."""
    stats = _window()
    said = time.time() - 0.25
    frames = [{"type": "chat", "table_id": 1, "id": 7, "author": "bob", "text": f"Bien joué ! (3){bots.SAID_AT}{said:.3f}"},
              {"type": "chat", "table_id": 1, "id": 8, "author": "bob", "text": "Merci"}]  # no time: no delay
    bot = _bot(FakeSocket(frames), "ana", stats)
    bot.stopping = True
    asyncio.run(bot.run())
    assert stats.chat_frames == 2 and len(stats.chat_delays) == 1
    assert 249 <= stats.chat_delays[0] < 250 + 60_000  # the time is written to the millisecond
