"""« Mes sessions » (issue 39 §5): each logged-in session of my account —
its browser, the coarse network it came from, when it started and when it
was last seen — and ending one, or all the others.

A session is named by the first 16 hex digits of its token's hash: the
page never holds a token (a cookie's secret). Sessions not seen for
``session_idle_hours`` end by themselves (web/session.py, ASVS 3.3.2).
Ending a session closes its table sockets at once: those of the account's
other sessions but this one are closed too, and the live ones reconnect.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi import Path as FastPath
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.refusal import Refusal
from tavern.store.models import WebSession
from tavern.web.deps import CurrentUser, read_db, require_user, write
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.routing import api_router, page_router
from tavern.web.session import end_all_sessions, get_session, token_hash
from tavern.web.state import services

pages = page_router()
api = api_router("/api/me", "comptes")

SID = re.compile(r"^[0-9a-f]{16}$")
#: Browser families as a User-Agent names them, the most specific first
#: (Edge and Opera say "Chrome" too, Chrome says "Safari").
BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
            ("Chromium/", "Chromium"), ("Safari/", "Safari"))
SYSTEMS = (("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iPadOS"), ("Windows", "Windows"),
           ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))


def browser_of(agent: str | None) -> str:
    """« Firefox, Linux »: the family and the system, never the full string."""
    if not agent:
        return "?"
    name = next((label for mark, label in BROWSERS if mark in agent), "")
    system = next((label for mark, label in SYSTEMS if mark in agent), "")
    return ", ".join(p for p in (name, system) if p) or agent[:40]


class SessionOut(BaseModel):
    id: str = Field(description="the session's name on this page (not its token)")
    browser: str
    network: str | None = Field(description="the network it came from (a /24 or /48), not the address")
    started: dt.datetime
    last_seen: dt.datetime | None
    current: bool = Field(description="the session of this very request")


class EndedOut(BaseModel):
    ended: int


def sessions_of(db: Session, user_id: int, current: str | None) -> list[SessionOut]:
    mine = token_hash(current) if current else ""
    now = dt.datetime.now(dt.UTC)
    rows = db.scalars(select(WebSession).where(WebSession.user_id == user_id, WebSession.expires > now)
                      .order_by(WebSession.last_seen.desc(), WebSession.created.desc()))
    return [SessionOut(id=w.token_hash[:16], browser=browser_of(w.user_agent), network=w.network,
                       started=w.created, last_seen=w.last_seen, current=w.token_hash == mine) for w in rows]


def end_one(request: Request, user: CurrentUser, sid: str) -> None:
    """End my session ``sid`` (this one too: then I am logged out)."""
    if not SID.match(sid):
        raise Refused(404, Refusal("no_such_session"))
    current = get_session(request).token

    def work(s: Session) -> bool:
        done: Any = s.execute(delete(WebSession).where(WebSession.user_id == user.id,
                                                       WebSession.token_hash.startswith(sid, autoescape=True)))
        return bool(done.rowcount)
    if not write(request, work):
        raise Refused(404, Refusal("no_such_session"))
    if current and token_hash(current).startswith(sid):
        services(request).ws_limits.end_sessions(user.id, only=current)
        get_session(request).logout()
    else:
        services(request).ws_limits.end_sessions(user.id, keep=current)


def end_others(request: Request, user: CurrentUser) -> int:
    current = get_session(request).token
    ended = write(request, lambda s: end_all_sessions(s, user.id, keep=current))
    services(request).ws_limits.end_sessions(user.id, keep=current)
    return ended


@pages.get("/compte/sessions")
def sessions_page(request: Request, user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> Response:
    return render(request, "my_sessions.html", {"sessions": sessions_of(db, user.id, get_session(request).token)})


@pages.post("/compte/sessions/{sid}/fermer")
def end_form(request: Request, sid: Annotated[str, FastPath(max_length=16)], user: CurrentUser = Depends(require_user)) -> Response:
    end_one(request, user, sid)
    get_session(request).flash(french("session_ended"))
    return RedirectResponse("/compte/sessions" if get_session(request).user_id else "/", status_code=303)


@pages.post("/compte/sessions/fermer-les-autres")
def end_others_form(request: Request, user: CurrentUser = Depends(require_user)) -> Response:
    ended = end_others(request, user)
    get_session(request).flash(french("other_sessions_ended", {"ended": ended}))
    return RedirectResponse("/compte/sessions", status_code=303)


@api.get("/sessions", response_model=list[SessionOut], summary="My sessions: browser, network, started, last seen")
def api_sessions(request: Request, user: CurrentUser = Depends(require_user),
                 db: Session = Depends(read_db)) -> list[SessionOut]:
    return sessions_of(db, user.id, get_session(request).token)


@api.delete("/sessions/{sid}", status_code=204, summary="End one of my sessions")
def api_end(request: Request, sid: Annotated[str, FastPath(max_length=16)], user: CurrentUser = Depends(require_user)) -> Response:
    end_one(request, user, sid)
    return Response(status_code=204)


@api.post("/sessions/end-others", response_model=EndedOut, summary="End all my sessions but this one")
def api_end_others(request: Request, user: CurrentUser = Depends(require_user)) -> EndedOut:
    return EndedOut(ended=end_others(request, user))
