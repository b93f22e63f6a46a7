"""Issue 28 §2: a command for a table another worker runs travels as its
model's JSON (tables/manager.py ``RemoteTable``) and is read back as the
same model there, dispatched and refused as a local one. Redis is played
here by a relay that sends the payload through JSON, as Redis does."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from tests.dbtools import harness_settings
from tests.tables.conftest import World

from tavern.tables.actor import CommandError, TableActor
from tavern.tables.bank import SqlBank
from tavern.tables.broadcast import LocalBroadcaster
from tavern.tables.commands import Act, ClientSeed, Sit
from tavern.tables.manager import RemoteTable, TableManager

pytestmark = [pytest.mark.db]


class Relay:
    """Another worker's call, as Redis carries it: JSON there and back."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager

    async def call(self, worker: str, kind: str, payload: dict[str, Any], timeout: float = 10.0) -> Any:
        answer = await self.manager._serve_remote(json.loads(json.dumps(payload)))
        return json.loads(json.dumps(answer))


def test_a_command_carried_to_the_owning_worker_is_the_same_command(world: World) -> None:
    async def scenario() -> None:
        manager = TableManager(SqlBank(world.factory, harness_settings()), LocalBroadcaster(), deal_pause=3600.0)
        await manager.start()
        actor = await manager.get(world.table_id)
        assert isinstance(actor, TableActor)
        remote = RemoteTable(Relay(manager), "other-worker", actor.fence, world.table_id)  # a relay, not a Cluster
        answer = await remote.submit(Sit(seat=3, cave=100), "dan", user_id=world.users["dan"])
        assert answer == {"seat": 3, "chips": 100}
        assert actor.seats[3].name == "dan" and actor.seats[3].user_id == world.users["dan"]
        assert await remote.submit(ClientSeed(seed="d4n"), "dan") == {"client_seed": "d4n"}
        with pytest.raises(CommandError) as refused:
            await remote.submit(Act(action="fold"), "dan")
        assert refused.value.code == "not_in_deal"
        assert json.loads(await remote.snapshot("dan"))["you"]["seat"] == 3
        await manager.close()

    asyncio.run(scenario())
