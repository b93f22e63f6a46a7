"""The JSON API numbers the seats as the table protocol does (issue 33,
item 10; docs/web.md "Seats", docs/protocol.md "Seats").

An outside client sat with ``{"type": "sit", "seat": 3}`` and then read
``seat_no: 4`` from ``GET /api/tables/{id}`` while the socket said
``"seat": 3``. Now every seat a client reads is ``seat``, counted from 0;
``seat_no`` (from 1) is still sent for one release, marked deprecated.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from tests.tables.liveserver import PASSWORD, seed_table
from webtools import World, api_csrf, login, make_user, page

from tavern.store.models import Seat, TableConfig
from tavern.web.state import services

pytestmark = pytest.mark.db

#: A property naming one seat (not a count such as ``seats``, ``seats_taken``).
SEAT_NAME = re.compile(r"(^|_)seat(_no)?($|_)")


def _seat_properties(schema: Any, at: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every property of the OpenAPI document that names one seat, by path."""
    found = []
    if isinstance(schema, dict):
        for name, sub in (schema.get("properties") or {}).items():
            if SEAT_NAME.search(name):
                found.append((f"{at}.{name}", sub))
        for key, sub in schema.items():
            found += _seat_properties(sub, f"{at}.{key}" if at else key)
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            found += _seat_properties(sub, f"{at}[{i}]")
    return found


def test_the_api_schema_has_one_seat_convention(client: TestClient) -> None:
    """Every seat the API documents is ``seat``, counted from 0 as in the
    table protocol; any other name is deprecated."""
    props = _seat_properties(client.get("/openapi.json").json())
    assert props, "the schema names no seat: nothing checked"
    live = [(path, p) for path, p in props if not p.get("deprecated")]
    assert all(path.endswith(".seat") for path, _ in live), [path for path, _ in live]
    assert all("from 0" in p.get("description", "") for _, p in live), live
    assert all("deprecated" in p.get("description", "") for path, p in props if p.get("deprecated")), props


def test_the_api_and_the_socket_give_a_player_the_same_seat(app: FastAPI, client: TestClient, db_url) -> None:
    table_id, _ = seed_table(db_url, ("ana",))
    login(client, "ana", PASSWORD)
    with client.websocket_connect(f"/ws/tables/{table_id}",
                                  headers={"Origin": services(app).settings.allowed_origins[0]}) as ws:
        ws.receive_json()  # the snapshot
        ws.send_json({"type": "sit", "seat": 3, "cave": 100, "id": 1})
        while (msg := ws.receive_json()).get("id") != 1:
            pass
        assert msg["type"] == "ok"
        ws.send_json({"type": "sync"})
        while (state := ws.receive_json())["type"] != "state":
            pass
    on_socket = {p["name"]: p["seat"] for p in state["table"]["players"]}
    assert on_socket == {"ana": 3} and state["you"]["seat"] == 3
    seated = client.get(f"/api/tables/{table_id}").json()["seated"]
    assert [(s["player"], s["seat"]) for s in seated] == [("ana", 3)]
    assert seated[0]["seat_no"] == 4  # the deprecated name, kept for one release: from 1
    # The page's seats before the live table draws them: the same data-seat
    # as the live felt's (static/table.js), shown to people from 1.
    page = client.get(f"/tables/{table_id}").text
    block = re.search(r'data-seat="3">\s*<b>Place (\d+)</b><br>\s*(\w+)', page)
    assert block is not None and block.groups() == ("4", "ana"), page


def test_the_admins_contest_watch_counts_seats_from_0(client: TestClient, world: World) -> None:
    """The watch (``GET /api/admin/contests/{id}``) said a contest table's
    seats from 1, as no other API did; its page still shows « Place » from 1."""
    login(client, "admin")
    body = {"name": "Sièges", "starts_at": (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).isoformat(), "seats": 6}
    contest_id = client.post("/api/admin/contests", json=body, headers={"X-CSRF-Token": api_csrf(client)}).json()["id"]
    with session_scope() as s:  # a running contest's table, ana at its third seat
        ana = make_user(s, "ana")
        table = TableConfig(tavern_id=None, contest_id=contest_id, name="Table 1", game="ramponneau", variant="",
                            stakes={"small_blind": 1, "big_blind": 2}, options={}, buy_in_min=20, buy_in_max=200,
                            rake_percent=0, rake_cap=None, no_flop_no_drop=True, seats=6,
                            action_timer_seconds=30, status="open")
        s.add(table)
        s.flush()
        s.add(Seat(table_id=table.id, seat_no=2, user_id=ana, sitting_out=False, owes_big_blind=False))
    watch = client.get(f"/api/admin/contests/{contest_id}").json()
    assert [(p["name"], p["seat"]) for t in watch["tables"] for p in t["players"]] == [("ana", 2)]
    shown = page(client.get(f"/admin/concours/{contest_id}"))
    assert re.search(r"<tr><td>3</td><td>ana</td>", shown), shown
