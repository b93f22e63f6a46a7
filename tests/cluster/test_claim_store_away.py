"""A table taken over while the store is away (issue 38: after a
PostgreSQL restart, tables handed over during it stayed stuck until a
drain). The fault is real: the store's ``table_configs`` is renamed away by
another connection, so the claim's first read fails in the database, as
during a restart; the lease is a real redis-server's."""

from __future__ import annotations

import asyncio

import pytest
from tests.tables.test_store_fault import _rename

from tavern import metrics
from tavern.tables.cluster import RedisCluster

pytestmark = [pytest.mark.redis, pytest.mark.db]


def test_a_claim_that_fails_on_the_store_lets_its_lease_go_and_a_sweep_takes_the_table_once_back(
        redis_url, settings, session_factory, engine):
    """A start that failed must not keep the lease: held on no actor, the
    table belongs to this worker and runs nowhere, and a sweep only takes
    tables nobody holds. Let go, it is an orphan, and the first sweep after
    the store is back starts it."""
    from tests.tables.conftest import build_world

    from tavern.tables.bank import SqlBank
    from tavern.tables.broadcast import LocalBroadcaster
    from tavern.tables.manager import TableManager, table_key

    world = build_world(session_factory, names=("ana", "bob"))
    tid = world.table_id

    async def scenario():
        cluster = RedisCluster(redis_url)
        manager = TableManager(SqlBank(session_factory, settings), LocalBroadcaster(), cluster=cluster,
                               deal_pause=3600.0)
        try:
            await cluster.mark_live(table_key(tid), True)  # let go live by its last owner (a hand-over)
            _rename(engine, "table_configs", "table_configs_away")
            try:
                with pytest.raises(Exception) as failed:
                    await manager.get(tid)
                owner_while_away = await cluster.owner(table_key(tid))
                placed_while_away, _ = await cluster.placement()
                await manager._sweep_once()  # logged, not raised: the sweep goes on
                # What the operator's TavernTablesUnrun reads: one orphan, none held idle.
                gauges = metrics.TABLES_ORPHANED._value.get(), metrics.TABLES_HELD_IDLE._value.get()
            finally:
                _rename(engine, "table_configs_away", "table_configs")
            await manager._sweep_once()  # the store is back
            await manager._sweep_once()  # and the next sweep sees every live table run
            return (failed.value, owner_while_away, placed_while_away, tid in manager.actors,
                    await cluster.owner(table_key(tid)), cluster.worker_id, gauges,
                    (metrics.TABLES_ORPHANED._value.get(), metrics.TABLES_HELD_IDLE._value.get()))
        finally:
            for actor in list(manager.actors.values()):
                await actor.stop()
            await cluster.close()

    error, owner_away, placed_away, running, owner_back, me, gauges_away, gauges_back = asyncio.run(scenario())
    assert "table_configs" in str(error)  # the store's own refusal, not ours
    assert owner_away is None, "a failed claim kept its lease: the table would run nowhere"
    assert placed_away == {table_key(tid): None}  # an orphan, for any worker's sweep
    assert running and owner_back is not None and owner_back[0] == me
    assert gauges_away == (1, 0) and gauges_back == (0, 0), (gauges_away, gauges_back)
