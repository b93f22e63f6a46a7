"""A table's failures while its store fails under it (issue 38: "a full
disk tells nobody"): logged as :class:`~tavern.logs.Repeated` does, and
named for the table's players — the deal waits on the store, not on them."""

from __future__ import annotations

import sys

from tavern.logs import Repeated
from tavern.store.db import is_disk_full, is_store_away

#: What the table tells, by fault (the page words it: static/table/skeleton.js).
DISK_FULL, STORE_AWAY = "disk_full", "store_away"


class TickFailures(Repeated):
    """The failures of a table's ticks (a deal's start or settlement tried
    again each second), and the store's fault among them, if any."""

    fault: str | None = None

    def failed(self, *args: object) -> None:
        super().failed(*args)
        exc = sys.exc_info()[1]
        self.fault = None if exc is None else DISK_FULL if is_disk_full(exc) else \
            STORE_AWAY if is_store_away(exc) else None

    def succeeded(self, *args: object) -> None:
        super().succeeded(*args)
        self.fault = None
