"""Issue 30 §2, tables among friends: a private table is reached by an
invitation link that can be revoked; only holders of the link sit;
spectating is the creator's choice; it does not appear in the village for
others. Bad input (a revoked or forged link) gets a French refusal, nothing
changed, never a 5xx."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect
from tests.dbtools import session_scope
from webtools import World, api_csrf, csrf_of, login, make_user, page, post_form

from tavern.catalogue import french
from tavern.services import private_tables, seats
from tavern.services.private_tables import InvitationError
from tavern.store.models import LedgerEntry, Seat, TableConfig, TableGrant
from tavern.web.state import services

pytestmark = pytest.mark.db

LINK = re.compile(r"(http://[^\s<\"]+/invitation/[A-Za-z0-9_-]+)")
FRIENDS = {"game": "rams", "name": "Entre amis", "unit": "1", "seats": "4", "rake_percent": "0",
           "action_timer_seconds": "30", "private": "on"}


def open_private(client: TestClient, world: World, *, spectators: bool = False) -> tuple[int, str]:
    """The owner buys and stores a deck, opens a private Rams table: its id
    and the invitation link the page shows him once."""
    login(client, "owner")
    base = f"/ma-taverne/{world.tavern_id}"
    assert post_form(client, f"{base}/acheter", {"kind": "deck32"}, page=base).status_code == 303
    [deck] = client.get(f"/api/taverns/{world.tavern_id}").json()["inventory"]
    assert post_form(client, f"{base}/entreposer", {"inventory_id": str(deck["id"])}, page=base).status_code == 303
    form = FRIENDS | ({"spectators": "on"} if spectators else {})
    r = post_form(client, f"{base}/tables", form, page=base)
    assert r.status_code == 303, page(r)
    shown = page(client.get(base))
    [link] = LINK.findall(shown)
    assert french("table_opened_private") in shown and french("table_opened") not in shown
    [table] = client.get(f"/api/taverns/{world.tavern_id}").json()["tables"]
    assert table["private"] is True
    return table["id"], link


def as_user(make: Callable[[], TestClient], name: str, ecus: int = 1000) -> TestClient:
    with session_scope() as s:
        make_user(s, name, ecus=ecus)
    c = make()
    login(c, name)
    return c


def accept(c: TestClient, link: str):
    """Open the link as a player does: its page (which writes nothing), then
    its button (a POST with the CSRF token). The button's answer."""
    path = link.replace("http://testserver", "")
    shown = c.get(path)
    assert shown.status_code == 200, page(shown)
    assert f'action="{path}"' in shown.text
    return post_form(c, path, page=path)


def listed_ids(c: TestClient) -> set[int]:
    return {t["id"] for v in c.get("/api/village").json() for tv in v["taverns"] for t in tv["tables"]}


def grants() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(TableGrant)) or 0


def test_link_grants_the_seat_and_the_village_row_to_its_holder_only(
        client: TestClient, new_client: Callable[[], TestClient], world: World) -> None:
    """Issue 30 §2: "it is reached by an invitation link …; only holders of the
    link sit … It does not appear in the village for others"."""
    table_id, link = open_private(client, world)
    assert table_id in listed_ids(client)  # the owner sees his own table
    ana, bob = as_user(new_client, "ana"), as_user(new_client, "bob")
    anonymous = new_client()
    assert table_id not in listed_ids(ana) and table_id not in listed_ids(anonymous)
    assert f"/tables/{table_id}\"" not in ana.get("/").text

    r = accept(ana, link)
    assert r.status_code == 303 and r.headers["location"] == f"/tables/{table_id}"
    assert french("invitation_accepted", {"name": "Entre amis"}) in page(ana.get(r.headers["location"]))
    assert table_id in listed_ids(ana)
    assert table_id not in listed_ids(bob)  # bob never had the link

    with session_scope() as s:
        ana_id = _user_id(s, "ana")
        bob_id = _user_id(s, "bob")
        table = s.get_one(TableConfig, table_id)
        assert private_tables.may_sit(s, table, ana_id) and not private_tables.may_sit(s, table, bob_id)


def _user_id(s: Any, name: str) -> int:
    from tavern.store.models import User
    return s.scalar(select(User.id).where(User.username == name))


