"""A publication's states are the recipients' snapshots, sent cheaper.

docs/protocol.md: a ``state`` carries the story's new events only (from
``story_at``), ``last_result`` and the revealed seed only when they changed,
and — when the game gives them apart — the public deal beside the player's
``own`` part, and the table's settings and fair commitments (``table_at``)
and the player's daily hands and seed (``you_at``) only when they changed. Apart from that, each recipient's state as published must be
exactly the snapshot a (re)connection would get at that moment: the
publication encodes what every recipient holds alike once and joins each
recipient's own part to it, and nothing may be lost, doubled or crossed
between recipients on the way.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest
from tests.tables.conftest import Harness, any_legal, build_world, random_policy

from tavern.games.base import lay_own
from tavern.tables.broadcast import SPECTATORS
from tavern.tables.publication import HELD, HELD_YOU

pytestmark = [pytest.mark.db]


def _strict(text: str) -> dict[str, Any]:
    """The JSON object, refusing a key given twice (``json`` keeps the last)."""
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in items]
        assert len(keys) == len(set(keys)), f"a key twice: {keys}"
        return dict(items)

    return json.loads(text, object_pairs_hook=pairs)


def _differences(sent: dict[str, Any], snap: dict[str, Any], at: str = "") -> list[str]:
    """Where two states differ, by path (``table.clock``): what a failure says."""
    out = []
    for key in sorted(set(sent) | set(snap)):
        a, b = sent.get(key), snap.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, f"{at}{key}.")
        elif a != b:
            out.append(f"{at}{key}: sent {a!r}, snapshot {b!r}")
    return out


@pytest.mark.parametrize("game,stakes,players", [
    # The public deal once and each dealt player's own part beside it.
    ("ramponneau", {"small_blind": 1, "big_blind": 2}, ("ana", "bob", "cid")),
    # Each player's whole view of the deal (the engine gives no own part).
    ("rams", {"unit": 1}, ("ana", "bob", "cid")),
])
def test_each_published_state_is_the_recipients_snapshot(session_factory, game, stakes, players) -> None:
    world = build_world(session_factory, game=game, stakes=stakes, rake_percent=0, names=(*players, "dan"))
    problems: list[str] = []  # collected: the actor survives its publisher's errors
    checked: dict[str | None, int] = {}
    held: dict[str | None, dict[str, Any]] = {}  # each recipient's table keys as last carried

    async def scenario() -> None:
        # A stopped clock: the snapshot taken after a publication must show
        # the same seconds left on each player's clock.
        stopped = time.monotonic()
        h = Harness(world, clock=lambda: stopped)
        real_publish = h.broadcaster.publish

        async def checking_publish(table_id: int, messages: dict[str, str]) -> None:
            actor = h.actor
            for key, text in messages.items():
                name = None if key == SPECTATORS else key
                try:
                    sent = _strict(text)
                    snap = json.loads(await actor.snapshot(name))  # nothing changed since the publication
                    at = sent.pop("story_at")
                    assert sent.pop("story") == snap["story"][at:]
                    for part in ("last_result", "fair"):  # a publication carries them when they changed
                        if part in sent:
                            assert sent.pop(part) == snap.get(part)
                        snap.pop(part, None)
                    if "own" in sent:
                        sent["deal"] = lay_own(sent["deal"], sent.pop("own"))
                    if "id" in sent["table"]:  # carried: the client keeps them
                        assert sent["table_at"] == sent["seq"]
                        held[name] = {k: sent["table"][k] for k in HELD if k in sent["table"]}
                    else:  # and puts them back
                        sent["table"] = {**sent["table"], **held[name]}
                    if "you" in sent and "hands" in sent["you"]:  # his daily hands and seed likewise
                        assert sent["you_at"] == sent["seq"]
                        held[f"you:{name}"] = {k: sent["you"][k] for k in HELD_YOU}
                    elif "you" in sent:
                        sent["you"] = {**sent["you"], **held[f"you:{name}"]}
                    snap.pop("story"), snap.pop("story_at")
                    assert sent == snap, _differences(sent, snap)
                    checked[name] = checked.get(name, 0) + 1
                except AssertionError as exc:
                    problems.append(f"seq {actor.seq}, {key}: {exc}")
            await real_publish(table_id, messages)

        h.broadcaster.publish = checking_publish  # type: ignore[method-assign]
        actor = await h.start(seated=players)  # "dan" watches: the spectators' state goes too
        policy = (any_legal if game == "rams" else random_policy)(random.Random(7))
        for _ in range(3):
            await h.play_deal(policy)
            await h.settle()
        await actor.stop()

    asyncio.run(scenario())
    assert not problems, problems[:5]
    # Every player and the watchers were checked at many publications.
    assert set(checked) == {*players, None} and min(checked.values()) > 10, checked
