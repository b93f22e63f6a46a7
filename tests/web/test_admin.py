"""Administration: users (level, role, credits), the money audit, and who may see them."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from webtools import World, api_csrf, login, make_user, page, post_form

from tavern.services import ledger
from tavern.store.models import LedgerEntry
from tavern.web.state import services

pytestmark = pytest.mark.db


def test_admin_changes_level_and_role(client: TestClient, world: World) -> None:
    with session_scope() as s:
        uid = make_user(s, "julie")
    login(client, "admin")
    r = post_form(client, f"/admin/utilisateurs/{uid}", {"level": "3", "role": "admin"}, page="/admin/utilisateurs")
    assert r.status_code == 303
    users = {u["username"]: u for u in client.get("/api/admin/users").json()}
    assert (users["julie"]["level"], users["julie"]["role"]) == (3, "admin")
    r = client.patch(f"/api/admin/users/{uid}", json={"role": "player", "level": 0},
                     headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 200 and (r.json()["role"], r.json()["level"]) == ("player", 0)


def test_admin_credits_are_ledger_entries(client: TestClient, world: World) -> None:
    """ARCHITECTURE.md: "Every movement of écus, tokens or chips is a ledger entry"."""
    with session_scope() as s:
        uid = make_user(s, "karim")
    login(client, "admin")
    r = post_form(client, f"/admin/utilisateurs/{uid}/crediter", {"amount": "500", "currency": "ecus"},
                  page="/admin/utilisateurs")
    assert r.status_code == 303
    r = client.post(f"/api/admin/users/{uid}/credit", json={"currency": "tokens", "amount": 30},
                    headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 200 and (r.json()["ecus"], r.json()["tokens"]) == (500, 30)
    with session_scope() as s:
        entries = s.query(LedgerEntry).filter(LedgerEntry.reason == "issue",
                                              LedgerEntry.reference == f"admin:{world.admin_id}").all()
        assert sorted((e.currency, e.amount) for e in entries) == [("ecus", 500), ("tokens", 30)]
        assert ledger.balance(s, "user", uid, "ecus") == 500


def test_admin_refuses_bad_input_and_changes_nothing(client: TestClient, world: World) -> None:
    with session_scope() as s:
        uid = make_user(s, "lea")
    login(client, "admin")
    h = {"X-CSRF-Token": api_csrf(client)}
    for form in ({"amount": "-5", "currency": "ecus"}, {"amount": "abc", "currency": "ecus"},
                 {"amount": "5", "currency": "chips"}):
        r = post_form(client, f"/admin/utilisateurs/{uid}/crediter", form, page="/admin/utilisateurs")
        assert r.status_code == 400 and "flash error" in r.text, form
    assert client.post(f"/api/admin/users/{uid}/credit", json={"currency": "ecus", "amount": 0},
                       headers=h).status_code == 422
    assert client.post("/api/admin/users/999999/credit", json={"currency": "ecus", "amount": 5},
                       headers=h).status_code == 404
    r = post_form(client, f"/admin/utilisateurs/{uid}", {"level": "-1", "role": "player"}, page="/admin/utilisateurs")
    assert r.status_code == 400
    r = post_form(client, f"/admin/utilisateurs/{world.admin_id}", {"role": "player"}, page="/admin/utilisateurs")
    assert r.status_code == 400 and "propre rôle" in page(r)
    users = {u["username"]: u for u in client.get("/api/admin/users").json()}
    assert (users["lea"]["ecus"], users["lea"]["level"], users["admin"]["role"]) == (0, 1, "admin")


def test_admin_pages_are_forbidden_to_players(client: TestClient, world: World) -> None:
    with session_scope() as s:
        uid = make_user(s, "malo")
    assert client.get("/admin/utilisateurs", follow_redirects=False).status_code == 303  # visitor → login
    assert client.get("/api/admin/users").status_code == 401
    login(client, "malo")
    for path in ("/admin/utilisateurs", "/admin/audit"):
        r = client.get(path)
        assert r.status_code == 403 and "Réservé aux administrateurs" in page(r)
    assert client.get("/api/admin/audit").status_code == 403
    r = post_form(client, f"/admin/utilisateurs/{uid}/crediter", {"amount": "1000", "currency": "ecus"}, page="/")
    assert r.status_code == 403
    r = client.patch(f"/api/admin/users/{uid}", json={"role": "admin"}, headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 403
    assert client.get("/api/me").json()["ecus"] == 0 and client.get("/api/me").json()["user"]["role"] == "player"
    assert 'href="/admin/utilisateurs"' not in client.get("/").text


def test_audit_is_ok_after_a_day_in_the_village(client: TestClient, world: World, new_client) -> None:
    """ARCHITECTURE.md: "Money never appears or disappears … At any moment the sum
    over all accounts is what the house issued; a check that recomputes this
    belongs in the test suite and in an admin page." """
    admin = client
    login(admin, "admin")
    with session_scope() as s:
        pid = make_user(s, "nina")
    post_form(admin, f"/admin/utilisateurs/{pid}/crediter", {"amount": "40", "currency": "tokens"}, page="/admin/utilisateurs")
    post_form(admin, f"/admin/utilisateurs/{world.owner_id}/crediter", {"amount": "250", "currency": "ecus"}, page="/admin/utilisateurs")

    player = new_client()
    login(player, "nina")
    post_form(player, "/premium/acheter", page="/premium")
    post_form(player, "/premium/acheter", page="/premium")

    owner = new_client()
    login(owner, "owner")
    base = f"/ma-taverne/{world.tavern_id}"
    post_form(owner, f"{base}/acheter", {"kind": "deck52"}, page=base)
    post_form(owner, f"{base}/acheter", {"kind": "deck32"}, page=base)
    inv = owner.get(f"/api/taverns/{world.tavern_id}").json()["inventory"]
    for item in inv:
        post_form(owner, f"{base}/entreposer", {"inventory_id": str(item["id"])}, page=base)
    post_form(owner, f"{base}/tables", {"game": "rams", "name": "Rams", "unit": "1", "seats": "5"}, page=base)
    assert post_form(owner, f"{base}/acheter", {"kind": "deck52"}, page=base).status_code == 303

    r = admin.get("/admin/audit")
    assert r.status_code == 200
    assert re.search(r'id="audit-status">OK<', r.text)
    audit = admin.get("/api/admin/audit").json()
    assert audit["ok"] is True and all(v == 0 for v in audit["totals"].values())
    # The house issued 1000 + 250 écus and 40 tokens and took back what the
    # shop and the premium desk sold: the rest is exactly what people hold.
    settings = services(client.app).settings
    spent = 2 * settings.price_deck52_ecus + settings.price_deck32_ecus
    assert audit["issued"]["ecus"] == 1250 - spent
    assert audit["issued"]["tokens"] == 40 - 2 * settings.pack_price_tokens
    assert audit["held"] == audit["issued"]


