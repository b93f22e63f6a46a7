"""The end of the game: sharing out the chips a table carries from deal to deal.

Games whose deals hand chips to the next deal (Rummoli's board, the Rams pot
"au coup") keep them in the table's ``pot`` ledger account. When the owner
closes a table with players seated, those chips go to the players seated:

* Rummoli (RULES.md: "leftover chips go to the highest card cut or to the
  best ordinary poker hand"): :func:`tavern.games.rummoli.close_table` with the
  owner's ``leftover`` option (``"cut"`` by default), the players passed from
  the dealer's left (so a split's odd chips go as at poker);
* Rams au coup, and any other game carrying chips: shared equally; the
  remainder one chip each by seat order from the dealer's right (Rams turns
  to the right; docs/games/rams.md, "Fin de partie"). Other games go left.

Ruling: "seated" means every player holding a seat when the table closes,
sitting out ("Se lever") or not — he keeps his seat and his chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavern.cards import RandomSource
from tavern.games.spec import GameSpec


def order_from_dealer(seat_nos: Sequence[int], dealer_seat: int | None, *, right: bool) -> list[int]:
    """Seat numbers starting next to the dealer (his left, or his right), the
    dealer last; from the lowest seat when there is no known dealer."""
    seats = sorted(seat_nos)
    if not seats:
        return []
    if dealer_seat is None:
        return seats
    if right:
        before = [s for s in reversed(seats) if s < dealer_seat]
        after = [s for s in reversed(seats) if s >= dealer_seat]
        return before + after
    after = [s for s in seats if s > dealer_seat]
    before = [s for s in seats if s <= dealer_seat]
    return after + before


def share_equally(total: int, players_in_order: Sequence[str]) -> dict[str, int]:
    """Equal shares; the remainder one chip each to the first players in order."""
    players = list(players_in_order)
    share, rest = divmod(total, len(players))
    return {p: share + (1 if i < rest else 0) for i, p in enumerate(players)}


def share_carry(game: GameSpec, carry: dict[str, Any] | None, options: dict[str, Any],
                seated: dict[int, str], dealer_seat: int | None,
                rng: RandomSource | None = None) -> tuple[dict[str, int], dict[str, Any]]:
    """Who receives the carried chips: ``({player: chips}, how)``, ``how``
    saying the method (and the cards cut or dealt, for the archive).
    ``seated`` maps seat numbers to players; nothing to share gives ``({}, {})``."""
    total = game.carried_chips(carry) if game.carried_chips is not None else 0
    if total <= 0 or not seated:
        return {}, {}
    order = [seated[n] for n in order_from_dealer(list(seated), dealer_seat, right=game.turns_right)]
    if game.share_carry is not None:  # the game's own way (Rummoli's board)
        return game.share_carry(carry, order, options, rng)
    awards = {p: a for p, a in share_equally(total, order).items() if a}
    return awards, {"method": "equal", "total": total, "order": order}
