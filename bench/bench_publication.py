"""CPU of one publication at a six-seat Ramponneau table, the actor alone.

What a table does after each action, without the sockets: the public table,
the public deal view and each dealt player's own part, every recipient's
state encoded (six players and the spectators' state), handed to the
in-process broadcaster, whose subscribers only keep the text. A real
migrated SQLite database and the real actor, bank and broadcaster; the deal
is the table's first, just dealt (blinds posted, the first player to act).

The part of an action's CPU the capacity benchmark cannot isolate
(bench_capacity.py measures the whole server against an echo): run it
before and after a change to the publication, on the same machine.

    .venv/bin/python bench/bench_publication.py [publications per round, default 3000]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _tables_world import migrate, seed  # noqa: E402

ROUNDS = 7


async def measure(db_url: str, per_round: int) -> tuple[list[float], int]:
    from sqlalchemy.pool import NullPool

    from tavern.settings import Settings
    from tavern.store.db import make_engine, session_factory
    from tavern.tables.actor import TableActor
    from tavern.tables.bank import SqlBank
    from tavern.tables.broadcast import LocalBroadcaster

    world = seed(db_url, 1)
    [table_id] = world.tables
    bank = SqlBank(session_factory(make_engine(db_url, poolclass=NullPool)), Settings())
    for seat, (_, user_id) in enumerate(world.players[table_id]):
        bank.sit(table_id, user_id, seat, 200)
    broadcaster = LocalBroadcaster()
    kept: list[str] = []
    for name, _ in world.players[table_id]:
        broadcaster.subscribe(table_id, name, kept.append)
    broadcaster.subscribe(table_id, None, kept.append)  # a page watching: the spectators' state too
    info = bank.table_info(table_id)
    assert info is not None
    actor = TableActor(info, bank, broadcaster, deal_pause=0.0)
    await actor.start()
    for _ in range(500):
        if actor.engine is not None:
            break
        await asyncio.sleep(0.01)
    assert actor.engine is not None, "the table did not deal"
    rounds = []
    for _ in range(ROUNDS):
        kept.clear()
        began = time.process_time()
        for _ in range(per_round):
            await actor.publish()
        rounds.append((time.process_time() - began) / per_round * 1e6)
    size = sum(len(text) for text in kept) // len(kept)
    await actor.stop()
    return rounds, size


def main() -> int:
    per_round = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    with tempfile.TemporaryDirectory(prefix="tavern-bench-publication-") as tmp:
        db_url = f"sqlite:///{tmp}/bench.db"
        migrate(db_url)
        rounds, size = asyncio.run(measure(db_url, per_round))
    print(f"a publication at a six-seat Ramponneau table (6 players + spectators, {size} B a state): "
          f"median {statistics.median(rounds):.1f} µs of CPU, best {min(rounds):.1f} µs "
          f"({ROUNDS} rounds of {per_round})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