def test_admin_entrusts_a_tavern_which_its_owner_then_manages(client: TestClient, world: World,
                                                              new_client) -> None:
    """RULES.md: "A village lists its taverns. A tavern has an owner." """
    with session_scope() as s:
        make_user(s, "octave", ecus=500)
    login(client, "admin")
    r = post_form(client, "/admin/tavernes", {"village": "Bourg", "owner": "octave", "name": "Le Chat Noir"},
                  page="/admin/tavernes")
    assert r.status_code == 303
    r = client.post("/api/admin/taverns", json={"village": "Hameau", "owner": "octave", "name": "La Pie"},
                    headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 201
    village = {v["name"]: [t["name"] for t in v["taverns"]] for v in client.get("/api/village").json()}
    assert sorted(village["Bourg"]) == ["Au Lapin Agile", "Le Chat Noir"] and village["Hameau"] == ["La Pie"]

    # Refusals: unknown owner, same name twice in a village; nothing is created.
    r = post_form(client, "/admin/tavernes", {"village": "Bourg", "owner": "personne", "name": "X"},
                  page="/admin/tavernes")
    assert r.status_code == 400 and "personne" in page(r)
    r = post_form(client, "/admin/tavernes", {"village": "Bourg", "owner": "octave", "name": "Le Chat Noir"},
                  page="/admin/tavernes")
    assert r.status_code == 400
    r = post_form(client, "/admin/tavernes", {"village": "", "owner": "octave", "name": ""}, page="/admin/tavernes")
    assert r.status_code == 400
    assert sum(len(v["taverns"]) for v in client.get("/api/village").json()) == 3

    owner = new_client()
    login(owner, "octave")
    assert len(owner.get("/api/taverns/mine").json()) == 2
    assert "Le Chat Noir" in page(owner.get("/ma-taverne"))
    assert owner.get("/admin/tavernes").status_code == 403
