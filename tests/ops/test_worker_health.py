"""Issue 38 §4: "uvicorn's supervisor kills a worker that misses its health
check for about 5 s, so a long pause or a starved CPU voids that worker's
deals and drops its sockets … Choose the timeout deliberately (a setting),
document it, and test it."

The setting is the image's ``TAVERN_WORKER_HEALTH_SECONDS`` (Dockerfile),
passed to uvicorn's real supervisor as ``--timeout-worker-healthcheck``.
Here the real supervisor runs two workers of a tiny app that says its pid;
one worker is stopped (SIGSTOP) past a short timeout and is killed, then
the same pause under the image's timeout leaves it serving.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tavern.tables.cluster import HUNG_LOOP_SECONDS

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
APP = "async def app(scope, receive, send):\n" \
      "    import os\n" \
      "    if scope['type'] != 'http':\n" \
      "        return\n" \
      "    await send({'type': 'http.response.start', 'status': 200, 'headers': []})\n" \
      "    await send({'type': 'http.response.body', 'body': str(os.getpid()).encode()})\n"
PAUSE = 6.0  #: seconds a worker is stopped: past uvicorn's default 5 s


def _image_timeout() -> int:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--timeout-worker-healthcheck ${TAVERN_WORKER_HEALTH_SECONDS}" in dockerfile
    return int(re.search(r"TAVERN_WORKER_HEALTH_SECONDS=(\d+)", dockerfile).group(1))  # type: ignore[union-attr]


def _children(pid: int) -> set[int]:
    return {int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}


def _wait(check, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout} s")


def _pause_a_worker(tmp_path: Path, health: int) -> tuple[int, set[int]]:
    """Stop one of two workers for PAUSE seconds; the stopped pid and the
    workers after (when a worker was replaced, its replacement is among them)."""
    (tmp_path / "tinyapp.py").write_text(APP)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "tinyapp:app", "--port", str(port), "--workers", "2",
                             "--timeout-worker-healthcheck", str(health), "--log-level", "warning"],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(lambda: len(_children(proc.pid) - _trackers(proc.pid)) == 2, 120, "two workers started")
        workers = _children(proc.pid) - _trackers(proc.pid)
        paused = min(workers)
        os.kill(paused, signal.SIGSTOP)
        time.sleep(PAUSE)  # the fault itself is a duration
        if paused in _children(proc.pid):
            os.kill(paused, signal.SIGCONT)
        # The supervisor asks again within its own loop; a request must be
        # served by a worker that answers (the resumed one or a replacement).
        _wait(lambda: httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200, 60, "served again")
        if health < PAUSE:
            _wait(lambda: paused not in _children(proc.pid), 60, "the stopped worker killed")
        return paused, _children(proc.pid) - _trackers(proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)


def _trackers(pid: int) -> set[int]:
    """multiprocessing's resource tracker, a child that is no worker."""
    return {c for c in _children(pid) if b"resource_tracker" in Path(f"/proc/{c}/cmdline").read_bytes()}


def test_the_image_gives_a_paused_worker_as_long_as_the_hung_loop_guard() -> None:
    assert _image_timeout() >= HUNG_LOOP_SECONDS


def test_a_worker_paused_past_the_health_timeout_is_killed(tmp_path) -> None:
    paused, after = _pause_a_worker(tmp_path, health=2)
    assert paused not in after and len(after) == 2  # killed and replaced: its deals would be voided


def test_under_the_image_timeout_a_paused_worker_lives_on(tmp_path) -> None:
    paused, after = _pause_a_worker(tmp_path, health=_image_timeout())
    assert paused in after and len(after) == 2
