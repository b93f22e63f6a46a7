"""The Rummoli board: sections holding chips from deal to deal, and paying.

The board is the ``carry`` of the engine contract: ``result()["carry"]`` is
``{"board": {section id: chips}}`` and feeds the next ``new_deal(carry=...)``.

Ruling (the source is silent): a player who cannot pay in full pays what he
has, and the rest is simply not paid. This applies to the antes (paid section
by section in board order: Rummoli pot, poker pot, pay sections), to the chip
per card owed to the player who goes out, and to the chip per card put into
the Rummoli pot after a deadlock. A player with no chips is still dealt in;
whether to seat him is the table's business.
"""

from __future__ import annotations

from typing import Any

from tavern.games.base import RecordError
from tavern.games.rummoli.config import RUMMOLI_POT, RummoliConfig


def empty_board(cfg: RummoliConfig) -> dict[str, int]:
    return {sid: 0 for sid in cfg.section_ids()}


def board_from_carry(cfg: RummoliConfig, carry: dict[str, Any] | None) -> tuple[dict[str, int], list[dict]]:
    """The board at the start of a deal, from the previous deal's carry.

    Chips on a section the owner has since removed from the board are not lost:
    they move to the Rummoli pot (an event says so).
    """
    board = empty_board(cfg)
    events: list[dict] = []
    if carry is None:
        return board, events
    if not isinstance(carry, dict) or not isinstance(carry.get("board"), dict):
        raise RecordError("carry.board", "rummoli_carry_shape")
    for sid, amount in carry["board"].items():
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise RecordError(f"carry.board.{sid}", "chips_whole")
        if sid in board:
            board[sid] += amount
        elif amount:
            board[RUMMOLI_POT] += amount
            events.append({"event": "section_removed", "section": sid, "amount": amount, "to": RUMMOLI_POT})
    return board, events


def pay_what_he_has(chips: dict[str, int], player: str, owed: int) -> int:
    """Take up to ``owed`` from ``player``'s stack; return what was taken."""
    paid = min(owed, chips[player])
    chips[player] -= paid
    return paid
