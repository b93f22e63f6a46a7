"""The table chat's moderation (issue 30 §1): the admins' page of reports
(delete a message, mute an account everywhere for a while) and the owner's
own tools (his tables' chat setting, a mute at his tavern's tables).

Every change is a service call in one transaction (services/chat.py), then
published on the tables' channels (tables/chat.py) so that the sockets of
every worker hear of it at once: a deleted message disappears, a muted
account is told.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from anyio import from_thread
from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.catalogue import CHAT_MODES, french
from tavern.refusal import Refusal
from tavern.services import adminlog, chat
from tavern.store.models import User
from tavern.tables.chat import publish_deleted, publish_muted
from tavern.web.csrf import csrf_protect
from tavern.web.deps import CurrentUser, Id, ReadRoute, act, form_fields, owned_tavern, read_db, require_admin, require_user
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.routers import tavern
from tavern.web.routing import api_router, page_router
from tavern.web.session import get_session
from tavern.web.state import services

pages = page_router()
admin_api = api_router("/api/admin/chat", "administration")
owner_api = APIRouter(route_class=ReadRoute, prefix="/api/taverns", tags=list(tavern.api.tags),  # its section
                      dependencies=[Depends(csrf_protect)])


class MuteIn(BaseModel):
    username: str = Field(min_length=1, max_length=40)
    minutes: int = Field(ge=1, le=chat.MAX_MUTE_MINUTES)
    reason: str = Field("", max_length=adminlog.MAX_REASON, description="why (an admin's mute: the admin log)")


class MuteOut(BaseModel):
    username: str
    until: str  #: UTC, ISO 8601
    tables: int  #: the open tables the mute was pushed to


class ReportOut(BaseModel):
    message_id: int
    table_id: int
    author: str
    text: str
    at: str
    reporters: list[str]


class ChatModeIn(BaseModel):
    chat: str = Field(description="open, players or off")


def do_mute(request: Request, by: CurrentUser, body: MuteIn, tavern_id: int | None) -> MuteOut:
    """Mute an account (everywhere, or at one tavern's tables) and tell it at every such open table."""
    def work(s: Session) -> tuple[str, dt.datetime, list[int]]:
        target = s.scalar(select(User).where(User.username == body.username.strip()))
        if target is None:
            raise Refused(404, Refusal("no_such_player"))
        until = chat.mute(s, target.id, body.minutes, by.id, tavern_id)
        if tavern_id is None:  # an admin's, everywhere: the admin log (an owner's is his tavern's business)
            adminlog.record(s, by.id, target.id, "mute", f"{body.minutes} min", body.reason)
        return target.username, until, chat.open_tables(s, tavern_id)

    name, until, tables = act(request, work)
    message = french("chat_muted", {"until": chat.paris_time(until)})
    from_thread.run(publish_muted, services(request).broadcaster, tables, name, until, message)
    return MuteOut(username=name, until=until.isoformat(), tables=len(tables))


def do_delete(request: Request, message_id: int) -> int:
    table_id = act(request, lambda s: chat.delete_message(s, message_id))
    from_thread.run(publish_deleted, services(request).broadcaster, table_id, message_id)
    return table_id


def reports_out(db: Session) -> list[ReportOut]:
    return [ReportOut(message_id=r.message_id, table_id=r.table_id, author=r.author, text=r.text,
                      at=r.at.isoformat(), reporters=r.reporters) for r in chat.open_reports(db)]


# --- the admins' page ----------------------------------------------------------------


def _reports_page(request: Request, db: Session, errors: list[str] | None = None, status: int = 200) -> Response:
    return render(request, "admin/chat.html", {"reports": chat.open_reports(db), "errors": errors or [],
                                                "paris_time": chat.paris_time,
                                                "max_minutes": chat.MAX_MUTE_MINUTES}, status_code=status)


def _minutes(raw: str | None) -> int:
    try:
        return int((raw or "").strip())
    except ValueError:
        return 0  # refused by the service with the range


@pages.get("/admin/discussion")
def reports_page(request: Request, _: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> Response:
    return _reports_page(request, db)


@pages.post("/admin/discussion/messages/{message_id}/supprimer")
def delete_form(request: Request, message_id: Id, _: CurrentUser = Depends(require_admin),
                db: Session = Depends(read_db)) -> Response:
    try:
        do_delete(request, message_id)
    except HTTPException as exc:
        return _reports_page(request, db, [exc.detail], status=exc.status_code)
    get_session(request).flash(french("chat_message_deleted"))
    return RedirectResponse("/admin/discussion", status_code=303)


@pages.post("/admin/discussion/messages/{message_id}/classer")
def dismiss_form(request: Request, message_id: Id, _: CurrentUser = Depends(require_admin)) -> Response:
    act(request, lambda s: chat.dismiss(s, message_id))
    return RedirectResponse("/admin/discussion", status_code=303)


@pages.post("/admin/discussion/muets")
def mute_form(request: Request, admin: CurrentUser = Depends(require_admin), db: Session = Depends(read_db),
              form: dict[str, str] = Depends(form_fields)) -> Response:
    return _mute_form(request, admin, form, None, "/admin/discussion",
                      lambda errors, status: _reports_page(request, db, errors, status))


#: A page shown again with its problems and a status code.
Page = Callable[[list[str], int], Response]


def _mute_form(request: Request, by: CurrentUser, form: dict[str, str], tavern_id: int | None, back: str,
               page: Page) -> Response:
    name = form.get("username", "").strip()[:40]
    if not name:
        return page([french("missing", {"field": "username"})], 400)
    try:
        out = do_mute(request, by, MuteIn.model_construct(username=name, minutes=_minutes(form.get("minutes")),
                                                          reason=form.get("reason", "")[:adminlog.MAX_REASON]),
                      tavern_id)
    except HTTPException as exc:
        if exc.status_code == 403:
            raise
        return page([exc.detail], exc.status_code)
    until = chat.paris_time(dt.datetime.fromisoformat(out.until))
    get_session(request).flash(french("chat_muted_done", {"name": out.username, "until": until}))
    return RedirectResponse(back, status_code=303)


# --- the owner's tools ----------------------------------------------------------------


@pages.post("/ma-taverne/{tavern_id}/discussion/muets")
def owner_mute_form(request: Request, tavern_id: Id, user: CurrentUser = Depends(require_user),
                    db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    owned_tavern(db, user, tavern_id)  # 403 for anybody else
    return _mute_form(request, user, form, tavern_id, f"/ma-taverne/{tavern_id}",
                      lambda errors, status: _owner_page(request, db, user, tavern_id, errors, status))


def _owner_page(request: Request, db: Session, user: CurrentUser, tavern_id: int, errors: list[str],
                status: int) -> Response:
    """« Gérer sa taverne » again, with what was refused."""
    return tavern.manage_again(request, db, user, owned_tavern(db, user, tavern_id), errors, status)


@pages.post("/ma-taverne/{tavern_id}/tables/{table_id}/discussion")
def chat_mode_form(request: Request, tavern_id: Id, table_id: Id, user: CurrentUser = Depends(require_user),
                   db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    owned_tavern(db, user, tavern_id)
    mode = form.get("chat", "")
    try:
        act(request, lambda s: chat.set_mode(s, table_id, tavern_id, mode))
    except HTTPException as exc:
        return _owner_page(request, db, user, tavern_id, [exc.detail], exc.status_code)
    get_session(request).flash(french("chat_mode_changed", {"mode": CHAT_MODES[mode]}))
    return RedirectResponse(f"/ma-taverne/{tavern_id}", status_code=303)


# --- API ---------------------------------------------------------------------------------


@admin_api.get("/reports", response_model=list[ReportOut], summary="Chat messages reported and not yet dealt with")
def api_reports(_: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> list[ReportOut]:
    return reports_out(db)


@admin_api.post("/messages/{message_id}/delete", status_code=204, response_class=Response,
                summary="Delete a chat message (gone at once from every reader's table)")
def api_delete(request: Request, message_id: Id, _: CurrentUser = Depends(require_admin)) -> Response:
    do_delete(request, message_id)
    return Response(status_code=204)


@admin_api.post("/mutes", response_model=MuteOut, summary="Mute an account in every table's chat for a while")
def api_mute(request: Request, body: MuteIn, admin: CurrentUser = Depends(require_admin)) -> MuteOut:
    return do_mute(request, admin, body, None)


@owner_api.post("/{tavern_id}/chat/mutes", response_model=MuteOut, summary="Mute an account at my tavern's tables")
def api_owner_mute(request: Request, tavern_id: Id, body: MuteIn, user: CurrentUser = Depends(require_user),
                   db: Session = Depends(read_db)) -> MuteOut:
    owned_tavern(db, user, tavern_id)
    return do_mute(request, user, body, tavern_id)


@owner_api.put("/{tavern_id}/tables/{table_id}/chat", status_code=204, response_class=Response,
               summary="Who writes in a table's chat: open, players or off")
def api_chat_mode(request: Request, tavern_id: Id, table_id: Id, body: ChatModeIn,
                  user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> Response:
    owned_tavern(db, user, tavern_id)
    act(request, lambda s: chat.set_mode(s, table_id, tavern_id, body.chat))
    return Response(status_code=204)
