"""A real server process (uvicorn) on loopback, for the WebSocket, crash and
browser tests, with players who can log in."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from tests.dbtools import harness_settings

from tavern.services import users
from tavern.store.db import session_factory

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "secret-password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LiveServer:
    db_url: str
    data_dir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    extra_env: dict[str, str] = field(default_factory=dict)
    #: The application factory uvicorn serves (tests/browser/rigged_app.py: seeded shuffles).
    app: str = "tavern.web.app:create_app"
    #: uvicorn's own loggers' level (its « WebSocket … [accepted] » lines are INFO).
    log_level: str = "warning"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "TAVERN_DATABASE_URL": self.db_url, "TAVERN_DATA_DIR": str(self.data_dir),
               "TAVERN_SECRET_KEY": "live-test-secret", "TAVERN_ALLOWED_ORIGINS": self.base,
               "TAVERN_DEAL_PAUSE_SECONDS": "0.3", "TAVERN_GC_FULL_SECONDS": "600", **self.extra_env}
        log = open(self.data_dir / f"server-{self.port}.log", "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", self.app, "--factory",
             "--host", "127.0.0.1", "--port", str(self.port), "--log-level", self.log_level,
             "--ws", "tavern.web.wsproto:TableSocketProtocol"],  # as shipped (make run)
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError((self.data_dir / f"server-{self.port}.log").read_text())
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL: the process dies at once, mid-whatever."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def login(self, username: str, password: str = PASSWORD) -> str:
        """Log in through the API; returns the Cookie header value."""
        with httpx.Client(base_url=self.base) as c:
            token = c.get("/api/auth/session").json()["csrf_token"]
            r = c.post("/api/auth/login", json={"username": username, "password": password},
                       headers={"X-CSRF-Token": token})
            r.raise_for_status()
            return "; ".join(f"{k}={v}" for k, v in c.cookies.items())


def seed_table(db_url: str, names: tuple[str, ...], *, game: str = "ramponneau",
               stakes: dict[str, Any] | None = None, variant: str = "", options: dict | None = None,
               timer: int = 30) -> tuple[int, dict[str, int]]:
    """An owner (``patron``), a tavern, an open table and players with 1,000
    écus each, who log in with :data:`PASSWORD`."""
    from tests.tables.conftest import build_world

    from tavern.store.db import make_engine

    engine = make_engine(db_url)
    world = build_world(session_factory(engine), game=game, stakes=stakes, variant=variant, names=names,
                        options=options, timer=timer, password_hash=users.hash_password(PASSWORD, harness_settings()))
    engine.dispose()
    return world.table_id, world.users


def frames(raw: list[str]) -> list[dict[str, Any]]:
    return [json.loads(r) for r in raw]
