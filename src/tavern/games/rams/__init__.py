"""Rams (RULES.md "Rams", rules/rams.fr.txt): the module the registry reads ``SPEC`` from as ``rams``.

See ``docs/games/rams.md`` for the rules options and ``docs/records/rams.md``
for the action names. The game turns to the right: seats are listed going left,
so the dealer's right is the previous seat index.
"""

from __future__ import annotations

from typing import Any

from tavern.cards import CSPRNG, check_deck_order, deck32, shuffle
from tavern.games.base import IllegalAction
from tavern.games.rams.config import RamsConfig
from tavern.games.rams.engine import RamsEngine
from tavern.games.setup import Carry, Deck, Options, Reshuffles, Rng, Seats, check_button, parse_config, seat_list
from tavern.games.spec import GameSpec

__all__ = ["SPEC", "RamsConfig", "RamsEngine", "carried_chips", "deck_composition", "new_deal", "replay_output"]


def carried_chips(carry: dict[str, Any] | None) -> int:
    """Chips held over to the next deal: the pot "au coup" (à la partie the
    carry counts tokens, not chips)."""
    if not carry or "pot" not in carry:
        return 0
    return int(carry["pot"])


def deck_composition(config: dict[str, Any] | None = None, n_players: int = 0) -> list[str]:
    """The 32-card piquet deck, whatever the number of players."""
    return deck32()


def new_deal(config: Options, seats: Seats, button: int, *, deck: Deck = None, rng: Rng = None,
             reshuffles: Reshuffles = None, carry: Carry = None) -> RamsEngine:
    """Deal one Rams hand. ``carry`` is the previous deal's ``result()["carry"]``."""
    cfg = parse_config(RamsConfig, config)
    # The number of players is the layout's to check: two only meet at the
    # end of a partie, so a table's three to eight is not a deal's.
    check_button(button, len(seat_list(seats)[0]))
    if deck is None:
        deck = shuffle(deck32(), rng or CSPRNG)
    else:
        check_deck_order(deck, deck32())
    if reshuffles:
        raise IllegalAction("no_reshuffles", game="rams")
    return RamsEngine(cfg, seats, button, list(deck), carry)


def replay_output(engine: Any) -> dict[str, Any]:
    """What a Rams replay reports (``tavern replay``, registry.replay)."""
    out = engine.result()
    return {
        "game": "rams",
        "finished": engine.over,
        "chips": out["chips"],
        "delta": out["delta"],
        "pots": out["pots"],
        "rake": 0,
        "tricks": out["tricks"],
        "carry": out["carry"],
        **({"tokens": out["tokens"], "loser": out["loser"]} if "tokens" in out else {}),
    }


# RULES.md, Rams: "play turns to the right of the dealer".
SPEC = GameSpec(
    name="rams", label="Rams", rules="rams", seats=(3, 8), deck_kind="deck32",
    stakes=("unit",), cave_unit=lambda s: 5 * s["unit"], turns_right=True,
    carried_chips=carried_chips, view="rams", config=RamsConfig,
    new_deal=new_deal, replay_output=replay_output, deck_composition=deck_composition, result_story=("tricks", "account"),
)
