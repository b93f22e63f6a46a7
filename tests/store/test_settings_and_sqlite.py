"""Settings and the SQLite tuning the ledger relies on."""

from __future__ import annotations

import threading
import time

from tavern.settings import Settings, get_settings
from tavern.store.db import make_engine, session_scope


def test_defaults(tmp_path, monkeypatch):
    monkeypatch.delenv("TAVERN_DATABASE_URL", raising=False)
    s = Settings(data_dir=tmp_path)
    assert s.database_url == f"sqlite:///{tmp_path.resolve() / 'tavern.db'}"
    assert (s.free_hands_per_day, s.pack_hands, s.timezone, s.disconnect_protections_per_day) == (20, 200, "Europe/Paris", 3)
    assert s.allowed_origins == ["http://127.0.0.1:8000", "http://localhost:8000"]
    assert s.redis_url is None


def test_environment_with_the_tavern_prefix(monkeypatch, tmp_path):
    monkeypatch.setenv("TAVERN_ALLOWED_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("TAVERN_DATABASE_URL", "postgresql://u:p@db/tavern")
    monkeypatch.setenv("TAVERN_FREE_HANDS_PER_DAY", "5")
    s = Settings(data_dir=tmp_path)
    assert s.allowed_origins == ["https://a.example", "https://b.example"]
    assert s.database_url == "postgresql+psycopg://u:p@db/tavern"
    assert s.free_hands_per_day == 5


def test_development_secret_key_is_generated_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("TAVERN_SECRET_KEY", raising=False)
    monkeypatch.setenv("TAVERN_DATA_DIR", str(tmp_path))
    get_settings.cache_clear()
    try:
        key = get_settings().secret_key
        assert len(key) > 40 and (tmp_path / "secret_key").read_text().strip() == key
        get_settings.cache_clear()
        assert get_settings().secret_key == key
    finally:
        get_settings.cache_clear()


def test_sqlite_pragmas(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 't.db'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000
    engine.dispose()


def test_sqlite_writers_queue_at_begin_immediate(tmp_path):
    """A second writer waits at BEGIN for the first to commit (it does not
    read a stale balance and fail later when upgrading its lock)."""
    engine = make_engine(f"sqlite:///{tmp_path / 't.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE acc (n INTEGER)")
        conn.exec_driver_sql("INSERT INTO acc VALUES (100)")
    order: list[str] = []
    first_in = threading.Event()

    def first() -> None:
        with session_scope(engine) as s:
            s.connection().exec_driver_sql("SELECT n FROM acc").scalar()
            first_in.set()
            time.sleep(0.3)
            s.connection().exec_driver_sql("UPDATE acc SET n = n - 70")
            order.append("first commits")

    def second() -> None:
        first_in.wait()
        with session_scope(engine) as s:
            n = s.connection().exec_driver_sql("SELECT n FROM acc").scalar()
            order.append(f"second reads {n}")

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert order == ["first commits", "second reads 30"]
    engine.dispose()


def test_sqlite_readers_do_not_wait_for_a_writer(tmp_path):
    """Pages that only read use read_session (deferred BEGIN): with WAL they
    see the last committed state at once, while a writer holds the lock."""
    from tavern.store.db import read_session

    engine = make_engine(f"sqlite:///{tmp_path / 't.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE acc (n INTEGER)")
        conn.exec_driver_sql("INSERT INTO acc VALUES (100)")
    with session_scope(engine) as writer:
        writer.connection().exec_driver_sql("UPDATE acc SET n = 30")
        started = time.monotonic()
        with read_session(engine) as reader:
            assert reader.connection().exec_driver_sql("SELECT n FROM acc").scalar() == 100
        assert time.monotonic() - started < 2
    engine.dispose()
