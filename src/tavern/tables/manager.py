"""The actors of the open tables of this process.

An actor is started on first use (a player or spectator opening the table)
and stopped when its table closes. At start-up, deals interrupted by the death
of the previous process are voided (see :mod:`tavern.tables.bank`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from tavern.tables.actor import TableActor
from tavern.tables.bank import SqlBank
from tavern.tables.broadcast import Broadcaster


class TableManager:
    def __init__(self, bank: SqlBank, broadcaster: Broadcaster, **actor_options: Any) -> None:
        self.bank = bank
        self.broadcaster = broadcaster
        self.actor_options = actor_options
        self.actors: dict[int, TableActor] = {}
        self._lock = asyncio.Lock()
        self.voided: list[int] = []

    async def start(self) -> None:
        await self.broadcaster.start()
        self.voided = await asyncio.to_thread(self.bank.void_interrupted)

    async def get(self, table_id: int) -> TableActor | None:
        """The table's actor, started if needed; ``None`` for a closed or unknown table."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        async with self._lock:
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            info = await asyncio.to_thread(self.bank.table_info, table_id)
            if info is None:
                return None
            actor = TableActor(info, self.bank, self.broadcaster, **self.actor_options)
            await actor.start()
            self.actors[table_id] = actor
            return actor

    async def close(self) -> None:
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()
        await self.broadcaster.close()
