"""What the table chat costs on SQLite (issue 30 §1).

A migrated SQLite database with 100 six-seat tables and 30 days of chat:
``messages`` per table (default 2,000, 200,000 in all) spread over the
last 40 days, some hidden by the reader. Timed, each as the socket's chat
desk runs it (tables/chat.py) on its own session:

* the chat's part of a snapshot (``chat_log``: the reader's hidden
  authors, whether he may write, the last 50 messages), read once per
  connection and per ``sync``;
* a message written: the account's rate counted in the throttles table
  (shared by the workers), the checks, the insert — one write transaction
  each;
* ``tavern chat-purge`` over the whole store.

    .venv/bin/python bench/bench_chat.py [messages per table, default 2000]
"""

from __future__ import annotations

import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _tables_world import migrate, seed  # noqa: E402

ROUNDS = 300


def _ms(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=100)
    return f"median {statistics.median(samples) * 1000:.2f} ms, p99 {q[98] * 1000:.2f} ms"


def main(per_table: int) -> int:
    from sqlalchemy import insert
    from sqlalchemy.pool import NullPool

    from tavern.services import chat
    from tavern.store.db import make_engine, run_transaction, session_factory
    from tavern.store.models import ChatHide, ChatMessage
    from tavern.web.ratelimit import Throttles

    tmp = Path(tempfile.mkdtemp(prefix="bench-chat-"))
    db_url = f"sqlite:///{tmp / 'tavern.db'}"
    migrate(db_url)
    world = seed(db_url, 100)
    engine = make_engine(db_url, poolclass=NullPool)
    factory = session_factory(engine)
    now = dt.datetime.now(dt.UTC)
    with factory() as s, s.begin():
        for table_id in world.tables:
            authors = [uid for _, uid in world.players[table_id]]
            s.execute(insert(ChatMessage), [
                {"table_id": table_id, "user_id": authors[i % len(authors)], "text": f"message {i}",
                 "created": now - dt.timedelta(minutes=40 * 24 * 60 * (per_table - i) // per_table),
                 "deleted": i % 97 == 0} for i in range(per_table)])
        reader_table = world.tables[0]
        reader = world.players[reader_table][0][1]
        s.add(ChatHide(user_id=reader, author_id=world.players[reader_table][1][1]))
    print(f"{len(world.tables)} tables, {per_table * len(world.tables):,} messages over 40 days")

    def log(s):  # what ChatDesk.log reads
        return (chat.hidden_authors(s, reader), chat.may_write(s, reader_table, reader),
                [m.out() for m in chat.history(s, reader_table, reader)])

    reads = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        hidden, may, lines = run_transaction(factory, log)
        reads.append(time.perf_counter() - t0)
    assert len(lines) == 50 and may and hidden
    print(f"chat_log (one socket's snapshot part): {_ms(reads)}")

    throttles = Throttles(factory)
    writes = []
    cpu = time.process_time()
    for i in range(ROUNDS):
        writer_table = world.tables[i % len(world.tables)]
        uid = world.players[writer_table][i % 6][1]
        t0 = time.perf_counter()
        # As the table's chat desk writes (tables/chat.py): the rate and the message in one transaction.
        def write(s, t=writer_table, u=uid, n=i):
            assert throttles.hit_in(s, (f"chat:{u}",), chat.RATE_LIMIT, chat.RATE_WINDOW) == 0
            return chat.say(s, t, u, f"bench {n}")
        run_transaction(factory, write)
        writes.append(time.perf_counter() - t0)
    cpu = (time.process_time() - cpu) / ROUNDS
    print(f"a message written (rate + checks + insert): {_ms(writes)}; CPU {cpu * 1000:.2f} ms a message")

    t0 = time.perf_counter()
    gone = run_transaction(factory, chat.purge)
    print(f"tavern chat-purge: {gone:,} messages in {(time.perf_counter() - t0) * 1000:.0f} ms")
    engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
