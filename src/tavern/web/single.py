"""Without Redis, one process runs the live tables of a store.

Each open table's actor lives in one process. With ``TAVERN_REDIS_URL`` set
the workers share the tables through leases (tables/cluster.py) and any
number may run. Without it nothing would stop two processes on one database
from each opening the same table and dealing it twice, so a process that
would do so refuses to start, saying why: ``TAVERN_WORKERS`` above 1, or
another live process already serving the same database from this data
directory (``uvicorn --workers 2`` started by hand).
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
from pathlib import Path
from typing import Any

from tavern.catalogue import french


class SecondProcess(RuntimeError):
    """Refused: another process already runs this store's tables."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class TablesLock:
    """A file in the data directory naming the process (pid, host) that runs
    the tables of one database; a dead holder's file is taken over."""

    def __init__(self, data_dir: Path, database_url: str) -> None:
        tag = hashlib.sha256(database_url.encode()).hexdigest()[:12]
        self.path = Path(data_dir) / f".tables-{tag}.lock"
        self.mine = {"pid": os.getpid(), "host": socket.gethostname()}

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(3):
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            except FileExistsError:
                holder = self._holder()
                if holder is None or holder == self.mine:
                    return  # this very process (several apps in one process share its tables)
                if holder.get("host") == self.mine["host"] and not _alive(int(holder.get("pid", 0))):
                    self.path.unlink(missing_ok=True)  # left by a process that died
                    continue
                raise SecondProcess(french("tables_held_elsewhere", {"pid": holder.get("pid"),
                                                                     "host": holder.get("host")})) from None
            with os.fdopen(fd, "w") as f:
                json.dump(self.mine, f)
            return
        raise SecondProcess(french("tables_lock_unavailable", {"path": self.path}))

    def _holder(self) -> dict[str, Any] | None:
        try:
            held = json.loads(self.path.read_text())
            return held if isinstance(held, dict) else None
        except (OSError, ValueError):
            return None

    def release(self) -> None:
        if self._holder() == self.mine:
            self.path.unlink(missing_ok=True)


def live_holders(data_dir: Path) -> list[dict[str, Any]]:
    """The processes holding a tables lock in ``data_dir`` that may still run
    (``tavern restore`` refuses while there is one): those of this host
    that are alive, and any of another host (whose life cannot be told here)."""
    here = socket.gethostname()
    out = []
    for path in sorted(Path(data_dir).glob(".tables-*.lock")):
        try:
            holder = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(holder, dict):
            continue
        pid = int(holder.get("pid", 0) or 0)
        if holder.get("host") != here or (pid > 0 and _alive(pid)):
            out.append({**holder, "lock": str(path)})
    return out


def check_workers(workers: int, shared: bool = False) -> None:
    if workers > 1 and not shared:
        raise SecondProcess(french("workers_need_redis", {"workers": workers}))
