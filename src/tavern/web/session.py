"""The signed session cookie, and the server-side sessions behind it.

The cookie holds a small JSON object signed with itsdangerous: the user id and
the session's random token (or nothing for a visitor), the CSRF token tied to
this session, and at most a few flash messages. It is HttpOnly (scripts cannot
read it), SameSite=Lax (not sent on cross-site POSTs) and Secure when the site
is served over https.

A logged-in cookie is only worth something while its session row exists
(table ``web_sessions``, keyed by the SHA-256 of the token): logging out,
"log out everywhere", a password change and an admin's ban delete rows, and
the cookies they belonged to stop working at once — a cookie saved before a
logout used to keep working for its fourteen days.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from tavern.store.models import User, WebSession, utcnow

COOKIE_NAME = "tavern_session"
MAX_AGE = 14 * 24 * 3600  # two weeks, then log in again
#: The time to give the second factor after the password, then the password again.
PENDING_SECONDS = 300


@dataclass
class SessionData:
    """What one browser session carries between requests."""

    user_id: int | None = None
    #: The server-side session's token (its row is keyed by its hash).
    token: str | None = None
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    flashes: list[tuple[str, str]] = field(default_factory=list)
    dirty: bool = False
    #: Two-factor sign-in (issue 39 §4): the account whose password was
    #: right, waiting for its code, and since when (epoch seconds) — not
    #: logged in: no server-side session exists yet.
    pending: int | None = None
    pending_at: int = 0

    def login(self, user_id: int, token: str) -> None:
        # A fresh CSRF token at each login: a token seen before login (for
        # instance planted by an attacker) is useless afterwards.
        self.user_id = user_id
        self.token = token
        self.pending, self.pending_at = None, 0
        self.csrf = secrets.token_urlsafe(32)
        self.dirty = True

    def await_code(self, user_id: int, now: int) -> None:
        """The password was right; the code comes next (a fresh CSRF token too)."""
        self.user_id = self.token = None
        self.pending, self.pending_at = user_id, now
        self.csrf = secrets.token_urlsafe(32)
        self.dirty = True

    def awaiting(self, now: int) -> int | None:
        """The account waiting for its code, if it has waited less than :data:`PENDING_SECONDS`."""
        if self.pending is not None and 0 <= now - self.pending_at < PENDING_SECONDS:
            return self.pending
        return None

    def logout(self) -> None:
        self.user_id = None
        self.token = None
        self.pending, self.pending_at = None, 0
        self.csrf = secrets.token_urlsafe(32)
        self.dirty = True

    def flash(self, message: str, kind: str = "ok") -> None:
        self.flashes.append((kind, message))
        self.dirty = True

    def pop_flashes(self) -> list[tuple[str, str]]:
        out, self.flashes = self.flashes, []
        if out:
            self.dirty = True
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"u": self.user_id, "t": self.token, "c": self.csrf, "f": self.flashes[-5:]}
        if self.pending is not None:
            out["p"] = [self.pending, self.pending_at]
        return out

    @classmethod
    def from_json(cls, data: Any) -> SessionData:
        if not isinstance(data, dict):
            raise ValueError("bad session")
        uid = data.get("u")
        token = data.get("t")
        csrf = data.get("c")
        if (uid is not None and not isinstance(uid, int)) or not isinstance(csrf, str) or not csrf:
            raise ValueError("bad session")
        if not isinstance(token, str) or uid is None:
            uid = token = None  # a cookie from before server-side sessions: logged out
        flashes = [(str(k), str(m)) for k, m in data.get("f") or []]
        pending = data.get("p")
        if not (isinstance(pending, list) and len(pending) == 2 and all(type(x) is int for x in pending)):
            pending = [None, 0]
        return cls(user_id=uid, token=token, csrf=csrf, flashes=flashes, pending=pending[0], pending_at=pending[1])


class SessionCodec:
    """Signs and reads the session cookie with the site's secret key."""

    def __init__(self, secret_key: str) -> None:
        self._ser = URLSafeTimedSerializer(secret_key, salt="tavern-session")

    def load(self, request: HTTPConnection) -> SessionData:  # a request or a table socket
        raw = request.cookies.get(COOKIE_NAME)
        if raw:
            try:
                return SessionData.from_json(self._ser.loads(raw, max_age=MAX_AGE))
            except (BadSignature, ValueError, TypeError):
                pass  # tampered, expired or from an old secret: start afresh
        sess = SessionData()
        sess.dirty = True
        return sess

    def save(self, request: Request, response: Response, sess: SessionData) -> None:
        response.set_cookie(
            COOKIE_NAME,
            self._ser.dumps(sess.to_json()),
            max_age=MAX_AGE,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            path="/",
        )


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(db: Session, user_id: int, user_agent: str = "", network: str = "") -> str:
    """A new server-side session for ``user_id``; its token goes in the cookie.
    The user's expired sessions are swept on the way."""
    now = utcnow()
    db.execute(delete(WebSession).where(WebSession.user_id == user_id, WebSession.expires <= now))
    token = secrets.token_urlsafe(32)
    db.add(WebSession(token_hash=token_hash(token), user_id=user_id, created=now,
                      expires=now + dt.timedelta(seconds=MAX_AGE), user_agent=user_agent[:200] or None,
                      network=network[:50] or None, last_seen=now))
    return token


