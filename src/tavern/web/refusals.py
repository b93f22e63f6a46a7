"""Refusals, answered: a status code, and the refusal's code, French message
and parameters.

The services and the engines raise :class:`tavern.refusal.Refusal` in the
caller's transaction, which is then rolled back: nothing changes. Here they
become an HTTP refusal that remembers its code, so the JSON API answers
``{"code", "message", "params"}`` and a page shows the French message
(:mod:`tavern.catalogue`).
"""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException

from tavern.catalogue import CURRENCIES
from tavern.refusal import Refusal

CURRENCY_LABELS = CURRENCIES


class Refused(HTTPException):
    """An HTTP refusal carrying a catalogue code and its parameters."""

    def __init__(self, status_code: int, refusal: Refusal, headers: dict[str, str] | None = None) -> None:
        super().__init__(status_code=status_code, detail=refusal.message, headers=headers)
        self.code = refusal.code
        self.params: dict[str, Any] = refusal.params


def refusal(exc: Exception) -> HTTPException | None:
    """The HTTP refusal for a known refusal; ``None`` for a real bug (a 500)."""
    if isinstance(exc, Refusal):
        return Refused(400, exc)
    return None
