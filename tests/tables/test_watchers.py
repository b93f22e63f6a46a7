"""A publication's spectators' view is built only when somebody here would
receive it (tables/actor.py ``publish``): a page open on the table without a
seat. Without one, only the seated players' views are encoded; with Redis
(watchers may be on another process) it is always built."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from tests.dbtools import harness_settings
from tests.tables.conftest import build_world, passive, play_deal, settle

from tavern.tables.actor import TableActor
from tavern.tables.bank import SqlBank
from tavern.tables.broadcast import SPECTATORS, LocalBroadcaster, RedisBroadcaster

pytestmark = [pytest.mark.db]


class Spy(LocalBroadcaster):
    """The in-process broadcaster, keeping every publication's keys."""

    def __init__(self) -> None:
        super().__init__()
        self.published: list[set[str]] = []

    async def publish(self, table_id: int, messages: dict[str, str]) -> None:
        self.published.append(set(messages))
        await super().publish(table_id, messages)


def test_the_spectators_view_is_built_only_for_someone_watching(session_factory) -> None:
    world = build_world(session_factory, names=("ana", "bob", "cid"))

    async def scenario() -> None:
        bank = SqlBank(world.factory, harness_settings())
        for i, name in enumerate(("ana", "bob")):
            bank.sit(world.table_id, world.users[name], i, 200)
        spy = Spy()
        got: dict[str, list[dict[str, Any]]] = {"ana": [], "bob": [], "cid": []}
        for name in ("ana", "bob"):
            spy.subscribe(world.table_id, name, lambda t, box=got[name]: box.append(json.loads(t)))
        actor = TableActor(bank.table_info(world.table_id), bank, spy, deal_pause=0.0)
        await actor.start()
        await settle(actor)
        assert actor.engine is not None  # ana and bob are dealt in
        assert spy.published and all(SPECTATORS not in keys for keys in spy.published)
        # cid opens the table's page without a seat: from now on the
        # spectators' view is published, and it is what he receives.
        spy.subscribe(world.table_id, "cid", lambda t: got["cid"].append(json.loads(t)))
        before = len(spy.published)
        await play_deal(actor, lambda name: passive(name, actor.engine.legal_actions(name)))
        later = spy.published[before:]
        assert later and all(SPECTATORS in keys for keys in later)
        assert got["cid"] and all(m.get("you") is None for m in got["cid"])
        for m in got["cid"]:
            if m["deal"] and m["deal"]["phase"] not in ("over", "showdown"):
                assert all(p["cards"] is None for p in m["deal"]["players"])
        await actor.stop()

    asyncio.run(scenario())


def test_redis_cannot_tell_who_watches_elsewhere() -> None:
    assert RedisBroadcaster("redis://127.0.0.1:1/0").watched(7, ["ana"]) is True
    local = LocalBroadcaster()
    assert local.watched(7, ["ana"]) is False
    local.subscribe(7, "ana", lambda t: None)
    assert local.watched(7, ["ana"]) is False  # a seated player gets his own message
    off = local.subscribe(7, None, lambda t: None)
    assert local.watched(7, ["ana"]) is True
    off()
    assert local.watched(7, ["ana"]) is False
    local.subscribe(7, "cid", lambda t: None)  # logged in, not seated: the spectators' view
    assert local.watched(7, ["ana"]) is True