def test_sitting_without_the_link_is_refused_in_french_and_changes_nothing(
        client: TestClient, new_client: Callable[[], TestClient], world: World) -> None:
    """The seat is refused by the service every seating path goes through (the
    table socket's ``sit`` reaches it through the bank): no seat, no cave."""
    table_id, _ = open_private(client, world)
    as_user(new_client, "bob")
    with session_scope() as s:
        bob = _user_id(s, "bob")
        before = s.scalar(select(func.count()).select_from(LedgerEntry))
    with pytest.raises(InvitationError) as refused, session_scope() as s:
        seats.sit(s, table_id, bob, 0, 100)
    assert refused.value.code == "private_table_needs_invitation"
    assert str(refused.value) == "Table privée : il faut le lien d'invitation pour s'y asseoir."
    with session_scope() as s:
        assert s.scalar(select(func.count()).select_from(LedgerEntry)) == before
        assert s.scalar(select(func.count()).select_from(Seat)) == 0


@contextlib.contextmanager
def _socket(client: TestClient, who: TestClient, table_id: int) -> Iterator[Any]:
    """A table socket opened by ``who`` (his cookies) through ``client``, the
    client whose event loop runs the app's table actors (a client not entered
    as a context manager opens each socket on a loop of its own)."""
    mine = dict(client.cookies)
    client.cookies.clear()
    client.cookies.update(dict(who.cookies))
    try:
        with client.websocket_connect(f"/ws/tables/{table_id}",
                                      headers={"Origin": services(client.app).settings.allowed_origins[0]}) as ws:
            yield ws
    finally:
        client.cookies.clear()
        client.cookies.update(mine)


def _reply(ws: Any, msg_id: int) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] in ("ok", "error") and msg.get("id") == msg_id:
            return msg


def test_socket_sit_refused_without_grant_and_taken_with_it(
        client: TestClient, new_client: Callable[[], TestClient], world: World) -> None:
    """Over the table socket: a spectator (the owner let them in) who sends
    ``sit`` without the link gets the French refusal; with it he sits."""
    table_id, link = open_private(client, world, spectators=True)
    bob = as_user(new_client, "bob")
    with _socket(client, bob, table_id) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "sit", "id": 1, "seat": 0, "cave": 100})
        answer = _reply(ws, 1)
    assert answer["type"] == "error" and answer["code"] == "private_table_needs_invitation"
    assert answer["message"] == french("private_table_needs_invitation")
    assert bob.get(f"/api/tables/{table_id}").json()["seated"] == []

    accept(bob, link)
    with _socket(client, bob, table_id) as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "sit", "id": 2, "seat": 0, "cave": 100})
        assert _reply(ws, 2)["type"] == "ok"
    assert [s["player"] for s in bob.get(f"/api/tables/{table_id}").json()["seated"]] == ["bob"]


def test_spectating_is_the_creators_choice(
        client: TestClient, new_client: Callable[[], TestClient], world: World) -> None:
    """Without spectators, the page, the API and the socket refuse who has no link, in French."""
    table_id, link = open_private(client, world, spectators=False)
    bob = as_user(new_client, "bob")
    r = bob.get(f"/tables/{table_id}")
    assert r.status_code == 403 and french("private_table_no_spectators") in page(r)
    assert bob.get(f"/api/tables/{table_id}").json()["code"] == "private_table_no_spectators"
    with pytest.raises(WebSocketDisconnect) as closed, _socket(client, bob, table_id) as ws:
        ws.receive_json()
    assert closed.value.reason == french("private_table_no_spectators")
    assert client.get(f"/tables/{table_id}").status_code == 200  # the owner watches his own table

    accept(bob, link)
    assert bob.get(f"/tables/{table_id}").status_code == 200


