"""An e-mail address and « Mot de passe oublié » (issue 39 §1-§3), through a
real SMTP server (aiosmtpd) the test starts: the site sends with smtplib
as it would to a provider, and the test reads what the server received.

"Bad input: an expired, reused, forged or other account's reset token; a
reset for an unknown address (same answer, no mail); a hundred resets in a
minute; an address already used; a malformed address … — each a French
refusal, nothing changed, never a 5xx. A mail server down: the ask still
answers at once, the mail goes when it comes back." (issue 39, Checks)
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from mailserver import MailServer, free_port, link_of, parts
from sqlalchemy import select, update
from tests.dbtools import session_scope
from webtools import PASSWORD, csrf_of, login, make_user, page, post_form

from tavern.settings import Settings
from tavern.store.models import AccountToken, OutboxMail, User, WebSession
from tavern.web.app import create_app
from tavern.web.state import services

NEW_PASSWORD = "une toute autre phrase"


@pytest.fixture
def mail_server() -> Iterator[MailServer]:
    server = MailServer().start()
    yield server
    server.stop()


def _client(settings: Settings, smtp_url: str, **more: object) -> TestClient:
    app = create_app(settings.model_copy(update={"smtp_url": smtp_url, "mail_retry_seconds": 0.2,
                                                 "public_url": "https://taverne.example", **more}))
    return TestClient(app, raise_server_exceptions=True)


@pytest.fixture
def site(settings: Settings, mail_server: MailServer) -> Iterator[TestClient]:
    with _client(settings, mail_server.url) as c:
        yield c
    services(c.app).engine.dispose()  # type: ignore[arg-type]


def register(client: TestClient, name: str, address: str = "", password: str = PASSWORD):
    return client.post("/register", data={"username": name, "password": password, "password2": password,
                                          "email": address, "csrf_token": csrf_of(client, "/register")},
                       follow_redirects=False)


def confirm(client: TestClient, link: str):
    shown = client.get(link)
    assert shown.status_code == 200, shown.text
    token = link.partition("jeton=")[2]
    return post_form(client, "/courriel/confirmer", {"jeton": token}, page=link)


def user_row(name: str) -> User:
    with session_scope() as s:
        row = s.scalars(select(User).where(User.username == name)).one()
        s.expunge(row)
        return row


def logout(client: TestClient) -> None:
    post_form(client, "/logout", page="/")


def test_an_address_given_at_sign_up_is_used_once_confirmed_by_the_mailed_link(
        site: TestClient, mail_server: MailServer) -> None:
    r = register(site, "ana", "Ana@Example.org")
    assert r.status_code == 303
    assert user_row("ana").email is None  # not before its confirmation
    (mail,) = mail_server.wait_for(1)
    assert mail["To"] == "ana@example.org" and "La taverne" in mail["From"] and "La taverne" in mail["Subject"]
    text, html = parts(mail)
    assert "Bonjour ana" in text and "confirmer" in text.lower()
    # no tracking: no image, no remote resource, the one link the site's own
    assert "<img" not in html and "src=" not in html and html.count("href=") == 1
    assert "https://taverne.example/courriel/confirmer?jeton=" in text  # the setting, never the Host header
    link = link_of(mail)
    assert page(site.get("/compte")).count("ana@example.org") >= 1  # pending, shown to him
    assert confirm(site, link).status_code == 303
    assert user_row("ana").email == "ana@example.org"
    assert site.get("/api/me").json()["email"] == "ana@example.org"
    # Delivered, the link is nowhere in clear: its token is kept hashed only.
    token = link.partition("jeton=")[2]
    for _ in range(1200):  # the mailer marks it sent just after the server took it (generous: a busy machine)
        with session_scope() as s:
            mails = s.scalars(select(OutboxMail)).all()
            if all(m.sent is not None for m in mails):
                break
        time.sleep(0.05)
    assert mails and all(m.sent is not None and token not in m.text + m.html for m in mails)
    # The link works once.
    again = site.get(link)
    assert again.status_code == 400 and "Ce lien n'est pas valable" in page(again)


def test_an_address_already_used_or_malformed_is_refused_in_french_and_nothing_is_created(
        site: TestClient, mail_server: MailServer, new_client) -> None:
    register(site, "ana", "ana@example.org")
    confirm(site, link_of(mail_server.wait_for(1)[0]))
    other = TestClient(site.app)
    r = register(other, "bob", "ANA@example.org")
    assert r.status_code == 400 and "déjà celle d'un autre compte" in page(r)  # the form, shown again
    for bad in ("pas-une-adresse", "a@b", "a b@example.org", "a@@example.org", "x" * 250 + "@example.org",
                "<ana@example.org>"):
        r = register(other, "bob", bad)
        assert r.status_code == 400 and "n'est pas valable" in page(r), bad
    with session_scope() as s:
        assert s.scalar(select(User).where(User.username == "bob")) is None
    assert len(mail_server.mails) == 1  # nothing more was sent
    # The API says the same, with its code.
    api = TestClient(site.app)
    token = api.get("/api/auth/session").json()["csrf_token"]
    r = api.post("/api/auth/register", json={"username": "bob", "password": PASSWORD, "email": "ana@example.org"},
                 headers={"X-CSRF-Token": token})
    assert r.status_code == 409 and r.json()["code"] == "email_taken"


def test_changing_the_address_needs_the_password_and_tells_the_old_one(
        site: TestClient, mail_server: MailServer) -> None:
    register(site, "ana", "ana@example.org")
    confirm(site, link_of(mail_server.wait_for(1)[0]))
    wrong = post_form(site, "/compte/courriel", {"email": "ana@nouveau.fr", "password": "pas le bon"})
    assert wrong.status_code == 400 and "mot de passe actuel est incorrect" in page(wrong)
    assert post_form(site, "/compte/courriel", {"email": "ana@nouveau.fr", "password": PASSWORD}).status_code == 303
    confirmation = mail_server.wait_for(2)[1]
    assert confirmation["To"] == "ana@nouveau.fr"
    assert user_row("ana").email == "ana@example.org"  # the old one until the new one is confirmed
    confirm(site, link_of(confirmation))
    assert user_row("ana").email == "ana@nouveau.fr"
    told = mail_server.wait_for(3)[2]
    assert told["To"] == "ana@example.org"
    text, _ = parts(told)
    assert "a***@nouveau.fr" in text and "ana@nouveau.fr" not in text


def test_an_address_is_shown_to_its_owner_and_the_admins_only(site: TestClient, mail_server: MailServer,
                                                                world) -> None:
    register(site, "ana", "ana@example.org")
    confirm(site, link_of(mail_server.wait_for(1)[0]))
    other = TestClient(site.app)
    assert "ana@example.org" not in other.get("/joueurs/ana").text
    login(other, "owner")
    assert "ana@example.org" not in other.get("/joueurs/ana").text
    assert other.get("/admin/utilisateurs").status_code == 403
    admin = TestClient(site.app)
    login(admin, "admin")
    assert "ana@example.org" in admin.get("/admin/utilisateurs").text


def _forgot(client: TestClient, who: str):
    return post_form(client, "/mot-de-passe-oublie", {"who": who}, page="/mot-de-passe-oublie")


def test_forgotten_password_sets_a_new_one_once_and_ends_every_session(
        site: TestClient, mail_server: MailServer) -> None:
    register(site, "ana", "ana@example.org")
    confirm(site, link_of(mail_server.wait_for(1)[0]))
    elsewhere = TestClient(site.app)
    assert login(elsewhere, "ana").status_code == 303
    logout(site)
    stranger = _forgot(site, "personne@example.org")
    asked = _forgot(site, "ANA@example.org")
    assert stranger.status_code == asked.status_code == 200
    assert page(stranger) == page(asked)  # the same answer, to the byte
    (reset,) = mail_server.wait_for(2)[1:]
    assert reset["To"] == "ana@example.org" and len(mail_server.mails) == 2  # no mail for the stranger
    link = link_of(reset)
    form = site.get(link)
    assert form.status_code == 200 and "Nouveau mot de passe" in page(form)
    token = link.partition("jeton=")[2]
    done = post_form(site, "/mot-de-passe/nouveau", {"jeton": token, "new": NEW_PASSWORD, "new2": NEW_PASSWORD},
                     page=link)
    assert done.status_code == 303 and done.headers["location"] == "/login"
    with session_scope() as s:
        assert s.scalar(select(WebSession).where(WebSession.user_id == user_row("ana").id)) is None
    assert elsewhere.get("/compte", follow_redirects=False).status_code in (303, 401)  # logged out
    assert login(site, "ana").status_code == 400
    assert login(site, "ana", NEW_PASSWORD).status_code == 303
    # The link served once.
    logout(site)
    again = post_form(site, "/mot-de-passe/nouveau", {"jeton": token, "new": "encore autre chose", "new2":
                                                       "encore autre chose"}, page="/login")
    assert again.status_code == 400 and "Ce lien n'est pas valable" in page(again)
    assert login(site, "ana", NEW_PASSWORD).status_code == 303
    told = mail_server.wait_for(3)[2]
    assert "Votre mot de passe a changé" in told["Subject"]


def _reset_token(site: TestClient, mail_server: MailServer, name: str, count: int) -> str:
    _forgot(site, name)
    return link_of(mail_server.wait_for(count)[count - 1]).partition("jeton=")[2]


def _try(client: TestClient, token: str):
    return post_form(client, "/mot-de-passe/nouveau", {"jeton": token, "new": NEW_PASSWORD, "new2": NEW_PASSWORD},
                     page="/mot-de-passe-oublie")


def test_expired_forged_and_other_accounts_links_change_nothing(site: TestClient, mail_server: MailServer) -> None:
    register(site, "ana", "ana@example.org")
    confirm(site, link_of(mail_server.wait_for(1)[0]))
    bob = TestClient(site.app)
    register(bob, "bob", "bob@example.org")
    confirm(bob, link_of(mail_server.wait_for(2)[1]))
    logout(site)
    hashes = (user_row("ana").password_hash, user_row("bob").password_hash)
    ana_token = _reset_token(site, mail_server, "ana", 3)
    # bob, logged in, uses ana's link: refused
    other = _try(bob, ana_token)
    assert other.status_code == 400 and "celui d'un autre compte" in page(other)
    # forged: a token of the right shape nobody was sent, and garbage
    for forged in (ana_token[:-2] + ("AA" if not ana_token.endswith("AA") else "BB"), "x", "", "é" * 300):
        r = _try(site, forged)
        assert r.status_code == 400 and "Ce lien n'est pas valable" in page(r)
    # expired: an hour passed
    with session_scope() as s:
        s.execute(update(AccountToken).values(expires=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)))
    expired = _try(site, ana_token)
    assert expired.status_code == 400 and "Ce lien n'est pas valable" in page(expired)
    assert site.get(f"/mot-de-passe/nouveau?jeton={ana_token}").status_code == 400
    assert (user_row("ana").password_hash, user_row("bob").password_hash) == hashes


def test_a_hundred_resets_in_a_minute_are_limited_and_never_fail(settings: Settings,
                                                                   mail_server: MailServer) -> None:
    with _client(settings, mail_server.url, resets_per_hour_per_ip=1000) as site:
        register(site, "ana", "ana@example.org")
        confirm(site, link_of(mail_server.wait_for(1)[0]))
        logout(site)
        answers = [_forgot(site, "ana@example.org").status_code for _ in range(100)]
        assert set(answers) <= {200, 429} and answers[:settings.resets_per_hour] == [200] * settings.resets_per_hour
        assert answers.count(429) == 100 - settings.resets_per_hour
        refused = _forgot(site, "ana@example.org")
        assert refused.status_code == 429 and "Trop de demandes" in page(refused)
        # by name: its own count allows the asks, but the account's stops the mails (silently: same answer)
        assert [_forgot(site, "ana").status_code for _ in range(settings.resets_per_hour)] == \
            [200] * settings.resets_per_hour
        with session_scope() as s:
            resets = s.scalars(select(OutboxMail).where(OutboxMail.subject.like("Nouveau mot de passe%"))).all()
        assert len(resets) == settings.resets_per_hour  # per account, whichever way it was named
    services(site.app).engine.dispose()  # type: ignore[arg-type]


def test_resets_are_limited_per_client_address(site: TestClient, settings: Settings) -> None:
    answers = [_forgot(site, f"inconnu{i}@example.org").status_code for i in range(settings.resets_per_hour_per_ip + 1)]
    assert answers == [200] * settings.resets_per_hour_per_ip + [429]


def test_an_unknown_account_gets_the_same_answer_through_the_api(site: TestClient, mail_server: MailServer) -> None:
    token = site.get("/api/auth/session").json()["csrf_token"]
    answers = [site.post("/api/auth/password-reset", json={"who": who}, headers={"X-CSRF-Token": token})
               for who in ("personne@example.org", "personne")]
    assert [a.status_code for a in answers] == [202, 202] and answers[0].json() == answers[1].json()
    with session_scope() as s:
        assert s.scalar(select(OutboxMail)) is None


def test_a_mail_server_down_holds_nobody_up_and_the_mail_goes_when_it_comes_back(settings: Settings) -> None:
    port = free_port()
    down = MailServer(port)  # not started yet: nothing listens on its port
    with _client(settings, down.url) as client:
        r = register(client, "ana", "ana@example.org")
        assert r.status_code == 303  # answered although no server can take the mail
        with session_scope() as s:
            make_user(s, "root", role="admin")
        admin = TestClient(client.app)
        login(admin, "root")
        for _ in range(600):  # the mailer tried and failed: the admins see it (generous: a busy machine)
            with session_scope() as s:
                mail = s.scalars(select(OutboxMail)).one()
                if mail.attempts >= 1:
                    break
            services(client.app).mailer.wake()  # type: ignore[arg-type]
            time.sleep(0.05)
        assert mail.sent is None and mail.last_error
        admin_seen = admin.get("/admin/courriers")
        assert "en échec" in page(admin_seen) and "ConnectionRefusedError" in page(admin_seen)
        down.start()
        try:
            (got,) = down.wait_for(1)
            assert got["To"] == "ana@example.org"
        finally:
            down.stop()
    services(client.app).engine.dispose()  # type: ignore[arg-type]


def test_without_a_server_each_mail_goes_to_the_log_and_the_admins_page(settings: Settings, caplog, world) -> None:
    with _client(settings, "") as client:
        register(client, "ana", "ana@example.org")
        admin = TestClient(client.app)
        login(admin, "admin")
        for _ in range(600):
            with session_scope() as s:
                if s.scalar(select(OutboxMail.sent)) is not None:
                    break
            time.sleep(0.05)
        shown = page(admin.get("/admin/courriers"))
        assert "envoyé" in shown and "https://taverne.example/courriel/confirmer?jeton=" in shown
        assert any("courriel/confirmer?jeton=" in r.getMessage() for r in caplog.records)
        # a player does not read the admins' page
        assert client.get("/admin/courriers").status_code == 403
    services(client.app).engine.dispose()  # type: ignore[arg-type]


def test_a_password_change_and_a_2fa_change_are_told_to_the_address(site: TestClient, mail_server: MailServer) -> None:
    """ASVS 2.2.3 / 2.5.5 (docs/web.md): the owner of the address hears of a change of his credentials."""
    import re

    import pyotp
    register(site, "ana", "ana@example.org")
    confirm(site, link_of(mail_server.wait_for(1)[0]))
    changed = post_form(site, "/compte/mot-de-passe", {"current": PASSWORD, "new": NEW_PASSWORD, "new2": NEW_PASSWORD})
    assert changed.status_code == 303
    told = mail_server.wait_for(2)[1]
    assert told["To"] == "ana@example.org" and "Votre mot de passe a changé" in told["Subject"]
    assert "depuis « Mon compte »" in parts(told)[0]
    started = post_form(site, "/compte/double-authentification/commencer", {"password": NEW_PASSWORD},
                        page="/compte/double-authentification")
    secret = re.search(r'id="totp-secret">([A-Z2-7 ]+)<', started.text).group(1).replace(" ", "")  # type: ignore[union-attr]
    on = post_form(site, "/compte/double-authentification/activer", {"code": pyotp.TOTP(secret).now()},
                   page="/compte/double-authentification")
    assert on.status_code == 200
    totp = mail_server.wait_for(3)[2]
    assert "Votre double authentification a changé" in totp["Subject"] and secret not in parts(totp)[0]
