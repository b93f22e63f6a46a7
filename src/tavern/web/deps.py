"""FastAPI dependencies: database sessions, who is asking, what he may see."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from fastapi import Depends, HTTPException, Request
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.store.db import run_transaction
from tavern.store.models import Tavern, User
from tavern.web.session import get_session

T = TypeVar("T")

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


def _load_user(request: Request, db: Session) -> User | None:
    uid = get_session(request).user_id
    user = db.get(User, uid) if uid is not None else None
    if uid is not None and user is None:
        get_session(request).logout()  # the account is gone: forget it
    request.state.user = user
    request.state.owns_tavern = bool(
        user and db.scalar(select(Tavern.id).where(Tavern.owner_id == user.id).limit(1)))
    return user


def optional_user(request: Request, db: Session = Depends(read_db)) -> User | None:
    """The logged-in user, or None for a visitor."""
    return _load_user(request, db)


def require_user(request: Request, db: Session = Depends(read_db)) -> User:
    user = _load_user(request, db)
    if user is None:
        raise HTTPException(status_code=401, detail=LOGIN_REQUIRED)
    return user


def require_admin(user: User = Depends(require_user)) -> User:
    if user.role != "admin":
        raise HTTPException(status_code=403, detail=ADMIN_ONLY)
    return user


def owned_tavern(db: Session, user: User, tavern_id: int) -> Tavern:
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
