"""A real SMTP server for the mail tests (aiosmtpd), and reading what it got.

The site sends through it exactly as through a provider's: smtplib, a TCP
connection, the SMTP dialogue. Nothing of the sending code is replaced.
"""

from __future__ import annotations

import email
import email.policy
import re
import socket
import threading
from email.message import EmailMessage

from aiosmtpd.controller import Controller

LINK = re.compile(r"https?://\S+?jeton=[A-Za-z0-9_-]+")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Inbox:
    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.changed = threading.Condition()

    async def handle_DATA(self, server, session, envelope) -> str:
        message = email.message_from_bytes(envelope.original_content or envelope.content,
                                           policy=email.policy.default)
        with self.changed:
            self.mails.append(message)  # type: ignore[arg-type]
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self.changed.notify_all()
        return "250 OK"


class MailServer:
    """aiosmtpd on 127.0.0.1:``port``, started and stopped by the test."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.inbox = _Inbox()
        self.controller: Controller | None = None

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self) -> MailServer:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    @property
    def mails(self) -> list[EmailMessage]:
        with self.inbox.changed:
            return list(self.inbox.mails)

    def wait_for(self, count: int, timeout: float = 60.0) -> list[EmailMessage]:
        """The first ``count`` mails, once they arrived (a generous limit: a busy machine passes)."""
        with self.inbox.changed:
            ok = self.inbox.changed.wait_for(lambda: len(self.inbox.mails) >= count, timeout)
            assert ok, f"{len(self.inbox.mails)} mail(s) received, {count} awaited"
            return list(self.inbox.mails[:count])


def parts(message: EmailMessage) -> tuple[str, str]:
    """The mail's text and HTML bodies."""
    text = message.get_body(("plain",))
    html = message.get_body(("html",))
    assert text is not None and html is not None, "a mail has a text and an HTML part"
    return text.get_content(), html.get_content()


def link_of(message: EmailMessage) -> str:
    """The one link of a mail's text, as its reader follows it: the site's path and query."""
    text, _ = parts(message)
    found = LINK.findall(text)
    assert len(found) == 1, text
    return re.sub(r"^https?://[^/]+", "", found[0])
