"""Throttles shared by every server process: counters in the database.

An attempt is counted *before* the work it limits (checking a password,
hashing a new one), in one atomic ``INSERT … ON CONFLICT DO UPDATE …
RETURNING`` — on SQLite and PostgreSQL alike. Thirty parallel logins cannot
all slip past the check anymore (they checked 29 wrong passwords and then
logged in when the count came after the hash and lived in each process).

Each key counts in a fixed window that starts at its first attempt.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from sqlalchemy import delete, text
from sqlalchemy.orm import Session, sessionmaker

from tavern.store.db import run_transaction
from tavern.store.models import Throttle

_HIT = text("""
INSERT INTO throttles (key, count, reset_at) VALUES (:key, 1, :reset)
ON CONFLICT (key) DO UPDATE SET
  count = CASE WHEN throttles.reset_at <= :now THEN 1 ELSE throttles.count + 1 END,
  reset_at = CASE WHEN throttles.reset_at <= :now THEN :reset ELSE throttles.reset_at END
RETURNING count, reset_at
""")

#: Logging in: 5 attempts per name and per address in 5 minutes (a correct
#: password gives its attempt back).
LOGIN_LIMIT, LOGIN_WINDOW = 5, 300
#: Signing up: ``settings.signups_per_hour`` accounts per address an hour.
SIGNUP_WINDOW = 3600
PURGE_EVERY = 10.0  #: seconds between two sweeps of expired counters


class Throttles:
    """Atomic counters per key in the ``throttles`` table."""

    def __init__(self, sessions: sessionmaker[Session],
                 clock: Callable[[], float] = time.time) -> None:
        self.sessions = sessions
        self.clock = clock
        self._last_purge = 0.0
        self._lock = threading.Lock()

    def hit(self, keys: tuple[str, ...], limit: int, window: int) -> int:
        """Count one attempt on each key; the seconds to wait if any key is
        now over ``limit`` (the attempt must not go on), else 0."""
        wait = run_transaction(self.sessions, lambda s: self.hit_in(s, keys, limit, window))
        self._purge(int(self.clock()))
        return wait

    def hit_in(self, session: Session, keys: tuple[str, ...], limit: int, window: int) -> int:
        """:meth:`hit` in the caller's transaction: the attempt counts only if
        it commits (a chat message: the count and the message together). The
        expired counters are swept by :meth:`hit`'s callers (logins, sign-ups),
        never inside another's transaction (SQLite's write lock is held);
        a chat counter is one row an account."""
        now = int(self.clock())
        wait = 0
        for key in keys:
            count, reset_at = session.execute(_HIT, {"key": key[:200], "now": now, "reset": now + window}).one()
            if count > limit:
                wait = max(wait, int(reset_at) - now, 1)
        return wait

    def give_back(self, key: str) -> None:
        """The attempt on ``key`` was not a failure: uncount it."""
        def work(s: Session) -> None:
            s.execute(text("UPDATE throttles SET count = count - 1 WHERE key = :key AND count > 0"),
                      {"key": key[:200]})
        run_transaction(self.sessions, work)

    def forgive(self, key: str) -> None:
        run_transaction(self.sessions, lambda s: s.execute(
            delete(Throttle).where(Throttle.key == key[:200])))

    def _purge(self, now: int) -> None:
        # Someone spraying random names must not grow the table without bound.
        with self._lock:
            if now - self._last_purge < PURGE_EVERY:
                return
            self._last_purge = now
        run_transaction(self.sessions, lambda s: s.execute(
            delete(Throttle).where(Throttle.reset_at <= now)))


def login_keys(username: str, client_ip: str) -> tuple[str, str]:
    return f"login-user:{username.strip().lower()}", f"login-ip:{client_ip}"


def signup_key(client_ip: str) -> str:
    return f"signup-ip:{client_ip}"
