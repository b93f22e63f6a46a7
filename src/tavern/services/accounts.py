"""An account's e-mail address and the links sent to it (issue 39 §1, §2).

* An address is optional. Given at sign-up or on « Mon compte », it is used
  only once confirmed: a link (a random token, 24 hours) goes to it, and the
  token's row carries the address until then. Confirmed, it is
  ``users.email``, lower-cased, unique (one account an address); the old
  address, if any, is told of the change.
* « Mot de passe oublié » sends a link (a random token, one hour, single use)
  to the confirmed address of the account named by its address or its name.

Tokens: ``secrets.token_urlsafe(32)``; the database keeps their SHA-256 only,
and a token is found by its hash (no comparison of secrets in Python to
time). A row is deleted as its token is used: a link works once.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from tavern.refusal import Refusal
from tavern.services import outbox
from tavern.store.models import AccountToken, User, WebSession, utcnow

CONFIRM_HOURS = 24
RESET_HOURS = 1
MAX_EMAIL = 254
#: A practical address (RFC 5321's lengths, one @, a dotted domain, no
#: space, no angle bracket, no quote): what a person types, not every
#: address the RFCs allow.
EMAIL = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                   r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$")


class AccountError(Refusal, ValueError):
    """A refused change of an account: nothing changed."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def normal_email(text: str) -> str:
    """``text`` as an address to keep (trimmed, lower-cased), or refused."""
    address = text.strip().lower()
    if len(address) > MAX_EMAIL or not EMAIL.match(address) or ".." in address:
        raise AccountError("email_malformed")
    return address


def owner_of(session: Session, address: str) -> int | None:
    return session.scalar(select(User.id).where(User.email == address))


def _new_token(session: Session, user_id: int, purpose: str, hours: int, email: str | None = None) -> str:
    now = utcnow()
    session.execute(delete(AccountToken).where(AccountToken.expires <= now))  # sweep the dead links
    token = secrets.token_urlsafe(32)
    session.add(AccountToken(token_hash=token_hash(token), user_id=user_id, purpose=purpose, email=email,
                             created=now, expires=now + dt.timedelta(hours=hours)))
    return token


def ask_confirmation(session: Session, user: User, address: str, *, site: str, site_url: str) -> None:
    """Send a confirmation link to ``address`` (already normal) for ``user``.
    Refused when another account holds the address; asking again for his own
    confirmed address is refused too (nothing to confirm)."""
    holder = owner_of(session, address)
    if holder == user.id:
        raise AccountError("email_already_yours")
    if holder is not None:
        raise AccountError("email_taken")
    # One address waits at a time: the previous links of this kind are dropped.
    session.execute(delete(AccountToken).where(AccountToken.user_id == user.id, AccountToken.purpose == "email"))
    token = _new_token(session, user.id, "email", CONFIRM_HOURS, address)
    outbox.enqueue(session, "confirm", address, site=site, user_id=user.id, username=user.username,
                   link=f"{site_url}/courriel/confirmer?jeton={token}")


@dataclass(frozen=True)
class Link:
    """What a valid link is for: its account and (for a confirmation) its address."""

    user_id: int
    username: str
    email: str | None


def read_link(session: Session, token: str, purpose: str) -> Link | None:
    """The link ``token`` if it is one of ``purpose``, unused and unexpired."""
    if not token or len(token) > 100:
        return None
    row = session.execute(select(AccountToken, User.username, User.banned).join(User, User.id == AccountToken.user_id)
                          .where(AccountToken.token_hash == token_hash(token), AccountToken.purpose == purpose)).first()
    if row is None or row[0].expires <= utcnow() or row.banned:
        return None
    return Link(row[0].user_id, row.username, row[0].email)


