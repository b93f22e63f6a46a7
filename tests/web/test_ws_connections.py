"""Issue 12 §4 and §11: table WebSockets are capped per account and per
address, with a close code the client can read; a player's sockets all
count, however opened."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.tables.liveserver import PASSWORD, seed_table
from webtools import login

from tavern.web.state import services
from tavern.web.wslimits import TOO_MANY_CONNECTIONS

pytestmark = pytest.mark.db


@pytest.fixture
def table(db_url: str) -> tuple[int, dict[str, int]]:
    return seed_table(db_url, ("ana", "bob"))


def _connect(client: TestClient, table_id: int) -> Any:
    return client.websocket_connect(f"/ws/tables/{table_id}",
                                    headers={"Origin": services(client.app).settings.allowed_origins[0]})


def _state(ws: Any) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] == "state":
            return msg


def _reply(ws: Any, msg_id: int) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] in ("ok", "error") and msg.get("id") == msg_id:
            return msg


def _connected(client: TestClient, table_id: int, cookies: dict[str, str], name: str) -> bool:
    """Whether ``name`` shows connected in the snapshot a new socket opened
    with ``cookies`` receives first (a fresh one, never a queued broadcast)."""
    mine = dict(client.cookies)
    client.cookies.clear()
    client.cookies.update(cookies)
    try:
        with _connect(client, table_id) as ws:
            state = ws.receive_json()
    finally:
        client.cookies.clear()
        client.cookies.update(mine)
    assert state["type"] == "state"
    return next(p for p in state["table"]["players"] if p["name"] == name)["connected"]


def _sockets_settle(app: FastAPI, user_id: int, count: int) -> None:
    """Wait until the server has counted a closed socket out (its slot is
    given back after the table processed the disconnection)."""
    for _ in range(500):
        if services(app).ws_limits.accounts.get(user_id, 0) == count:
            return
        time.sleep(0.01)
    raise AssertionError(f"user {user_id} still has {services(app).ws_limits.accounts.get(user_id)} sockets")


def test_sockets_are_capped_per_account_with_a_clear_close_code(app: FastAPI, client: TestClient,
                                                                 table) -> None:
    """Issue 12 §4: "one account opened 800" and starved every other visitor."""
    table_id, _ = table
    services(app).ws_limits.per_account = 3
    login(client, "ana", PASSWORD)
    with ExitStack() as stack:
        for _ in range(3):
            _state(stack.enter_context(_connect(client, table_id)))
        with pytest.raises(WebSocketDisconnect) as closed:
            with _connect(client, table_id) as extra:
                extra.receive_json()
        assert closed.value.code == TOO_MANY_CONNECTIONS == 4429
    # The sockets closed: their places came back.
    with _connect(client, table_id) as ws:
        assert _state(ws)["type"] == "state"
    assert services(app).ws_limits.accounts == {}


# A socket keeps the identity of the cookie it opened with: one test client
# (whose event loop runs the tables) logs in as one player, then another.


def test_sockets_are_capped_per_address(app: FastAPI, client: TestClient, table) -> None:
    table_id, _ = table
    services(app).ws_limits.per_address = 2
    login(client, "ana", PASSWORD)
    with _connect(client, table_id) as a:
        _state(a)
        login(client, "bob", PASSWORD)
        with _connect(client, table_id) as b:
            _state(b)
            with pytest.raises(WebSocketDisconnect) as closed:
                with _connect(client, table_id) as extra:
                    extra.receive_json()
            assert closed.value.code == TOO_MANY_CONNECTIONS


def test_a_socket_opened_before_sitting_keeps_the_player_connected(app: FastAPI, client: TestClient,
                                                                   table) -> None:
    """Issue 12 §11: a second socket opened before he sat was not counted;
    when the one he sat from closed he showed disconnected (and lost his
    time bank) though another was open."""
    table_id, ids = table
    login(client, "bob", PASSWORD)
    bob = dict(client.cookies)
    with _connect(client, table_id) as watcher:
        _state(watcher)
        login(client, "ana", PASSWORD)
        with _connect(client, table_id) as second:
            _state(second)
            with _connect(client, table_id) as first:
                _state(first)
                first.send_json({"type": "sit", "seat": 0, "cave": 200, "id": 1})
                assert _reply(first, 1)["type"] == "ok"
            # The socket he sat from is closed; the other one is still open.
            _sockets_settle(app, ids["ana"], 1)
            assert _connected(client, table_id, bob, "ana") is True
        # Now no socket of his is open.
        _sockets_settle(app, ids["ana"], 0)
        assert _connected(client, table_id, bob, "ana") is False


@pytest.mark.parametrize("how", ["logout", "everywhere", "password", "ban"])
def test_an_ended_session_closes_its_open_table_sockets(settings, app: FastAPI, client: TestClient, new_client,
                                                        table, how: str) -> None:
    """Issue 12 §2: logout, log out everywhere, a password change and a ban
    end the sessions "at once" — the table sockets opened with them too
    (close code 4401), not only the cookie."""
    from tests.dbtools import session_scope
    from webtools import api_csrf

    from tavern.services import users as users_service
    from tavern.web.wslimits import SESSION_ENDED

    table_id, ids = table
    if how == "ban":
        with session_scope() as s:
            users_service.create_user(s, "chef", PASSWORD, role="admin", settings=settings)
    login(client, "ana", PASSWORD)
    with _connect(client, table_id) as ws:
        _state(ws)
        h = {"X-CSRF-Token": api_csrf(client)}
        if how == "logout":
            client.post("/api/auth/logout", headers=h)
        elif how == "everywhere":
            client.post("/api/auth/logout-everywhere", headers=h)
        elif how == "password":
            # Another browser changes the password: this socket's session ends.
            other = new_client()
            login(other, "ana", PASSWORD)
            r = other.post("/api/me/password", json={"current": PASSWORD, "new": "une autre phrase"},
                           headers={"X-CSRF-Token": api_csrf(other)})
            assert r.status_code == 200
        else:
            admin = new_client()
            login(admin, "chef", PASSWORD)
            r = admin.post(f"/api/admin/users/{ids['ana']}/ban", json={"banned": True},
                           headers={"X-CSRF-Token": api_csrf(admin)})
            assert r.status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):
                ws.receive_json()
        assert closed.value.code == SESSION_ENDED == 4401
