"""Contests on the web: the admin creates (form and API), cancels; players
register, unregister; refusals are clear and change nothing (issue 13)."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from webtools import World, api_csrf, login, make_user, page, post_form

from tavern.bounds import MAX_AMOUNT, MAX_COUNT
from tavern.services import ledger

pytestmark = pytest.mark.db

PARIS = ZoneInfo("Europe/Paris")


def _form(**kw: str) -> dict[str, str]:
    start = (dt.datetime.now(PARIS) + dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S")
    base = {"name": "Concours du dimanche", "starts_at": start, "fee": "50", "house_prize": "100",
            "starting_chips": "3000", "seats": "6", "min_players": "2", "max_players": "3",
            "structure": "10/20 10\n20/40 10\n40/80/10 10", "late_levels": "0", "action_timer": "30",
            "payouts": "défaut"}
    return {**base, **kw}


def _balance(uid: int, owner: str = "user", currency: str = "ecus") -> int:
    with session_scope() as s:
        return ledger.balance(s, owner, uid, currency)


def test_admin_creates_players_register_unregister_cancel(client: TestClient, world: World, new_client) -> None:
    """"Create a contest … Cancel a contest before it starts: every entry fee
    returned (ledger)"; "Register / unregister before the start (the fee is
    escrowed in the contest's ledger account; unregistering returns it)"."""
    with session_scope() as s:
        ana, bob, cid_, dan = (make_user(s, n, ecus=e) for n, e in (("ana", 500), ("bob", 500), ("cid", 500),
                                                                     ("dan", 10)))
    login(client, "admin")
    form_page = page(client.get("/admin/concours"))
    assert "10/20 10" in form_page and "Lancer un concours" in form_page  # the default structure offered
    r = post_form(client, "/admin/concours", _form(), page="/admin/concours")
    assert r.status_code == 303, r.text
    contest_id = int(re.search(r"/admin/concours/(\d+)", r.headers["location"]).group(1))
    assert _balance(contest_id, "contest") == 100  # the house's prize, from the house
    players = {}
    for name in ("ana", "bob", "cid", "dan"):
        c = new_client()
        login(c, name)
        players[name] = c
    assert "Concours du dimanche" in page(players["ana"].get("/concours"))
    for name in ("ana", "bob"):
        r = post_form(players[name], f"/concours/{contest_id}/inscription", page=f"/concours/{contest_id}")
        assert r.status_code == 303
    assert _balance(ana) == 450 and _balance(contest_id, "contest") == 200
    # Refused clearly, nothing changes: already registered, no funds, full.
    again = page(players["ana"].get(post_form(players["ana"], f"/concours/{contest_id}/inscription",
                                              page=f"/concours/{contest_id}").headers["location"]))
    assert "déjà inscrit" in again
    poor = page(players["dan"].get(post_form(players["dan"], f"/concours/{contest_id}/inscription",
                                             page=f"/concours/{contest_id}").headers["location"]))
    assert "Fonds insuffisants" in poor and _balance(dan) == 10
    post_form(players["cid"], f"/concours/{contest_id}/inscription", page=f"/concours/{contest_id}")
    r = players["dan"].post(f"/api/contests/{contest_id}/register", headers={"X-CSRF-Token": api_csrf(players["dan"])})
    assert r.status_code == 400 and "complet" in r.json()["detail"]
    # Unregistering gives the fee back.
    r = players["bob"].post(f"/api/contests/{contest_id}/unregister", headers={"X-CSRF-Token": api_csrf(players["bob"])})
    assert r.status_code == 204 and _balance(bob) == 500
    info = client.get(f"/api/contests/{contest_id}").json()
    assert info["registered"] == 2 and info["prize_pool"] == 200 and info["payouts"] == [100]
    # A player may not cancel; the admin may, and every fee comes back.
    r = players["ana"].post(f"/api/admin/contests/{contest_id}/cancel",
                            headers={"X-CSRF-Token": api_csrf(players["ana"])})
    assert r.status_code == 403
    r = post_form(client, f"/admin/concours/{contest_id}/annuler", page=f"/admin/concours/{contest_id}")
    assert r.status_code == 303
    assert _balance(ana) == 500 and _balance(cid_) == 500 and _balance(contest_id, "contest") == 0
    assert client.get(f"/api/contests/{contest_id}").json()["status"] == "cancelled"
    with session_scope() as s:
        assert ledger.audit(s).ok


@pytest.mark.parametrize(("change", "message"), [
    ({"payouts": "50, 30"}, "pas 100 %"),
    ({"structure": "10/20 10\n10/20 10"}, "doivent augmenter"),
    ({"starts_at": "2001-01-01T10:00:00"}, "déjà passée"),
    ({"structure": "beaucoup"}, "Ligne 1"),
    ({"fee": "dix"}, "nombre entier"),
])
def test_bad_settings_are_refused_with_a_clear_message(client: TestClient, world: World, change: dict,
                                                        message: str) -> None:
    """"Refuse what cannot work with a clear message (payouts not summing to 100 %,
    levels not increasing, start in the past, …)"."""
    login(client, "admin")
    r = post_form(client, "/admin/concours", _form(**change), page="/admin/concours")
    assert r.status_code == 400 and message in page(r)
    assert client.get("/api/contests").json() == []


def test_admin_api_and_only_admins(client: TestClient, world: World) -> None:
    with session_scope() as s:
        make_user(s, "eve", ecus=100)
    login(client, "eve")
    body = {"name": "API", "starts_at": (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).isoformat(),
            "seats": 6}
    r = client.post("/api/admin/contests", json=body, headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 403
    assert client.get("/admin/concours").status_code == 403
    login(client, "admin")
    r = client.post("/api/admin/contests", json=body, headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 201
    watch = client.get(f"/api/admin/contests/{r.json()['id']}").json()
    assert watch["status"] == "registering" and len(watch["structure"]) == 20 and watch["tables"] == []
    r = client.post("/api/admin/contests", json={**body, "payouts": [60, 30]},
                    headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 400 and "90 %" in r.json()["detail"]


HUGE = 2**63  # one past PostgreSQL's BIGINT and SQLite's INTEGER: OverflowError in the store


@pytest.mark.parametrize(("change", "field"), [
    ({"fee": HUGE}, "fee"),
    ({"house_prize": HUGE}, "house_prize"),
    ({"starting_chips": HUGE}, "starting_chips"),
    ({"structure": [{"small_blind": 10, "big_blind": HUGE, "seconds": 600}]}, "structure.0.big_blind"),
    ({"structure": [{"small_blind": HUGE, "big_blind": HUGE, "seconds": 600}]}, "structure.0.small_blind"),
    ({"structure": [{"small_blind": 10, "big_blind": 20, "ante": HUGE, "seconds": 600}]}, "structure.0.ante"),
    ({"structure": [{"small_blind": 10, "big_blind": 20, "seconds": HUGE}]}, "structure.0.seconds"),
    ({"seats": HUGE}, "seats"),
    ({"payouts": [HUGE, 100 - HUGE]}, "payouts.0"),
])
def test_api_refuses_numbers_past_the_bounds_in_french(client: TestClient, world: World, change: dict,
                                                        field: str) -> None:
    """Issue 33 §6: ``POST /api/admin/contests`` answered 500 with a fee,
    prize, starting chips, blinds or level length of 2⁶³ (``OverflowError``
    from the store). docs/web.md: "amounts beyond 10¹² are refused at the
    door" — in French, naming the field, nothing stored."""
    login(client, "admin")
    body = {"name": "API", "starts_at": (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).isoformat(), **change}
    r = client.post("/api/admin/contests", json=body, headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 422, r.text
    problem = next(p for p in r.json()["params"]["problems"] if p["params"]["field"] == field)
    bound = MAX_COUNT if field in ("seats", "payouts.0") or field.endswith("seconds") else MAX_AMOUNT
    assert problem["code"] == "less_than_equal" and problem["params"]["le"] == bound
    assert problem["message"].endswith(f" : au plus {bound}."), problem
    assert client.get("/api/contests").json() == []


@pytest.mark.parametrize(("change", "message"), [
    ({"fee": str(HUGE)}, "« Droit d'entrée » : au plus 1000000000000."),
    ({"house_prize": str(HUGE)}, "« Prix de la maison » : au plus 1000000000000."),
    ({"starting_chips": str(HUGE)}, "« Jetons de départ » : au plus 1000000000000."),
    ({"structure": f"10/{HUGE} 10"}, "Niveau 1 : les blindes et l'ante valent au plus 1000000000000."),
    ({"structure": f"10/20/{HUGE} 10"}, "Niveau 1 : les blindes et l'ante valent au plus 1000000000000."),
    ({"structure": f"10/20 {HUGE}"}, "Niveau 1 : un niveau dure au plus 1000000 secondes."),
    ({"structure": "10/20 inf"}, "Ligne 1 de la structure"),  # round(inf) overflowed
    ({"seats": str(HUGE)}, "Une table de ramponneau a de 2 à 10 places."),
    ({"late_levels": str(HUGE)}, "L'inscription tardive va au plus"),
    # Taken, its Paris time (year 10000) overflowed: every contest page answered 500.
    ({"starts_at": "9999-12-31T23:30:00"}, "Un concours commence au plus 366 jours à l'avance."),
])
def test_form_refuses_numbers_past_the_bounds_in_french(client: TestClient, world: World, change: dict,
                                                         message: str) -> None:
    """Issue 33 §6: the admin form ``/admin/concours`` answered 500 with 2⁶³
    in a fee, a prize, the starting chips, a blind or a level's length."""
    login(client, "admin")
    r = post_form(client, "/admin/concours", _form(**change), page="/admin/concours")
    assert r.status_code == 400 and message in page(r), page(r)[:2000]
    assert client.get("/api/contests").json() == []


def test_a_start_in_year_9999_is_refused_and_the_pages_stay_up(client: TestClient, world: World) -> None:
    """Found with issue 33 §6: a contest starting at the end of year 9999 was
    stored, then ``/concours`` and ``/api/contests`` pages answered 500 (its
    time in Europe/Paris is past ``datetime.max``)."""
    login(client, "admin")
    body = {"name": "Loin", "starts_at": "9999-12-31T23:30:00+00:00"}
    r = client.post("/api/admin/contests", json=body, headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 400 and r.json()["code"] == "contest_start_too_far", r.text
    assert client.get("/concours").status_code == 200 and client.get("/api/contests").json() == []
