"""A new account can play at once: the house's welcome écus (issue 11, item 1)."""

from __future__ import annotations

import json

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from webtools import PASSWORD, World, api_csrf, login

from tavern.games.base import lay_own
from tavern.services import ledger
from tavern.web.state import services

pytestmark = pytest.mark.db

ORIGIN = {"origin": "http://127.0.0.1:8000"}


def register_api(client: TestClient, name: str) -> int:
    r = client.post("/api/auth/register", json={"username": name, "password": PASSWORD},
                    headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 201, r.text
    return r.json()["user"]["id"]


def open_ramponneau(client: TestClient, world: World) -> int:
    login(client, "owner")
    h = {"X-CSRF-Token": api_csrf(client)}
    tid = world.tavern_id
    item = client.post(f"/api/taverns/{tid}/shop", json={"kind": "deck52"}, headers=h).json()
    client.post(f"/api/taverns/{tid}/inventory", json={"inventory_id": item["id"]}, headers=h)
    r = client.post(f"/api/taverns/{tid}/tables", headers=h,
                    json={"game": "ramponneau", "stakes": {"small_blind": 1, "big_blind": 2}, "seats": 6})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_a_new_account_receives_its_welcome_ecus_from_the_house(app: FastAPI, client: TestClient) -> None:
    """Every new account starts with the house's welcome écus (the setting
    TAVERN_WELCOME_ECUS), booked as a ledger transfer: the audit balances
    and the house's welcome account shows what it gave."""
    grant = services(app).settings.welcome_ecus
    assert grant > 0
    uid = register_api(client, "nadia")
    me = client.get("/api/me").json()
    assert me["ecus"] == grant
    with session_scope() as s:
        assert ledger.balance(s, "user", uid, "ecus") == grant
        assert ledger.balance(s, "house", int(ledger.House.WELCOME), "ecus") == -grant
        assert ledger.audit(s).ok


def test_no_grant_when_the_setting_is_zero(app: FastAPI, client: TestClient) -> None:
    services(app).settings.welcome_ecus = 0
    uid = register_api(client, "olga")
    assert client.get("/api/me").json()["ecus"] == 0
    with session_scope() as s:
        assert ledger.balance(s, "user", uid, "ecus") == 0
        assert ledger.audit(s).ok


def test_two_new_accounts_sit_down_and_are_dealt_in(app: FastAPI, client: TestClient, new_client,
                                                     world: World) -> None:
    """RULES.md, "Cave": a cave is 10 to 100 big blinds. Freshly registered,
    with nothing but their welcome écus, two players buy in at a Ramponneau
    1/2 table and are dealt their cards (a new account's level has free hands)."""
    table_id = open_ramponneau(client, world)
    players = []
    for _i, name in enumerate(("pia", "quentin")):
        c = new_client()
        register_api(c, name)
        players.append(c)
    cave = 200  # the largest cave at 1/2, within 500 welcome écus
    with players[0].websocket_connect(f"/ws/tables/{table_id}", headers=ORIGIN) as a, \
            players[1].websocket_connect(f"/ws/tables/{table_id}", headers=ORIGIN) as b:
        for seat, ws in enumerate((a, b)):
            ws.send_text(json.dumps({"type": "sit", "seat": seat, "cave": cave}))
        dealt = None
        for _ in range(60):  # until a deal is on with pia's two hole cards
            msg = json.loads(a.receive_text())
            deal = (msg.get("table") or {}).get("deal") or msg.get("deal")
            if deal and "own" in msg:  # her own part laid over the public view, as the page does
                deal = lay_own(deal, msg["own"])
            if msg.get("type") == "error":
                pytest.fail(f"refused: {msg}")
            if deal:
                dealt = deal
                break
        assert dealt is not None, "no deal started"
        mine = {p["player"]: p for p in dealt["players"]}
        assert len(mine["pia"]["cards"]) == 2  # her own hole cards
        assert mine["quentin"]["cards"] is None  # never the other's
    me = players[0].get("/api/me").json()
    assert me["ecus"] == services(app).settings.welcome_ecus - cave


def test_a_cave_beyond_the_welcome_is_refused_in_french_without_account_ids(
        app: FastAPI, client: TestClient, new_client, world: World) -> None:
    """A refusal a player meets at the table is French and names no internal
    account (the issue saw "insufficient funds: … (user:6:ecus:-)")."""
    table_id = open_ramponneau(client, world)
    services(app).settings.welcome_ecus = 100
    c = new_client()
    register_api(c, "rosa")
    with c.websocket_connect(f"/ws/tables/{table_id}", headers=ORIGIN) as ws:
        ws.send_text(json.dumps({"type": "sit", "seat": 0, "cave": 200}))
        for _ in range(20):
            msg = json.loads(ws.receive_text())
            if msg.get("type") == "error":
                break
        assert msg["type"] == "error"
        assert msg["code"] == "insufficient_funds"
        assert msg["params"] == {"needed": 200, "available": 100, "currency": "ecus"}
        assert msg["message"] == "Fonds insuffisants : il faut 200 écus, vous n'en avez que 100. Rien n'a été débité."
    assert c.get("/api/me").json()["ecus"] == 100  # nothing debited
