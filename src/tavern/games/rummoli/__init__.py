"""Rummoli (RULES.md "Rummoli", rules/rummoli.fr.md): a poker phase, then a
Stops-style sequence phase, on a board whose chips outlive each deal.

The engine contract (:mod:`tavern.games.base`): :func:`new_deal`,
:func:`replay_output`, :func:`deck_composition`; the board travels between deals as
``result()["carry"]``. :func:`close_table` shares out what is left on the
board when the table closes.
"""

from collections.abc import Mapping
from typing import Any

from tavern.cards import RandomSource
from tavern.games.rummoli.closing import close_table
from tavern.games.rummoli.config import STANDARD_PAY_SECTIONS, PaySection, RummoliConfig
from tavern.games.rummoli.engine import GAME, SEATS, RummoliDeal, deck_composition, new_deal, replay_output
from tavern.games.spec import GameSpec


def carried_chips(carry: dict[str, Any] | None) -> int:
    """Chips held over to the next deal: everything on the board."""
    if not carry:
        return 0
    return sum(int(v) for v in carry.get("board", {}).values())


def _share_board(carry: dict[str, Any] | None, order: list[str], options: Mapping[str, Any],
                 rng: RandomSource | None) -> tuple[dict[str, int], dict[str, Any]]:
    """A closing table's board goes by the rules' leftover method (RULES.md
    Rummoli: cut, best poker hand or equal shares)."""
    out = close_table(carry, order, options.get("leftover", "cut"), rng=rng)
    awards = {p: a for p, a in out["awards"].items() if a}
    return awards, {"method": out["method"], "total": out["total"], "winners": out["winners"],
                    "cards": out["cards"], "deck": out["deck"], "order": order}


SPEC = GameSpec(
    name=GAME, label="Rummoli", rules="rummoli", seats=SEATS, deck_kind="deck52",
    stakes=("unit",), cave_unit=lambda s: 9 * s["unit"], share_carry=_share_board,
    carried_chips=carried_chips, view="rummoli", config=RummoliConfig,
    new_deal=new_deal, replay_output=replay_output, deck_composition=deck_composition, result_story=("outcome", "account"),
)


__all__ = [
    "GAME",
    "SPEC",
    "STANDARD_PAY_SECTIONS",
    "PaySection",
    "RummoliConfig",
    "RummoliDeal",
    "carried_chips",
    "close_table",
    "deck_composition",
    "new_deal",
    "replay_output",
]
