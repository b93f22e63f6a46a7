"""Issue 31 §2: « accounts the surveillance report flags can be hidden by an
admin » — from the report's own row, the flagged pair off the boards."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from tests.tables.liveserver import seed_table
from tests.web.test_surveillance_pages import NAMES, _archive_dumping
from webtools import World, login, page, post_form

from tavern.services import stats

pytestmark = pytest.mark.db


def test_an_admin_takes_a_flagged_pair_off_the_boards_from_the_report(client: TestClient, db_url: str,
                                                                       world: World) -> None:
    table_id, _ = seed_table(db_url, NAMES)
    _archive_dumping(table_id)
    with session_scope() as s:  # this week: ana and bruno top the Gin board
        for name, other in (("ana", "h1"), ("bruno", "h2")):
            stats.count_deal(s, {"game": "gin", "seats": [{"player": name, "chips": 9}, {"player": other, "chips": 9}]},
                             {"delta": {name: 50, other: -50}}, ended=dt.datetime.now(dt.UTC))
    login(client, "admin")
    html = page(client.get("/admin/surveillance"))
    row = html[html.index('data-pair="ana+bruno"'):]
    row = row[:row.index("</tr>")]
    assert "Retirer ana des classements" in row and "Retirer bruno des classements" in row
    for name in ("ana", "bruno"):
        done = post_form(client, "/admin/classements", {"username": name, "hidden": "1",
                                                        "next": "/admin/surveillance"}, page="/admin/surveillance")
        assert done.status_code == 303 and done.headers["location"] == "/admin/surveillance"
    assert [r["player"] for r in client.get("/api/leaderboards/gin").json()["rows"]] == ["h1", "h2"]
    # Never an outside address to go back to.
    elsewhere = post_form(client, "/admin/classements", {"username": "ana", "next": "https://ailleurs.example"},
                          page="/admin/surveillance")
    assert elsewhere.headers["location"] == "/classements"
