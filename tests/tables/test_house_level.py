"""Issue 37 §2: « Practice tables and owners (house seats) may choose it »
(« fort »): the house players at a tavern's table play the level its owner
chose (``table_configs.house_level``), changed between deals; the house's
purse pays their caves and gets their chips back as at every level."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select
from tests.tables.conftest import Harness, settle
from tests.tables.test_house_seats import PURSE, _allow, _settled, _until

from tavern.bots.levels import BEGINNER, FORT
from tavern.services import house_seats, ledger
from tavern.store.models import ArchivedHand, TableConfig
from tavern.tables.actor import TableActor
from tavern.tables.commands import Leave
from tavern.tables.house import HouseSeatsPolicy

pytestmark = [pytest.mark.db]


def _level(world: Any, level: str) -> None:
    with world.factory() as s, s.begin():
        s.get_one(TableConfig, world.table_id).house_level = level


async def _start(world: Any, *seated: str) -> tuple[Harness, TableActor]:
    """As the manager starts it: the policy at the level the table's row holds."""
    harness = Harness(world)
    info = harness.bank.table_info(world.table_id)
    assert info is not None and info.house_level == FORT
    harness.options["policy"] = HouseSeatsPolicy(info.house_seats, info.house_level, think=(0.0, 0.0))
    return harness, await harness.start(seated=seated)


def _levels(actor: TableActor) -> set[tuple[str, str]]:
    policy: Any = actor.policy
    return {(d.level, d.decide.level) for d in policy.drivers.values()}


def test_house_players_play_the_owners_level_and_change_it_between_deals(world) -> None:
    _allow(world, 2)
    _level(world, FORT)

    async def scenario() -> None:
        _, actor = await _start(world, "ana")
        await _until(actor, lambda: actor.engine is not None)
        # Both house players at « fort »: the seat's driver and its policy.
        assert _levels(actor) == {(FORT, FORT)}
        first = actor.deals
        # The owner lowers it during the deal: the deal ends as it began, at
        # « fort » (unless both folded meanwhile: ana has not acted); the next is « débutant ».
        _level(world, BEGINNER)
        await settle(actor)
        if actor.deals == first and actor.engine is not None and not actor.engine.over:
            assert _levels(actor) == {(FORT, FORT)}
        await _until(actor, lambda: actor.deals > first and actor.engine is not None and not actor.engine.over)
        assert _levels(actor) == {(BEGINNER, BEGINNER)}
        await _until(actor, _settled(actor, actor.deals))
        await actor.submit(Leave(), "ana")
        await _until(actor, lambda: not any(s.name.startswith("Maison") for s in actor.seats.values()))
        await actor.stop()

    asyncio.run(scenario())
    with world.factory() as s:
        deals = list(s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == world.table_id,
                                                          ArchivedHand.voided.is_(False))))
        assert len(deals) >= 2  # the one at « fort » dealt, played and settled, then one at « débutant »
        movers = {a.get("player") for h in deals for a in h.record.get("actions", [])}
        assert {"Maison Ana", "Maison Bruno"} <= movers, movers
        result = {r.table_id: r for r in house_seats.results(s)}[world.table_id]
        # Every house chip back in the purse: its balance is what it held, plus what they won or lost there.
        assert result.at_table == 0
        assert house_seats.purse(s).balance == PURSE + result.result
        assert ledger.audit(s).ok
