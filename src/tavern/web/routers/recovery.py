"""An account's e-mail address and « Mot de passe oublié » (issue 39 §1, §2).

The address (services/accounts.py): added or changed on « Mon compte »
with the current password (whoever holds a session must not steer the
password resets elsewhere), used once confirmed by the link mailed to it.

« Mot de passe oublié »: an address or a name; the page answers the same
sentence whether an account matches or not. The asks are counted per
address-or-name and per client address (a visible 429: the same for an
existing and an unknown account) and per account (silently: over it, no
mail — a visible refusal would tell that the account exists). The link
sets a new password once, within an hour, and ends every session of the
account.
"""

from __future__ import annotations

from fastapi import Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.refusal import Refusal
from tavern.services import accounts
from tavern.services import users as users_service
from tavern.store.models import User
from tavern.web.deps import CurrentUser, client_ip, form_fields, optional_user, require_user, site_settings, write
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.routers.account import account_page_with
from tavern.web.routers.auth import MAX_PASSWORD, check_current_password, password_problem, too_many
from tavern.web.routing import api_router, page_router
from tavern.web.session import get_session
from tavern.web.state import services

pages = page_router()
api = api_router("/api", "comptes")

RESET_WINDOW = 3600
MAX_WHO = 254


# --- the address ---------------------------------------------------------------


def ask_email(request: Request, user: CurrentUser, email: str, password: str) -> str:
    """Check the password, then mail a confirmation link to ``email``: the
    address as kept. Refusals: 400 (malformed, wrong password), 409 (taken)."""
    try:
        address = accounts.normal_email(email)
    except accounts.AccountError as exc:
        raise Refused(400, exc) from None
    check_current_password(request, user, password)
    settings = site_settings(request)

    def work(s: Session) -> None:
        row = s.get(User, user.id)
        assert row is not None
        accounts.ask_confirmation(s, row, address, site=settings.site_name, site_url=settings.site_url)
    try:
        write(request, work)
    except accounts.AccountError as exc:
        raise Refused(409 if exc.code == "email_taken" else 400, exc) from None
    services(request).mailer.wake()
    return address


def confirm_email(request: Request, token: str, user: CurrentUser | None) -> accounts.Link:
    settings = site_settings(request)
    try:
        link = write(request, lambda s: accounts.confirm(s, token, user.id if user else None,
                                                         site=settings.site_name))
    except accounts.AccountError as exc:
        raise Refused(409 if exc.code == "email_taken" else 400, exc) from None
    services(request).mailer.wake()
    return link


def read_link(request: Request, token: str, purpose: str) -> accounts.Link | None:
    with services(request).read_sessions() as s:
        return accounts.read_link(s, token, purpose)


