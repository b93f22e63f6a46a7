"""Issue 10 §5: table actors live in one process, so the app refuses to run
a second process on the same store (or several workers), saying why —
until the scale-out lands."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from tests.tables.liveserver import LiveServer

from tavern.web.single import SecondProcess, TablesLock, check_workers

pytestmark = pytest.mark.db


def test_several_workers_are_refused_with_the_reason() -> None:
    check_workers(1)
    with pytest.raises(SecondProcess, match="un seul worker"):
        check_workers(2)


def test_the_lock_belongs_to_one_live_process(tmp_path) -> None:
    url = "sqlite:///x.db"
    mine = TablesLock(tmp_path, url)
    mine.acquire()
    mine.acquire()  # the same process again (several apps in one process): fine
    other = subprocess.run([sys.executable, "-c", (
        "import sys; from pathlib import Path; from tavern.web.single import TablesLock, SecondProcess\n"
        f"l = TablesLock(Path({str(tmp_path)!r}), {url!r})\n"
        "try:\n    l.acquire()\nexcept SecondProcess as e:\n    print(e); sys.exit(3)\n")],
        capture_output=True, text=True, env={**os.environ})
    assert other.returncode == 3 and f"{os.getpid()}" in other.stdout and "un seul worker" in other.stdout
    assert TablesLock(tmp_path, "sqlite:///another.db").path != mine.path  # another database: another lock
    mine.release()
    assert not mine.path.exists()


def test_a_dead_holder_is_taken_over(tmp_path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock = TablesLock(tmp_path, "sqlite:///x.db")
    lock.path.write_text(json.dumps({"pid": int(dead.stdout), "host": lock.mine["host"]}))
    lock.acquire()
    assert lock._holder() == lock.mine


def test_a_second_server_on_the_same_store_refuses_to_start(db_url, tmp_path) -> None:
    first = LiveServer(db_url, tmp_path)
    first.start()
    try:
        second = LiveServer(db_url, tmp_path)
        with pytest.raises(RuntimeError, match="tient déjà les tables de cette base"):
            second.start()
    finally:
        first.stop()
    third = LiveServer(db_url, tmp_path)  # the first has gone: the store is free again
    third.start()
    third.stop()