#: Who a cookie speaks for: (id, username, role, level).
SessionUser = tuple[int, str, str, int]


def session_users(db: Session, cookies: list[tuple[int, str]],
                  idle: dt.timedelta | None = None) -> dict[tuple[int, str], SessionUser]:
    """For each cookie's (user id, session token), the user it speaks for
    while the session still exists, is this user's and unexpired (nor idle
    longer than ``idle``: « Mes sessions »), and the account is not banned;
    a cookie failing any of these is absent. One
    statement for them all: every page asks, and every table socket — a
    restart's thousands of reconnections at once (web/ws.py batches them)."""
    hashes = {token_hash(token) for _, token in cookies if token}
    if not hashes:
        return {}
    now = utcnow()
    live = {r.token_hash: r for r in db.execute(
        select(User.id, User.username, User.role, User.level, WebSession.token_hash, WebSession.expires,
               WebSession.created, WebSession.last_seen)
        .join(WebSession, WebSession.user_id == User.id)
        .where(WebSession.token_hash.in_(list(hashes)), User.banned.is_(False)))
        if r.expires > now and (idle is None or (r.last_seen or r.created) + idle > now)}
    out = {}
    for uid, token in cookies:
        r = live.get(token_hash(token)) if token else None
        if r is not None and r.id == uid:  # the session is this user's
            out[uid, token] = (r.id, r.username, r.role, r.level)
    return out


def session_user(db: Session, user_id: int, token: str | None,
                 idle: dt.timedelta | None = None) -> SessionUser | None:
    """:func:`session_users` for one cookie."""
    if not token:
        return None
    return session_users(db, [(user_id, token)], idle).get((user_id, token))


#: « Last seen » is written at most this often a session (not a write per page).
SEEN_EVERY = dt.timedelta(seconds=60)


def last_seen(db: Session, token: str) -> dt.datetime | None:
    return db.scalar(select(WebSession.last_seen).where(WebSession.token_hash == token_hash(token)))


def seen(db: Session, token: str, now: dt.datetime) -> None:
    """The session ``token`` was used at ``now`` (« Mes sessions », the idle expiry)."""
    db.execute(update(WebSession).where(WebSession.token_hash == token_hash(token)).values(last_seen=now))


def end_session(db: Session, token: str | None) -> None:
    if token:
        db.execute(delete(WebSession).where(WebSession.token_hash == token_hash(token)))


def end_all_sessions(db: Session, user_id: int, keep: str | None = None) -> int:
    """End every session of ``user_id`` (but ``keep``'s): how many ended."""
    query = delete(WebSession).where(WebSession.user_id == user_id)
    if keep:
        query = query.where(WebSession.token_hash != token_hash(keep))
    result: Any = db.execute(query)  # a DELETE's CursorResult
    return result.rowcount or 0


def get_session(request: Request) -> SessionData:
    """The current request's session (loaded by the middleware in ``app.py``;
    a blank one if an error page is drawn before the middleware ran)."""
    sess = getattr(request.state, "session", None)
    if sess is None:
        sess = request.state.session = SessionData()
    return sess
