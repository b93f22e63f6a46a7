"""The database: models (:mod:`tavern.store.models`) and sessions (:mod:`tavern.store.db`)."""

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
