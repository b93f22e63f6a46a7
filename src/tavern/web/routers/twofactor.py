"""Two-factor sign-in, the pages (issue 39 §4; services/twofactor.py).

* ``/login/code``: after a right password, the code (or a recovery code);
  for an admin or a tavern owner not enrolled yet while the setting
  requires it, the enrolment itself — no session opens before the code.
* « Mon compte » → ``/compte/double-authentification``: enrol (the current
  password, then the QR code and a first code), see how many recovery codes
  are left, turn it off (the password and a code; not when it is required).

Every code is checked through ``auth.check_code``'s limit (five wrong ones
in five minutes per account) or, at enrolment, the same counter.
"""

from __future__ import annotations

import datetime as dt
import time

from fastapi import Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.refusal import Refusal
from tavern.services import accounts, twofactor
from tavern.store.models import User
from tavern.web.deps import CurrentUser, form_fields, optional_user, require_user, site_settings, write
from tavern.web.ratelimit import Throttles
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.routers.auth import (
    CODE_LIMIT,
    CODE_WINDOW,
    check_code,
    check_current_password,
    safe_next,
    start_session,
    too_many,
)
from tavern.web.routing import page_router
from tavern.web.session import get_session
from tavern.web.state import services

pages = page_router()


def _enrolment(request: Request, user_id: int, start: bool) -> dict[str, str]:
    """The QR code and the secret of ``user_id``'s enrolment (a fresh one
    drawn when ``start`` or none waits)."""
    def work(s: Session) -> tuple[str, str]:
        user = s.get(User, user_id)
        assert user is not None
        secret = user.totp_pending
        if start or not secret:
            secret = twofactor.start_enrolment(s, user)
        return secret, user.username
    secret, username = write(request, work)
    uri = twofactor.provisioning_uri(secret, username, site_settings(request).site_name)
    spaced = " ".join(secret[i:i + 4] for i in range(0, len(secret), 4))
    return {"secret": spaced, "qr": twofactor.qr_svg(uri), "uri": uri}


def _finish_enrolment(request: Request, user_id: int, code: str) -> list[str]:
    """The first code turns the pending secret on: the recovery codes, or 400/429."""
    throttles: Throttles = services(request).throttles
    wait = throttles.hit((f"totp-user:{user_id}",), CODE_LIMIT, CODE_WINDOW)
    if wait:
        raise too_many(wait, "too_many_codes")
    now = dt.datetime.now(dt.UTC)
    site = site_settings(request).site_name

    def work(s: Session) -> list[str]:
        user = s.get(User, user_id)
        assert user is not None
        codes = twofactor.finish_enrolment(s, user, code, now)
        accounts.tell_owner(s, user, "totp_changed", site=site)  # ASVS 2.5.5
        return codes
    try:
        codes = write(request, work)
    except twofactor.TwoFactorError as exc:
        raise Refused(400, exc) from None
    throttles.forgive(f"totp-user:{user_id}")
    services(request).mailer.wake()
    return codes


def _waiting(request: Request) -> CurrentUser | None:
    uid = get_session(request).awaiting(int(time.time()))
    if uid is None:
        return None
    with services(request).read_sessions() as s:
        user = s.get(User, uid)
        return CurrentUser.of(user) if user is not None and not user.banned else None


def _code_page(request: Request, user: CurrentUser, next: str, errors: list[str] | None = None,
               status: int = 200) -> Response:
    with services(request).read_sessions() as s:
        row = s.get(User, user.id)
        enrolled = bool(row and row.totp_secret)
    context: dict[str, object] = {"next": safe_next(next), "errors": errors or [], "enrolled": enrolled}
    if not enrolled:
        context.update(_enrolment(request, user.id, start=False))
    return render(request, "login_code.html", context, status_code=status)


@pages.get("/login/code")
def code_page(request: Request, next: str = "", _: CurrentUser | None = Depends(optional_user)) -> Response:
    user = _waiting(request)
    if user is None:
        get_session(request).flash(french("totp_expired"), "error")
        return RedirectResponse("/login", status_code=303)
    return _code_page(request, user, next)


