"""A burst of spending from one player against a real server process.

Issue 12 §1: "50 simultaneous POST /api/premium/packs from one player with
no tokens: 24 of 50 answered 500 after 30 s and another user's GET /api/me
waited 29.9 s; on PostgreSQL 29–40 of 50 failed". Here 100 simultaneous
purchases from one player who can afford five: five succeed, the others are
refused (400, nothing debited), none answers 5xx, nobody else waits more
than a second, the tokens are spent exactly once each and the audit balances.
Runs on SQLite, and on PostgreSQL under scripts/with-postgres.sh (-m db).
"""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from tests.dbtools import harness_settings
from tests.tables.liveserver import PASSWORD, LiveServer

from tavern.services import ledger, users
from tavern.store.db import make_engine, session_factory
from tavern.store.models import PremiumPack

pytestmark = [pytest.mark.db, pytest.mark.slow]

BURST = 100
AFFORDABLE = 5
STALL = 1.0  #: seconds another user may wait at most during the burst


async def _client(srv: LiveServer, name: str) -> tuple[httpx.AsyncClient, str]:
    c = httpx.AsyncClient(base_url=srv.base, timeout=60,
                          limits=httpx.Limits(max_connections=BURST + 10))
    token = (await c.get("/api/auth/session")).json()["csrf_token"]
    r = await c.post("/api/auth/login", json={"username": name, "password": PASSWORD},
                     headers={"X-CSRF-Token": token})
    r.raise_for_status()
    return c, r.json()["csrf_token"]


def run_burst(db_url: str, data_dir) -> dict[str, object]:
    """The scenario, also run by ``make reliability``: returns its figures."""
    engine = make_engine(db_url)
    factory = session_factory(engine)
    with factory() as s, s.begin():
        spender = users.create_user(s, "depensier", PASSWORD,
                                    password_hash=users.hash_password(PASSWORD, harness_settings()))
        users.create_user(s, "voisin", PASSWORD, password_hash=users.hash_password(PASSWORD, harness_settings()))
        price = 10
        ledger.issue(s, spender.id, AFFORDABLE * price + price - 1, "tokens")
        spender_id = spender.id
    srv = LiveServer(db_url, data_dir)
    srv.start()
    try:
        async def scenario() -> dict[str, object]:
            buyer, token = await _client(srv, "depensier")
            other, _ = await _client(srv, "voisin")
            waits: list[float] = []
            done = asyncio.Event()

            async def neighbour() -> None:
                while not done.is_set():
                    t0 = time.perf_counter()
                    r = await other.get("/api/me")
                    waits.append(time.perf_counter() - t0)
                    assert r.status_code == 200, r.text
                    await asyncio.sleep(0.02)

            # Open the buyer's connections first (a hundred reads at once, no
            # 5xx either), so that the purchases arrive together.
            warm = await asyncio.gather(*(buyer.get("/api/me") for _ in range(BURST)))
            assert [r.status_code for r in warm] == [200] * BURST
            watcher = asyncio.create_task(neighbour())
            t0 = time.perf_counter()
            answers = await asyncio.gather(*(buyer.post("/api/premium/packs", headers={"X-CSRF-Token": token})
                                             for _ in range(BURST)))
            elapsed = time.perf_counter() - t0
            done.set()
            await watcher
            await buyer.aclose()
            await other.aclose()
            codes = [r.status_code for r in answers]
            return {"codes": codes, "elapsed": elapsed, "max_wait": max(waits), "neighbour_requests": len(waits)}

        out = asyncio.run(scenario())
    finally:
        srv.stop()
    with factory() as s:
        out["tokens_left"] = ledger.balance(s, "user", spender_id, "tokens")
        out["packs"] = len(list(s.query(PremiumPack).filter_by(user_id=spender_id)))
        out["audit_ok"] = ledger.audit(s).ok
    engine.dispose()
    return out


def test_a_burst_of_purchases_from_one_player(db_url, tmp_path) -> None:
    out = run_burst(db_url, tmp_path)
    codes = out["codes"]
    print({k: v for k, v in out.items() if k != "codes"}, "5xx:", sum(c >= 500 for c in codes))
    assert [c for c in codes if c >= 500] == [], codes
    assert codes.count(201) == AFFORDABLE and codes.count(400) == BURST - AFFORDABLE, codes
    assert out["packs"] == AFFORDABLE and out["tokens_left"] == 9  # each token spent once
    assert out["audit_ok"]
    assert out["max_wait"] < STALL, out


def test_a_burst_of_reads_on_a_pool_smaller_than_the_burst(db_url, tmp_path) -> None:
    """Issue 12 §1 ("none answers 5xx"), made certain instead of likely: with
    three request threads, one table thread and so four pooled connections,
    a hundred simultaneous reads of pages and of the API are all served. A
    route that kept its read connection until FastAPI's teardown (after the
    answer's validation, a second trip to the thread pool) held the pool
    while the other requests queued for a thread: 503s after the pool
    timeout (this test then saw 89 of 100)."""
    engine = make_engine(db_url)
    with session_factory(engine)() as s, s.begin():
        users.create_user(s, "lecteur", PASSWORD, password_hash=users.hash_password(PASSWORD, harness_settings()))
    engine.dispose()
    srv = LiveServer(db_url, tmp_path, extra_env={"TAVERN_WEB_THREADS": "3", "TAVERN_TABLE_THREADS": "1",
                                                  "TAVERN_DB_POOL_TIMEOUT": "1"})
    srv.start()
    try:
        async def scenario() -> list[int]:
            reader, _ = await _client(srv, "lecteur")
            paths = ["/api/me", "/api/me/deals", "/compte", "/"]
            answers = await asyncio.gather(*(reader.get(paths[i % len(paths)]) for i in range(BURST)))
            await reader.aclose()
            return [r.status_code for r in answers]

        codes = asyncio.run(scenario())
    finally:
        srv.stop()
    assert codes == [200] * BURST, sorted(set(codes))
