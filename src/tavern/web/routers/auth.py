"""Accounts: register, log in, log out (pages and JSON)."""

from __future__ import annotations

import datetime as dt
import ipaddress
import logging
import time
from dataclasses import dataclass
from urllib.parse import quote

from fastapi import Depends, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.refusal import Refusal
from tavern.services import accounts, ledger, passwords, twofactor
from tavern.services import users as users_service
from tavern.store.models import User
from tavern.web.deps import CurrentUser, client_ip, optional_user, require_user, site_settings, write
from tavern.web.ratelimit import (
    LOGIN_LIMIT,
    LOGIN_WINDOW,
    SIGNUP_WINDOW,
    Throttles,
    login_keys,
    signup_key,
)
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.routing import api_router, page_router
from tavern.web.session import end_all_sessions, end_session, get_session, open_session
from tavern.web.state import services

pages = page_router()
api = api_router("/api/auth", "comptes")
log = logging.getLogger("tavern.auth")

USERNAME_RULE = french("username_rule")
PASSWORD_RULE = french("password_short", {"minimum": passwords.MIN_LENGTH})
#: Why a password is refused (tavern.services.passwords' reasons), said by the catalogue.
PASSWORD_RULES = {
    passwords.TOO_SHORT: PASSWORD_RULE,
    passwords.TOO_LONG: french("password_long", {"maximum": passwords.MAX_LENGTH}),
    passwords.COMMON: french("password_common"),
    passwords.NAME: french("password_has_name"),
}
MAX_PASSWORD = passwords.MAX_LENGTH


class UserOut(BaseModel):
    id: int
    username: str
    role: str
    level: int


class SessionOut(BaseModel):
    user: UserOut | None
    csrf_token: str


class Credentials(BaseModel):
    username: str = Field(max_length=40)
    password: str = Field(max_length=MAX_PASSWORD)


class Login(Credentials):
    code: str | None = Field(None, max_length=40, description="the authenticator app's code (or a recovery "
                                                                "code), for an account with two-factor sign-in")


class Registration(Credentials):
    email: str | None = Field(None, max_length=accounts.MAX_EMAIL,
                              description="optional: a confirmation link is sent to it; "
                                          "it serves to set a new password if the old one is forgotten")


def user_out(user: User | CurrentUser) -> UserOut:
    return UserOut(id=user.id, username=user.username, role=user.role, level=user.level)