@pages.post("/login/code")
def code_form(request: Request, _: CurrentUser | None = Depends(optional_user),
              form: dict[str, str] = Depends(form_fields)) -> Response:
    user = _waiting(request)
    next = safe_next(form.get("next", ""))
    if user is None:
        get_session(request).flash(french("totp_expired"), "error")
        return RedirectResponse("/login", status_code=303)
    code = form.get("code", "")[:40]
    with services(request).read_sessions() as s:
        row = s.get(User, user.id)
        enrolled = bool(row and row.totp_secret)
    try:
        codes = [] if enrolled else _finish_enrolment(request, user.id, code)
        if enrolled:
            check_code(request, user.id, code)
    except HTTPException as exc:
        return _code_page(request, user, next, [exc.detail], status=exc.status_code)
    start_session(request, user)
    get_session(request).flash(f"Bienvenue, {user.username} !")
    if codes:
        return render(request, "totp_codes.html", {"codes": codes, "next": next})
    return RedirectResponse(next, status_code=303)


# --- « Mon compte » → double authentification ---------------------------------------


def _account_page(request: Request, user: CurrentUser, errors: list[str] | None = None, status: int = 200,
                  enrolment: dict[str, str] | None = None) -> Response:
    with services(request).read_sessions() as s:
        row = s.get(User, user.id)
        assert row is not None
        context = {"enrolled": bool(row.totp_secret), "left": twofactor.recovery_left(s, user.id),
                   "required": twofactor.required_for(s, row, site_settings(request).totp_required),
                   "pending": bool(row.totp_pending), "errors": errors or []}
    if enrolment is None and context["pending"] and not context["enrolled"]:
        enrolment = _enrolment(request, user.id, start=False)
    return render(request, "account_2fa.html", {**context, **(enrolment or {})}, status_code=status)


def _password(request: Request, user: CurrentUser, password: str) -> None:
    check_current_password(request, user, password)


@pages.get("/compte/double-authentification")
def account_2fa(request: Request, user: CurrentUser = Depends(require_user)) -> Response:
    return _account_page(request, user)


@pages.post("/compte/double-authentification/commencer")
def start_form(request: Request, user: CurrentUser = Depends(require_user),
               form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        _password(request, user, form.get("password", ""))
        enrolment = _enrolment(request, user.id, start=True)
    except twofactor.TwoFactorError as exc:
        return _account_page(request, user, [exc.message], status=400)
    except HTTPException as exc:
        return _account_page(request, user, [exc.detail], status=exc.status_code)
    return _account_page(request, user, enrolment=enrolment)


@pages.post("/compte/double-authentification/activer")
def enable_form(request: Request, user: CurrentUser = Depends(require_user),
                form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        codes = _finish_enrolment(request, user.id, form.get("code", "")[:40])
    except HTTPException as exc:
        return _account_page(request, user, [exc.detail], status=exc.status_code)
    get_session(request).flash(french("totp_on"))
    return render(request, "totp_codes.html", {"codes": codes, "next": "/compte/double-authentification"})


@pages.post("/compte/double-authentification/retirer")
def disable_form(request: Request, user: CurrentUser = Depends(require_user),
                 form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        with services(request).read_sessions() as s:
            row = s.get(User, user.id)
            assert row is not None
            if twofactor.required_for(s, row, site_settings(request).totp_required):
                raise Refused(400, Refusal("totp_required_here"))
        _password(request, user, form.get("password", ""))
        check_code(request, user.id, form.get("code", "")[:40])
    except HTTPException as exc:
        return _account_page(request, user, [exc.detail], status=exc.status_code)
    site = site_settings(request).site_name

    def work(s: Session) -> None:
        twofactor.turn_off(s, user.id)
        row = s.get(User, user.id)
        assert row is not None
        accounts.tell_owner(s, row, "totp_changed", site=site)
    write(request, work)
    services(request).mailer.wake()
    get_session(request).flash(french("totp_off"))
    return RedirectResponse("/compte/double-authentification", status_code=303)
