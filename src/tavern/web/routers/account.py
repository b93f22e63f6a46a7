"""« Mon compte »: écus, tokens and hands left."""

from __future__ import annotations

import datetime as dt

from fastapi import Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.services import accounts, hands, ledger
from tavern.services import users as users_service
from tavern.settings import Settings
from tavern.store.models import Tavern, User
from tavern.web.deps import CurrentUser, form_fields, read_db, require_user, site_settings, write
from tavern.web.rendering import render
from tavern.web.routers.auth import MAX_PASSWORD, UserOut, check_current_password, password_problem, user_out
from tavern.web.routing import api_router, page_router
from tavern.web.session import end_all_sessions, get_session
from tavern.web.state import services

pages = page_router()
api = api_router("/api", "compte")


class HandsOut(BaseModel):
    free_today: int
    paid: int
    total: int


class AccountOut(BaseModel):
    user: UserOut
    ecus: int
    tokens: int
    hands: HandsOut
    taverns: list[int]
    email: str | None = Field(None, description="my confirmed address (only I and the admins see it)")
    email_pending: str | None = Field(None, description="the address waiting for its confirmation link")


def now_utc(request: Request) -> dt.datetime:
    """The clock, replaceable in tests (``Services.clock``)."""
    clock = services(request).clock
    return clock() if clock else dt.datetime.now(dt.UTC)


def hands_out(db: Session, user_id: int, now: dt.datetime, settings: Settings) -> HandsOut:
    left = hands.hands_left(db, user_id, now, settings)
    return HandsOut(free_today=left.free, paid=left.paid, total=left.total)


def account_out(db: Session, user: CurrentUser, now: dt.datetime, settings: Settings) -> AccountOut:
    taverns = list(db.scalars(select(Tavern.id).where(Tavern.owner_id == user.id).order_by(Tavern.id)))
    return AccountOut(
        user=user_out(user),
        ecus=ledger.balance(db, "user", user.id, "ecus"),
        tokens=ledger.balance(db, "user", user.id, "tokens"),
        hands=hands_out(db, user.id, now, settings),
        taverns=taverns,
        email=db.scalar(select(User.email).where(User.id == user.id)),
        email_pending=accounts.pending_email(db, user.id),
    )


class PasswordChange(BaseModel):
    current: str = Field(max_length=MAX_PASSWORD)
    new: str = Field(max_length=MAX_PASSWORD)


class PasswordChanged(BaseModel):
    ended: int = Field(description="other sessions of the account, now logged out")
    csrf_token: str


def change_password(request: Request, user: CurrentUser, current: str, new: str) -> int:
    """Check the current password (throttled like a login), refuse a weak new
    one, store its hash and end every other session of the account: a thief
    logged in with the old password is out at once. This session goes on."""
    weak = password_problem(user.username, new)
    if weak:
        raise HTTPException(status_code=400, detail=weak)
    check_current_password(request, user, current)
    new_hash = users_service.hash_password(new, site_settings(request))  # outside the write transaction
    keep = get_session(request).token

    site = site_settings(request).site_name

    def work(s: Session) -> int:
        row = s.get(User, user.id)
        if row is not None:
            row.password_hash = new_hash
            accounts.tell_owner(s, row, "password_changed", site=site)  # ASVS 2.2.3
        return end_all_sessions(s, user.id, keep=keep)
    ended = write(request, work)
    services(request).ws_limits.end_sessions(user.id, keep=keep)
    services(request).mailer.wake()
    return ended


def account_page_with(request: Request, user: CurrentUser, errors: list[str] | None = None,
                      status: int = 200) -> Response:
    """« Mon compte », with ``errors`` above it (a refused form's)."""
    with services(request).read_sessions() as db:
        account = account_out(db, user, now_utc(request), site_settings(request))
    return render(request, "account.html", {"account": account, "errors": errors or []},
                  status_code=status)


@pages.get("/compte")
def account_page(request: Request, user: CurrentUser = Depends(require_user)) -> Response:
    return account_page_with(request, user)


@pages.post("/compte/mot-de-passe")
def password_form(request: Request, user: CurrentUser = Depends(require_user),
                  form: dict[str, str] = Depends(form_fields)) -> Response:
    new = form.get("new", "")
    if new != form.get("new2", ""):
        return account_page_with(request, user, [french("new_passwords_differ")], status=400)
    try:
        ended = change_password(request, user, form.get("current", ""), new)
    except HTTPException as exc:
        return account_page_with(request, user, [exc.detail], status=exc.status_code)
    get_session(request).flash(
        french("password_changed", {"ended": ended}))
    return RedirectResponse("/compte", status_code=303)


@api.get("/me", response_model=AccountOut, summary="My balances and hands left")
def api_me(request: Request, user: CurrentUser = Depends(require_user),
           db: Session = Depends(read_db)) -> AccountOut:
    return account_out(db, user, now_utc(request), site_settings(request))


@api.post("/me/password", response_model=PasswordChanged,
          summary="Change my password (ends my other sessions)")
def api_change_password(request: Request, body: PasswordChange,
                        user: CurrentUser = Depends(require_user)) -> PasswordChanged:
    ended = change_password(request, user, body.current, body.new)
    return PasswordChanged(ended=ended, csrf_token=get_session(request).csrf)
