"""The mailer (issue 39 §3): sends the outbox's mails, never in a request.

One asyncio task per worker. It wakes when a request of this worker wrote
a mail (:meth:`Mailer.wake`, after the commit) and every few seconds anyway
(another worker's mails, the retries); it claims the due mails in a short
transaction, sends each through SMTP in a thread of its own — no
transaction, no connection held while the server answers — and writes down
what happened. A failure (server down, refused, slow past the timeout) is
tried again after a doubled wait (``mail_retry_seconds``, at most an hour),
given up after ``mail_max_attempts``; the admins' page « Courriers »
(routers/mails.py) shows both.

``TAVERN_SMTP_URL``: ``smtps://user:password@host:465`` (TLS from the first
byte) or ``smtp://user:password@host:587`` (STARTTLS, required — but
towards a loopback address, a relay on the same machine). Without it, each
mail is written to the log (and kept for the admins' page): ``make run``
works on one machine.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import ipaddress
import logging
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import format_datetime, formataddr, make_msgid
from urllib.parse import unquote, urlsplit

from sqlalchemy.orm import Session, sessionmaker

from tavern.services import outbox
from tavern.settings import Settings
from tavern.store.db import run_transaction

log = logging.getLogger("tavern.mail")

POLL_SECONDS = 5.0
SMTP_TIMEOUT = 20.0


class SmtpUrlError(ValueError):
    """``TAVERN_SMTP_URL`` cannot be used (said at the start, not at the first mail)."""


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class SmtpTransport:
    """One SMTP connection per mail, in the caller's thread (smtplib blocks)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise SmtpUrlError("TAVERN_SMTP_URL: smtp://host:587 (STARTTLS) or smtps://host:465 (TLS)")
        self.tls = parts.scheme == "smtps"
        self.host = parts.hostname
        self.port = parts.port or (465 if self.tls else 587)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        #: STARTTLS is required but towards this machine (a local relay, a test's server).
        self.must_starttls = not self.tls and not _loopback(self.host)
        self.context = ssl.create_default_context()

    def send(self, message: EmailMessage) -> None:
        client: smtplib.SMTP
        if self.tls:
            client = smtplib.SMTP_SSL(self.host, self.port, timeout=SMTP_TIMEOUT, context=self.context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=SMTP_TIMEOUT)
        with client:
            client.ehlo()
            if not self.tls and (self.must_starttls or client.has_extn("starttls")):
                client.starttls(context=self.context)  # refuses to go on in clear if it fails
                client.ehlo()
            if self.user:
                client.login(self.user, self.password or "")
            client.send_message(message)


def build_message(mail: outbox.Mail, settings: Settings) -> EmailMessage:
    message = EmailMessage()
    message["From"] = formataddr((settings.site_name, settings.mail_from))
    message["To"] = mail.to_addr
    message["Subject"] = mail.subject
    message["Date"] = format_datetime(dt.datetime.now(dt.UTC))
    domain = settings.mail_from.rpartition("@")[2] or "localhost"
    message["Message-ID"] = make_msgid(domain=domain)
    message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies
    message.set_content(mail.text)
    message.add_alternative(mail.html, subtype="html")
    return message


class Mailer:
    """The worker's mail sender: :meth:`start` in the lifespan, :meth:`close` at the stop."""

    def __init__(self, sessions: sessionmaker[Session], settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings
        self.transport = SmtpTransport(settings.smtp_url) if settings.smtp_url else None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake = asyncio.Event()

    @property
    def via(self) -> str:
        return "smtp" if self.transport else "journal"

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._stopping = False
        self._task = asyncio.create_task(self._run(), name="mailer")

    async def close(self) -> None:
        """Stop the task. Cancelled again until it is done: on Python 3.11 an
        ``asyncio.wait_for`` whose inner wait ends as the cancel comes swallows
        the cancel, and a single one left the lifespan's exit waiting forever."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._wake.set()
        while not task.done():
            task.cancel()
            await asyncio.wait({task}, timeout=1.0)
        if not task.cancelled() and task.exception() is not None:
            log.error("the mailer stopped on an error", exc_info=task.exception())

    def wake(self) -> None:
        """A mail was just committed: send it now (safe from a request's thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake.set)

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
            except TimeoutError:
                pass
            self._wake.clear()
            if self._stopping:
                return
            try:
                while not self._stopping and await self.send_due():
                    pass
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away: try again at the next round
                log.exception("the mailer could not read the outbox")

    async def send_due(self) -> int:
        """Send the mails due now; how many were tried."""
        now = dt.datetime.now(dt.UTC)
        mails = await asyncio.to_thread(run_transaction, self.sessions, lambda s: outbox.claim_due(s, now))
        for mail in mails:
            error = await self._send(mail)
            await asyncio.to_thread(run_transaction, self.sessions,
                                    functools.partial(self._record, mail, error, dt.datetime.now(dt.UTC)))
        return len(mails)

    def _record(self, mail: outbox.Mail, error: str | None, done: dt.datetime, session: Session) -> None:
        """Write down what became of ``mail``: sent, or a failed try."""
        if error is None:
            outbox.mark_sent(session, mail.id, done, self.via)
            return
        log.warning("mail %s to %s not sent: %s", mail.id, mail.to_addr, error)
        outbox.mark_failed(session, mail.id, done, error, self.settings.mail_retry_seconds,
                           self.settings.mail_max_attempts)

    async def _send(self, mail: outbox.Mail) -> str | None:
        """None when sent, else what went wrong."""
        if self.transport is None:
            log.info("mail (no SMTP server set: TAVERN_SMTP_URL) to %s: %s\n%s", mail.to_addr, mail.subject, mail.text)
            return None
        message = build_message(mail, self.settings)
        try:
            await asyncio.wait_for(asyncio.to_thread(self.transport.send, message), SMTP_TIMEOUT * 2)
        except (OSError, smtplib.SMTPException, TimeoutError) as exc:
            return f"{type(exc).__name__}: {exc}"
        return None
