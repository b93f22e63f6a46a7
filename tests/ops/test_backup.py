"""Issue 32 §3: ``tavern backup PATH`` while the server runs, ``tavern
restore PATH`` refused while a server uses the store; "after a restore the
ledger audit balances and no deal is left in progress (those of the backup's
moment are voided and refunded as at a restart)"."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select
from tests.tables.liveserver import ROOT, LiveServer, seed_table
from tests.tables.test_ws import open_client

from tavern.cli import main
from tavern.services import ledger
from tavern.settings import get_settings
from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand

pytestmark = [pytest.mark.db]


def _tavern(*args: str, data_dir: Path, db_url: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TAVERN_DATABASE_URL"}
    env["TAVERN_DATA_DIR"] = str(data_dir)
    if db_url:
        env["TAVERN_DATABASE_URL"] = db_url
    return subprocess.run([sys.executable, "-m", "tavern.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


async def _mid_deal(srv: LiveServer) -> None:
    """Three players sit; the first deal starts and somebody raises: chips in the pot."""
    clients = {n: await open_client(srv, n) for n in ("ana", "bob", "cid")}
    for seat, c in enumerate(clients.values()):
        assert (await c.send(type="sit", seat=seat, cave=150))["type"] == "ok"
    a = clients["ana"]
    await a.recv_until(lambda m: m["type"] == "state" and bool(m["deal"]) and m["deal"]["phase"] == "bet")
    for _ in range(10):  # a newer view may overtake the one acted on: look again
        st = a.state
        c = clients[st["deal"]["to_act"]]
        await c.state_at_least(st["seq"])
        raise_ = next(x for x in c.state["you"]["legal"] if x["action"] == "raise")
        r = await c.send(type="act", action="raise", args={"amount": raise_["min"]}, seq=c.state["seq"])
        if r["type"] == "ok":
            return
        await a.state_at_least(st["seq"] + 1)
    raise AssertionError("no raise went through")


@pytest.mark.slow
def test_backup_during_play_restores_balanced_with_no_deal_in_progress(db_url, postgres_url, tmp_path) -> None:
    if postgres_url:
        pytest.skip("SQLite's online backup; PostgreSQL is backed up with pg_dump (docs/operations.md)")
    srv = LiveServer(db_url, tmp_path)
    table_id, ids = seed_table(db_url, ("ana", "bob", "cid"))
    srv.table_id = table_id  # type: ignore[attr-defined]  # as tests/tables/test_crash.py: open_client reads it
    srv.start()
    copy = tmp_path / "backups" / "tavern-backup.db"
    try:
        asyncio.run(_mid_deal(srv))
        out = _tavern("backup", str(copy), data_dir=tmp_path, db_url=db_url)
        assert out.returncode == 0, out.stderr
        assert "donnes en cours à cet instant : 1" in out.stdout, out.stdout
        # The backup holds the deal as it was: in progress (taken during play).
        con = sqlite3.connect(copy)
        assert con.execute("SELECT count(*) FROM archived_hands WHERE json_extract(result, '$.in_progress')"
                           ).fetchone() == (1,)
        con.close()

        # The same store while its server runs: refused, nothing touched.
        before = Path(db_url.removeprefix("sqlite:///")).stat().st_ino
        refused = _tavern("restore", str(copy), data_dir=tmp_path, db_url=db_url)
        assert refused.returncode == 1 and "un serveur utilise cette base" in refused.stderr, refused
        assert Path(db_url.removeprefix("sqlite:///")).stat().st_ino == before
        assert not list(tmp_path.glob("*.before-restore-*"))
    finally:
        srv.stop()

    fresh = tmp_path / "fresh"
    out = _tavern("restore", str(copy), data_dir=fresh, db_url=None)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "annulées et remboursées : 1" in out.stdout and "équilibré" in out.stdout, out.stdout
    engine = make_engine(f"sqlite:///{fresh / 'tavern.db'}")
    try:
        with session_factory(engine)() as s:
            deals = list(s.scalars(select(ArchivedHand)))
            assert deals and not [h for h in deals if (h.result or {}).get("in_progress")]
            voided = [h for h in deals if h.voided and "voided" in (h.result or {})]
            assert len(voided) == 1 and voided[0].rake == 0
            for uid in ids.values():  # refunded: the whole cave is back on the table's books
                assert ledger.chips(s, uid, table_id) == 150
            audit = ledger.audit(s)
            assert audit.ok, audit
    finally:
        engine.dispose()


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path, capsys, monkeypatch) -> None:
    # A SQLite store whatever the run's database (the PostgreSQL stage's store is restored with pg_restore).
    monkeypatch.setenv("TAVERN_DATABASE_URL", f"sqlite:///{tmp_path / 'tavern.db'}")
    bogus = tmp_path / "notes.txt"
    bogus.write_text("pas une base")
    get_settings.cache_clear()
    assert main(["restore", str(bogus)]) == 2
    err = capsys.readouterr().err
    assert "Restauration refusée" in err and "SQLite" in err


def test_backup_refuses_to_overwrite_and_postgres_is_told_how(tmp_path, capsys, monkeypatch) -> None:
    store = tmp_path / "tavern.db"  # a SQLite store, whatever the run's database
    sqlite3.connect(store).close()
    monkeypatch.setenv("TAVERN_DATABASE_URL", f"sqlite:///{store}")
    existing = tmp_path / "already.db"
    existing.write_text("x")
    get_settings.cache_clear()
    assert main(["backup", str(existing)]) == 2
    assert "existe déjà" in capsys.readouterr().err and existing.read_text() == "x"
    monkeypatch.setenv("TAVERN_DATABASE_URL", "postgresql://tavern:tavern@127.0.0.1:1/tavern")
    get_settings.cache_clear()
    try:
        assert main(["backup", str(tmp_path / "x.db")]) == 2
        assert "pg_dump" in capsys.readouterr().err
    finally:
        get_settings.cache_clear()


@pytest.mark.parametrize("where", ["under_a_file", "unwritable"])
def test_backup_to_an_unusable_place_is_one_french_line(where, tmp_path, capsys, monkeypatch) -> None:
    """Issue 38 §3: "`tavern backup` ends in a traceback on an unusable target
    (a path under a regular file: FileExistsError; an unwritable place:
    sqlite3.OperationalError) — one French line and exit 2"."""
    store = tmp_path / "tavern.db"
    sqlite3.connect(store).close()
    monkeypatch.setenv("TAVERN_DATABASE_URL", f"sqlite:///{store}")
    (tmp_path / "notes.txt").write_text("x")
    # /proc takes no new file, even from root (the tests may run as root).
    target = tmp_path / "notes.txt" / "sub" / "b.db" if where == "under_a_file" else Path("/proc/tavern-backup.db")
    get_settings.cache_clear()
    try:
        assert main(["backup", str(target)]) == 2
    finally:
        get_settings.cache_clear()
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Sauvegarde refusée : impossible d'écrire"), out.err
    assert "Traceback" not in out.err and out.out == ""
    assert not target.exists() and not target.with_name(target.name + ".part").exists()
