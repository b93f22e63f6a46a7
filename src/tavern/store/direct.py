"""The deal's statements run straight on the database driver's cursor.

Every deal of every table runs two transactions of about a dozen short
statements (tables/bank.py ``begin_deal`` and ``finish_deal``). SQLAlchemy's
execution of a Core statement — its cache key, its parameters, its result
object, its events — cost several times what SQLite takes to run it, and those
transactions run on threads that share the interpreter with the event loop
(docs/benchmarks.md "Capacity"). A :class:`Direct` statement keeps what
SQLAlchemy does well, once: it is written in Core and compiled by SQLAlchemy
for the engine's dialect (SQLite's or PostgreSQL's SQL, their parameter
styles, ``FOR UPDATE`` where it exists), with the bind processors of its
column types (``UTCDateTime``, JSON, dates, booleans). Each execution only
converts the parameters and calls the cursor of the session's own connection,
inside the session's transaction (its begin, commit and rollback stay the
session's).

What it does not do, by design: column defaults (an insert must be given
every value it writes: a statement that would need one is refused when it is
compiled) and result types (rows come back as the driver gives them: use it
for statements that read integers and strings). The driver's errors are
raised as SQLAlchemy's (``DBAPIError`` and its kinds), so that
:func:`tavern.store.db.run_transaction` still retries a deadlock or a
serialization failure.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.expression import Executable

Processor = Callable[[Any], Any]


@dataclass(frozen=True)
class _Compiled:
    sql: str
    #: The parameters' names in the order of the placeholders (positional
    #: styles: SQLite's ``?``), or ``None`` (named styles: psycopg's).
    order: tuple[str, ...] | None
    processors: dict[str, Processor]
    #: The values written in the statement itself (``hands_left > 0``,
    #: ``count + 1``): SQLAlchemy binds them as parameters too.
    literals: dict[str, Any]

    def args(self, params: Mapping[str, Any]) -> Sequence[Any] | dict[str, Any]:
        processors = self.processors
        if self.literals:
            params = {**self.literals, **params}
        if self.order is not None:
            return tuple(processors[name](params[name]) if name in processors else params[name]
                         for name in self.order)
        return {name: processors[name](value) if name in processors else value for name, value in params.items()}


class Direct:
    """A Core statement compiled once per dialect and run on the driver's
    cursor. ``keys``: for an insert or an update, the columns its parameters
    set (as SQLAlchemy's ``execute`` takes them from the first row)."""

    def __init__(self, statement: Executable, keys: Iterable[str] = ()) -> None:
        self.statement = statement
        self.keys = list(keys)
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def compiled(self, dialect: Dialect) -> _Compiled:
        found = self._compiled.get(dialect.name)
        if found is not None:
            return found
        with self._lock:
            compiled = self.statement.compile(dialect=dialect, column_keys=self.keys)  # type: ignore[attr-defined]  # every Direct statement is compilable; the stubs type it as Executable
            if compiled.insert_prefetch or compiled.update_prefetch:
                names = [c.key for c in (*compiled.insert_prefetch, *compiled.update_prefetch)]
                raise ValueError(f"a direct statement must be given every column it writes: {names}")
            processors: dict[str, Processor] = {}
            for name, bind in compiled.binds.items():
                process = bind.type.dialect_impl(dialect).bind_processor(dialect)
                if process is not None:
                    processors[name] = process
            literals = {name: bind.effective_value for name, bind in compiled.binds.items() if not bind.required}
            order = tuple(compiled.positiontup) if compiled.positional else None
            found = self._compiled[dialect.name] = _Compiled(str(compiled), order, processors, literals)
        return found

    def _run(self, conn: Connection, params: Mapping[str, Any]) -> Any:
        compiled = self.compiled(conn.dialect)
        args = compiled.args(params)
        cursor = conn.connection.cursor()
        try:
            cursor.execute(compiled.sql, args)
        except Exception as exc:
            cursor.close()
            raise wrapped(conn, compiled.sql, args, exc) from exc
        return cursor

    def rows(self, conn: Connection, params: Mapping[str, Any]) -> list[Any]:
        """Execute with one row of parameters; the rows it returns (tuples)."""
        cursor = self._run(conn, params)
        try:
            return list(cursor.fetchall())
        finally:
            cursor.close()

    def value(self, conn: Connection, params: Mapping[str, Any]) -> Any:
        """The first column of the first row (``None`` without rows)."""
        found = self.rows(conn, params)
        return found[0][0] if found else None

    def run(self, conn: Connection, params: Mapping[str, Any]) -> int:
        """Execute with one row of parameters; the number of rows it changed."""
        cursor = self._run(conn, params)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def run_many(self, conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Execute once per row of parameters (the driver's ``executemany``)."""
        if not rows:
            return
        compiled = self.compiled(conn.dialect)
        args = [compiled.args(row) for row in rows]
        cursor = conn.connection.cursor()
        try:
            cursor.executemany(compiled.sql, args)  # type: ignore[arg-type]  # all tuples or all dicts, per dialect
        except Exception as exc:
            raise wrapped(conn, compiled.sql, args, exc) from exc
        finally:
            cursor.close()


def wrapped(conn: Connection, sql: str, args: Any, exc: Exception) -> Exception:
    """The driver's error as SQLAlchemy would have raised it (its
    ``OperationalError``, ``IntegrityError``…); anything else unchanged."""
    dbapi = conn.dialect.loaded_dbapi
    if isinstance(exc, dbapi.Error):
        return DBAPIError.instance(sql, args, exc, dbapi.Error, dialect=conn.dialect)
    return exc