def too_many(wait: int, code: str = "too_many_logins") -> HTTPException:
    minutes = max(1, (wait + 59) // 60)
    return Refused(429, Refusal(code, minutes=minutes), headers={"Retry-After": str(wait)})


@dataclass(frozen=True)
class _Account:
    user: CurrentUser
    password_hash: str
    banned: bool


def _find(request: Request, username: str) -> _Account | None:
    with services(request).read_sessions() as s:
        row = users_service.find_by_username(s, username)
        return _Account(CurrentUser.of(row), row.password_hash, row.banned) if row else None


def check_current_password(request: Request, user: CurrentUser, password: str) -> None:
    """A logged-in player's own password, asked before a change to his account:
    a wrong one is a 400 « mot de passe actuel » refusal (not the login's 401),
    a throttled one the login's 429."""
    try:
        check_password(request, user.username, password)
    except HTTPException as exc:
        if exc.status_code == 401:
            raise Refused(400, Refusal("wrong_current_password")) from None
        raise


def check_password(request: Request, username: str, password: str) -> _Account:
    """The account if ``password`` is its own; else 401 (or 429 when throttled).

    The attempt is counted first, atomically and for every process, and only
    then is the hash checked — outside any transaction: Argon2 is slow on
    purpose and must hold neither a connection nor the write lock."""
    throttles: Throttles = services(request).throttles
    user_key, ip_key = login_keys(username, client_ip(request))
    wait = throttles.hit((user_key, ip_key), LOGIN_LIMIT, LOGIN_WINDOW)
    if wait:
        raise too_many(wait)
    account = _find(request, username) if username and password else None
    if account is None:
        users_service.verify_password(users_service.dummy_hash(site_settings(request)), password)  # same time as a real one
        raise Refused(401, Refusal("bad_credentials"))
    if not users_service.verify_password(account.password_hash, password):
        raise Refused(401, Refusal("bad_credentials"))
    # The right password: this attempt was no guess.
    throttles.forgive(user_key)
    throttles.give_back(ip_key)
    if account.banned:
        raise Refused(403, Refusal("account_banned"))
    return account


def start_session(request: Request, user: CurrentUser, new_hash: str | None = None) -> None:
    """Open a server-side session for ``user`` and put it in the cookie,
    with the browser and the coarse network it comes from (« Mes sessions »)."""
    agent, network = request.headers.get("user-agent", ""), coarse_network(client_ip(request))

    def work(s: Session) -> str:
        if new_hash:
            row = s.get(User, user.id)
            if row is not None:
                row.password_hash = new_hash
        return open_session(s, user.id, agent, network)
    token = write(request, work)
    get_session(request).login(user.id, token)
    request.state.user = user


def attempt_login(request: Request, username: str, password: str,
                  wait_for_code: bool = True) -> tuple[CurrentUser, str]:
    """Check the password (rate-limited), or raise 401/403/429; then log the
    session in (``none``), or leave it waiting for the second factor:
    ``code`` (enrolled) or ``enrol`` (2FA required of him, not yet enrolled).
    ``wait_for_code`` false (the API, which takes both at once): nothing waits."""
    account = check_password(request, username, password)
    settings = site_settings(request)
    rehash = (users_service.hash_password(password, settings)
              if users_service.needs_rehash(account.password_hash, settings) else None)
    with services(request).read_sessions() as db:
        second = twofactor.second_factor(db, account.user.id, settings.totp_required)
    if second == "none":
        start_session(request, account.user, rehash)
    else:
        if rehash:
            write(request, lambda s: users_service.set_password_hash(s, account.user.id, rehash))
        if wait_for_code:
            get_session(request).await_code(account.user.id, int(time.time()))
    return account.user, second


CODE_LIMIT, CODE_WINDOW = 5, 300


def check_code(request: Request, user_id: int, code: str) -> str:
    """The second factor of ``user_id``: a TOTP code not used before, or a
    recovery code (``totp`` or ``recovery``). Five wrong ones in five
    minutes, then 429 (a six-digit code is guessed once in a million; ASVS 2.2.1)."""
    throttles: Throttles = services(request).throttles
    key = f"totp-user:{user_id}"
    wait = throttles.hit((key,), CODE_LIMIT, CODE_WINDOW)
    if wait:
        raise too_many(wait, "too_many_codes")
    now = dt.datetime.now(dt.UTC)
    try:
        used = write(request, lambda s: twofactor.check_code(s, user_id, code, now))
    except twofactor.TwoFactorError as exc:
        if exc.code == "totp_replayed":  # ASVS 2.8.5: a code seen twice is logged
            log.warning("a used TOTP code was given again for account %s from %s", user_id, client_ip(request))
        raise Refused(400, exc) from None
    throttles.forgive(key)
    return used


def coarse_network(ip: str) -> str:
    """The network an address belongs to, not the address: a /24 (IPv4) or
    a /48 (IPv6) — enough to tell « chez moi » from elsewhere."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return "?"
    prefix = 24 if address.version == 4 else 48
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))


def password_problem(username: str, password: str) -> str | None:
    reason = passwords.weakness(username, password)
    return PASSWORD_RULES[reason] if reason else None


def registration_problems(username: str, password: str, password2: str | None = None,
                          email: str = "") -> list[str]:
    problems = []
    if not users_service.USERNAME.match(username):
        problems.append(USERNAME_RULE)
    weak = password_problem(username, password)
    if weak:
        problems.append(weak)
    if password2 is not None and password != password2:
        problems.append(french("passwords_differ"))
    if email.strip():
        try:
            accounts.normal_email(email)
        except accounts.AccountError as exc:
            problems.append(french(exc.code))
    return problems


def create_account(request: Request, username: str, password: str, email: str = "") -> CurrentUser:
    """A new account, logged in. Sign-ups are counted per address before the
    password is hashed, and the hash is made before the write transaction.
    ``email`` (optional, already checked): a confirmation link goes to it."""
    throttles: Throttles = services(request).throttles
    wait = throttles.hit((signup_key(client_ip(request)),), services(request).settings.signups_per_hour,
                         SIGNUP_WINDOW)
    if wait:
        raise too_many(wait, "too_many_signups")
    password_hash = users_service.hash_password(password, site_settings(request))

    def work(s: Session) -> CurrentUser:
        created = users_service.create_user(s, username, password, password_hash=password_hash)
        # The welcome écus in the same transaction: an account never exists
        # without them, and a failed grant creates no account.
        ledger.welcome(s, created.id, site_settings(request).welcome_ecus)
        if email.strip():
            settings = site_settings(request)
            accounts.ask_confirmation(s, created, accounts.normal_email(email), site=settings.site_name,
                                      site_url=settings.site_url)
        return CurrentUser.of(created)

    taken = Refused(409, users_service.UserError("username_taken", username=username))
    try:
        user = write(request, work)
    except IntegrityError:  # two sign-ups raced for the same name
        raise taken from None
    except (users_service.UserError, accounts.AccountError) as exc:
        if exc.code in ("username_taken", "email_taken"):
            raise Refused(409, exc) from None
        raise Refused(400, exc) from None
    if email.strip():
        services(request).mailer.wake()
    start_session(request, user)
    return user


def logout(request: Request) -> None:
    """End this browser's session, server-side too: its cookie is worthless."""
    sess = get_session(request)
    token, uid = sess.token, sess.user_id
    sess.logout()
    if token:
        write(request, lambda s: end_session(s, token))
        if uid is not None:  # and the table sockets opened with it
            services(request).ws_limits.end_sessions(uid, only=token)


def logout_everywhere(request: Request, user: CurrentUser) -> int:
    """End every session of ``user``, this one included: how many ended."""
    ended = write(request, lambda s: end_all_sessions(s, user.id))
    services(request).ws_limits.end_sessions(user.id)
    get_session(request).logout()
    return ended


def safe_next(target: str | None) -> str:
    """Only a path of this site: never an open redirect to another one."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/"


# --- pages -------------------------------------------------------------------


@pages.get("/login")
def login_page(request: Request, next: str = "", user: CurrentUser | None = Depends(optional_user)) -> Response:
    return render(request, "login.html", {"next": safe_next(next) if next else ""})


@pages.post("/login")
def login_form(request: Request, username: str = Form(""), password: str = Form(""),
               next: str = Form(""), _: CurrentUser | None = Depends(optional_user)) -> Response:
    username = username.strip()
    try:
        user, second = attempt_login(request, username, password)
    except HTTPException as exc:
        status = 429 if exc.status_code == 429 else 400
        return render(request, "login.html", {"errors": [exc.detail], "username": username,
                                               "next": next}, status_code=status)
    if second != "none":  # the code next (routers/twofactor.py)
        return RedirectResponse(f"/login/code?next={quote(safe_next(next))}", status_code=303)
    get_session(request).flash(f"Bienvenue, {user.username} !")
    return RedirectResponse(safe_next(next), status_code=303)


@pages.get("/register")
def register_page(request: Request, _: CurrentUser | None = Depends(optional_user)) -> Response:
    return render(request, "register.html")


@pages.post("/register")
def register_form(request: Request, username: str = Form(""), password: str = Form(""),
                  password2: str = Form(""), email: str = Form(""),
                  _: CurrentUser | None = Depends(optional_user)) -> Response:
    username = username.strip()
    problems = registration_problems(username, password, password2, email)
    kept = {"username": username, "email": email.strip()}
    if not problems:
        try:
            user = create_account(request, username, password, email)
        except HTTPException as exc:
            problems = [exc.detail]
            if exc.status_code == 429:
                return render(request, "register.html", {"errors": problems, **kept}, status_code=429)
        else:
            get_session(request).flash(french("welcome", {"username": user.username}))
            if email.strip():
                get_session(request).flash(french("email_link_sent", {"email": email.strip().lower()}))
            return RedirectResponse("/", status_code=303)
    return render(request, "register.html", {"errors": problems, **kept}, status_code=400)


@pages.post("/logout")
def logout_form(request: Request) -> Response:
    logout(request)
    get_session(request).flash(french("logged_out"))
    return RedirectResponse("/", status_code=303)


@pages.post("/logout-partout")
def logout_everywhere_form(request: Request, user: CurrentUser = Depends(require_user)) -> Response:
    ended = logout_everywhere(request, user)
    get_session(request).flash(french("logged_out_everywhere", {"ended": ended}))
    return RedirectResponse("/", status_code=303)


# --- API -----------------------------------------------------------------------


@api.get("/session", response_model=SessionOut, summary="Who am I, and the CSRF token")
def api_session(request: Request, user: CurrentUser | None = Depends(optional_user)) -> SessionOut:
    return SessionOut(user=user_out(user) if user else None, csrf_token=get_session(request).csrf)


@api.post("/login", response_model=SessionOut, summary="Log in (5 failures / 5 min, then 429); "
          "an account with two-factor sign-in gives its code too")
def api_login(request: Request, body: Login) -> SessionOut:
    user, second = attempt_login(request, body.username.strip(), body.password, wait_for_code=False)
    if second != "none":
        if second == "enrol":
            raise Refused(403, Refusal("totp_enrol_first"))
        if not body.code:
            raise Refused(401, Refusal("totp_needed"))
        check_code(request, user.id, body.code)
        start_session(request, user)
    return SessionOut(user=user_out(user), csrf_token=get_session(request).csrf)


@api.post("/register", response_model=SessionOut, status_code=201, summary="Create an account")
def api_register(request: Request, body: Registration) -> SessionOut:
    username = body.username.strip()
    problems = registration_problems(username, body.password, email=body.email or "")
    if problems:
        raise HTTPException(status_code=400, detail=" ".join(problems))
    user = create_account(request, username, body.password, body.email or "")
    return SessionOut(user=user_out(user), csrf_token=get_session(request).csrf)


@api.post("/logout", response_model=SessionOut, summary="Log out")
def api_logout(request: Request) -> SessionOut:
    logout(request)
    return SessionOut(user=None, csrf_token=get_session(request).csrf)


class EndedOut(BaseModel):
    ended: int
    csrf_token: str


@api.post("/logout-everywhere", response_model=EndedOut,
          summary="Log out every session of this account, this one included")
def api_logout_everywhere(request: Request, user: CurrentUser = Depends(require_user)) -> EndedOut:
    ended = logout_everywhere(request, user)
    return EndedOut(ended=ended, csrf_token=get_session(request).csrf)
