"""A page whose worker is stopped notices the silence (issue 38, item 2 of
the last session: "a player's page on a worker that is stopped (SIGSTOP)
stays frozen: its socket is open but silent").

A real Chromium on the table page of a real two-worker server (uvicorn's
supervisor, Redis, a 120 s health timeout so that the supervisor does not
kill the stopped worker, which would close the socket and hide the fault);
the worker holding the page's table socket is stopped with SIGSTOP. The page
must say in French that the server no longer answers, open another socket
(which the live worker accepts) and show the table again, the stopped worker
still stopped.
"""

from __future__ import annotations

import os
import re
import signal
import time

import pytest
from tests.browser.test_table_page import ARTIFACTS, CHROMIUM, LIVE
from tests.cluster.scaled import RedisProcess, ScaledServer, seed_tables
from tests.tables.liveserver import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.db, pytest.mark.redis, pytest.mark.slow]

#: Generous for a loaded machine: the page pings after 10 s of silence and
#: gives up 5 s later (static/table.js HEARD_MS, REPLY_MS).
NOTICED_WITHIN_MS = 60_000


def _established(port: int) -> set[int]:
    """Inodes of the TCP connections established to ``port`` on loopback."""
    out = set()
    for line in open("/proc/net/tcp").read().splitlines()[1:]:
        f = line.split()
        if int(f[1].split(":")[1], 16) == port and f[3] == "01":
            out.add(int(f[9]))
    return out


def _holders(pids: list[int], inodes: set[int]) -> dict[int, int]:
    """How many of those connections each process holds."""
    held = {}
    for pid in pids:
        n = 0
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            m = re.fullmatch(r"socket:\[(\d+)\]", target)
            if m and int(m.group(1)) in inodes:
                n += 1
        held[pid] = n
    return held


def test_a_page_on_a_stopped_worker_says_so_and_reconnects(db_url, tmp_path, session_factory):
    if not db_url.startswith("sqlite"):  # about the worker, not the store: once a CI run is enough
        pytest.skip("the store does not matter here; run in the SQLite pass")
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian's Chromium is missing: run scripts/system-deps.sh")
    from playwright.sync_api import sync_playwright

    village = seed_tables(session_factory, 1)
    table_id = next(iter(village.tables))
    player = village.tables[table_id][0]
    (tmp_path / "redis").mkdir()
    rds = RedisProcess(tmp_path / "redis")
    rds.start()
    server = ScaledServer(db_url, rds.url, tmp_path, workers=2,
                          uvicorn_args=["--timeout-worker-healthcheck", "120", "--timeout-keep-alive", "1"])
    server.start()
    stopped = None
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server.base)
            # The notices socket is answered in the page (never reaches the
            # server): the only connection left open is the table's, so the
            # worker holding it can be found.
            context.route_web_socket(re.compile(r".*/ws/notices$"), lambda ws: None)
            page = context.new_page()
            sockets: list[dict] = []  # each table socket the page opens, and when its state frames came

            def opened(ws) -> None:
                if not ws.url.endswith(f"/ws/tables/{table_id}"):
                    return
                seen: dict = {"ws": ws, "states": []}
                sockets.append(seen)
                ws.on("framereceived", lambda f: '"type":"state"' in str(f) and seen["states"].append(time.monotonic()))

            page.on("websocket", opened)
            console: list[str] = []
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
            page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
            page.goto(f"/login?next=/tables/{table_id}")
            page.fill("input[name=username]", player)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(re.compile(rf"/tables/{table_id}$"))
            page.wait_for_selector(f"{LIVE}[data-seq]")
            # The page's HTTP connections close (keep-alive 1 s): one connection is left, the table socket's.
            deadline = time.monotonic() + 30
            while True:
                held = _holders(server.worker_pids(), _established(server.port))
                if sum(held.values()) == 1 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            assert sum(held.values()) == 1, f"connections per worker: {held}"
            stopped = next(pid for pid, n in held.items() if n)
            assert len(sockets) == 1 and sockets[0]["states"], sockets
            status = page.locator(f"{LIVE} .tl-status")
            os.kill(stopped, signal.SIGSTOP)
            t0 = time.monotonic()
            # Every text the status line shows, in order (it may show the
            # silence only for the moment the new socket takes).
            page.evaluate("""() => { window.statuses = [];
                const el = document.querySelector('#table-live .tl-status');
                new MutationObserver(() => window.statuses.push([Date.now(), el.textContent]))
                    .observe(el, {childList: true, characterData: true, subtree: true}); }""")
            try:
                page.wait_for_function("() => window.statuses.some(s => s[1].startsWith('Le serveur ne répond plus'))",
                                       timeout=NOTICED_WITHIN_MS)
            except Exception as exc:
                raise AssertionError(f"status « {status.text_content()} »; sockets {sockets}; console {console}") from exc
            noticed = time.monotonic() - t0
            ARTIFACTS.mkdir(exist_ok=True)
            # Another socket, on the live worker, and the table's state again on it.
            page.wait_for_function("() => (document.querySelector('#table-live') || {}).getAttribute"
                                   "('data-connected') === '1'", timeout=NOTICED_WITHIN_MS)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not (len(sockets) >= 2 and sockets[-1]["states"]):
                page.wait_for_timeout(200)
            assert len(sockets) >= 2 and sockets[-1]["states"], (
                f"no state on a new socket; status « {status.text_content()} »; {len(sockets)} sockets")
            page.screenshot(path=str(ARTIFACTS / "silent-worker-back.png"))
            assert status.text_content() == "Connecté", status.text_content()
            shown = [text for _, text in page.evaluate("window.statuses")]
            assert shown[shown.index("Le serveur ne répond plus — reconnexion…"):][-1] == "Connecté", shown
            assert stopped in server.worker_pids(), "the stopped worker was killed: the test saw no silence"
            # The page noticed from its own heartbeat, not from a close (10 s + 5 s, a little slack).
            assert 10 <= noticed <= 40, noticed
            browser.close()
    finally:
        if stopped is not None:
            os.kill(stopped, signal.SIGCONT)
        server.stop()
        rds.kill()
