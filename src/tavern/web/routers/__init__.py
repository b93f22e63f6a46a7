"""One module per feature; each offers ``pages`` (HTML) and ``api`` (JSON under /api)."""

from __future__ import annotations

from fastapi import APIRouter

from tavern.web.routers import (
    account,
    admin,
    adminlog,
    auth,
    boards,
    chat,
    contests,
    docs,
    engine_room,
    health,
    history,
    house,
    invitations,
    mails,
    me,
    metrics,
    my_sessions,
    practice,
    premium,
    profile,
    records,
    recovery,
    surveillance,
    tavern,
    twofactor,
    village,
    waiting,
)

ROUTERS: list[APIRouter] = []
for _module in (health, metrics, auth, recovery, twofactor, village, account, history, records, profile, boards, me,
                my_sessions, premium, practice, tavern, invitations, admin, adminlog, mails, house, engine_room,
                surveillance, contests, chat, waiting, docs):
    ROUTERS.extend(r for r in (getattr(_module, "pages", None), getattr(_module, "api", None),
                               getattr(_module, "admin_api", None), getattr(_module, "owner_api", None)) if r)
