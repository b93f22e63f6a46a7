"""Two-factor sign-in (issue 39 §4): TOTP codes of RFC 6238 computed by
pyotp from the secret the page shows — as an authenticator app does.

"an owner enrols 2FA by reading the QR code's secret, logs out, logs in
with a code; a used code and a wrong code refused" and "a TOTP code
replayed or guessed 20 times — each a French refusal, nothing changed,
never a 5xx" (issue 39, Checks).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

import pyotp
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.dbtools import session_scope
from webtools import PASSWORD, csrf_of, login, page, post_form

from tavern.settings import Settings
from tavern.store.models import RecoveryCode, User
from tavern.web.app import create_app
from tavern.web.state import services


@pytest.fixture
def site(settings: Settings, world) -> Iterator[TestClient]:
    app = create_app(settings.model_copy(update={"totp_required": True}))
    with TestClient(app) as c:
        yield c
    services(c.app).engine.dispose()  # type: ignore[arg-type]


def _secret(html: str) -> str:
    found = re.search(r'id="totp-secret">([A-Z2-7 ]+)<', html)
    assert found, "the page shows the secret beside its QR code"
    return found.group(1).replace(" ", "")


def _code(secret: str, steps_ahead: int = 0) -> str:
    return pyotp.TOTP(secret).at(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=30 * steps_ahead))


def _send_code(client: TestClient, code: str):
    return post_form(client, "/login/code", {"code": code, "next": "/compte"}, page="/login/code?next=/compte")


def _logged_in(client: TestClient) -> bool:
    return client.get("/compte", follow_redirects=False).status_code == 200


def _user(name: str) -> User:
    with session_scope() as s:
        row = s.scalars(select(User).where(User.username == name)).one()
        s.expunge(row)
        return row


def _enrol_owner(client: TestClient) -> tuple[str, list[str]]:
    """The owner signs in, must enrol: reads the secret, gives a first code."""
    r = login(client, "owner")
    assert r.status_code == 303 and r.headers["location"].startswith("/login/code")
    assert not _logged_in(client)  # no session before the code
    shown = client.get("/login/code?next=/compte")
    assert shown.status_code == 200 and "<svg" in shown.text  # the QR code, drawn by segno
    secret = _secret(shown.text)
    uri = re.search(r"otpauth://totp/[^<\s\"]+", shown.text)
    assert uri is not None and pyotp.parse_uri(uri.group(0).replace("&amp;", "&")).secret == secret
    done = _send_code(client, _code(secret))
    assert done.status_code == 200 and "ne seront plus jamais montrés" in page(done)
    codes = re.findall(r"<code>([a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4})</code>", done.text)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert _logged_in(client)
    return secret, codes


def test_an_owner_must_enrol_then_signs_in_with_a_code_and_a_used_code_is_refused(site: TestClient) -> None:
    secret, codes = _enrol_owner(site)
    with session_scope() as s:
        stored = s.scalars(select(RecoveryCode.code_hash)).all()
    assert len(stored) == 10 and not set(c.replace("-", "") for c in codes) & set(stored)  # hashed, never as is
    post_form(site, "/logout", page="/")
    assert login(site, "owner").status_code == 303
    used = _send_code(site, _code(secret))  # the code of the enrolment, its step already used
    assert used.status_code == 400 and "a déjà servi" in page(used) and not _logged_in(site)
    wrong = _send_code(site, "000000" if _code(secret, 1) != "000000" else "111111")
    assert wrong.status_code == 400 and "n'est pas le bon" in page(wrong) and not _logged_in(site)
    ok = _send_code(site, _code(secret, 1))  # the next step's code: the app's next one
    assert ok.status_code == 303 and ok.headers["location"] == "/compte" and _logged_in(site)
    # A recovery code serves once.
    post_form(site, "/logout", page="/")
    login(site, "owner")
    assert _send_code(site, codes[3].upper()).status_code == 303
    post_form(site, "/logout", page="/")
    login(site, "owner")
    again = _send_code(site, codes[3])
    assert again.status_code == 400 and not _logged_in(site)


def test_twenty_guessed_codes_are_refused_in_french_and_then_limited(site: TestClient) -> None:
    secret, _ = _enrol_owner(site)
    post_form(site, "/logout", page="/")
    login(site, "owner")
    right = _code(secret, 1)
    guesses = [f"{n:06d}" for n in range(100000, 100040) if f"{n:06d}" != right][:20]
    answers = [_send_code(site, g) for g in guesses]
    statuses = [a.status_code for a in answers]
    assert statuses[:5] == [400] * 5 and statuses[5:] == [429] * 15
    assert all("Trop de codes faux" in page(a) for a in answers[5:])
    assert not _logged_in(site)
    # Limited: even the right code waits now.
    assert _send_code(site, right).status_code == 429 and not _logged_in(site)


def test_no_code_without_the_password_first(site: TestClient) -> None:
    r = _send_code(site, "123456")
    assert r.status_code == 303 and r.headers["location"] == "/login"
    assert "reconnectez-vous" in page(site.get("/login"))
    assert site.get("/login/code", follow_redirects=False).status_code == 303


def test_a_player_may_enrol_on_his_account_page_and_the_api_then_wants_his_code(site: TestClient) -> None:
    with session_scope() as s:
        from webtools import make_user
        make_user(s, "zoe")
    assert login(site, "zoe").headers["location"] == "/"  # optional for a player: no code asked
    wrong_password = post_form(site, "/compte/double-authentification/commencer", {"password": "pas le bon"},
                               page="/compte/double-authentification")
    assert wrong_password.status_code == 400 and "incorrect" in page(wrong_password)
    started = post_form(site, "/compte/double-authentification/commencer", {"password": PASSWORD},
                        page="/compte/double-authentification")
    secret = _secret(started.text)
    bad = post_form(site, "/compte/double-authentification/activer", {"code": "12345"},
                    page="/compte/double-authentification")
    assert bad.status_code == 400 and _user("zoe").totp_secret is None
    on = post_form(site, "/compte/double-authentification/activer", {"code": _code(secret)},
                   page="/compte/double-authentification")
    assert on.status_code == 200 and _user("zoe").totp_secret == secret
    api = TestClient(site.app)
    token = api.get("/api/auth/session").json()["csrf_token"]
    body = {"username": "zoe", "password": PASSWORD}
    r = api.post("/api/auth/login", json=body, headers={"X-CSRF-Token": token})
    assert r.status_code == 401 and r.json()["code"] == "totp_needed"
    r = api.post("/api/auth/login", json={**body, "code": _code(secret)}, headers={"X-CSRF-Token": token})
    assert r.status_code == 400 and r.json()["code"] == "totp_replayed"
    r = api.post("/api/auth/login", json={**body, "code": _code(secret, 1)}, headers={"X-CSRF-Token": token})
    assert r.status_code == 200 and r.json()["user"]["username"] == "zoe"
    # Off again, with the password and a code (a recovery code here).
    off = post_form(site, "/compte/double-authentification/retirer", {"password": PASSWORD, "code": "zzzz-zzzz-zzzz"},
                    page="/compte/double-authentification")
    assert off.status_code == 400 and _user("zoe").totp_secret == secret


def test_the_api_refuses_an_owner_who_has_not_enrolled(site: TestClient) -> None:
    token = site.get("/api/auth/session").json()["csrf_token"]
    r = site.post("/api/auth/login", json={"username": "owner", "password": PASSWORD},
                  headers={"X-CSRF-Token": token})
    assert r.status_code == 403 and r.json()["code"] == "totp_enrol_first"
    assert site.get("/api/me").status_code == 401


def test_required_2fa_cannot_be_turned_off_by_its_owner(site: TestClient) -> None:
    secret, _ = _enrol_owner(site)
    r = post_form(site, "/compte/double-authentification/retirer", {"password": PASSWORD, "code": _code(secret, 1)},
                  page="/compte/double-authentification")
    assert r.status_code == 400 and "obligatoire" in page(r) and _user("owner").totp_secret == secret


def test_the_seed_enrols_the_demo_admin_and_owner_with_the_secret_it_prints(settings: Settings) -> None:
    from tavern.services.seed import DEMO_TOTP, seed
    with session_scope() as s:
        logins = seed(s, settings.model_copy(update={"totp_required": True}))
    printed = {login.username: login.totp for login in logins if login.totp}
    assert printed == DEMO_TOTP
    assert _user("admin").totp_secret == DEMO_TOTP["admin"]


def test_a_csrf_less_code_post_is_refused(site: TestClient) -> None:
    login(site, "owner")
    csrf_of(site, "/login/code")
    r = site.post("/login/code", data={"code": "123456"}, follow_redirects=False)
    assert r.status_code == 403 and not _logged_in(site)
