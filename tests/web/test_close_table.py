"""The owner closes a table with players seated, through « Gérer sa taverne »."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from webtools import World, api_csrf, login, make_user, page, post_form

from tavern.services import ledger, seats
from tavern.store.models import Inventory, Seat, TableConfig
from tavern.web.state import services

pytestmark = pytest.mark.db

NAMES = ("ana", "bob", "cid")
CAVE = 200


def open_rummoli(client: TestClient, world: World) -> tuple[int, int]:
    """The owner buys a deck, stores it and opens a Rummoli table: (table id, deck id)."""
    h = {"X-CSRF-Token": api_csrf(client)}
    tid = world.tavern_id
    item = client.post(f"/api/taverns/{tid}/shop", json={"kind": "deck52"}, headers=h).json()
    client.post(f"/api/taverns/{tid}/inventory", json={"inventory_id": item["id"]}, headers=h)
    r = client.post(f"/api/taverns/{tid}/tables", headers=h,
                    json={"game": "rummoli", "stakes": {"unit": 1}, "seats": 6, "options": {"leftover": "cut"}})
    assert r.status_code == 201, r.text
    return r.json()["id"], item["id"]


def seat_players(table_id: int) -> dict[str, int]:
    with session_scope() as s:
        ids = {}
        for i, name in enumerate(NAMES):
            ids[name] = make_user(s, name, ecus=1000)
            seats.sit(s, table_id, ids[name], i, CAVE)
        return ids


def test_owner_closes_a_seated_rummoli_table_through_the_api(
        app: FastAPI, client: TestClient, new_client, world: World) -> None:
    """RULES.md (Rummoli): "The game ends when the players agree (the table
    closes); leftover chips go to the highest card cut or to the best ordinary
    poker hand". The owner's close action ends the game: the board is shared
    out, every player "Ramasser ses gains" (chips back to écus), the deck goes
    back to the inventory. Only the owner may (403 for anybody else)."""
    login(client, "owner")
    table_id, deck_id = open_rummoli(client, world)
    ids = seat_players(table_id)
    board = 0  # no deal played here: tests/tables/test_close.py shares out real boards
    before = {n: CAVE for n in NAMES}

    # A player of the table is not the owner: 403, nothing changes.
    ana = new_client()
    login(ana, "ana")
    r = ana.post(f"/api/taverns/{world.tavern_id}/tables/{table_id}/close",
                 headers={"X-CSRF-Token": api_csrf(ana)})
    assert r.status_code == 403
    r = post_form(ana, f"/ma-taverne/{world.tavern_id}/tables/{table_id}/fermer", page="/compte")
    assert r.status_code == 403
    # Without the CSRF token, not even the owner.
    r = client.post(f"/api/taverns/{world.tavern_id}/tables/{table_id}/close")
    assert r.status_code == 403
    with session_scope() as s:
        assert s.get(TableConfig, table_id).status == "open"
        assert ledger.balance(s, "pot", table_id, "chips", table_id) == board

    r = client.post(f"/api/taverns/{world.tavern_id}/tables/{table_id}/close",
                    headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 204, r.text
    assert table_id not in services(app).tables.actors
    with session_scope() as s:
        assert ledger.balance(s, "pot", table_id, "chips", table_id) == 0
        ecus = {n: ledger.balance(s, "user", ids[n], "ecus") for n in NAMES}
        assert all(ledger.chips(s, ids[n], table_id) == 0 for n in NAMES)
        assert s.query(Seat).filter_by(table_id=table_id).count() == 0
        assert s.get(TableConfig, table_id).status == "closed"
        assert s.get(Inventory, deck_id).table_id is None
        assert ledger.audit(s).ok
    won = {n: ecus[n] - (1000 - CAVE + before[n]) for n in NAMES}
    assert all(v >= 0 for v in won.values()) and sum(won.values()) == board
    state = client.get(f"/api/taverns/{world.tavern_id}").json()
    assert state["tables"] == [] and state["inventory"][0]["table_id"] is None


def test_owner_closes_a_seated_table_from_the_page(client: TestClient, world: World) -> None:
    """RULES.md: "'Ramasser ses gains' converts all the player's chips back to
    écus and leaves the seat" — closing a seated table does it for everybody."""
    login(client, "owner")
    table_id, _ = open_rummoli(client, world)
    ids = seat_players(table_id)
    base = f"/ma-taverne/{world.tavern_id}"
    r = post_form(client, f"{base}/tables/{table_id}/fermer", page=base)
    assert r.status_code == 303 and r.headers["location"] == base
    assert "Table fermée" in page(client.get(base))
    with session_scope() as s:
        assert s.get(TableConfig, table_id).status == "closed"
        assert all(ledger.balance(s, "user", ids[n], "ecus") == 1000 for n in NAMES)
        assert ledger.audit(s).ok
