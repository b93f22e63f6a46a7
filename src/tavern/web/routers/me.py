"""« Mes données » (issue 31 §4, docs/privacy.md): a player's data out as one
JSON archive, his account deleted, and the page saying what the tavern
keeps, why and for how long."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Depends, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.services import chat, rgpd, users
from tavern.store.models import User
from tavern.web.deps import CurrentUser, act, form_fields, read_db, require_user
from tavern.web.rendering import render
from tavern.web.routing import api_router, page_router
from tavern.web.session import get_session
from tavern.web.state import services

pages = page_router()
api = api_router("/api/me", "account")


class DeleteIn(BaseModel):
    password: str = Field(min_length=1, max_length=200)


def _archive(db: Session, user: CurrentUser) -> Response:
    row = db.get(User, user.id)
    assert row is not None  # require_user found him
    body = json.dumps(rgpd.export_data(db, row), ensure_ascii=False, indent=1)
    return Response(body, media_type="application/json; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="mes-donnees-{user.username}.json"'})


def _delete(request: Request, user: CurrentUser, password: str) -> str:
    def work(s: Session) -> str:
        row = s.get(User, user.id)
        if row is None or not users.verify_password(row.password_hash, password):
            raise rgpd.PrivacyError("delete_wrong_password")
        return rgpd.delete_account(s, user.id)

    done = act(request, work)
    services(request).ws_limits.end_sessions(user.id)  # his open table sockets too
    get_session(request).logout()
    return done


@pages.get("/mes-donnees")
def data_page(request: Request, user: CurrentUser = Depends(require_user)) -> Response:
    return render(request, "my_data.html", {"chat_days": chat.KEEP_DAYS})


@pages.get("/mes-donnees/archive")
def archive_download(user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> Response:
    return _archive(db, user)


@pages.post("/mes-donnees/supprimer")
def delete_form(request: Request, user: CurrentUser = Depends(require_user),
                form: dict[str, str] = Depends(form_fields)) -> Response:
    _delete(request, user, form.get("password", ""))
    get_session(request).flash(french("account_deleted"))
    return RedirectResponse("/", status_code=303)


@pages.get("/confidentialite")
def privacy_page(request: Request) -> Response:
    return render(request, "privacy.html", {"chat_days": chat.KEEP_DAYS})


@api.get("/data", summary="All my data, as one JSON archive (RGPD)")
def api_archive(user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> Response:
    return _archive(db, user)


@api.post("/delete", summary="Delete my account (RGPD): my name becomes a pseudonym, my login is gone")
def api_delete(request: Request, body: DeleteIn, user: CurrentUser = Depends(require_user)) -> dict[str, Any]:
    return {"deleted": True, "pseudonym": _delete(request, user, body.password)}
