"""Issue 28 §2: what differs between kinds of table is a policy composed
into the actor (tables/policy.py), not a subclass overriding its private
methods: its refusals, its own commands, its hooks around deals and the
public table, and whether time-outs sit a player out."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Literal

import pytest
from pydantic import BaseModel
from tests.tables.conftest import Harness

from tavern.tables.actor import CommandError
from tavern.tables.commands import Cave
from tavern.tables.policy import CashPolicy, Handler, PolicyTable

pytestmark = [pytest.mark.db]


class Ping(BaseModel):
    type: Literal["ping"] = "ping"


class Strict(CashPolicy):
    """No cave here; its own command; its own key in the public table; a
    record of the deals it was told of."""

    def __init__(self) -> None:
        self.before: list[int] = []
        self.ended: list[list[tuple[str, int]]] = []

    def refusal(self, command: BaseModel) -> str | None:
        return "contest_no_cave" if isinstance(command, Cave) else None

    def commands(self) -> Mapping[type[BaseModel], Handler]:
        async def ping(actor: PolicyTable, command: Ping, username: str | None, user_id: int) -> dict[str, Any]:
            return {"pong": len(actor.seats)}

        return {Ping: ping}

    async def before_deal(self, actor: PolicyTable) -> None:
        self.before.append(actor.info.id)

    async def deal_ended(self, actor: PolicyTable, started: list[tuple[str, int]]) -> None:
        self.ended.append(started)

    def dress(self, table: dict[str, Any]) -> None:
        table["house"] = "strict"


def test_a_policy_composed_into_the_actor_decides_what_differs(world) -> None:
    async def scenario() -> None:
        policy = Strict()
        h = Harness(world, policy=policy)
        actor = await h.start(seated=("ana", "bob"))
        chips = next(s for s in actor.seats.values() if s.name == "ana").chips
        with pytest.raises(CommandError) as refused:
            await actor.submit(Cave(amount=10), "ana")
        assert refused.value.code == "contest_no_cave"
        assert next(s for s in actor.seats.values() if s.name == "ana").chips == chips  # nothing changed
        assert await actor.submit(Ping()) == {"pong": 2}  # a policy's own command
        await h.settle()
        assert policy.before == [world.table_id]
        assert h.last("ana")["table"]["house"] == "strict"
        await h.play_deal(lambda name, legal: {"action": "fold"} if any(a["action"] == "fold" for a in legal)
                          else {"action": legal[0]["action"]})
        assert len(policy.ended) == 1 and {name for name, _ in policy.ended[0]} == {"ana", "bob"}
        await actor.stop()

    asyncio.run(scenario())
