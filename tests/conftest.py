"""Shared fixtures: a migrated database for every test that asks for one.

SQLite (default): the schema is built once per run with ``alembic upgrade
head`` into a template file, and each test gets its own copy of that file.
PostgreSQL: when ``TAVERN_DATABASE_URL`` points at one (``scripts/with-
postgres.sh`` sets it), that database is migrated once and every test starts
from emptied tables. Either way the schema comes from the migrations only.

Fixtures:

* ``db_url``   — URL of a fresh, migrated, empty database; also installed as
  the site settings (``TAVERN_DATABASE_URL``, ``TAVERN_DATA_DIR`` = tmp dir)
  so the app factory under test reads it as a real launch would;
* ``settings``  — the site settings of that database, handed to the code
  under test (services, banks); a test wanting other values overrides them
  with ``settings.model_copy(update={...})`` instead of patching anything;
* ``engine``, ``session_factory``, ``session`` — on top of ``db_url``;
* ``fresh_db`` — a callable emptying the database again and returning a
  session factory (for Hypothesis examples, which must not reuse state).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from hypothesis import settings as hypothesis_settings
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

from tavern.settings import Settings, get_settings
from tavern.store import db as store_db
from tavern.store.models import Base

ROOT = Path(__file__).resolve().parents[1]

# Hypothesis: no per-example deadline. Examples that touch a database or a
# thread pool vary in duration with the machine's load, and a deadline would
# turn that noise into failures; each test bounds its own example count.
hypothesis_settings.register_profile("tavern", deadline=None, print_blob=True)
hypothesis_settings.load_profile("tavern")


def alembic_config(url: str) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = url
    return cfg


def _configured_url() -> str:
    # Settings() is only consulted for the URL the run was started with.
    return Settings(data_dir=Path("/nonexistent")).database_url


@pytest.fixture(scope="session")
def postgres_url() -> str | None:
    """The PostgreSQL URL given to the run, or None (SQLite)."""
    url = _configured_url()
    return None if url.startswith("sqlite") else url


@pytest.fixture(scope="session")
def _template_db(tmp_path_factory: pytest.TempPathFactory, postgres_url: str | None) -> str:
    """Migrate once: a SQLite template file, or the PostgreSQL database."""
    if postgres_url:
        command.upgrade(alembic_config(postgres_url), "head")
        return postgres_url
    path = tmp_path_factory.mktemp("template") / "template.db"
    url = f"sqlite:///{path}"
    # env.py disposes of its engine: the last connection closing folds the
    # WAL back into the file, which can then be copied alone.
    command.upgrade(alembic_config(url), "head")
    assert not Path(f"{path}-wal").exists()
    return str(path)


def _empty_postgres(url: str) -> None:
    # DELETE, children first: on a few rows it is much faster than TRUNCATE
    # (which recreates every table's files). Ids keep counting; no test
    # relies on them.
    engine = store_db.make_engine(url, poolclass=NullPool)
    with engine.begin() as conn:
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(table.delete())
    engine.dispose()


@pytest.fixture
def fresh_db(
    _template_db: str, postgres_url: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[[], str]]:
    """Callable: make the database fresh and return its URL (installed in
    the settings). Called once by ``db_url``; Hypothesis tests call it per
    example."""
    counter = {"n": 0}
    monkeypatch.setenv("TAVERN_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("TAVERN_SECRET_KEY", "test-secret-key")
    # Real Argon2id, with cheap parameters: hashing is slow on purpose.
    monkeypatch.setenv("TAVERN_ARGON2_TIME_COST", "1")
    monkeypatch.setenv("TAVERN_ARGON2_MEMORY_KIB", "1024")
    monkeypatch.setenv("TAVERN_ARGON2_PARALLELISM", "1")
    # Two-factor sign-in off for the admins and owners of the other tests;
    # tests/web/test_twofactor.py turns it on and signs in with codes.
    monkeypatch.setenv("TAVERN_TOTP_REQUIRED", "0")
    # The apps built in this process keep Python's collection schedule (a
    # full collection and a freeze at each of hundreds of starts cost the
    # suite minutes); tests/web/test_collector.py tests the server's, and the
    # servers the tests start as processes run it as shipped.
    monkeypatch.setenv("TAVERN_GC_FULL_SECONDS", "0")

    def fresh() -> str:
        store_db.reset_engines()
        if postgres_url:
            _empty_postgres(postgres_url)
            url = postgres_url
        else:
            counter["n"] += 1
            path = tmp_path / f"tavern-{counter['n']}.db"
            shutil.copyfile(_template_db, path)
            url = f"sqlite:///{path}"
        monkeypatch.setenv("TAVERN_DATABASE_URL", url)
        get_settings.cache_clear()
        return url

    yield fresh
    store_db.reset_engines()
    get_settings.cache_clear()


@pytest.fixture
def db_url(fresh_db: Callable[[], str]) -> str:
    return fresh_db()


@pytest.fixture
def engine(db_url: str) -> Engine:
    return store_db.get_engine(db_url)


@pytest.fixture
def settings(db_url: str) -> Settings:
    """The test's site settings (its database, cheap Argon2 parameters), read
    from the harness's environment once, as the app factory and the CLI do."""
    return Settings()


@pytest.fixture
def session_factory(engine: Engine) -> sessionmaker[Session]:
    return store_db.session_factory(engine)


@pytest.fixture
def session(session_factory: sessionmaker[Session]) -> Iterator[Session]:
    with session_factory() as s:
        yield s


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A real redis-server on a free loopback port, for this test only
    (scripts/system-deps.sh installs it; the Redis tests never mock it)."""
    exe = shutil.which("redis-server")
    assert exe, "redis-server is needed: scripts/system-deps.sh installs it"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis

    client = redis.Redis(host="127.0.0.1", port=port)
    try:
        for _ in range(200):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        proc.terminate()
        proc.wait(10)
