"""Issue 41 §3: "`/ws/village` and every other push socket capped per
address and per account like the table sockets (settings, documented); the
cap's refusal is a close with a reason, tested." — one address held 300
village sockets on default settings, where table sockets stop at 64."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.dbtools import session_scope
from webtools import login, make_user

from tavern.catalogue import french
from tavern.settings import Settings
from tavern.web.state import services
from tavern.web.wslimits import TOO_MANY_CONNECTIONS

pytestmark = pytest.mark.db


def _open(client: TestClient, path: str) -> Any:
    return client.websocket_connect(path, headers={"Origin": services(client.app).settings.allowed_origins[0]})


def test_the_caps_are_settings_apart_from_the_table_sockets() -> None:
    defaults = Settings()
    assert (defaults.push_per_account, defaults.push_per_address) == (16, 64)
    assert Settings(push_per_address=300).push_per_address == 300


def test_village_sockets_are_capped_per_address_with_a_reason(app: FastAPI, client: TestClient) -> None:
    """A visitor needs no account: his address alone bounds him."""
    services(app).push_limits.per_address = 3
    with ExitStack() as stack:
        for _ in range(3):
            ws = stack.enter_context(_open(client, "/ws/village"))
            assert ws.receive_json()["type"] == "village"
        with pytest.raises(WebSocketDisconnect) as closed, _open(client, "/ws/village") as extra:
            extra.receive_json()
        assert closed.value.code == TOO_MANY_CONNECTIONS == 4429
        assert closed.value.reason == french("ws_too_many_connections")
        # The table sockets' counts are not spent on them.
        assert services(app).ws_limits.addresses == {}
    # Closed, their places came back: a visitor opens the village again.
    with _open(client, "/ws/village") as ws:
        assert ws.receive_json()["type"] == "village"
    assert services(app).push_limits.addresses == {}


def test_push_sockets_are_capped_per_account_across_village_and_notices(app: FastAPI, client: TestClient) -> None:
    with session_scope() as s:
        make_user(s, "ana")
    login(client, "ana")
    services(app).push_limits.per_account = 2
    with _open(client, "/ws/village") as village, _open(client, "/ws/notices"):
        assert village.receive_json()["type"] == "village"
        for path in ("/ws/notices", "/ws/village"):
            with pytest.raises(WebSocketDisconnect) as closed, _open(client, path) as extra:
                extra.receive_json()
            assert closed.value.code == TOO_MANY_CONNECTIONS
    assert services(app).push_limits.accounts == {}
