"""FastAPI dependencies: database sessions, who is asking, what he may see."""

from __future__ import annotations

import datetime as dt
import functools
import inspect
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, HTTPException, Path, Request
from fastapi.routing import APIRoute
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.bounds import MAX_ID
from tavern.refusal import Refusal
from tavern.settings import Settings
from tavern.store.batch import Batched
from tavern.store.db import run_transaction
from tavern.store.models import Tavern, User, utcnow
from tavern.web.refusals import Refused
from tavern.web.session import (
    SEEN_EVERY,
    SessionData,
    SessionUser,
    get_session,
    last_seen,
    seen,
    session_user,
    session_users,
)
from tavern.web.state import services

T = TypeVar("T")

#: An id in a URL (tavern.bounds: every number of a request is bounded there);
#: a larger one is refused at the door (422) instead of overflowing the database.
Id = Annotated[int, Path(ge=1, le=MAX_ID)]

def site_settings(request: Request) -> Settings:
    """The site's settings: the app factory's (``services(request).settings``), never
    the environment read again; tests build the app with their own."""
    settings: Settings = services(request).settings
    return settings


#: A route's parameter receiving the site's settings.
SiteSettings = Annotated[Settings, Depends(site_settings)]



async def read_db(request: Request) -> AsyncIterator[Session]:
    """A read-only unit of work (deferred BEGIN on SQLite: never blocks writers).

    Its connection is taken at the first query and given back by :func:`write`
    before a write transaction starts: a request never holds two connections
    (with more request threads than pooled connections, requests each holding
    one and waiting for a second one froze the whole site).

    The route gives the connection back as it returns (:class:`ReadRoute`);
    this teardown, which FastAPI runs only after the answer is sent, is the
    net for the rest. Async on purpose: a sync teardown would queue for a
    request thread of its own."""
    session = services(request).read_sessions()
    request.state.read_db = session
    try:
        yield session
    finally:
        request.state.read_db = None
        session.close()


def _released_after(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """``endpoint``, closing its read sessions as it returns, in its own thread.

    FastAPI validates a sync route's answer in a second trip to the thread
    pool and only then runs the dependencies' teardown; a route that kept its
    read connection across that trip held it while every other queued request
    waited for a thread. A burst of a hundred requests then left finished
    routes holding the whole pool and a fresh route waiting out the pool
    timeout: a 503. Closed here, a request thread gives its connection back
    before it lets go of the thread, so the pool (one connection per thread)
    is never short. What the route returns is already built: answers are
    pydantic models or rendered pages, never rows read lazily afterwards."""
    if inspect.iscoroutinefunction(endpoint):
        return endpoint  # async routes do their database work in threads of their own

    @functools.wraps(endpoint)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return endpoint(*args, **kwargs)
        finally:
            for value in kwargs.values():
                if isinstance(value, Session):
                    value.close()

    return run


class ReadRoute(APIRoute):
    """Every route of the site: see :func:`_released_after`."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, _released_after(endpoint), **kwargs)


def release_reads(request: Request) -> None:
    """End the request's read transaction, if any, so that its pooled
    connection goes back before another is taken. The read session stays
    usable: its next query starts a fresh transaction (and sees the write)."""
    held: Session | None = getattr(request.state, "read_db", None)
    if held is not None:
        held.rollback()


def write(request: Request, work: Callable[[Session], T]) -> T:
    """Run ``work`` in one write transaction, retried when the database asks to."""
    release_reads(request)
    return run_transaction(services(request).write_sessions, work)


@dataclass(frozen=True)
class CurrentUser:
    """Who is asking, copied out of the database row: it stays readable after
    the request's session is closed or rolled back (error pages use it)."""

    id: int
    username: str
    role: str
    level: int

    @classmethod
    def of(cls, user: User) -> CurrentUser:
        return cls(id=user.id, username=user.username, role=user.role, level=user.level)


def _resolve(db: Session, sess: SessionData, idle: dt.timedelta | None = None) -> CurrentUser | None:
    if sess.user_id is None:
        return None
    found = session_user(db, sess.user_id, sess.token, idle)
    return CurrentUser(*found) if found is not None else None


def socket_users(read_sessions: Callable[[], Session],
                 idle: dt.timedelta | None = None) -> Batched[tuple[int, str], SessionUser]:
    """Who the table sockets' cookies speak for (web/ws.py), the cookies of
    sockets opening at the same moment looked up in one statement
    (store/batch.py: each answer read after it was asked, so a session
    ended before is never accepted)."""
    def fetch(cookies: list[tuple[int, str]]) -> dict[tuple[int, str], SessionUser]:
        with read_sessions() as db:
            return session_users(db, cookies, idle)

    return Batched(fetch)


def _load_user(request: Request) -> CurrentUser | None:
    """Who is asking, read in a short transaction of its own whose connection
    is back in the pool before the route takes one (one connection at a time)."""
    sess = get_session(request)
    user, owns, stale = None, False, False
    if sess.user_id is not None:
        idle = dt.timedelta(hours=services(request).settings.session_idle_hours)
        now = utcnow()
        with services(request).read_sessions() as db:
            user = _resolve(db, sess, idle)
            owns = bool(user and db.scalar(select(Tavern.id).where(Tavern.owner_id == user.id).limit(1)))
            if user is not None and sess.token:
                seen_at = last_seen(db, sess.token)
                stale = seen_at is None or now - seen_at >= SEEN_EVERY
        if user is None:
            sess.logout()  # logged out elsewhere, banned, idle, or the account is gone: forget it
        elif stale and sess.token:  # « Mes sessions »: last seen, at most once a minute
            token = sess.token
            run_transaction(services(request).write_sessions, lambda s: seen(s, token, now))
    request.state.user, request.state.owns_tavern = user, owns
    return user


def optional_user(request: Request) -> CurrentUser | None:
    """The logged-in user, or None for a visitor."""
    return _load_user(request)


def require_user(request: Request) -> CurrentUser:
    user = _load_user(request)
    if user is None:
        raise Refused(401, Refusal("login_required"))
    return user


def require_admin(user: CurrentUser = Depends(require_user)) -> CurrentUser:
    if user.role != "admin":
        raise Refused(403, Refusal("admin_only"))
    return user


def owned_tavern(db: Session, user: CurrentUser, tavern_id: int) -> Tavern:
    """The tavern ``tavern_id`` if ``user`` owns it: 404 if absent, 403 if not his."""
    tavern = db.get(Tavern, tavern_id)
    if tavern is None:
        raise Refused(404, Refusal("no_such_tavern"))
    if tavern.owner_id != user.id:
        raise Refused(403, Refusal("not_your_tavern"))
    return tavern


def client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def act(request: Request, work: Callable[[Session], T]) -> T:
    """Like :func:`write`, but a service's refusal becomes a 4xx with its
    reason; the transaction is rolled back, so nothing changed."""
    from tavern.web.refusals import refusal

    try:
        return write(request, work)
    except HTTPException:
        raise
    except Exception as exc:
        http = refusal(exc)
        if http is None:
            raise
        raise http from None


async def form_fields(request: Request) -> dict[str, str]:
    """A posted form's text fields (files ignored); empty for a malformed body."""
    try:
        form = await request.form()
    except Exception:
        return {}
    return {k: v for k, v in form.items() if isinstance(v, str)}
