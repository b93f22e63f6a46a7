"""The database: models (:mod:`tavern.store.models`) and sessions (:mod:`tavern.store.db`).

How to use it from the layers above:

Every helper takes the engine (``make_engine(settings.database_url)``, made
by the app factory or the CLI from the settings they read; this package
never reads the environment).

* a unit of work that writes: ``run_transaction(session_factory(engine), fn)`` —
  ``fn(session)`` is retried on PostgreSQL serialization failures/deadlocks,
  so it must only touch the database through its session; or
  ``with session_scope(engine) as s: ...`` (commit at the end, no retry);
* a page that only reads: ``with read_session(engine) as s: ...`` (on SQLite it does
  not take the write lock);
* the services (:mod:`tavern.services`) never commit: they run inside these.
"""

from tavern.store.db import (
    get_engine,
    make_engine,
    read_session,
    read_session_factory,
    run_transaction,
    session_factory,
    session_scope,
)
from tavern.store.models import Base

__all__ = [
    "Base",
    "get_engine",
    "make_engine",
    "read_session",
    "read_session_factory",
    "run_transaction",
    "session_factory",
    "session_scope",
]
