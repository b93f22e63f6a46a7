"""Accounts: register, log in, log out, wrong password, rate limiting, cookie."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from webtools import PASSWORD, api_csrf, csrf_of, login, page, register

from tavern.web.state import services

pytestmark = pytest.mark.db


def test_register_logs_in_and_logout_logs_out(client: TestClient) -> None:
    register(client, "alice")
    me = client.get("/api/me")
    assert me.status_code == 200 and me.json()["user"]["username"] == "alice"
    assert me.json()["user"]["role"] == "player"
    assert "Déconnexion (alice)" in client.get("/").text

    r = client.post("/logout", data={"csrf_token": csrf_of(client, "/")}, follow_redirects=False)
    assert r.status_code == 303
    assert client.get("/api/me").status_code == 401
    assert "Connexion" in client.get("/").text


def test_login_with_right_password_then_wrong_password(client: TestClient, new_client) -> None:
    register(client, "bruno")
    other = new_client()
    r = login(other, "bruno")
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert other.get("/api/me").json()["user"]["username"] == "bruno"

    third = new_client()
    r = login(third, "bruno", "not the password")
    assert r.status_code == 400
    assert "Nom d'utilisateur ou mot de passe incorrect." in page(r)
    assert third.get("/api/me").status_code == 401


def test_register_refuses_taken_name_and_bad_input(client: TestClient, new_client) -> None:
    register(client, "carla")
    other = new_client()
    token = csrf_of(other, "/register")
    r = other.post("/register", data={"username": "Carla", "password": PASSWORD, "password2": PASSWORD,
                                      "csrf_token": token})
    assert r.status_code == 400 and "déjà pris" in page(r)
    r = other.post("/register", data={"username": "x", "password": "short", "password2": "other",
                                      "csrf_token": token})
    assert r.status_code == 400
    assert "3 à 40" in page(r) and "au moins 8" in page(r) and "diffèrent" in page(r)
    assert other.get("/api/me").status_code == 401


def test_api_register_login_logout(client: TestClient) -> None:
    token = api_csrf(client)
    r = client.post("/api/auth/register", json={"username": "dora", "password": PASSWORD},
                    headers={"X-CSRF-Token": token})
    assert r.status_code == 201 and r.json()["user"]["username"] == "dora"
    token = r.json()["csrf_token"]  # a new token after logging in
    r = client.post("/api/auth/logout", headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.json()["user"] is None
    r = client.post("/api/auth/login", json={"username": "dora", "password": "wrong"},
                    headers={"X-CSRF-Token": r.json()["csrf_token"]})
    assert r.status_code == 401 and "incorrect" in r.json()["detail"]


def test_login_rotates_the_csrf_token(client: TestClient) -> None:
    """A token seen before login is worthless afterwards (no session fixation)."""
    register(client, "emile")
    client.post("/logout", data={"csrf_token": csrf_of(client, "/")})
    before = api_csrf(client)
    assert login(client, "emile").status_code == 303
    assert api_csrf(client) != before


def test_failed_logins_are_limited_per_username(client: TestClient, new_client, app) -> None:
    register(client, "fanny")
    attacker = new_client()
    for _ in range(5):
        assert login(attacker, "fanny", "guess").status_code == 400
    r = login(attacker, "fanny", PASSWORD)  # even the right password now waits
    assert r.status_code == 429
    assert "Trop de tentatives" in page(r) and "minute" in page(r)
    assert attacker.get("/api/me").status_code == 401

    r = attacker.post("/api/auth/login", json={"username": "fanny", "password": PASSWORD},
                      headers={"X-CSRF-Token": api_csrf(attacker)})
    assert r.status_code == 429 and "Trop de tentatives" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) > 0

    # Five minutes later the door opens again.
    throttles = services(app).throttles
    real_clock = throttles.clock
    throttles.clock = lambda: real_clock() + 301
    assert login(attacker, "fanny", PASSWORD).status_code == 303


def test_failed_logins_are_limited_per_address(client: TestClient, app) -> None:
    """Guessing across many names from one address is throttled too."""
    register(client, "gaston")
    client.post("/logout", data={"csrf_token": csrf_of(client, "/")})
    for name in ("u1", "u2", "u3", "u4", "u5"):
        assert login(client, name, "guess").status_code == 400
    assert login(client, "gaston").status_code == 429


def test_session_cookie_is_signed_httponly_lax(client: TestClient) -> None:
    r = client.get("/")
    cookie = r.headers["set-cookie"]
    assert "tavern_session=" in cookie
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert "secure" not in cookie.lower()  # plain http in tests
    # A forged cookie is ignored: the visitor is simply not logged in.
    client.cookies.set("tavern_session", '{"u": 1, "c": "x"}')
    assert client.get("/api/me").status_code == 401


def test_session_cookie_is_secure_over_https(app) -> None:
    with TestClient(app, base_url="https://testserver") as c:
        cookie = c.get("/").headers["set-cookie"].lower()
    assert "secure" in cookie


def test_throttle_forgets_expired_keys_when_sprayed(client: TestClient, app) -> None:
    """Guessing thousands of random names must not grow the table without bound."""
    from sqlalchemy import func, select

    from tavern.store.db import read_session
    from tavern.store.models import Throttle

    throttles = services(app).throttles
    now = [1_000_000.0]
    throttles.clock = lambda: now[0]
    for i in range(50):
        throttles.hit((f"login-user:n{i}",), 5, 300)
    now[0] += 301
    throttles.hit(("login-user:last",), 5, 300)
    with read_session(services(app).engine) as s:
        assert s.scalar(select(func.count()).select_from(Throttle)) == 1
    assert throttles.hit(("login-user:n1",), 5, 300) == 0
