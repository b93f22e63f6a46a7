"""The admin log (issue 39 §6): every action of an admin on an account —
a credit, a change of level or role, a ban or its lifting, a chat mute, a
two-factor sign-in lifted — with who, when, what and why.

Written in the transaction of the action itself: a line exists if and only
if the action happened. Shown to the admins (« Journal », routers/adminlog.py)
and in the RGPD export of the account concerned (services/rgpd.py). Lines
say no personal data beyond the two accounts: at an account's deletion its
lines stay (the admins answer for what they did), under its pseudonym.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from tavern.store.models import AdminAction, User, utcnow

MAX_REASON = 500
#: The actions written, as the page and the export name them.
ACTIONS = ("credit", "level", "role", "ban", "unban", "mute", "2fa_lifted")


def record(session: Session, admin_id: int, user_id: int, action: str, detail: str = "", reason: str = "") -> None:
    assert action in ACTIONS, action
    session.add(AdminAction(created=utcnow(), admin_id=admin_id, user_id=user_id, action=action,
                            detail=detail[:300], reason=reason.strip()[:MAX_REASON]))


def _lines(session: Session, where: Any, limit: int) -> list[dict[str, Any]]:
    admin, target = aliased(User), aliased(User)
    rows = session.execute(
        select(AdminAction, admin.username, target.username)
        .outerjoin(admin, admin.id == AdminAction.admin_id).outerjoin(target, target.id == AdminAction.user_id)
        .where(where).order_by(AdminAction.id.desc()).limit(limit)).all()
    return [{"at": a.created.isoformat(), "admin": by or "—", "account": who or "—", "action": a.action,
             "detail": a.detail, "reason": a.reason} for a, by, who in rows]


def recent(session: Session, limit: int = 200) -> list[dict[str, Any]]:
    """The latest lines, newest first (the admins' page)."""
    return _lines(session, AdminAction.id.is_not(None), limit)


def about(session: Session, user_id: int) -> list[dict[str, Any]]:
    """Every line about ``user_id`` (his RGPD export)."""
    return _lines(session, AdminAction.user_id == user_id, 10_000)
