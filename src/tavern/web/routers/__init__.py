"""One module per feature; each offers ``pages`` (HTML) and ``api`` (JSON under /api)."""

from __future__ import annotations

from fastapi import APIRouter

from tavern.web.routers import (
    account,
    admin,
    auth,
    boards,
    contests,
    docs,
    health,
    history,
    me,
    premium,
    profile,
    records,
    surveillance,
    tavern,
    village,
)

ROUTERS: list[APIRouter] = []
for _module in (health, auth, village, account, history, records, profile, boards, me, premium, tavern, admin,
                surveillance, contests, docs):
    ROUTERS.extend(r for r in (getattr(_module, "pages", None), getattr(_module, "api", None)) if r)
