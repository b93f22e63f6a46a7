"""Engine and session setup for SQLite (default) and PostgreSQL.

SQLite is tuned for a web server with several writers:

* WAL journal, so readers never block the writer;
* ``busy_timeout``, so a writer waits for the lock instead of failing;
* foreign keys enforced;
* every transaction starts with ``BEGIN IMMEDIATE`` (the write lock is
  taken up front). With the default deferred BEGIN two transactions can both
  read a balance and then both try to upgrade to a write lock: one of them
  fails with "database is locked" however long the timeout. Taking the lock
  at BEGIN makes concurrent withdrawals queue up one after the other.
  Pages that only read use :func:`read_session` (deferred BEGIN).

On PostgreSQL the ledger locks the rows it changes (``SELECT … FOR UPDATE``)
and :func:`run_transaction` retries serialization failures and deadlocks.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import orjson
from sqlalchemy import BindParameter, Connection, Engine, bindparam, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from tavern.store.direct import wrapped

T = TypeVar("T")

#: How long a SQLite writer waits for the lock before giving up (ms).
SQLITE_BUSY_TIMEOUT_MS = 30_000


def pool_options(pool_size: int, timeout: float) -> dict[str, object]:
    """A fixed pool (no overflow) and a short wait: the site's capacity is
    stated once in the settings, and an exhausted pool answers 503 quickly."""
    return {"pool_size": pool_size, "max_overflow": 0, "pool_timeout": timeout}


def _json_text(value: Any) -> str:
    """JSON columns' text (every deal writes its record twice). orjson, like
    the standard module, writes integer keys as strings; it is several
    times faster on a hand record."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str, **kwargs: object) -> Engine:
    """An engine for ``url`` with the tavern's SQLite pragmas when needed."""
    kwargs.setdefault("json_serializer", _json_text)
    kwargs.setdefault("json_deserializer", orjson.loads)
    parsed = make_url(url)
    if parsed.database in (None, "", ":memory:") and parsed.get_backend_name() == "sqlite":
        for key in ("pool_size", "max_overflow", "pool_timeout"):
            kwargs.pop(key, None)  # one shared in-memory connection: no pool to size
    if parsed.get_backend_name() != "sqlite":
        kwargs.setdefault("pool_pre_ping", True)
        return create_engine(url, **kwargs)

    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    connect_args = dict(kwargs.pop("connect_args", {}) or {})  # type: ignore[call-overload]  # a caller's connect_args is a mapping; kwargs are typed Any
    connect_args.setdefault("check_same_thread", False)
    connect_args.setdefault("timeout", SQLITE_BUSY_TIMEOUT_MS / 1000)
    engine = create_engine(url, connect_args=connect_args, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy, not pysqlite, decide when transactions begin.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:  # the engine is SQLite here: its DBAPI connection is open
        mode = conn.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        # On the driver's connection: every transaction passes here, and
        # SQLAlchemy's execution of one BEGIN cost more than SQLite's.
        sql = f"BEGIN {mode}"
        try:
            conn.connection.driver_connection.execute(sql)  # type: ignore[union-attr]  # open inside "begin"
        except Exception as exc:  # "database is locked" as SQLAlchemy says it: run_transaction retries it
            raise wrapped(conn, sql, (), exc) from exc

    return engine


_ENGINES: dict[str, Engine] = {}


def get_engine(url: str) -> Engine:
    """One engine per database URL for the whole process (the caller gives the
    URL: the settings are read by the app factory and the CLI, not here)."""
    if url not in _ENGINES:
        _ENGINES[url] = make_engine(url)
    return _ENGINES[url]


def reset_engines() -> None:
    """Dispose of cached engines (tests switch databases)."""
    while _ENGINES:
        _ENGINES.popitem()[1].dispose()


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions whose transactions may write (``BEGIN IMMEDIATE`` on SQLite)."""
    return sessionmaker(bind=engine, expire_on_commit=False)


def read_session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions for pages that only read (deferred BEGIN on SQLite)."""
    return sessionmaker(
        bind=engine.execution_options(sqlite_begin="DEFERRED"), expire_on_commit=False
    )


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on error."""
    with session_factory(engine)() as session, session.begin():
        yield session


@contextmanager
def read_session(engine: Engine) -> Iterator[Session]:
    with read_session_factory(engine)() as session, session.begin():
        yield session


def expire_held(session: Session, model: type[Any], ids: Iterable[int]) -> None:
    """Rows of ``model`` changed with Core statements (the deal's hot path):
    any ORM object of theirs the session's identity map holds is expired, so
    its next read comes from the database instead of showing what was before."""
    if not session.identity_map:  # the deal's own sessions hold no objects: nothing to look up
        return
    for row_id in ids:
        obj = session.identity_map.get(session.identity_key(model, (row_id,)))
        if obj is not None:
            session.expire(obj)


def listed(name: str, count: int) -> list[BindParameter[Any]]:
    """``count`` bound parameters ``name_0``, ``name_1``… for an ``IN`` list
    of a fixed length (:func:`bound` gives their values). An expanding
    parameter has its statement's text rendered again at every execution;
    a statement built once per length (its caller caches it) is compiled
    once — the deal's statements run at every deal of every table."""
    return [bindparam(f"{name}_{i}") for i in range(count)]


def bound(name: str, values: Sequence[Any]) -> dict[str, Any]:
    """The values of :func:`listed`'s parameters."""
    return {f"{name}_{i}": value for i, value in enumerate(values)}


def is_retryable(exc: BaseException) -> bool:
    """Serialization failure / deadlock (PostgreSQL) or a busy SQLite."""
    if isinstance(exc, DBAPIError):
        orig = exc.orig
        code = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
        if code in ("40001", "40P01"):
            return True
        if isinstance(exc, OperationalError) and "database is locked" in str(orig):
            return True
    return False


#: SQLSTATEs of a PostgreSQL going away or not yet back: shut down by its
#: administrator (``pg_ctl restart``, a failover), after a crash, starting or
#: stopping ("cannot connect now"); and class 08, a connection exception.
_AWAY_STATES = frozenset({"57P01", "57P02", "57P03"})


def is_store_away(exc: BaseException) -> bool:
    """The database server went away or cannot be reached (a restart, a
    failover): not the request's fault, and it passes — a page answers 503
    with a time to come back, a table socket is told play is paused
    (issue 38). SQLAlchemy marks a connection a restart cut as invalidated
    (the pool then drops every connection older than it, and pre-ping checks
    the rest); a server refusing new connections while it restarts raises
    the driver's own OperationalError, with no SQLSTATE."""
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    if not isinstance(exc, OperationalError):
        return False
    code = getattr(exc.orig, "sqlstate", None)
    if code is not None:
        return code in _AWAY_STATES or code.startswith("08")
    # psycopg's "connection failed: … Connection refused" (no server-side state)
    return type(exc.orig).__module__.startswith("psycopg")


#: SQLite's SQLITE_FULL (its primary result code): a write found no space
#: (its WAL, its journal or its file); PostgreSQL's disk_full SQLSTATE.
_SQLITE_FULL, _PG_DISK_FULL = 13, "53100"


def is_disk_full(exc: BaseException) -> bool:
    """A write failed for lack of disk space (issue 38: "a full disk tells
    nobody"). Nothing was written: the transaction rolled back whole."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF == _SQLITE_FULL
    return getattr(orig, "sqlstate", None) == _PG_DISK_FULL


def on_disk_full(engine: Engine, count: Callable[[], object]) -> None:
    """Call ``count`` at every statement or commit of ``engine`` that failed
    for lack of disk space, wherever it ran (a page, a table's deal, a
    background task): the operator's alert (ops/alerts.yml TavernDiskFull)."""

    @event.listens_for(engine, "handle_error")
    def _on_error(context: Any) -> None:
        if is_disk_full(context.original_exception):
            count()


def run_transaction(
    factory: sessionmaker[Session] | Callable[[], Session],
    work: Callable[[Session], T],
    *,
    attempts: int = 8,
) -> T:
    """Run ``work(session)`` in a fresh transaction, committing at the end and
    retrying the whole unit when the database asks us to (serialization
    failure, deadlock, lock timeout). ``work`` must be safe to re-run: it only
    touches the database through the session it is given."""
    for attempt in range(1, attempts + 1):
        session = factory()
        try:
            with session.begin():
                out = work(session)
            return out
        except DBAPIError as exc:
            if attempt == attempts or not is_retryable(exc):
                raise
            time.sleep(random.uniform(0, 0.01 * 2**attempt))  # jittered backoff
        finally:
            session.close()
    raise AssertionError("unreachable")
