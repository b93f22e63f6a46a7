"""A real server killed (SIGKILL) in the middle of a contest and restarted.

Issue 13: "A crash or restart in the middle of a contest voids the deals in
progress (stacks as at their start, as at cash tables) and the contest
resumes from the database: tables, stacks, level clock." — "A restart in the
middle of a contest (SIGKILL of a real server process) loses nothing."
"""

from __future__ import annotations

import datetime as dt
import time

import httpx
import pytest
from sqlalchemy import select
from tests.dbtools import harness_settings
from tests.tables.liveserver import PASSWORD, LiveServer

from tavern.contest_rules import Level, Settings
from tavern.services import contests as svc
from tavern.services import ledger, users
from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand, Contest, Seat, TableConfig, User

pytestmark = [pytest.mark.db]

NAMES = ("ana", "bob", "cid", "dan", "eve", "fox")


def seed(db_url: str) -> int:
    engine = make_engine(db_url)
    factory = session_factory(engine)
    now = dt.datetime.now(dt.UTC)
    with factory() as s, s.begin():
        hashed = users.hash_password(PASSWORD, harness_settings())
        admin = User(username="admin", password_hash=hashed, role="admin")
        s.add(admin)
        s.flush()
        ids = []
        for n in NAMES:
            u = User(username=n, password_hash=hashed, role="player")
            s.add(u)
            s.flush()
            ledger.issue(s, u.id, 100)
            ids.append(u.id)
        levels = (Level(10, 20, 0, 600), Level(20, 40, 0, 600))
        c = svc.create(s, admin.id, Settings("Concours du crash", now + dt.timedelta(seconds=2), 10, 0, 1000, 3, 2,
                                             10, levels, 0, 5, None), now)
        for uid in ids:
            svc.register(s, c.id, uid, now)
        cid = c.id
    engine.dispose()
    return cid


def snapshot(db_url: str, cid: int) -> dict:
    engine = make_engine(db_url)
    with session_factory(engine)() as s:
        c = s.get(Contest, cid)
        tables = {t.id: sorted((seat.seat_no, seat.user_id, ledger.chips(s, seat.user_id, t.id))
                               for seat in s.scalars(select(Seat).where(Seat.table_id == t.id)))
                  for t in s.scalars(select(TableConfig).where(TableConfig.contest_id == cid,
                                                               TableConfig.status == "open"))}
        hands = list(s.scalars(select(ArchivedHand).where(ArchivedHand.contest_id == cid)))
        out = {"status": c.status, "started_at": c.started_at, "tables": tables,
               "in_progress": [h.id for h in hands if (h.result or {}).get("in_progress")],
               "finished": [h.id for h in hands if not h.voided],
               "voided": [h.id for h in hands if h.voided and "voided" in (h.result or {})],
               "audit": ledger.audit(s).ok}
    engine.dispose()
    return out


def wait_for(what, timeout: float = 30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_sigkill_mid_contest_resumes_and_loses_nothing(db_url, tmp_path):
    cid = seed(db_url)
    srv = LiveServer(db_url, tmp_path)
    srv.start()
    try:
        # The contest starts on time (6 players, 3 seats: two tables), deals begin.
        before = wait_for(lambda: (snap := snapshot(db_url, cid))["in_progress"] and snap)
        assert before["status"] == "running" and len(before["tables"]) == 2
        srv.kill()  # SIGKILL with deals in progress at the contest's tables
        killed = snapshot(db_url, cid)
        assert killed["in_progress"]
        stacks = killed["tables"]
        assert sum(chips for seats in stacks.values() for _, _, chips in seats) == 6 * 1000

        srv.start()
        after = wait_for(lambda: (snap := snapshot(db_url, cid))["voided"] and snap)
        # The interrupted deals are voided; nothing of them reached the ledger.
        assert set(killed["in_progress"]) <= set(after["voided"])
        assert after["audit"]
        # The contest resumes from the database: same tables, same seats and
        # stacks (until its next deal ends), same level clock.
        assert after["status"] == "running" and after["started_at"] == killed["started_at"]
        if after["finished"] == killed["finished"]:
            assert after["tables"] == stacks
        # and its tables deal again
        wait_for(lambda: set(snapshot(db_url, cid)["in_progress"]) - set(killed["in_progress"]))
        with httpx.Client(base_url=srv.base) as c:
            info = c.get(f"/api/contests/{cid}").json()
        assert info["status"] == "running" and info["level"]["number"] == 1 and info["players_left"] == 6
        assert sum(x["chips"] for x in info["standings"]) == 6 * 1000
    finally:
        srv.stop()
