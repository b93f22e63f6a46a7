"""A full disk under SQLite (issue 38: "a full disk tells nobody"): a write
that finds no space answers 503 with a French sentence — never a 500 — and
is counted for the operator's alert (tavern_db_disk_full_total, ops/alerts.yml
TavernDiskFull); when space is back, writes succeed again.

The disk is real: a 16 MB tmpfs mounted for the test (root only, as the
fault suite's, bench/bench_faults.py), filled to the last byte by a file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.cluster.scaled import fill_disk
from tests.web.webtools import PASSWORD, csrf_of

from tavern import metrics
from tavern.store import db as store_db
from tavern.web.app import create_app
from tavern.web.state import services

pytestmark = [pytest.mark.db, pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")]


@pytest.fixture
def small_disk(tmp_path: Path):
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_write_on_a_full_disk_is_told_in_french_and_counted(db_url, settings, small_disk) -> None:
    if not db_url.startswith("sqlite"):
        pytest.skip("the SQLite store's own disk")
    path = small_disk / "tavern.db"
    shutil.copyfile(db_url.removeprefix("sqlite:///"), path)
    app = create_app(settings.model_copy(update={"database_url": f"sqlite:///{path}"}))
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            before = metrics.DISK_FULL._value.get()
            filler = fill_disk(small_disk)
            answers = []
            for n in range(40):  # each account written grows the WAL until no space is left
                r = client.post("/register", data={"username": f"joueur{n}", "password": PASSWORD, "password2": PASSWORD,
                                                   "csrf_token": csrf_of(client, "/register")},
                                headers={"Accept": "application/json"}, follow_redirects=False)
                answers.append(r.status_code)
                if r.status_code == 503:
                    break
            assert 500 not in answers, answers
            assert answers[-1] == 503, f"no write failed on the full disk: {answers}"
            assert r.json()["code"] == "store_full"
            assert "manque d'espace disque" in r.json()["message"]
            assert metrics.DISK_FULL._value.get() > before
            filler.unlink()
            r = client.get("/api/auth/session")
            assert r.status_code == 200
    finally:
        services(app).engine.dispose()
        store_db.reset_engines()


def test_a_table_on_a_full_disk_tells_its_players_why_and_deals_once_space_is_back(db_url, small_disk) -> None:
    """The deal's start finds no space: the players are told so in the
    state (``table.store_fault``, worded by the page's status line), the
    start is tried again each second, and once the space is back the table
    deals and the notice is gone. Heads-up, ana all-in from her blind: the
    deal is over as soon as dealt, so only the table's own retry can deal it."""
    import asyncio

    from tests.tables.conftest import Harness, build_world
    from tests.tables.test_store_fault import _until

    if not db_url.startswith("sqlite"):
        pytest.skip("the SQLite store's own disk")
    path = small_disk / "tavern.db"
    shutil.copyfile(db_url.removeprefix("sqlite:///"), path)
    engine = store_db.get_engine(f"sqlite:///{path}")
    try:
        world = build_world(store_db.session_factory(engine), names=("ana", "bob"),
                            stakes={"small_blind": 20, "big_blind": 40}, rake_percent=0)
        h = Harness(world)
        h.bank.sit(world.table_id, world.users["ana"], 0, 20)
        h.bank.sit(world.table_id, world.users["bob"], 1, 200)

        def told() -> list[str | None]:
            return [m["table"].get("store_fault") for m in h.inbox["bob"] if m["type"] == "state"]

        async def scenario() -> list[str | None]:
            filler = fill_disk(small_disk)
            try:
                actor = await h.start()
                await _until(lambda: "disk_full" in told(), "the players told the disk is full")
                assert actor.deals == 0 and actor.last_result is None
            finally:
                filler.unlink()
            await _until(lambda: actor.last_result is not None, "the deal dealt and settled once space was back")
            await actor.stop()
            return told()

        seen = asyncio.run(scenario())
        assert seen[-1] is None, seen  # gone once the store works again
        assert world.chips("ana") + world.chips("bob") == 220
        assert world.audit_ok()
    finally:
        engine.dispose()
        store_db.reset_engines()