def _use(session: Session, token: str, purpose: str, as_user: int | None) -> Link:
    """Consume the link (its row deleted in this transaction: a second use
    finds nothing). ``as_user``: the account of the browser using it, if
    logged in — another account's link is refused."""
    link = read_link(session, token, purpose)
    if link is None:
        raise AccountError("link_invalid")
    if as_user is not None and as_user != link.user_id:
        raise AccountError("link_other_account")
    done: Any = session.execute(delete(AccountToken).where(AccountToken.token_hash == token_hash(token)))
    if done.rowcount != 1:  # used by a parallel request meanwhile
        raise AccountError("link_invalid")
    return link


def confirm(session: Session, token: str, as_user: int | None, *, site: str) -> Link:
    """Confirm the address of the link: it becomes the account's; the old one is told."""
    link = _use(session, token, "email", as_user)
    assert link.email is not None
    holder = owner_of(session, link.email)
    if holder is not None and holder != link.user_id:
        raise AccountError("email_taken")
    user = session.get(User, link.user_id)
    assert user is not None
    old = user.email
    user.email = link.email
    session.flush()  # the unique constraint speaks now, inside the transaction
    if old and old != link.email:
        outbox.enqueue(session, "changed", old, site=site, user_id=user.id, username=user.username,
                       new=_masked(link.email))
    return link


def _masked(address: str) -> str:
    """``j***@example.org``: the old address learns that it changed, not to what in full."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}***@{domain}"


def remove_email(session: Session, user_id: int) -> None:
    user = session.get(User, user_id)
    if user is not None:
        user.email = None
    session.execute(delete(AccountToken).where(AccountToken.user_id == user_id, AccountToken.purpose == "email"))


def reset_target(session: Session, who: str) -> User | None:
    """The account « Mot de passe oublié » speaks of: by its confirmed address
    (with an @) or its name; None when there is none or it cannot get mail."""
    who = who.strip()
    if "@" in who:
        user = session.scalars(select(User).where(User.email == who.lower())).one_or_none()
    else:
        user = session.scalars(select(User).where(func.lower(User.username) == who.lower())).one_or_none()
    if user is None or user.banned or user.house or not user.email:
        return None
    return user


def send_reset(session: Session, user: User, *, site: str, site_url: str) -> None:
    assert user.email is not None
    token = _new_token(session, user.id, "reset", RESET_HOURS)
    outbox.enqueue(session, "reset", user.email, site=site, user_id=user.id, username=user.username,
                   link=f"{site_url}/mot-de-passe/nouveau?jeton={token}")


def reset_password(session: Session, token: str, new_hash: str, as_user: int | None, *, site: str) -> Link:
    """Set the password of the link's account (hashed before the transaction)
    and end every session of it; its other reset links die too."""
    link = _use(session, token, "reset", as_user)
    user = session.get(User, link.user_id)
    assert user is not None
    user.password_hash = new_hash
    session.execute(delete(WebSession).where(WebSession.user_id == user.id))
    session.execute(delete(AccountToken).where(AccountToken.user_id == user.id, AccountToken.purpose == "reset"))
    if user.email:
        outbox.enqueue(session, "password_reset", user.email, site=site, user_id=user.id, username=user.username)
    return link


def tell_owner(session: Session, user: User, kind: str, *, site: str) -> None:
    """Mail ``kind`` (a change of his credentials) to his confirmed address, if any."""
    if user.email:
        outbox.enqueue(session, kind, user.email, site=site, user_id=user.id, username=user.username)


def pending_email(session: Session, user_id: int) -> str | None:
    """The address waiting for its confirmation, if any."""
    return session.scalar(select(AccountToken.email).where(
        AccountToken.user_id == user_id, AccountToken.purpose == "email", AccountToken.expires > utcnow()))


def forget_account(session: Session, user_id: int) -> None:
    """At deletion: the address and every link go (RGPD)."""
    remove_email(session, user_id)
    session.execute(delete(AccountToken).where(AccountToken.user_id == user_id))
    outbox.forget_account(session, user_id)
