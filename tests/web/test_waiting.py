"""A full table's waiting list over HTTP and the notices socket (issue 30 §3).

Issue 30 §3: « A full table offers "Liste d'attente": in order of arrival;
when a seat frees, the first in line is offered it for 30 seconds (on any
page of the site he has open), then the next. » Checks: « Bad input: a
waiting-list join for a table one already sits at (or twice, or at a table
with a free seat, or a private table without its invitation, or a practice
table) — a French refusal, nothing changed, never a 5xx. Never-leak: the
notices carry nothing a player should not see. »
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from starlette.websockets import WebSocketDisconnect
from tests.dbtools import session_scope
from webtools import World, api_csrf, login, make_user

from tavern.catalogue import french
from tavern.services import seats, waiting
from tavern.store.models import TableConfig, User, utcnow
from tavern.web import village_feed
from tavern.web.state import services

pytestmark = pytest.mark.db

SEATED = ("ana", "bob")
WAITING = ("gus", "hal")


def two_seat_table(world: World, seats_count: int = 2) -> int:
    """A table of ``seats_count`` seats, ana and bob seated and sitting out
    (no deal starts: a seat frees at once when one leaves)."""
    with session_scope() as s:
        table = TableConfig(tavern_id=world.tavern_id, name="Petite", game="ramponneau", variant="",
                            stakes={"small_blind": 1, "big_blind": 2}, options={}, buy_in_min=20, buy_in_max=200,
                            rake_percent=0, rake_cap=None, no_flop_no_drop=True, seats=seats_count,
                            action_timer_seconds=30, status="open")
        s.add(table)
        s.flush()
        for i, name in enumerate(SEATED):
            uid = make_user(s, name, ecus=1000)
            seats.sit(s, table.id, uid, i, 100)
            seats.set_sitting_out(s, table.id, uid, True)
        for name in (*WAITING, "ivy"):
            make_user(s, name, ecus=1000)
        return table.id


class Players:
    """Every player's cookies, used through the one client whose event loop
    runs the app's table actors (a client not entered as a context manager
    would run each request on a loop of its own)."""

    def __init__(self, client: TestClient, new_client: Callable[[], TestClient], names: tuple[str, ...]) -> None:
        self.client = client
        self.jars: dict[str, dict[str, str]] = {}
        for name in names:
            c = new_client()
            login(c, name)
            self.jars[name] = dict(c.cookies)

    @contextlib.contextmanager
    def of(self, name: str) -> Iterator[TestClient]:
        mine = dict(self.client.cookies)
        self.client.cookies.clear()
        self.client.cookies.update(self.jars[name])
        try:
            yield self.client
        finally:
            self.client.cookies.clear()
            self.client.cookies.update(mine)

    def call(self, name: str, method: str, url: str, *, csrf: bool = True, **kwargs: Any) -> Any:
        with self.of(name) as c:
            headers = {"X-CSRF-Token": api_csrf(c)} if csrf else {}
            return c.request(method, url, headers=headers, **kwargs)


def _origin(client: TestClient) -> str:
    return services(client.app).settings.allowed_origins[0]


def _refused(r: Any, code: str) -> None:
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["code"] == code and body["message"] == french(code, body.get("params") or {})


def _line(client: TestClient, table_id: int) -> list[str]:
    actor = services(client.app).tables.actors[table_id]
    return actor.waiting.names()


@pytest.fixture
def table(world: World) -> int:
    return two_seat_table(world)


@pytest.fixture
def players(client: TestClient, new_client: Callable[[], TestClient], table: int) -> Players:
    return Players(client, new_client, (*SEATED, *WAITING, "ivy"))


def test_join_and_leave_over_http(client: TestClient, players: Players, table: int) -> None:
    url = f"/api/tables/{table}/waiting"
    assert players.call("gus", "POST", url).json() == {"place": 1}
    assert players.call("hal", "POST", url).json() == {"place": 2}
    assert _line(client, table) == ["gus", "hal"]
    assert players.call("gus", "DELETE", url).status_code == 204
    assert _line(client, table) == ["hal"]
    assert players.call("hal", "POST", url.replace("waiting", "offer/pass")).status_code == 400


@pytest.mark.parametrize("who,method,path,code", [
    ("bob", "POST", "waiting", "waiting_seated"),  # a table one already sits at
    ("gus", "POST", "waiting", "waiting_twice"),  # twice
    ("hal", "DELETE", "waiting", "waiting_not_listed"),
    ("gus", "POST", "offer/accept", "no_seat_offered"),
    ("hal", "POST", "offer/pass", "no_seat_offered"),
])
def test_bad_input_is_refused_in_french_and_changes_nothing(client: TestClient, players: Players, table: int,
                                                           who: str, method: str, path: str, code: str) -> None:
    assert players.call("gus", "POST", f"/api/tables/{table}/waiting").status_code == 200
    _refused(players.call(who, method, f"/api/tables/{table}/{path}"), code)
    assert _line(client, table) == ["gus"]


def test_a_table_with_a_free_seat_has_no_list(client: TestClient, new_client, world: World) -> None:
    table = two_seat_table(world, seats_count=3)
    players = Players(client, new_client, ("gus",))
    _refused(players.call("gus", "POST", f"/api/tables/{table}/waiting"), "waiting_seat_free")
    assert _line(client, table) == []


def test_a_private_table_without_its_invitation(client: TestClient, players: Players, table: int) -> None:
    with session_scope() as s:
        s.execute(update(TableConfig).where(TableConfig.id == table).values(private=True))
    r = players.call("gus", "POST", f"/api/tables/{table}/waiting")
    _refused(r, "private_table_needs_invitation")


def test_a_practice_table_has_no_list(client: TestClient, new_client, world: World) -> None:
    with session_scope() as s:
        make_user(s, "novice", ecus=1000)
        make_user(s, "gus", ecus=1000)
    players = Players(client, new_client, ("novice", "gus"))
    with players.of("novice") as c:
        r = c.post("/api/practice", json={"game": "rams", "opponents": 2, "level": "débutant"},
                   headers={"X-CSRF-Token": api_csrf(c)})
        assert r.status_code in (200, 201), r.text
        practice = r.json()["id"]
    _refused(players.call("gus", "POST", f"/api/tables/{practice}/waiting"), "practice_no_waiting")


def test_an_unknown_table_and_a_bad_cave_are_refused_never_a_5xx(client: TestClient, players: Players,
                                                                 table: int) -> None:
    r = players.call("gus", "POST", "/api/tables/999999/waiting")
    assert r.status_code == 404 and r.json()["code"] == "table_closed"
    r = players.call("gus", "POST", f"/api/tables/{table}/offer/accept", json={"cave": -3})
    assert r.status_code == 422 and "message" in r.json()
    r = players.call("gus", "POST", f"/api/tables/{table}/offer/accept", json={"cave": 50, "seat": 1})
    assert r.status_code == 422


def test_the_posts_need_the_csrf_token(client: TestClient, players: Players, table: int) -> None:
    for method, path in (("POST", "waiting"), ("DELETE", "waiting"), ("POST", "offer/accept"),
                         ("POST", "offer/pass")):
        r = players.call("gus", method, f"/api/tables/{table}/{path}", csrf=False)
        assert r.status_code == 403 and r.json()["code"] == "csrf_refused"
    assert table not in services(client.app).tables.actors or _line(client, table) == []


def test_the_api_needs_a_login(client: TestClient, table: int) -> None:
    r = client.post(f"/api/tables/{table}/waiting", headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 401


@contextlib.contextmanager
def notices(players: Players, name: str) -> Iterator[Any]:
    with players.of(name) as c, c.websocket_connect("/ws/notices", headers={"Origin": _origin(c)}) as ws:
        yield ws


def _leave(players: Players, table: int, name: str) -> None:
    with players.of(name) as c, c.websocket_connect(f"/ws/tables/{table}", headers={"Origin": _origin(c)}) as ws:
        ws.send_json({"type": "leave", "id": 1})
        while (msg := ws.receive_json())["type"] not in ("ok", "error"):
            pass
        assert msg["type"] == "ok", msg


def test_the_offer_reaches_the_first_then_the_next_on_the_notice_socket(client: TestClient, players: Players,
                                                                       table: int) -> None:
    """The first in line is offered the freed seat on his notice socket; he
    lets it pass; the next is offered it and takes it with his cave."""
    for name in WAITING:
        assert players.call(name, "POST", f"/api/tables/{table}/waiting").status_code == 200
    with notices(players, "gus") as gus:
        # The page never speaks on this socket: binary, oversized or malformed frames are ignored.
        gus.send_bytes(b"\xff" * 70_000)
        gus.send_text("{" * 1_000)
        _leave(players, table, "ana")
        offer = gus.receive_json()
        assert offer == {"type": "seat_offer", "table_id": table, "table": "Petite", "seat": 0, "seconds": 30.0,
                         "text": "Une place vous attend à la table Petite — 30 s."}
        # ivy, not in line, may not take the seat held for gus.
        with players.of("ivy") as c, c.websocket_connect(f"/ws/tables/{table}",
                                                          headers={"Origin": _origin(c)}) as ws:
            ws.send_json({"type": "sit", "seat": 0, "cave": 50, "id": 7})
            while (msg := ws.receive_json())["type"] not in ("ok", "error"):
                pass
            assert msg["code"] == "seat_held" and msg["message"] == french("seat_held")
        with notices(players, "hal") as hal:
            assert players.call("gus", "POST", f"/api/tables/{table}/offer/pass").status_code == 204
            over = gus.receive_json()
            assert (over["type"], over["why"]) == ("seat_offer_over", "passed")
            offer = hal.receive_json()
            assert (offer["type"], offer["seat"]) == ("seat_offer", 0)
            # Never-leak: nobody else's name, no other table's.
            assert set(offer) == {"type", "table_id", "table", "seat", "seconds", "text"}
            assert "gus" not in str(offer) and "ana" not in str(offer)
            r = players.call("hal", "POST", f"/api/tables/{table}/offer/accept", json={"cave": 50})
            assert r.status_code == 200 and r.json() == {"seat": 0, "chips": 50}
            assert hal.receive_json()["why"] == "seated"
    assert _line(client, table) == []
    with session_scope() as s:
        hal = s.scalar(select(User.id).where(User.username == "hal"))
        assert {x.seat_no: x.user_id for x in seats.seats(s, table)} == {0: hal, 1: s.scalar(
            select(User.id).where(User.username == "bob"))}


def test_the_notice_socket_checks_origin_and_login(client: TestClient, players: Players) -> None:
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws/notices", headers={"Origin": "https://evil.example"}) as ws:
        ws.receive_text()
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws/notices", headers={"Origin": _origin(client)}) as ws:
        ws.receive_text()  # no login: closed


def test_every_page_of_a_player_opens_the_notices(client: TestClient, players: Players) -> None:
    with players.of("gus") as c:
        text = c.get("/").text
        assert 'src="/static/notices.js"' in text and 'id="notices"' in text
    assert 'src="/static/notices.js"' not in client.get("/login").text  # a visitor has none


def test_the_village_summary_shows_each_list_length(client: TestClient, players: Players, table: int) -> None:
    """Issue 30 §4: "The village summary shows each table's waiting list's
    length" — read from the database, the same on every worker."""
    origin = _origin(client)
    for name in WAITING:
        assert players.call(name, "POST", f"/api/tables/{table}/waiting").status_code == 200
    with session_scope() as s:
        rows = orjson.loads(village_feed.summary(s))["tables"]
    assert [table, 2, 2, 2] in rows
    assert players.call("gus", "DELETE", f"/api/tables/{table}/waiting").status_code == 204
    with client.websocket_connect("/ws/village", headers={"Origin": origin}) as ws:
        assert [table, 2, 2, 1] in ws.receive_json()["tables"]
    # The village page has the column the live summary fills, and the JSON
    # API (the page's fallback when its socket is down) the same figure.
    assert f'data-table-waiting="{table}"' in client.get("/").text
    briefs = [t for v in client.get("/api/village").json() for tv in v["taverns"] for t in tv["tables"]]
    assert {t["id"]: t["waiting"] for t in briefs}[table] == 1


