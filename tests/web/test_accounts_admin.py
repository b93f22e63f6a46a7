"""The admin log, an admin lifting a lost 2FA, and « Mes sessions »
(issue 39 §4-§6).

"every admin action on an account (credit, ban, mute, 2FA lifted …)
written with who, when and why, on a page and in the RGPD export of the
account concerned"; "each session with its browser, coarse place …, when
it started and was last seen; end one, end all others. Sessions end after
an idle time (setting)." (issue 39)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from tests.dbtools import session_scope
from webtools import login, make_user, page, post_form

from tavern.services import twofactor
from tavern.settings import Settings
from tavern.store.models import AdminAction, RecoveryCode, User, WebSession
from tavern.web.app import create_app
from tavern.web.routers.auth import coarse_network
from tavern.web.routers.my_sessions import browser_of
from tavern.web.state import services

FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
CHROME = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/126.0.0.0 Safari/537.36")


@pytest.fixture
def site(settings: Settings, world) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c
    services(c.app).engine.dispose()  # type: ignore[arg-type]


def _uid(name: str) -> int:
    with session_scope() as s:
        return int(s.scalar(select(User.id).where(User.username == name)))


def _admin(site: TestClient) -> TestClient:
    admin = TestClient(site.app)
    assert login(admin, "admin").status_code == 303
    return admin


def test_every_admin_action_on_an_account_is_logged_with_who_and_why(site: TestClient) -> None:
    with session_scope() as s:
        make_user(s, "zoe")
    zoe = _uid("zoe")
    admin = _admin(site)
    page_ = "/admin/utilisateurs"
    assert post_form(admin, f"/admin/utilisateurs/{zoe}/crediter",
                     {"amount": "50", "currency": "ecus", "reason": "geste commercial"}, page=page_).status_code == 303
    assert post_form(admin, f"/admin/utilisateurs/{zoe}", {"level": "3", "role": "player", "reason": "bac réussi"},
                     page=page_).status_code == 303
    assert post_form(admin, f"/admin/utilisateurs/{zoe}/bannir", {"banned": "1", "reason": "triche"},
                     page=page_).status_code == 303
    assert post_form(admin, f"/admin/utilisateurs/{zoe}/bannir", {"banned": "0", "reason": "erreur"},
                     page=page_).status_code == 303
    assert post_form(admin, "/admin/discussion/muets", {"username": "zoe", "minutes": "10", "reason": "insultes"},
                     page="/admin/discussion").status_code == 303
    shown = page(admin.get("/admin/journal"))
    for words in ("crédit", "+50 ecus", "geste commercial", "1 → 3", "bac réussi", "bannissement", "triche",
                  "bannissement levé", "rendu muet", "insultes"):
        assert words in shown, words
    lines = admin.get("/api/admin/log").json()
    assert [line["action"] for line in lines] == ["mute", "unban", "ban", "level", "credit"]
    assert {line["admin"] for line in lines} == {"admin"} and {line["account"] for line in lines} == {"zoe"}
    # In zoe's RGPD export, and nobody but an admin reads the page.
    player = TestClient(site.app)
    login(player, "zoe")
    export = player.get("/api/me/data").json()
    assert [line["reason"] for line in export["admin_log"]] == ["insultes", "erreur", "triche", "bac réussi",
                                                               "geste commercial"]
    assert player.get("/admin/journal").status_code == 403
    assert player.get("/api/admin/log").status_code == 403


def test_an_admin_lifts_a_lost_2fa_with_a_reason_and_it_is_logged(site: TestClient, world) -> None:
    with session_scope() as s:
        owner = s.get(User, world.owner_id)
        assert owner is not None
        twofactor.enrol_with(owner, twofactor.new_secret())
        twofactor.new_recovery_codes(s, world.owner_id)
    lost = TestClient(site.app)
    login(lost, "owner")  # a session from before (the test's settings do not require 2FA of owners)
    admin = _admin(site)
    action = f"/admin/utilisateurs/{world.owner_id}/double-authentification/lever"
    assert "Lever la double authentification" in page(admin.get("/admin/utilisateurs"))
    no_reason = post_form(admin, action, {"reason": "  "}, page="/admin/utilisateurs")
    assert no_reason.status_code == 400 and "Dites pourquoi" in page(no_reason)
    with session_scope() as s:
        assert s.scalar(select(User.totp_secret).where(User.id == world.owner_id)) is not None
    done = post_form(admin, action, {"reason": "pièce d'identité vue au comptoir"}, page="/admin/utilisateurs")
    assert done.status_code == 303
    with session_scope() as s:
        assert s.scalar(select(User.totp_secret).where(User.id == world.owner_id)) is None
        assert s.scalar(select(func.count(RecoveryCode.id))) == 0
        assert s.scalar(select(func.count(WebSession.token_hash)).where(WebSession.user_id == world.owner_id)) == 0
        line = s.scalars(select(AdminAction)).one()
    assert (line.action, line.admin_id, line.user_id) == ("2fa_lifted", world.admin_id, world.owner_id)
    assert line.reason == "pièce d'identité vue au comptoir"
    assert lost.get("/compte", follow_redirects=False).status_code != 200  # his sessions ended
    # The API: an unknown account, an empty reason.
    token = admin.get("/api/auth/session").json()["csrf_token"]
    r = admin.post("/api/admin/users/999999/2fa/lift", json={"reason": "x"}, headers={"X-CSRF-Token": token})
    assert r.status_code == 404
    r = admin.post(f"/api/admin/users/{world.owner_id}/2fa/lift", json={"reason": ""}, headers={"X-CSRF-Token": token})
    assert r.status_code == 422, r.text  # refused before anything is read
    with session_scope() as s:
        assert s.scalar(select(func.count(AdminAction.id))) == 1


def _client(site: TestClient, agent: str) -> TestClient:
    return TestClient(site.app, headers={"User-Agent": agent})


def test_my_sessions_lists_each_browser_and_ends_one_or_all_the_others(site: TestClient) -> None:
    with session_scope() as s:
        make_user(s, "zoe")
        make_user(s, "yann")
    here, there, third = _client(site, FIREFOX), _client(site, CHROME), _client(site, CHROME)
    for c in (here, there, third):
        assert login(c, "zoe").status_code == 303
    listed = here.get("/api/me/sessions").json()
    assert len(listed) == 3 and sum(s["current"] for s in listed) == 1
    assert {s["browser"] for s in listed} == {"Firefox, Linux", "Chrome, Windows"}
    assert all(s["started"] and s["last_seen"] for s in listed)
    shown = page(here.get("/compte/sessions"))
    assert "Firefox, Linux" in shown and "celle-ci" in shown
    # End one (there's), by its name on the page.
    theirs = [s for s in listed if not s["current"]]
    assert post_form(here, f"/compte/sessions/{theirs[0]['id']}/fermer", page="/compte/sessions").status_code == 303
    assert len(here.get("/api/me/sessions").json()) == 2
    # Another account's session, a forged name: refused, nothing ended.
    yann = _client(site, CHROME)
    login(yann, "yann")
    yanns = yann.get("/api/me/sessions").json()[0]["id"]
    for sid in (yanns, "0123456789abcdef", "zzzz"):
        r = post_form(here, f"/compte/sessions/{sid}/fermer", page="/compte/sessions")
        assert r.status_code == 404 and "n'existe pas" in page(r), sid
    assert len(yann.get("/api/me/sessions").json()) == 1 and len(here.get("/api/me/sessions").json()) == 2
    # End all the others: this one stays.
    assert post_form(here, "/compte/sessions/fermer-les-autres", page="/compte/sessions").status_code == 303
    assert [s["current"] for s in here.get("/api/me/sessions").json()] == [True]
    assert there.get("/compte", follow_redirects=False).status_code != 200
    assert third.get("/compte", follow_redirects=False).status_code != 200


def test_a_session_idle_longer_than_the_setting_ends(site: TestClient, settings: Settings) -> None:
    with session_scope() as s:
        make_user(s, "zoe")
    c = _client(site, FIREFOX)
    login(c, "zoe")
    assert c.get("/compte", follow_redirects=False).status_code == 200
    idle = dt.timedelta(hours=settings.session_idle_hours)
    with session_scope() as s:
        s.execute(update(WebSession).values(last_seen=dt.datetime.now(dt.UTC) - idle + dt.timedelta(minutes=5)))
    assert c.get("/compte", follow_redirects=False).status_code == 200  # not yet: and seen now again
    with session_scope() as s:
        s.execute(update(WebSession).values(last_seen=dt.datetime.now(dt.UTC) - idle - dt.timedelta(minutes=1)))
    assert c.get("/compte", follow_redirects=False).status_code != 200


def test_the_network_is_coarse_and_the_browser_a_family() -> None:
    assert coarse_network("203.0.113.77") == "203.0.113.0/24"
    assert coarse_network("2001:db8:1234:5678::1") == "2001:db8:1234::/48"
    assert coarse_network("testclient") == "?"
    assert browser_of(FIREFOX) == "Firefox, Linux" and browser_of(CHROME) == "Chrome, Windows"
    assert browser_of(None) == "?"


def test_the_new_forms_and_calls_need_the_csrf_token(site: TestClient, world) -> None:
    """Every state change of issue 39 refused (403) without the session's token, nothing changed."""
    with session_scope() as s:
        make_user(s, "zoe")
    admin = _admin(site)
    before = _snapshot()
    forms = ["/compte/courriel", "/compte/courriel/retirer", "/courriel/confirmer", "/mot-de-passe-oublie",
             "/mot-de-passe/nouveau", "/login/code", "/compte/double-authentification/commencer",
             "/compte/double-authentification/activer", "/compte/double-authentification/retirer",
             "/compte/sessions/fermer-les-autres", "/compte/sessions/0123456789abcdef/fermer",
             f"/admin/utilisateurs/{world.owner_id}/double-authentification/lever", "/admin/courriers/1/reessayer"]
    for url in forms:
        for token in (None, "forged"):
            data = {"reason": "x", "email": "a@example.org", "password": "x", "who": "zoe"}
            r = admin.post(url, data=data if token is None else {**data, "csrf_token": token}, follow_redirects=False)
            assert r.status_code == 403, (url, token)
    calls = [("put", "/api/me/email"), ("post", "/api/me/email/remove"), ("post", "/api/email/confirm"),
             ("post", "/api/auth/password-reset"), ("post", "/api/auth/password-reset/confirm"),
             ("post", "/api/me/sessions/end-others"), ("delete", "/api/me/sessions/0123456789abcdef"),
             ("post", f"/api/admin/users/{world.owner_id}/2fa/lift"), ("post", "/api/admin/mails/1/retry")]
    for method, url in calls:
        r = admin.request(method, url, json={"reason": "x"}, headers={"X-CSRF-Token": "forged"})
        assert r.status_code == 403, url
    assert _snapshot() == before
    assert admin.get("/api/me").status_code == 200  # still logged in: no session was ended


def _snapshot() -> tuple[int, ...]:
    from tavern.store.models import AccountToken, OutboxMail
    with session_scope() as s:
        return tuple(int(s.scalar(select(func.count()).select_from(m)) or 0)
                     for m in (AdminAction, AccountToken, OutboxMail, WebSession, RecoveryCode))
