"""Service refusals, said in French to the player.

The services raise their own exceptions (``InsufficientFunds``, ``UserError``,
``IllegalAction``…) in the caller's transaction, which is then rolled back:
nothing changes. Here they become a status code and a sentence.
"""

from __future__ import annotations

from fastapi import HTTPException

from tavern.games.base import IllegalAction
from tavern.services import hands, ledger, seats, taverns, users
from tavern.web.french import french

# The services' refusals (a bug raises something else and stays a 500).
SERVICE_ERRORS: tuple[type[Exception], ...] = (
    ledger.LedgerError, users.UserError, hands.NoHandsLeft, taverns.TavernError, seats.SeatError,
)

CURRENCY_LABELS = {"ecus": "écus", "tokens": "tokens", "chips": "jetons"}


def insufficient(exc: ledger.InsufficientFunds) -> str:
    return f"{exc} Rien n'a été débité."


def refusal(exc: Exception) -> HTTPException | None:
    """The HTTP refusal for a known service error; ``None`` for a real bug."""
    if isinstance(exc, ledger.InsufficientFunds):
        return HTTPException(status_code=400, detail=insufficient(exc))
    if isinstance(exc, IllegalAction):
        return HTTPException(status_code=400, detail=exc.rule)
    if isinstance(exc, SERVICE_ERRORS):
        # Their message is written for the player (in English: said in French here).
        return HTTPException(status_code=400, detail=french(str(exc)) or "Requête refusée.")
    return None
