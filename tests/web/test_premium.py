"""« Accès premium »: packs of 200 hands bought with tokens."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from tests.dbtools import session_scope
from webtools import api_csrf, login, make_user, page, post_form

from tavern.services import ledger
from tavern.store.models import LedgerEntry, PremiumPack

pytestmark = pytest.mark.db


def test_buying_a_pack_debits_tokens_and_credits_hands(client: TestClient, db_url: str) -> None:
    """RULES.md: "Packs of 200 extra hands are bought with tokens in the premium
    page; they never expire; free hands are used before paid ones." """
    with session_scope() as s:
        make_user(s, "gilles", tokens=25)
    login(client, "gilles")
    r = client.get("/premium")
    assert r.status_code == 200
    assert "Acheter 200 mains pour 10 tokens" in page(r)
    before = client.get("/api/premium").json()
    assert before == {"tokens": 25, "free_hands_per_day": 20, "pack_hands": 200, "pack_price_tokens": 10,
                      "hands": {"free_today": 20, "paid": 0, "total": 20}}

    r = post_form(client, "/premium/acheter", page="/premium")
    assert r.status_code == 303
    after = client.get("/api/premium").json()
    assert after["tokens"] == 15 and after["hands"] == {"free_today": 20, "paid": 200, "total": 220}
    assert "Paquet acheté" in page(client.get("/premium"))

    r = client.post("/api/premium/packs", headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 201
    assert r.json()["pack"]["hands_left"] == 200 and r.json()["premium"]["tokens"] == 5
    me = client.get("/api/me").json()
    assert me["tokens"] == 5 and me["hands"]["paid"] == 400
    with session_scope() as s:
        assert ledger.balance(s, "house", int(ledger.House.PREMIUM), "tokens") == 20


def test_pack_refused_without_tokens_and_nothing_changes(client: TestClient, db_url: str) -> None:
    """The ledger refuses a purchase the player cannot pay; no pack, no entry."""
    with session_scope() as s:
        make_user(s, "henri", tokens=9)
    login(client, "henri")

    def state() -> tuple[int, int]:
        with session_scope() as s:
            return (s.scalar(select(func.count()).select_from(LedgerEntry)),
                    s.scalar(select(func.count()).select_from(PremiumPack)))

    before = state()
    r = post_form(client, "/premium/acheter", page="/premium")
    assert r.status_code == 400
    assert "Fonds insuffisants : il faut 10 tokens, vous n'en avez que 9." in page(r)
    r = client.post("/api/premium/packs", headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 400 and "10 tokens" in r.json()["detail"]
    assert state() == before
    assert client.get("/api/premium").json()["tokens"] == 9


def test_account_page_shows_ecus_tokens_and_hands(client: TestClient, db_url: str) -> None:
    """RULES.md: "every player gets 20 free hands a day … Level 0 players get no free hands." """
    with session_scope() as s:
        make_user(s, "ines", ecus=300, tokens=4)
        make_user(s, "bebe", level=0)
    login(client, "ines")
    r = client.get("/compte")
    assert r.status_code == 200
    assert '<b class="money" id="ecus">300</b>' in r.text and '<b class="money" id="tokens">4</b>' in r.text
    assert '<b id="free-hands">20</b>' in r.text
    client.post("/logout", data={"csrf_token": api_csrf(client)})
    login(client, "bebe")
    r = client.get("/compte")
    assert '<b id="free-hands">0</b>' in r.text and "passe ton bac" in r.text
