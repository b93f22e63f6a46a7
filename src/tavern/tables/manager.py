"""The actors of the open tables of this process.

An actor is started on first use (a player or spectator opening the table)
and stopped when its table closes: :meth:`TableManager.close_table` (the
owner's close action) has the actor end the game, and a closed actor is
forgotten. At start-up, deals interrupted by the death
of the previous process are voided (see :mod:`tavern.tables.bank`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from tavern.tables.actor import CommandError, TableActor
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
        if actor is not None and not actor.closed:
            return actor
        async with self._lock:
            actor = self.actors.get(table_id)
            if actor is not None and not actor.closed:
                return actor
            self.actors.pop(table_id, None)
            info = await asyncio.to_thread(self.bank.table_info, table_id)
            if info is None:
                return None
            actor = TableActor(info, self.bank, self.broadcaster, **self.actor_options)
            actor.on_closed = lambda: self._forget(table_id, actor)
            await actor.start()
            self.actors[table_id] = actor
            return actor

    def _forget(self, table_id: int, actor: TableActor) -> None:
        if self.actors.get(table_id) is actor:
            del self.actors[table_id]

    async def close_table(self, table_id: int, owner_id: int) -> dict[str, Any]:
        """The owner closes a table with players seated: the live table ends
        the game (the carried chips shared out, everybody cashed out, the table
        closed) and is forgotten. During a deal it closes at the deal's end:
        the answer is then ``{"closed": False, "notice": …}``. Raises
        :class:`~tavern.tables.actor.CommandError` with the reason."""
        actor = await self.get(table_id)
        if actor is None:
            raise CommandError("Cette table est fermée.")
        return await actor.submit("close", None, owner_id=owner_id)

    async def discard(self, table_id: int) -> None:
        """Stop and forget the actor of a table closed elsewhere (an empty
        table closed by its owner), telling its spectators."""
        actor = self.actors.pop(table_id, None)
        if actor is not None and not actor.closed:
            await actor.stop()
            await actor._publish_closed({"closed": True, "awards": {}, "ecus": {}}, [])

    async def close(self) -> None:
        for actor in list(self.actors.values()):
            await actor.stop()
        self.actors.clear()
        await self.broadcaster.close()
