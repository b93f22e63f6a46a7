"""Alembic is the only path to the schema: upgrade from empty to head and
downgrade back to base work, and the models match what the migrations build
(on SQLite, and on PostgreSQL when TAVERN_DATABASE_URL points there)."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from tests.conftest import alembic_config

from tavern.store.db import make_engine, reset_engines
from tavern.store.models import Base

pytestmark = pytest.mark.db

TABLES = {t.name for t in Base.metadata.sorted_tables}


def _url(tmp_path, postgres_url):
    return postgres_url or f"sqlite:///{tmp_path / 'migrations.db'}"


def _tables(url):
    engine = make_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def test_upgrade_from_empty_to_head_and_downgrade_to_base(tmp_path, postgres_url, _template_db):
    url = _url(tmp_path, postgres_url)
    cfg = alembic_config(url)
    reset_engines()
    if postgres_url:  # the shared test database: start from empty
        command.downgrade(cfg, "base")
    assert _tables(url) == set()
    command.upgrade(cfg, "head")
    assert _tables(url) == TABLES
    command.downgrade(cfg, "base")
    assert _tables(url) == set()
    command.upgrade(cfg, "head")  # and again: downgrade left nothing behind
    assert _tables(url) == TABLES


def test_models_match_the_migrated_schema(db_url):
    """A model change without its migration is caught here."""
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()
    assert diff == []


def test_tavern_migrate_and_seed_commands(tmp_path, monkeypatch, capsys):
    """`make run` = `alembic upgrade head` (or `tavern migrate`) then `tavern seed`."""
    from tavern.cli import main
    from tavern.settings import get_settings

    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("TAVERN_DATABASE_URL", url)
    monkeypatch.setenv("TAVERN_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("TAVERN_ARGON2_MEMORY_KIB", "1024")
    monkeypatch.setenv("TAVERN_ARGON2_TIME_COST", "1")
    get_settings.cache_clear()
    reset_engines()
    try:
        assert main(["migrate"]) == 0
        assert _tables(url) == TABLES
        assert main(["seed"]) == 0
        out = capsys.readouterr().out
        assert "admin" in out and "alice" in out and "patron" in out
    finally:
        reset_engines()
        get_settings.cache_clear()
