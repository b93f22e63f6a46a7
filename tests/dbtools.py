"""The test harness's database for tests that poke it directly.

``tests/conftest.py``'s ``db_url`` fixture installs a fresh database as
``TAVERN_DATABASE_URL`` (the app factory under test reads it like a real
launch); these helpers open that same database. The store itself never reads
the environment: it is handed an engine.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm import Session

from tavern.settings import Settings
from tavern.store import db as store_db


@contextmanager
def session_scope() -> Iterator[Session]:
    """One unit of work on the test's database (commit on success)."""
    with store_db.session_scope(store_db.get_engine(os.environ["TAVERN_DATABASE_URL"])) as session:
        yield session


def harness_settings() -> Settings:
    """The site settings the harness installed for this test (its database,
    cheap Argon2 parameters), for helpers that no fixture reaches — a
    subprocess's seeding, a shared builder. Tests take the ``settings``
    fixture instead."""
    return Settings()