def test_a_page_opened_during_the_offer_is_told_too(client: TestClient, players: Players, table: int) -> None:
    """"offered it for 30 seconds (on any page of the site he has open)": a
    page opened after the offer was made shows it, with the seconds left."""
    assert players.call("gus", "POST", f"/api/tables/{table}/waiting").status_code == 200
    _leave(players, table, "ana")
    with notices(players, "gus") as gus:
        offer = gus.receive_json()
        assert (offer["type"], offer["table_id"], offer["seat"]) == ("seat_offer", table, 0)
        assert 25 < offer["seconds"] <= 30
        assert offer["text"] == french("seat_offer_notice", {"table": "Petite", "seconds": round(offer["seconds"])})
    assert players.call("gus", "POST", f"/api/tables/{table}/offer/pass").status_code == 204
    with session_scope() as s:
        gus_id = s.scalar(select(User.id).where(User.username == "gus"))
        assert waiting.offers_to(s, gus_id, utcnow()) == []  # a page opened now is told nothing


def test_the_notice_socket_closes_when_its_session_ends(client: TestClient, players: Players) -> None:
    """A logout ends the page's notices too (close code 4401, as a table's socket):
    an ended session is told nothing more."""
    from tavern.web.wslimits import SESSION_ENDED

    with players.of("gus") as c, c.websocket_connect("/ws/notices", headers={"Origin": _origin(c)}) as ws:
        assert c.post("/api/auth/logout", headers={"X-CSRF-Token": api_csrf(c)}).status_code in (200, 204)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == SESSION_ENDED
