"""Backing up a SQLite store while the server runs, and putting a backup back.

SQLite's online backup API copies the database page by page inside one read
transaction: under WAL the server's writers are not held up, and the copy
is the database as it stood at one moment (a deal in progress included —
the restore voids it, as a restart does: ``tavern restore`` in cli.py).

PostgreSQL is backed up with its own tools (``pg_dump``/``pg_restore``,
docs/operations.md); these functions refuse it, saying so.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from tavern.refusal import Refusal


class BackupError(Refusal):
    """A backup or a restore refused: a code the catalogue says in French."""


def sqlite_path(database_url: str) -> Path | None:
    """The file of a SQLite URL; None for another database."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        return None
    if url.database in (None, "", ":memory:"):
        raise BackupError("backup_memory_store")
    return Path(url.database)


@dataclass
class Copied:
    path: Path
    size: int
    deals_in_progress: int  #: deals under way at the moment of the copy (voided by a restore)


def _check(path: Path) -> int:
    """Refuse a file that is not a whole tavern database; return its deals in progress."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if con.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupError("backup_damaged", path=str(path))
            if con.execute("SELECT count(*) FROM sqlite_master WHERE name = 'alembic_version'").fetchone() != (1,):
                raise BackupError("backup_not_a_tavern", path=str(path))
            # In progress: archived as voided, result marked in_progress (tables/bank.py).
            (in_progress,) = con.execute("SELECT count(*) FROM archived_hands "
                                         "WHERE voided AND json_extract(result, '$.in_progress')").fetchone()
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError("backup_unreadable", path=str(path), detail=str(exc)) from exc
    return int(in_progress)


def backup(database_url: str, target: Path) -> Copied:
    """Copy the live store into ``target`` (a new file), consistently."""
    source = sqlite_path(database_url)
    if source is None:
        raise BackupError("backup_not_sqlite")
    if not source.exists():
        raise BackupError("backup_store_missing", path=str(source))
    if target.exists():
        raise BackupError("backup_target_exists", path=str(target))
    part = target.with_name(target.name + ".part")
    try:
        _copy(source, target, part)
    except (OSError, sqlite3.Error) as exc:
        # A place that cannot be written (under a regular file, read-only,
        # a full disk): one French line, not a traceback (issue 38 §3).
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)
        raise BackupError("backup_target_unwritable", path=str(target), detail=str(exc)) from exc
    try:
        in_progress = _check(part)
    except BackupError:
        part.unlink(missing_ok=True)
        raise
    os.replace(part, target)  # never a half-written backup under the given name
    return Copied(target, target.stat().st_size, in_progress)


def _copy(source: Path, target: Path, part: Path) -> None:
    """The store's pages into ``part``, beside ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    part.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        dst = sqlite3.connect(part)
        try:
            src.backup(dst)  # all pages in one step: one read transaction, one moment
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        finally:
            dst.close()
    finally:
        src.close()


def restore(backup_file: Path, database_url: str) -> Path | None:
    """Put ``backup_file`` in place of the store. The store it replaces (if
    any) is kept beside it, renamed ``….before-restore-<time>``: returned.
    The caller has made sure no server uses the store."""
    target = sqlite_path(database_url)
    if target is None:
        raise BackupError("restore_not_sqlite")
    if not backup_file.is_file():
        raise BackupError("backup_file_missing", path=str(backup_file))
    _check(backup_file)
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".restoring")
    part.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    dst = sqlite3.connect(part)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    kept = None
    if target.exists():
        # Fold the old store's WAL in first, so the kept file is whole on its own.
        con = sqlite3.connect(target)
        try:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            con.close()
        kept = target.with_name(f"{target.name}.before-restore-{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%SZ}")
        os.replace(target, kept)
    for suffix in ("-wal", "-shm"):
        target.with_name(target.name + suffix).unlink(missing_ok=True)
    os.replace(part, target)
    return kept
