"""The signed session cookie.

The cookie holds a small JSON object signed with itsdangerous: the user id (or
nothing for a visitor), the CSRF token tied to this session, and at most a few
flash messages. It is HttpOnly (scripts cannot read it), SameSite=Lax (not sent
on cross-site POSTs) and Secure when the site is served over https.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from itsdangerous import BadSignature, URLSafeTimedSerializer
from starlette.requests import Request
from starlette.responses import Response

COOKIE_NAME = "tavern_session"
MAX_AGE = 14 * 24 * 3600  # two weeks, then log in again


@dataclass
class SessionData:
    """What one browser session carries between requests."""

    user_id: int | None = None
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    flashes: list[tuple[str, str]] = field(default_factory=list)
    dirty: bool = False

    def login(self, user_id: int) -> None:
        # A fresh CSRF token at each login: a token seen before login (for
        # instance planted by an attacker) is useless afterwards.
        self.user_id = user_id
        self.csrf = secrets.token_urlsafe(32)
        self.dirty = True

    def logout(self) -> None:
        self.user_id = None
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
        return {"u": self.user_id, "c": self.csrf, "f": self.flashes[-5:]}

    @classmethod
    def from_json(cls, data: Any) -> "SessionData":
        if not isinstance(data, dict):
            raise ValueError("bad session")
        uid = data.get("u")
        csrf = data.get("c")
        if (uid is not None and not isinstance(uid, int)) or not isinstance(csrf, str) or not csrf:
            raise ValueError("bad session")
        flashes = [(str(k), str(m)) for k, m in data.get("f") or []]
        return cls(user_id=uid, csrf=csrf, flashes=flashes)


class SessionCodec:
    """Signs and reads the session cookie with the site's secret key."""

    def __init__(self, secret_key: str) -> None:
        self._ser = URLSafeTimedSerializer(secret_key, salt="tavern-session")

    def load(self, request: Request) -> SessionData:
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


def get_session(request: Request) -> SessionData:
    """The current request's session (loaded by the middleware in ``app.py``;
    a blank one if an error page is drawn before the middleware ran)."""
    sess = getattr(request.state, "session", None)
    if sess is None:
        sess = request.state.session = SessionData()
    return sess
