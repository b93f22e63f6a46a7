"""Rummoli (RULES.md "Rummoli", rules/rummoli.fr.md): a poker phase, then a
Stops-style sequence phase, on a board whose chips outlive each deal.

The engine contract (:mod:`tavern.games.base`): :func:`new_deal`,
:func:`replay`, :func:`deck_composition`; the board travels between deals as
``result()["carry"]``. :func:`close_table` shares out what is left on the
board when the table closes.
"""

from tavern.games.rummoli.closing import close_table
from tavern.games.rummoli.config import STANDARD_PAY_SECTIONS, PaySection, RummoliConfig
from tavern.games.rummoli.engine import GAME, RummoliDeal, deck_composition, new_deal, replay


def carried_chips(carry: dict | None) -> int:
    """Chips held over to the next deal: everything on the board."""
    if not carry:
        return 0
    return sum(int(v) for v in carry.get("board", {}).values())


__all__ = [
    "GAME",
    "STANDARD_PAY_SECTIONS",
    "PaySection",
    "RummoliConfig",
    "RummoliDeal",
    "carried_chips",
    "close_table",
    "deck_composition",
    "new_deal",
    "replay",
]
