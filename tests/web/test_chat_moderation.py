"""The table chat's moderation (issue 30 §1): "a site admin sees reports on an admin page and
can delete a message and mute an account for a period …; the owner can mute at his own
tables"; "The owner chooses per table: chat open, players only, or off". Nobody else may."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.dbtools import session_scope
from webtools import World, api_csrf, login, make_user, page, post_form

from tavern.services import chat, taverns
from tavern.store.models import ChatMessage, ChatMute, TableConfig

pytestmark = pytest.mark.db


def open_table(tavern_id: int, name: str = "t") -> int:
    with session_scope() as s:
        table = TableConfig(tavern_id=tavern_id, name=name, game="rams", variant="", stakes={"unit": 1}, options={},
                            buy_in_min=20, buy_in_max=200, rake_percent=0, seats=5, action_timer_seconds=30,
                            status="open")
        s.add(table)
        s.flush()
        return table.id


@pytest.fixture
def said(world: World):
    """ana and bob; bob said something with markup at a table of the tavern, ana reported it."""
    table_id = open_table(world.tavern_id)
    with session_scope() as s:
        ana, bob = make_user(s, "ana"), make_user(s, "bob")
        line = chat.say(s, table_id, bob, "<b>idiot</b>")
        chat.report(s, table_id, ana, line.id)
    return table_id, ana, bob, line.id


def mutes() -> list[tuple[int, int | None]]:
    with session_scope() as s:
        return [(m.user_id, m.tavern_id) for m in s.scalars(select(ChatMute).order_by(ChatMute.id))]


def deleted(message_id: int) -> bool:
    with session_scope() as s:
        return s.get(ChatMessage, message_id).deleted


def test_a_player_can_neither_delete_nor_mute(client: TestClient, world: World, said) -> None:
    table_id, _ana, _bob, mid = said
    login(client, "ana")
    h = {"X-CSRF-Token": api_csrf(client)}
    assert client.get("/admin/discussion").status_code == 403
    assert client.get("/api/admin/chat/reports").status_code == 403
    assert client.post(f"/api/admin/chat/messages/{mid}/delete", headers=h).status_code == 403
    assert client.post("/api/admin/chat/mutes", json={"username": "bob", "minutes": 60}, headers=h).status_code == 403
    r = post_form(client, f"/admin/discussion/messages/{mid}/supprimer", page="/")
    assert r.status_code == 403
    r = post_form(client, "/admin/discussion/muets", {"username": "bob", "minutes": "60"}, page="/")
    assert r.status_code == 403
    # Nor at a tavern that is not his.
    r = post_form(client, f"/ma-taverne/{world.tavern_id}/discussion/muets", {"username": "bob", "minutes": "5"},
                  page="/")
    assert r.status_code == 403
    assert client.post(f"/api/taverns/{world.tavern_id}/chat/mutes", json={"username": "bob", "minutes": 5},
                       headers=h).status_code == 403
    assert client.put(f"/api/taverns/{world.tavern_id}/tables/{table_id}/chat", json={"chat": "off"},
                      headers=h).status_code == 403
    assert not deleted(mid) and mutes() == []


def test_the_admin_sees_reports_deletes_and_mutes(client: TestClient, world: World, said) -> None:
    table_id, _ana, bob, mid = said
    login(client, "admin")
    r = client.get("/admin/discussion")
    assert r.status_code == 200
    assert "&lt;b&gt;idiot&lt;/b&gt;" in r.text and "<b>idiot</b>" not in r.text  # escaped
    assert "ana" in page(r)
    [rep] = client.get("/api/admin/chat/reports").json()
    assert (rep["message_id"], rep["author"], rep["reporters"]) == (mid, "bob", ["ana"])
    r = post_form(client, f"/admin/discussion/messages/{mid}/supprimer", page="/admin/discussion")
    assert r.status_code == 303 and deleted(mid)
    assert client.get("/api/admin/chat/reports").json() == []
    h = {"X-CSRF-Token": api_csrf(client)}
    for bad in ({"username": "bob", "minutes": 0}, {"username": "bob", "minutes": 10**9}, {"username": ""}):
        assert client.post("/api/admin/chat/mutes", json=bad, headers=h).status_code == 422
    r = client.post("/api/admin/chat/mutes", json={"username": "personne", "minutes": 5}, headers=h)
    assert r.status_code == 404 and r.json()["code"] == "no_such_player"
    r = post_form(client, "/admin/discussion/muets", {"username": "bob", "minutes": "abc"}, page="/admin/discussion")
    assert r.status_code == 400 and "Durée : entre 1 et" in page(r)
    assert mutes() == []
    r = client.post("/api/admin/chat/mutes", json={"username": "bob", "minutes": 30}, headers=h)
    assert r.status_code == 200 and r.json()["tables"] == 1
    assert mutes() == [(bob, None)]
    with session_scope() as s, pytest.raises(chat.ChatError) as exc:
        chat.say(s, table_id, bob, "encore")
    assert exc.value.code == "chat_muted"


def test_the_owner_sets_his_tables_chat_and_mutes_at_his_tables(client: TestClient, world: World, said) -> None:
    table_id, ana, _bob, _mid = said
    login(client, "owner")
    manage = f"/ma-taverne/{world.tavern_id}"
    r = post_form(client, f"{manage}/tables/{table_id}/discussion", {"chat": "players"}, page=manage)
    assert r.status_code == 303
    r = post_form(client, f"{manage}/tables/{table_id}/discussion", {"chat": "<script>"}, page=manage)
    assert r.status_code == 400 and "Réglage de discussion inconnu" in page(r)
    with session_scope() as s:
        assert s.get(TableConfig, table_id).chat == "players"
    r = post_form(client, f"{manage}/discussion/muets", {"username": "ana", "minutes": "15"}, page=manage)
    assert r.status_code == 303
    assert mutes() == [(ana, world.tavern_id)]
    assert 'name="chat"' in client.get(manage).text


def test_the_owner_chooses_the_chat_when_he_opens_a_table(client: TestClient, world: World, settings) -> None:
    with session_scope() as s:
        taverns.buy_item(s, world.owner_id, "deck32", settings)
    with session_scope() as s:
        inv = taverns.inventory(s, world.owner_id)[0]
        taverns.store_item(s, world.owner_id, inv.id, world.tavern_id)
    login(client, "owner")
    h = {"X-CSRF-Token": api_csrf(client)}
    body = {"game": "rams", "name": "Rams", "stakes": {"unit": 1}, "chat": "off"}
    assert client.post(f"/api/taverns/{world.tavern_id}/tables", json={**body, "chat": "tous"}, headers=h).status_code == 422
    manage = f"/ma-taverne/{world.tavern_id}"
    form = {"game": "rams", "name": "Rams", "unit": "1", "rake_percent": "0", "action_timer_seconds": "30"}
    r = post_form(client, f"{manage}/tables", {**form, "chat": "<b>tous</b>"}, page=manage)
    assert r.status_code == 400 and "« Discussion »" in page(r) and "<b>tous</b>" not in r.text
    r = client.post(f"/api/taverns/{world.tavern_id}/tables", json=body, headers=h)
    assert r.status_code == 201 and r.json()["chat"] == "off", r.text
    with session_scope() as s:
        assert s.get(TableConfig, r.json()["id"]).chat == "off"
