"""How many table WebSockets one account and one address may hold open.

One account opened 800 sockets; with 256 file descriptors, 237 from one
account made every other visitor's pages fail. Each server process now
counts its open table sockets per account and per client address; one over
the cap is accepted and closed at once with the close code
:data:`TOO_MANY_CONNECTIONS` (docs/protocol.md), so the client knows why.
The counts are per process: with N workers an account holds at most N times
the cap, still a bound.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass

#: Application close code (4000–4999 are the application's): too many sockets.
TOO_MANY_CONNECTIONS = 4429
#: A player at a few tables in a few tabs; a household or an office behind
#: one address.
PER_ACCOUNT = 16
PER_ADDRESS = 64


@dataclass
class Slot:
    """One open socket's place in the counts; give it back when it closes."""

    limits: "ConnectionLimits"
    user_id: int
    address: str
    released: bool = False

    def release(self) -> None:
        if not self.released:
            self.released = True
            self.limits._give_back(self)


class ConnectionLimits:
    def __init__(self, per_account: int = PER_ACCOUNT, per_address: int = PER_ADDRESS) -> None:
        self.per_account = per_account
        self.per_address = per_address
        self.accounts: Counter[int] = Counter()
        self.addresses: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, user_id: int, address: str) -> Slot | None:
        """A slot for one more socket, or None when a cap is reached."""
        with self._lock:
            if self.accounts[user_id] >= self.per_account or self.addresses[address] >= self.per_address:
                return None
            self.accounts[user_id] += 1
            self.addresses[address] += 1
        return Slot(self, user_id, address)

    def _give_back(self, slot: Slot) -> None:
        with self._lock:
            self.accounts[slot.user_id] -= 1
            self.addresses[slot.address] -= 1
            if self.accounts[slot.user_id] <= 0:
                del self.accounts[slot.user_id]
            if self.addresses[slot.address] <= 0:
                del self.addresses[slot.address]
