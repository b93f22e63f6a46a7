"""FastAPI dependencies: database sessions, who is asking, what he may see."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, TypeVar

from fastapi import Depends, HTTPException, Path, Request
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.store.db import run_transaction
from tavern.store.models import Tavern, User
from tavern.web.session import get_session

T = TypeVar("T")

#: Database ids fit a signed 32-bit integer; a larger number in a URL or a
#: body is refused at the door (422) instead of overflowing the database.
MAX_ID = 2**31 - 1
#: Any amount of écus or chips a form or a JSON body may carry.
MAX_AMOUNT = 10**12
Id = Annotated[int, Path(ge=1, le=MAX_ID)]

LOGIN_REQUIRED = "Connectez-vous pour accéder à cette page."
ADMIN_ONLY = "Réservé aux administrateurs du site."
NOT_YOUR_TAVERN = "Cette taverne ne vous appartient pas."


def read_db(request: Request) -> Iterator[Session]:
    """A read-only unit of work (deferred BEGIN on SQLite: never blocks writers)."""
    with request.app.state.read_sessions() as session, session.begin():
        yield session


def write(request: Request, work: Callable[[Session], T]) -> T:
    """Run ``work`` in one write transaction, retried when the database asks to."""
    return run_transaction(request.app.state.write_sessions, work)


@dataclass(frozen=True)
class CurrentUser:
    """Who is asking, copied out of the database row: it stays readable after
    the request's session is closed or rolled back (error pages use it)."""

    id: int
    username: str
    role: str
    level: int

    @classmethod
    def of(cls, user: User) -> "CurrentUser":
        return cls(id=user.id, username=user.username, role=user.role, level=user.level)


def _load_user(request: Request, db: Session) -> CurrentUser | None:
    uid = get_session(request).user_id
    row = db.get(User, uid) if uid is not None else None
    if uid is not None and row is None:
        get_session(request).logout()  # the account is gone: forget it
    user = CurrentUser.of(row) if row else None
    request.state.user = user
    request.state.owns_tavern = bool(
        user and db.scalar(select(Tavern.id).where(Tavern.owner_id == user.id).limit(1)))
    return user


def optional_user(request: Request, db: Session = Depends(read_db)) -> CurrentUser | None:
    """The logged-in user, or None for a visitor."""
    return _load_user(request, db)


def require_user(request: Request, db: Session = Depends(read_db)) -> CurrentUser:
    user = _load_user(request, db)
    if user is None:
        raise HTTPException(status_code=401, detail=LOGIN_REQUIRED)
    return user


def require_admin(user: CurrentUser = Depends(require_user)) -> CurrentUser:
    if user.role != "admin":
        raise HTTPException(status_code=403, detail=ADMIN_ONLY)
    return user


def owned_tavern(db: Session, user: CurrentUser, tavern_id: int) -> Tavern:
    """The tavern ``tavern_id`` if ``user`` owns it: 404 if absent, 403 if not his."""
    tavern = db.get(Tavern, tavern_id)
    if tavern is None:
        raise HTTPException(status_code=404, detail="Cette taverne n'existe pas.")
    if tavern.owner_id != user.id:
        raise HTTPException(status_code=403, detail=NOT_YOUR_TAVERN)
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
