"""The outbox (issue 39 §3): the mails of the site, kept in the database.

A mail is written in the same transaction as what it tells (a confirmation
link, a reset link, an address changed): it exists if and only if that
happened. The mailer (web/mailer.py) sends it later, outside any request and
any table: a slow or absent SMTP server never holds a player up. Every
worker's mailer may pick it; :func:`claim_due` moves a mail's ``next_try``
forward with a compare-and-set, so only one of them sends it.

The texts are in French, in text and in HTML, with the site's name; no
image, no tracking pixel, no redirecting link — the one link is the site's
own page.
"""

from __future__ import annotations

import datetime as dt
import html
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from tavern.catalogue import MAIL_WORDS, french
from tavern.store.models import OutboxMail, utcnow

#: Seconds a worker holds a mail it is sending before another may try it.
CLAIM_SECONDS = 120
#: The longest wait between two tries.
MAX_BACKOFF = 3600.0


@dataclass(frozen=True)
class Mail:
    """One mail, as the mailer sends it."""

    id: int
    to_addr: str
    subject: str
    text: str
    html: str


def _html(site: str, paragraphs: list[str], link: str | None, button: str | None) -> str:
    body = "".join(f"<p>{html.escape(p)}</p>\n" for p in paragraphs)
    if link and button:
        body += f'<p><a href="{html.escape(link, quote=True)}">{html.escape(button)}</a></p>\n'
        body += f"<p>{html.escape(french('mail_copy_link'))} {html.escape(link)}</p>\n"
    return (f'<!doctype html>\n<html lang="fr"><head><meta charset="utf-8"><title>{html.escape(site)}</title>'
            f"</head>\n<body>\n<h1>{html.escape(site)}</h1>\n{body}"
            f"<p>— {html.escape(site)}</p>\n</body></html>\n")


def _text(site: str, paragraphs: list[str], link: str | None) -> str:
    lines = [*paragraphs]
    if link:
        lines.append(link)
    return "\n\n".join([*lines, f"— {site}"]) + "\n"


#: The site's mails: kind → the catalogue's code of its text (paragraphs apart
#: by a blank line); ``MAIL_WORDS`` has its subject and, for a mail with a
#: link, its button.
KINDS: dict[str, str] = {"confirm": "mail_confirm_body", "changed": "mail_changed_body", "reset": "mail_reset_body",
                         "password_reset": "mail_password_reset_body", "password_changed": "mail_password_changed_body",
                         "totp_changed": "mail_totp_changed_body"}


def enqueue(session: Session, kind: str, to_addr: str, *, site: str, user_id: int | None,
            link: str | None = None, **params: Any) -> OutboxMail:
    """Write the mail ``kind`` (one of :data:`KINDS`) to ``to_addr``, due at once."""
    said = french(KINDS[kind], {"site": site, **params}).split("\n\n")
    subject = MAIL_WORDS[f"{kind}_subject"]
    button = MAIL_WORDS.get(f"{kind}_button")
    now = utcnow()
    mail = OutboxMail(user_id=user_id, to_addr=to_addr, subject=f"{subject} · {site}",
                      text=_text(site, said, link), html=_html(site, said, link, button),
                      created=now, next_try=now, attempts=0)
    session.add(mail)
    session.flush()
    return mail


def claim_due(session: Session, now: dt.datetime, limit: int = 20) -> list[Mail]:
    """Up to ``limit`` mails due now, each moved :data:`CLAIM_SECONDS` forward
    so that no other worker tries it while this one does."""
    rows = session.execute(select(OutboxMail.id, OutboxMail.next_try).where(
        OutboxMail.sent.is_(None), OutboxMail.given_up.is_(False), OutboxMail.next_try <= now)
        .order_by(OutboxMail.next_try, OutboxMail.id).limit(limit)).all()
    held = now + dt.timedelta(seconds=CLAIM_SECONDS)
    mine = []
    for mail_id, due in rows:
        done: Any = session.execute(update(OutboxMail).where(
            OutboxMail.id == mail_id, OutboxMail.next_try == due, OutboxMail.sent.is_(None))
            .values(next_try=held))
        if done.rowcount == 1:
            mine.append(mail_id)
    return [Mail(m.id, m.to_addr, m.subject, m.text, m.html)
            for m in session.scalars(select(OutboxMail).where(OutboxMail.id.in_(mine)).order_by(OutboxMail.id))]


def mark_sent(session: Session, mail_id: int, now: dt.datetime, via: str) -> None:
    """Sent. Through SMTP its bodies are blanked: a confirmation or reset
    link is a key, kept hashed in ``account_tokens`` and nowhere in clear
    once delivered. Written to the log (no SMTP server), the admins' page
    is where it is read, so it stays."""
    values: dict[str, object] = {"sent": now, "via": via, "attempts": OutboxMail.attempts + 1, "last_error": None}
    if via == "smtp":
        values.update(text="", html="")
    session.execute(update(OutboxMail).where(OutboxMail.id == mail_id).values(**values))


def mark_failed(session: Session, mail_id: int, now: dt.datetime, error: str,
                retry_seconds: float, max_attempts: int) -> None:
    """One more failed try: the next one after a doubled wait, or none after ``max_attempts``."""
    mail = session.get(OutboxMail, mail_id)
    if mail is None or mail.sent is not None:
        return
    mail.attempts += 1
    mail.last_error = error[:500]
    wait = min(retry_seconds * 2 ** (mail.attempts - 1), MAX_BACKOFF)
    mail.next_try = now + dt.timedelta(seconds=wait)
    mail.given_up = mail.attempts >= max_attempts


def retry(session: Session, mail_id: int) -> bool:
    """An admin asks a failed mail to go again now (« Réessayer »)."""
    done: Any = session.execute(update(OutboxMail).where(OutboxMail.id == mail_id, OutboxMail.sent.is_(None))
                                .values(given_up=False, next_try=utcnow()))
    return bool(done.rowcount)


def forget_account(session: Session, user_id: int) -> None:
    """His mails go with his account (RGPD): their addresses and links."""
    session.execute(delete(OutboxMail).where(OutboxMail.user_id == user_id))


def recent(session: Session, limit: int = 100) -> list[OutboxMail]:
    """The admins' page: the latest mails, failures first."""
    return list(session.scalars(select(OutboxMail).order_by(
        OutboxMail.sent.is_not(None), OutboxMail.id.desc()).limit(limit)))
