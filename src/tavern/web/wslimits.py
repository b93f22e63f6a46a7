"""How many table WebSockets one account and one address may hold open.

One account opened 800 sockets; with 256 file descriptors, 237 from one
account made every other visitor's pages fail. Each server process now
counts its open table sockets per account and per client address; one over
the cap is accepted and closed at once with the close code
:data:`TOO_MANY_CONNECTIONS` (docs/protocol.md), so the client knows why.
With several workers (tables/cluster.py) the counts are also kept in Redis
across the live workers (:meth:`ConnectionLimits.take_shared`), so the caps
hold for the whole site, not per process.

The same registry closes a player's open sockets (his pages' notices too)
when his sessions end
(logout, « log out everywhere », a password change, a ban) with the close
code :data:`SESSION_ENDED`: an ended session neither opens a table nor keeps
playing at one — on every worker: the order goes to all of them.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tavern.catalogue import french

#: Application close code (4000–4999 are the application's): too many sockets.
TOO_MANY_CONNECTIONS = 4429
#: Application close code: the session this socket was opened with has ended.
SESSION_ENDED = 4401
#: A player at a few tables in a few tabs; a household or an office behind
#: one address.
PER_ACCOUNT = 16
PER_ADDRESS = 64


# The closing tasks in flight: the event loop keeps only weak references to
# tasks, so one nobody holds could be collected before it closes its socket.
_CLOSING: set[asyncio.Future[None]] = set()


def _close_soon(ws: Any) -> None:
    async def close() -> None:
        try:
            await ws.close(code=SESSION_ENDED, reason=french("ws_session_ended"))
        except (RuntimeError, OSError):
            pass  # already closing or closed
    task = asyncio.ensure_future(close())
    _CLOSING.add(task)
    task.add_done_callback(_CLOSING.discard)


@dataclass(eq=False)
class Slot:
    """One open socket's place in the counts; give it back when it closes."""

    limits: ConnectionLimits
    #: None: a visitor not logged in (the village's socket), counted by address only.
    user_id: int | None
    address: str
    #: The socket, its session token and its event loop, to close it when
    #: the session ends (None in the counting-only uses).
    ws: Any = None
    token: str | None = None
    loop: asyncio.AbstractEventLoop | None = field(default=None, repr=False)
    released: bool = False
    #: The shared counters this slot holds (several workers), given back too.
    shared: list[str] = field(default_factory=list)

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.limits._give_back(self)


class ConnectionLimits:
    def __init__(self, per_account: int = PER_ACCOUNT, per_address: int = PER_ADDRESS, *, prefix: str = "ws") -> None:
        self.per_account = per_account
        self.per_address = per_address
        #: The shared counters' names start with it: the table sockets' (``ws``)
        #: and the push sockets' (``push``, web/push.py) are counted apart.
        self.prefix = prefix
        self.accounts: Counter[int] = Counter()
        self.addresses: Counter[str] = Counter()
        self._lock = threading.Lock()

        self.open: set[Slot] = set()
        #: Sockets closed with their session but counted apart (a page's
        #: notices: web/notices.py has its own cap), see :meth:`follow`.
        self.followed: set[Slot] = set()
        self.cluster: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def attach(self, cluster: Any, *, sessions: bool = True) -> None:
        """Share the counts (and, with ``sessions``, the session ends) with the other workers."""
        self.cluster = cluster
        self._loop = asyncio.get_running_loop()
        if sessions:
            cluster.serve("end_sessions", self._end_here)

    async def _end_here(self, order: dict[str, Any]) -> None:
        self._end_local(int(order["user_id"]), only=order.get("only"), keep=order.get("keep"))

    async def take_shared(self, user_id: int | None, address: str, ws: Any = None, token: str | None = None) -> Slot | None:
        """:meth:`take`, and with several workers the site-wide counts too."""
        slot = self.take(user_id, address, ws, token)
        if slot is None or self.cluster is None or not self.cluster.shared:
            return slot
        caps = {f"{self.prefix}:address:{address}": self.per_address}
        if user_id is not None:
            caps[f"{self.prefix}:account:{user_id}"] = self.per_account
        names = list(caps)
        if not await self.cluster.take_counts(caps):
            slot.release()
            return None
        slot.shared = names
        return slot

    def take(self, user_id: int | None, address: str, ws: Any = None, token: str | None = None) -> Slot | None:
        """A slot for one more socket, or None when a cap is reached."""
        loop = asyncio.get_running_loop() if ws is not None else None
        with self._lock:
            if self.addresses[address] >= self.per_address:
                return None
            if user_id is not None:
                if self.accounts[user_id] >= self.per_account:
                    return None
                self.accounts[user_id] += 1
            self.addresses[address] += 1
            slot = Slot(self, user_id, address, ws, token, loop)
            self.open.add(slot)
        return slot

    def follow(self, user_id: int, token: str, ws: Any) -> Callable[[], None]:
        """Close ``ws`` too when its session ends, without spending a table
        socket's place in the counts; returns what forgets it (call it when
        the socket closes)."""
        slot = Slot(self, user_id, "", ws, token, asyncio.get_running_loop())
        with self._lock:
            self.followed.add(slot)

        def forget() -> None:
            with self._lock:
                self.followed.discard(slot)
        return forget

    def end_sessions(self, user_id: int, *, only: str | None = None, keep: str | None = None) -> int:
        """Close the sockets of ``user_id`` opened with session ``only`` (or
        with any session but ``keep``), here and on the other workers;
        callable from any thread. Returns how many were asked to close here."""
        if self.cluster is not None and self.cluster.shared and self._loop is not None:
            order = {"user_id": user_id, "only": only, "keep": keep}
            asyncio.run_coroutine_threadsafe(self.cluster.tell_all("end_sessions", order), self._loop)
        return self._end_local(user_id, only=only, keep=keep)

    def _end_local(self, user_id: int, *, only: str | None = None, keep: str | None = None) -> int:
        with self._lock:
            doomed = [s for s in (*self.open, *self.followed) if s.user_id == user_id and s.ws is not None
                      and (only is None or s.token == only) and (keep is None or s.token != keep)]
        for slot in doomed:
            assert slot.loop is not None
            slot.loop.call_soon_threadsafe(_close_soon, slot.ws)
        return len(doomed)

    def _give_back(self, slot: Slot) -> None:
        if slot.shared and self._loop is not None:
            asyncio.run_coroutine_threadsafe(self.cluster.give_counts(slot.shared), self._loop)
        with self._lock:
            self.open.discard(slot)
            if slot.user_id is not None:
                self.accounts[slot.user_id] -= 1
                if self.accounts[slot.user_id] <= 0:
                    del self.accounts[slot.user_id]
            self.addresses[slot.address] -= 1
            if self.addresses[slot.address] <= 0:
                del self.addresses[slot.address]
