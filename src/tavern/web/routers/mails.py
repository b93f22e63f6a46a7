"""The admins' page « Courriers » (issue 39 §3): the outbox — what was sent,
what waits, what failed and why, and « Réessayer » for a mail given up.

Without an SMTP server (``TAVERN_SMTP_URL`` unset) the mails are written to
the log and their texts shown here, so that a demo on one machine reads its
confirmation and reset links. With one, only who, what and when are shown:
a reset link is its account's key, and an admin has no use for it.
"""

from __future__ import annotations

import datetime as dt

from fastapi import Depends, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel
from sqlalchemy.orm import Session

from tavern.catalogue import MAIL_WORDS, french
from tavern.refusal import Refusal
from tavern.services import outbox
from tavern.store.models import OutboxMail
from tavern.web.deps import CurrentUser, Id, read_db, require_admin, write
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.routing import api_router, page_router
from tavern.web.session import get_session
from tavern.web.state import services

pages = page_router("/admin")
api = api_router("/api/admin", "administration")


class MailOut(BaseModel):
    id: int
    to: str
    subject: str
    created: dt.datetime
    status: str
    attempts: int
    sent: dt.datetime | None
    via: str | None
    last_error: str | None
    text: str | None


def _status(m: OutboxMail) -> str:
    """``sent``, ``waiting``, ``failing`` (tried again later) or ``abandoned``."""
    if m.sent is not None:
        return "sent"
    if m.given_up:
        return "abandoned"
    return "failing" if m.attempts else "waiting"


def mails_out(request: Request, db: Session) -> list[MailOut]:
    journal = not services(request).settings.smtp_url  # the texts are shown only then
    return [MailOut(id=m.id, to=m.to_addr, subject=m.subject, created=m.created, status=_status(m),
                    attempts=m.attempts, sent=m.sent, via=m.via, last_error=m.last_error,
                    text=m.text if journal else None) for m in outbox.recent(db)]


STATUS_LABELS = {status: MAIL_WORDS[f"status_{status}"] for status in ("sent", "waiting", "failing", "abandoned")}


@pages.get("/courriers")
def mails_page(request: Request, _: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> Response:
    return render(request, "admin/mails.html", {"mails": mails_out(request, db), "labels": STATUS_LABELS,
                                                "journal": not services(request).settings.smtp_url})


@pages.post("/courriers/{mail_id}/reessayer")
def retry_form(request: Request, mail_id: Id, _: CurrentUser = Depends(require_admin)) -> Response:
    if not write(request, lambda s: outbox.retry(s, mail_id)):
        raise Refused(404, Refusal("no_such_mail"))
    services(request).mailer.wake()
    get_session(request).flash(french("mail_retried"))
    return RedirectResponse("/admin/courriers", status_code=303)


@api.get("/mails", response_model=list[MailOut], summary="The outbox: sent, waiting and failed mails")
def api_mails(request: Request, _: CurrentUser = Depends(require_admin),
              db: Session = Depends(read_db)) -> list[MailOut]:
    return mails_out(request, db)


@api.post("/mails/{mail_id}/retry", status_code=204, summary="Try a mail not sent again now")
def api_retry(request: Request, mail_id: Id, _: CurrentUser = Depends(require_admin)) -> Response:
    if not write(request, lambda s: outbox.retry(s, mail_id)):
        raise Refused(404, Refusal("no_such_mail"))
    services(request).mailer.wake()
    return Response(status_code=204)
