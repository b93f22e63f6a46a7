"""A throwaway PostgreSQL the test owns, so that it may restart it
(scripts/with-postgres.sh's server belongs to the whole run).

initdb + pg_ctl in a temporary directory, on 127.0.0.1 and a free port; as
root the server runs as the ``postgres`` system user (PostgreSQL refuses
root), as scripts/with-postgres.sh does.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.tables.liveserver import free_port


def pg_bin() -> str | None:
    """The directory of PostgreSQL's server programs, or None."""
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(f"{d}/initdb", os.X_OK):
            return d
    found = shutil.which("initdb")
    return str(Path(found).parent) if found else None


class PgServer:
    def __init__(self) -> None:
        binary = pg_bin()
        if binary is None:
            raise RuntimeError("no PostgreSQL binaries (apt-get install postgresql-15)")
        self.bin = binary
        # Not under pytest's tmp_path: as root, that is closed to the postgres user.
        self.root = root = Path(tempfile.mkdtemp(prefix="tavern-pg-"))
        self.data = root / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        root.chmod(0o755)
        if self.as_root:
            shutil.chown(root, "postgres")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://tavern@127.0.0.1:{self.port}/tavern"

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{' '.join(cmd)}: {done.stderr.decode(errors='replace')}")

    def _ctl(self, action: str) -> None:
        self._run(f"{self.bin}/pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w",
                  "-m", "fast", "-o",
                  f"-h 127.0.0.1 -p {self.port} -k {self.root} -c fsync=off -c synchronous_commit=off",
                  action)

    def start(self) -> None:
        self._run(f"{self.bin}/initdb", "-D", str(self.data), "-U", "tavern", "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8")
        self._ctl("start")
        self._run(f"{self.bin}/createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "tavern", "tavern")

    def restart(self) -> float:
        """``pg_ctl restart -m fast`` (every connection cut); its seconds."""
        start = time.monotonic()
        self._ctl("restart")
        return time.monotonic() - start

    def stop(self) -> None:
        try:
            self._run(f"{self.bin}/pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        except RuntimeError:
            pass
        shutil.rmtree(self.root, ignore_errors=True)
