"""CSRF: no state change without the session's token, on forms and on JSON calls."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from tests.dbtools import session_scope
from webtools import PASSWORD, World, api_csrf, csrf_of, login, make_user, page

from tavern.store.models import Inventory, LedgerEntry, PremiumPack, User

pytestmark = pytest.mark.db

REFUSED = "Jeton CSRF absent ou invalide"


def snapshot() -> tuple[int, ...]:
    with session_scope() as s:
        return tuple(s.scalar(select(func.count()).select_from(m)) for m in (LedgerEntry, PremiumPack, Inventory, User))


def test_forms_without_or_with_a_wrong_token_are_refused(client: TestClient, world: World) -> None:
    with session_scope() as s:
        uid = make_user(s, "olive", tokens=50)
    login(client, "admin")
    before = snapshot()
    posts = [
        ("/premium/acheter", {}),
        (f"/admin/utilisateurs/{uid}/crediter", {"amount": "100", "currency": "ecus"}),
        (f"/admin/utilisateurs/{uid}", {"level": "9", "role": "admin"}),
        ("/logout", {}),
    ]
    for url, data in posts:
        for token in (None, "forged-token", ""):
            form = dict(data) if token is None else {**data, "csrf_token": token}
            r = client.post(url, data=form, follow_redirects=False)
            assert r.status_code == 403, (url, token)
            assert REFUSED in page(r) and "<html" in r.text
    assert snapshot() == before
    assert client.get("/api/me").status_code == 200  # the logout was refused too
    users = {u["username"]: u for u in client.get("/api/admin/users").json()}
    assert (users["olive"]["level"], users["olive"]["role"], users["olive"]["ecus"]) == (1, "player", 0)


def test_owner_forms_need_the_token(client: TestClient, world: World) -> None:
    login(client, "owner")
    before = snapshot()
    r = client.post(f"/ma-taverne/{world.tavern_id}/acheter", data={"kind": "deck52"})
    assert r.status_code == 403
    assert snapshot() == before


def test_json_calls_need_the_header(client: TestClient, world: World) -> None:
    with session_scope() as s:
        uid = make_user(s, "pablo", tokens=50)
    login(client, "admin")
    before = snapshot()
    for headers in ({}, {"X-CSRF-Token": "nope"}):
        r = client.post(f"/api/admin/users/{uid}/credit", json={"currency": "ecus", "amount": 5}, headers=headers)
        assert r.status_code == 403 and REFUSED in r.json()["detail"]
        r = client.post("/api/premium/packs", headers=headers)
        assert r.status_code == 403
        r = client.post(f"/api/taverns/{world.tavern_id}/shop", json={"kind": "deck52"}, headers=headers)
        assert r.status_code == 403
    # A form field does not stand in for the header on a JSON call's body.
    r = client.post("/api/premium/packs", json={"csrf_token": api_csrf(client)})
    assert r.status_code == 403
    assert snapshot() == before
    r = client.post(f"/api/admin/users/{uid}/credit", json={"currency": "ecus", "amount": 5},
                    headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 200


def test_another_sessions_token_does_not_work(client: TestClient, world: World, new_client) -> None:
    """The token is tied to the session: an attacker's own token is useless on the victim's."""
    login(client, "admin")
    attacker = new_client()
    login(attacker, "owner")
    stolen = csrf_of(attacker, "/")
    before = snapshot()
    r = client.post(f"/admin/utilisateurs/{world.owner_id}/crediter",
                    data={"amount": "999", "currency": "ecus", "csrf_token": stolen})
    assert r.status_code == 403
    assert snapshot() == before


def test_login_and_register_forms_need_the_token(client: TestClient, world: World) -> None:
    r = client.post("/login", data={"username": "owner", "password": PASSWORD}, follow_redirects=False)
    assert r.status_code == 403 and client.get("/api/me").status_code == 401
    r = client.post("/register", data={"username": "quentin", "password": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 403
    r = client.post("/api/auth/login", json={"username": "owner", "password": PASSWORD})
    assert r.status_code == 403
    assert snapshot()[3] == 2  # only the world's owner and admin exist
