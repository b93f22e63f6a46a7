"""Issue 30 §4, "A live village": "The village page updates without
reloading: tables with free seats, players seated, the average pot or the
last deal's size, the waiting list's length, contests opening soon …
Updates pushed (one shared channel, not a socket per table)". Here the last
deal's size and the contests opening soon: in the summary the village
socket pushes (read in one query each for the whole village, never one per
table), on the page and in the JSON API — never a private or a practice
table."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from tests.dbtools import session_scope
from webtools import World, login, make_user, page

from tavern.catalogue import french
from tavern.contest_rules import Level, Settings
from tavern.services import contests as svc
from tavern.store.models import ArchivedHand, Contest, Seat, TableConfig
from tavern.web.state import services
from tavern.web.village_feed import summary

pytestmark = pytest.mark.db

NOW = dt.datetime.now(dt.UTC)
LEVELS = (Level(10, 20, 0, 600), Level(20, 40, 0, 600))


@pytest.fixture(autouse=True)
def _now() -> None:
    """The village reads the clock (the last 15 minutes' deals, the next
    hour's contests): each test's ``NOW`` is its own start, not the suite's
    collection, which can be half an hour earlier in a full run."""
    global NOW
    NOW = dt.datetime.now(dt.UTC)


def _table(tavern_id: int | None, name: str, *, private: bool = False, practice_user: int | None = None) -> int:
    with session_scope() as s:
        table = TableConfig(tavern_id=tavern_id, name=name, game="ramponneau", variant="",
                            stakes={"small_blind": 1, "big_blind": 2}, options={}, buy_in_min=20, buy_in_max=200,
                            rake_percent=0, rake_cap=None, seats=6, status="open", private=private,
                            practice_user_id=practice_user)
        s.add(table)
        s.flush()
        return table.id


def _deal(table_id: int, pot: int, *, ago: float = 60.0, voided: bool = False, practice: bool = False) -> None:
    """A deal archived ``ago`` seconds ago with ``pot`` chips changing hands."""
    with session_scope() as s:
        s.add(ArchivedHand(table_id=table_id, game="ramponneau", ended=NOW - dt.timedelta(seconds=ago),
                           players=["ana", "bob"], pot=pot, rake=0, voided=voided, record={}, result={},
                           practice=practice))


def _contest(admin: int, name: str, starts_in: dt.timedelta, *, max_players: int = 10) -> int:
    settings = Settings(name, NOW + starts_in, 0, 0, 1000, 6, 2, max_players, LEVELS, 1, 30, None)
    with session_scope() as s:
        return svc.create(s, admin, settings, NOW).id


def _register(contest_id: int, *names: str) -> None:
    with session_scope() as s:
        for name in names:
            svc.register(s, contest_id, make_user(s, name, ecus=10), NOW)


def _summary() -> dict[str, Any]:
    with session_scope() as s:
        return orjson.loads(summary(s))


@contextmanager
def _statements(client: TestClient) -> Iterator[list[str]]:
    """The SQL statements run on the app's engine meanwhile."""
    seen: list[str] = []
    engine = services(client.app).engine

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_last_deals_size_in_the_summary_the_api_and_the_page_never_private_nor_practice(
        client: TestClient, world: World) -> None:
    """Issue 30 §4: "the average pot or the last deal's size" — the last
    deal's size (chips that changed hands, docs/web.md), of the public
    tables only: a private table's and a practice table's deals stay out of
    the feed every visitor receives."""
    public, quiet = _table(world.tavern_id, "Publique"), _table(world.tavern_id, "Calme")
    private = _table(world.tavern_id, "Entre amis", private=True)
    practice = _table(None, "Entraînement", practice_user=world.owner_id)
    _deal(public, 40, ago=120)
    _deal(public, 75, ago=30)  # the last one settled
    _deal(public, 0, ago=1, voided=True)  # the deal being played (voided until settled)
    _deal(quiet, 999, ago=3600)  # over an hour ago: no size shown
    _deal(private, 555)
    _deal(practice, 666, practice=True)

    msg = _summary()
    assert msg["pots"] == [[public, 75]]
    assert {row[0] for row in msg["tables"]} == {public, quiet}
    text = orjson.dumps(msg).decode()
    assert "555" not in text and "666" not in text

    [village] = client.get("/api/village").json()
    briefs = {t["id"]: t for tv in village["taverns"] for t in tv["tables"]}
    assert briefs[public]["last_pot"] == 75 and briefs[quiet]["last_pot"] is None
    assert private not in briefs and practice not in briefs
    html = client.get("/").text
    assert f'data-table-pot="{public}">75</td>' in html
    assert f'data-table-pot="{quiet}">—</td>' in html
    login(client, "owner")
    assert client.get(f"/api/tables/{public}").json()["last_pot"] == 75
    assert client.get(f"/api/tables/{private}").json()["last_pot"] == 555  # its owner sees his own table's


def test_contests_opening_soon_in_the_summary_the_api_and_the_page(client: TestClient, world: World) -> None:
    """Issue 30 §4: "contests opening soon" (the brief: registration open or
    starting within the next hour; name, game, start, players registered,
    link). A full contest is listed only within the hour of its start; a
    running one while its late registration is open; a finished or a
    cancelled one never."""
    soon = _contest(world.admin_id, "Concours de midi", dt.timedelta(minutes=30))
    _register(soon, "ana", "bob", "cid")
    later = _contest(world.admin_id, "Concours du soir", dt.timedelta(days=2))
    full = _contest(world.admin_id, "Concours complet", dt.timedelta(days=2), max_players=2)
    _register(full, "dan", "eve")
    full_soon = _contest(world.admin_id, "Complet bientôt", dt.timedelta(minutes=50), max_players=2)
    _register(full_soon, "fay", "gus")
    late = _contest(world.admin_id, "Concours en cours", dt.timedelta(hours=3))
    gone = _contest(world.admin_id, "Concours annulé", dt.timedelta(hours=3))
    with session_scope() as s:
        running = s.get_one(Contest, late)
        running.status, running.started_at = "running", NOW - dt.timedelta(minutes=2)  # level 1 of 2: late open
        svc.cancel(s, gone, "test")

    listed = _summary()["contests"]
    assert [c["id"] for c in listed] == [soon, full_soon, late, later]
    first = listed[0]
    assert first == {"id": soon, "name": "Concours de midi", "game": "ramponneau", "status": "registering",
                     "starts_at": first["starts_at"], "registered": 3, "link": f"/concours/{soon}",
                     "text": first["text"]}
    assert abs(dt.datetime.fromisoformat(first["starts_at"]) - (NOW + dt.timedelta(minutes=30))) < dt.timedelta(seconds=1)
    assert first["text"].startswith("Ramponneau, début le ") and first["text"].endswith(" (3 inscrits)")
    assert listed[2]["text"] == french("village_contest_late", {"game": "ramponneau", "entered": 0})

    assert client.get("/api/village/contests").json() == listed
    html = page(client.get("/"))
    assert f'<a href="/concours/{soon}">Concours de midi</a>' in html and first["text"] in html
    assert "Concours complet" not in html and "Concours annulé" not in html

    with session_scope() as s:  # late registration closed (level 2 reached): no longer listed
        s.get_one(Contest, late).started_at = NOW - dt.timedelta(minutes=11)
    assert late not in [c["id"] for c in _summary()["contests"]]


def test_one_query_per_refresh_whatever_the_number_of_tables(client: TestClient, world: World) -> None:
    """The brief: "read cheaply (one query per refresh for all tables, not
    one per table)": the sizes are one statement on the archive, the
    contests one on the contests, with one table as with seven."""
    _contest(world.admin_id, "Concours de midi", dt.timedelta(minutes=30))
    first = _table(world.tavern_id, "t0")
    _deal(first, 10)

    def refresh() -> list[str]:
        with _statements(client) as seen, services(client.app).read_sessions() as s:
            summary(s)
        return seen

    one = refresh()
    for n in range(6):
        tid = _table(world.tavern_id, f"t{n + 1}")
        _deal(tid, 20 + n)
        with session_scope() as s:
            s.add(Seat(table_id=tid, user_id=world.owner_id, seat_no=0))
    seven = refresh()
    assert len(_summary()["pots"]) == 7
    assert len(seven) == len(one)
    assert sum("archived_hands" in q for q in seven) == 1
    assert sum("FROM contests" in q for q in seven) == 1
