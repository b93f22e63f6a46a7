"""Alembic environment: the URL comes from the tavern settings, or from
``config.attributes["url"]`` / ``["connection"]`` when run programmatically
(the test fixtures)."""

from __future__ import annotations

import logging

from alembic import context

from tavern.store.db import make_engine
from tavern.store.models import Base

config = context.config
target_metadata = Base.metadata

# Log like the alembic CLI when run from it; programmatic callers (tests,
# ``tavern migrate``, ``tavern restore``) keep their own logging. fileConfig
# closes and replaces every handler of the root logger: run inside a process
# whose logging is configured (tavern.logs), it dropped the JSON handler for a
# plain one that masks nothing, and left tests a handler on a closed stream.
if config.config_file_name is not None and "url" not in config.attributes and not logging.getLogger().handlers:
    from logging.config import fileConfig

    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _url() -> str:
    url = config.attributes.get("url")
    if url:
        return url
    from tavern.settings import get_settings

    return get_settings().database_url


def run_migrations_offline() -> None:
    url = _url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def _run(connection) -> None:  # noqa: ANN001
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # Batch mode rebuilds a SQLite table to change a constraint; with
        # foreign keys enforced, dropping the old copy would fail as soon as
        # rows point at it. The pragma only works outside a transaction, so it
        # goes to the driver's connection directly, and the keys are checked
        # once the migrations are done.
        connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
    try:
        _configure_and_run(connection)
    finally:
        if sqlite:
            raw = connection.connection.driver_connection
            broken = raw.execute("PRAGMA foreign_key_check").fetchall()
            raw.execute("PRAGMA foreign_keys=ON")
            if broken:
                raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")


def _configure_and_run(connection) -> None:  # noqa: ANN001
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as connection:
            _run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
