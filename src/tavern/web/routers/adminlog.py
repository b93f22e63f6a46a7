"""The admin log's page and the lifting of a lost two-factor sign-in
(issue 39 §4, §6; services/adminlog.py).

An admin lifts an account's 2FA after checking the person by other means
(the confirmed address, a call): the reason is required and written in
the log with his name; every session of the account ends, and its owner
enrols again at his next sign-in if the setting requires it of him.
"""

from __future__ import annotations

from fastapi import Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from tavern.catalogue import ADMIN_ACTIONS, french
from tavern.refusal import Refusal
from tavern.services import accounts, adminlog, twofactor
from tavern.store.models import User
from tavern.web.deps import CurrentUser, Id, form_fields, read_db, require_admin, site_settings, write
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.routers.admin import users_page_with
from tavern.web.routing import api_router, page_router
from tavern.web.session import end_all_sessions, get_session
from tavern.web.state import services

pages = page_router("/admin")
api = api_router("/api/admin", "administration")


class LogLine(BaseModel):
    at: str = Field(description="UTC, ISO 8601")
    admin: str
    account: str
    action: str = Field(description="credit, level, role, ban, unban, mute, 2fa_lifted")
    detail: str
    reason: str


class LiftIn(BaseModel):
    reason: str = Field(min_length=1, max_length=adminlog.MAX_REASON,
                        description="how the person was checked (written in the admin log)")


class LiftOut(BaseModel):
    username: str
    lifted: bool = Field(description="false: the account had no two-factor sign-in")


def lift_2fa(request: Request, admin: CurrentUser, user_id: int, reason: str) -> LiftOut:
    if not reason.strip():
        raise Refused(400, Refusal("reason_needed"))

    def work(s: Session) -> LiftOut:
        target = s.get(User, user_id)
        if target is None:
            raise Refused(404, Refusal("no_such_user"))
        lifted = twofactor.turn_off(s, user_id)
        if lifted:
            adminlog.record(s, admin.id, user_id, "2fa_lifted", "", reason)
            end_all_sessions(s, user_id)
            accounts.tell_owner(s, target, "totp_changed", site=site)
        return LiftOut(username=target.username, lifted=lifted)
    site = site_settings(request).site_name
    out = write(request, work)
    if out.lifted:
        services(request).ws_limits.end_sessions(user_id)
        services(request).mailer.wake()
    return out


@pages.get("/journal")
def log_page(request: Request, _: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> Response:
    return render(request, "admin/log.html", {"lines": adminlog.recent(db), "labels": ADMIN_ACTIONS})


@pages.post("/utilisateurs/{user_id}/double-authentification/lever")
def lift_form(request: Request, user_id: Id, admin: CurrentUser = Depends(require_admin),
              db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        out = lift_2fa(request, admin, user_id, form.get("reason", "")[:adminlog.MAX_REASON])
    except HTTPException as exc:
        return users_page_with(request, db, [exc.detail], status=exc.status_code)
    get_session(request).flash(french("totp_lifted" if out.lifted else "totp_was_off", {"username": out.username}))
    return RedirectResponse("/admin/utilisateurs", status_code=303)


@api.get("/log", response_model=list[LogLine], summary="The admin log: the latest admin actions on accounts")
def api_log(_: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> list[LogLine]:
    return [LogLine(**line) for line in adminlog.recent(db)]


@api.post("/users/{user_id}/2fa/lift", response_model=LiftOut,
          summary="Lift an account's lost two-factor sign-in (the reason goes to the admin log)")
def api_lift(request: Request, user_id: Id, body: LiftIn, admin: CurrentUser = Depends(require_admin)) -> LiftOut:
    return lift_2fa(request, admin, user_id, body.reason)