@pages.post("/compte/courriel")
def email_form(request: Request, user: CurrentUser = Depends(require_user),
               form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        address = ask_email(request, user, form.get("email", ""), form.get("password", ""))
    except HTTPException as exc:
        return account_page_with(request, user, [exc.detail], status=exc.status_code)
    get_session(request).flash(french("email_link_sent", {"email": address}))
    return RedirectResponse("/compte", status_code=303)


@pages.post("/compte/courriel/retirer")
def email_remove_form(request: Request, user: CurrentUser = Depends(require_user),
                      form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        remove_email(request, user, form.get("password", ""))
    except HTTPException as exc:
        return account_page_with(request, user, [exc.detail], status=exc.status_code)
    get_session(request).flash(french("email_removed"))
    return RedirectResponse("/compte", status_code=303)


def remove_email(request: Request, user: CurrentUser, password: str) -> None:
    check_current_password(request, user, password)
    write(request, lambda s: accounts.remove_email(s, user.id))


@pages.get("/courriel/confirmer")
def confirm_page(request: Request, jeton: str = "", user: CurrentUser | None = Depends(optional_user)) -> Response:
    link = read_link(request, jeton, "email")
    if link is None:
        return render(request, "link_invalid.html", {"errors": [french("link_invalid")]}, status_code=400)
    return render(request, "email_confirm.html", {"token": jeton, "email": link.email})


@pages.post("/courriel/confirmer")
def confirm_form(request: Request, user: CurrentUser | None = Depends(optional_user),
                 form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        link = confirm_email(request, form.get("jeton", ""), user)
    except HTTPException as exc:
        return render(request, "link_invalid.html", {"errors": [exc.detail]}, status_code=exc.status_code)
    get_session(request).flash(french("email_confirmed", {"email": link.email}))
    return RedirectResponse("/compte" if user else "/login", status_code=303)


class EmailIn(BaseModel):
    email: str = Field(max_length=accounts.MAX_EMAIL)
    password: str = Field(max_length=MAX_PASSWORD, description="the account's current password")


class PasswordIn(BaseModel):
    password: str = Field(max_length=MAX_PASSWORD, description="the account's current password")


class EmailAsked(BaseModel):
    pending: str = Field(description="the address a confirmation link was sent to")


class TokenIn(BaseModel):
    token: str = Field(max_length=100)


class EmailOut(BaseModel):
    email: str | None


@api.put("/me/email", response_model=EmailAsked, status_code=202,
         summary="Add or change my address: a confirmation link is mailed to it")
def api_email(request: Request, body: EmailIn, user: CurrentUser = Depends(require_user)) -> EmailAsked:
    return EmailAsked(pending=ask_email(request, user, body.email, body.password))


@api.post("/me/email/remove", response_model=EmailOut, summary="Remove my address")
def api_email_remove(request: Request, body: PasswordIn, user: CurrentUser = Depends(require_user)) -> EmailOut:
    remove_email(request, user, body.password)
    return EmailOut(email=None)


@api.post("/email/confirm", response_model=EmailOut, summary="Confirm an address with the mailed link's token")
def api_confirm(request: Request, body: TokenIn, user: CurrentUser | None = Depends(optional_user)) -> EmailOut:
    return EmailOut(email=confirm_email(request, body.token, user).email)


# --- « Mot de passe oublié » ----------------------------------------------------------


def ask_reset(request: Request, who: str) -> None:
    """Mail a reset link to the account ``who`` names, if there is one that
    can get mail; the caller answers the same either way. 429 past the
    limits per address-or-name and per client address."""
    who = who.strip()[:MAX_WHO]
    settings = site_settings(request)
    throttles = services(request).throttles
    wait = throttles.hit((f"reset-who:{who.lower()}",), settings.resets_per_hour, RESET_WINDOW)
    wait = max(wait, throttles.hit((f"reset-ip:{client_ip(request)}",), settings.resets_per_hour_per_ip,
                                   RESET_WINDOW))
    if wait:
        raise too_many(wait, "too_many_resets")
    if not who:
        return

    def work(s: Session) -> bool:
        user = accounts.reset_target(s, who)
        if user is None:
            return False
        # Per account (by name and by address alike), silently: no mail past it.
        if throttles.hit_in(s, (f"reset-user:{user.id}",), settings.resets_per_hour, RESET_WINDOW):
            return False
        accounts.send_reset(s, user, site=settings.site_name, site_url=settings.site_url)
        return True
    if write(request, work):
        services(request).mailer.wake()


def reset_password(request: Request, token: str, new: str, user: CurrentUser | None) -> accounts.Link:
    """Set the new password of the link's account; every session of it ends."""
    link = read_link(request, token, "reset")
    if link is None:
        raise Refused(400, Refusal("link_invalid"))
    weak = password_problem(link.username, new)
    if weak:
        raise HTTPException(status_code=400, detail=weak)
    new_hash = users_service.hash_password(new, site_settings(request))  # outside the transaction
    settings = site_settings(request)
    try:
        used = write(request, lambda s: accounts.reset_password(s, token, new_hash, user.id if user else None,
                                                                site=settings.site_name))
    except accounts.AccountError as exc:
        raise Refused(400, exc) from None
    services(request).ws_limits.end_sessions(used.user_id)
    services(request).mailer.wake()
    if user is not None:  # his own session ended with the others
        get_session(request).logout()
    return used


@pages.get("/mot-de-passe-oublie")
def forgot_page(request: Request, _: CurrentUser | None = Depends(optional_user)) -> Response:
    return render(request, "password_forgot.html")


@pages.post("/mot-de-passe-oublie")
def forgot_form(request: Request, _: CurrentUser | None = Depends(optional_user),
                form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        ask_reset(request, form.get("who", ""))
    except HTTPException as exc:
        return render(request, "password_forgot.html", {"errors": [exc.detail]}, status_code=exc.status_code)
    return render(request, "password_forgot.html", {"asked": True})


@pages.get("/mot-de-passe/nouveau")
def reset_page(request: Request, jeton: str = "", _: CurrentUser | None = Depends(optional_user)) -> Response:
    if read_link(request, jeton, "reset") is None:
        return render(request, "link_invalid.html", {"errors": [french("link_invalid")]}, status_code=400)
    return render(request, "password_reset.html", {"token": jeton})


@pages.post("/mot-de-passe/nouveau")
def reset_form(request: Request, user: CurrentUser | None = Depends(optional_user),
               form: dict[str, str] = Depends(form_fields)) -> Response:
    token, new = form.get("jeton", ""), form.get("new", "")
    if new != form.get("new2", ""):
        return render(request, "password_reset.html", {"token": token, "errors": [french("passwords_differ")]},
                      status_code=400)
    try:
        reset_password(request, token, new, user)
    except HTTPException as exc:
        template = "link_invalid.html" if getattr(exc, "code", "") in ("link_invalid", "link_other_account") \
            else "password_reset.html"
        return render(request, template, {"token": token, "errors": [exc.detail]}, status_code=exc.status_code)
    get_session(request).flash(french("password_reset_done"))
    return RedirectResponse("/login", status_code=303)


class ResetAsk(BaseModel):
    who: str = Field(max_length=MAX_WHO, description="the account's confirmed address, or its name")


class ResetAsked(BaseModel):
    message: str


class ResetIn(BaseModel):
    token: str = Field(max_length=100)
    password: str = Field(max_length=MAX_PASSWORD)


@api.post("/auth/password-reset", response_model=ResetAsked, status_code=202,
          summary="Forgotten password: mail a link to the account's address (same answer for any input)")
def api_forgot(request: Request, body: ResetAsk) -> ResetAsked:
    ask_reset(request, body.who)
    return ResetAsked(message=french("reset_asked"))


@api.post("/auth/password-reset/confirm", status_code=204,
          summary="Set a new password with the mailed link's token (ends every session of the account)")
def api_reset(request: Request, body: ResetIn, user: CurrentUser | None = Depends(optional_user)) -> Response:
    reset_password(request, body.token, body.password, user)
    return Response(status_code=204)