def test_revoked_and_forged_links_are_refused_in_french_nothing_written(
        client: TestClient, new_client: Callable[[], TestClient], world: World) -> None:
    """Issue 30 checks: "a revoked or forged invitation — a French refusal,
    nothing changed, never a 5xx"; a new link kills the old one."""
    table_id, old = open_private(client, world)
    ana = as_user(new_client, "ana")
    assert accept(ana, old).status_code == 303
    base = f"/ma-taverne/{world.tavern_id}"
    r = post_form(client, f"{base}/tables/{table_id}/invitation", page=base)
    assert r.status_code == 303
    [new] = LINK.findall(page(client.get(base)))
    assert new != old
    assert grants() == 0  # the old link's grants went with it
    assert table_id not in listed_ids(ana)

    bob = as_user(new_client, "bob")
    token = old.rsplit("/", 1)[1]
    for bad in (old.replace("http://testserver", ""), "/invitation/forged-token-123", "/invitation/" + "x" * 500):
        r = bob.get(bad, follow_redirects=False)
        assert r.status_code == 403, bad
        assert french("invitation_invalid") in page(r)
        r = bob.post(bad, data={"csrf_token": csrf_of(bob, "/")}, follow_redirects=False)
        assert r.status_code == 403, bad
        assert french("invitation_invalid") in page(r)
    csrf = api_csrf(bob)
    r = bob.post(f"/api/invitations/{token}", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 403 and r.json()["message"] == french("invitation_invalid")
    assert grants() == 0
    r = bob.post(f"/api/invitations/{new.rsplit('/', 1)[1]}", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.json() == {"table_id": table_id, "name": "Entre amis"}
    assert grants() == 1


def test_only_the_owner_renews_the_link(
        client: TestClient, new_client: Callable[[], TestClient], world: World) -> None:
    """Authorization: another player's renewal is refused, the link still works."""
    table_id, link = open_private(client, world)
    bob = as_user(new_client, "bob")
    r = bob.post(f"/api/taverns/{world.tavern_id}/tables/{table_id}/invitation",
                 headers={"X-CSRF-Token": api_csrf(bob)})
    assert r.status_code == 403
    with session_scope() as s, pytest.raises(InvitationError) as refused:
        private_tables.new_invitation(s, table_id, _user_id(s, "bob"))
    assert refused.value.code == "owner_only_invites"
    assert accept(bob, link).status_code == 303
    r = client.post(f"/api/taverns/{world.tavern_id}/tables/{table_id}/invitation",
                    headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 200 and r.json()["link"] != link


def test_village_feed_carries_public_tables_never_a_private_one(
        client: TestClient, new_client: Callable[[], TestClient], world: World) -> None:
    """Issue 30 checks: "The never-leak tests read … village messages too (a
    private table never appears in another player's village feed)" — the
    feed is the same for every visitor, so a private table is never in it,
    not even for its owner."""
    private_id, _ = open_private(client, world)
    base = f"/ma-taverne/{world.tavern_id}"
    assert post_form(client, f"{base}/acheter", {"kind": "deck32"}, page=base).status_code == 303
    deck = next(d for d in client.get(f"/api/taverns/{world.tavern_id}").json()["inventory"] if d["tavern_id"] is None)
    assert post_form(client, f"{base}/entreposer", {"inventory_id": str(deck["id"])}, page=base).status_code == 303
    public = FRIENDS | {"name": "Publique"}
    del public["private"]
    assert post_form(client, f"{base}/tables", public, page=base).status_code == 303
    public_id = next(t["id"] for t in client.get(f"/api/taverns/{world.tavern_id}").json()["tables"]
                     if not t["private"])
    origin = services(client.app).settings.allowed_origins[0]
    with client.websocket_connect("/ws/village", headers={"Origin": origin}) as ws:
        msg = ws.receive_json()
        # A visitor's frames are never read (binary, oversized, malformed): ignored, no error.
        ws.send_bytes(b"\xff" * 70_000)
        ws.send_text("{" * 1_000)
    with client.websocket_connect("/ws/village", headers={"Origin": origin}) as ws:
        assert ws.receive_json() == msg  # the feed still serves, unchanged
    assert msg["type"] == "village"
    assert [public_id, 0, 4, 0] in msg["tables"]  # (the 4th: its waiting list, empty)
    assert private_id not in {row[0] for row in msg["tables"]}
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws/village", headers={"Origin": "http://evil.example"}) as ws:
        ws.receive_json()


def test_opening_the_link_grants_nothing_only_its_button_does(
        client: TestClient, new_client: Callable[[], TestClient], world: World) -> None:
    """Issue 42 §12: "`/invitation/{token}` grants the seat on a GET (mail
    scanners and link previews open links): grant on a button (POST) of the
    page the link opens"."""
    table_id, link = open_private(client, world)
    ana = as_user(new_client, "ana")
    path = link.replace("http://testserver", "")
    for _ in range(3):  # a scanner, a preview, the player himself
        r = ana.get(path, follow_redirects=False)
        assert r.status_code == 200 and "Entre amis" in page(r)
        assert "Accepter l'invitation" in page(r)
    assert grants() == 0 and table_id not in listed_ids(ana)
    # The button without the session's CSRF token: refused, nothing written.
    r = ana.post(path, data={"csrf_token": "forged"}, follow_redirects=False)
    assert r.status_code == 403 and grants() == 0
    r = post_form(ana, path, page=path)
    assert r.status_code == 303 and r.headers["location"] == f"/tables/{table_id}"
    assert grants() == 1 and table_id in listed_ids(ana)
    assert "déjà invité" in page(ana.get(path))  # the link's page says so, and writes nothing more
    assert grants() == 1
