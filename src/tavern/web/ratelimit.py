"""Failed-login throttling, per username and per client address.

In memory and per process: enough to stop password guessing against one
server; several workers each keep their own count (documented limit).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable


class LoginLimiter:
    """At most ``max_failures`` failed logins per key within ``window`` seconds."""

    MAX_KEYS = 10_000  #: above this many keys, expired ones are dropped

    def __init__(self, max_failures: int = 5, window: float = 300.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_failures = max_failures
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def _prune(self, key: str, now: float) -> deque[float]:
        q = self._failures[key]
        while q and q[0] <= now - self.window:
            q.popleft()
        return q

    def retry_after(self, *keys: str) -> int:
        """Seconds to wait before any of ``keys`` may try again; 0 when allowed."""
        now = self.clock()
        wait = 0.0
        with self._lock:
            for key in keys:
                q = self._prune(key, now)
                if len(q) >= self.max_failures:
                    wait = max(wait, q[0] + self.window - now)
        return int(wait) + 1 if wait > 0 else 0

    def failed(self, *keys: str) -> None:
        now = self.clock()
        with self._lock:
            for key in keys:
                self._prune(key, now).append(now)
            if len(self._failures) > self.MAX_KEYS:
                # Someone sprays random names: forget the counts that expired.
                for key in list(self._failures):
                    if not self._prune(key, now):
                        del self._failures[key]

    def succeeded(self, key: str) -> None:
        # Only the username's count is forgiven: logging into one's own account
        # must not reset the counter of the address guessing other passwords.
        with self._lock:
            self._failures.pop(key, None)


def keys_for(username: str, client_ip: str) -> tuple[str, str]:
    return f"user:{username.strip().lower()}", f"ip:{client_ip}"
