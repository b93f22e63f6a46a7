"""The hand archive (RULES.md: "every hand is archived with its full record
(deck order, every action, result) so that it can be replayed exactly. Using
the game to move écus between players is forbidden; admins need the archive
to spot it.")"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.games import registry
from tavern.store.models import ArchivedHand, TableConfig


def _players(record: dict[str, Any]) -> list[Any]:
    return [s.get("player") for s in record.get("seats", []) if isinstance(s, dict)]


def _pot(result: dict[str, Any]) -> int:
    """Chips that changed hands: what the losers lost (plus nothing for a
    wash). Works for every game's result, which reports net chips per player."""
    chips = result.get("chips") or result.get("net") or {}
    if isinstance(chips, dict):
        return sum(-v for v in chips.values() if isinstance(v, int) and v < 0)
    return 0


def archive_hand(
    session: Session,
    table_id: int,
    record: dict[str, Any],
    result: dict[str, Any],
    voided: bool = False,
    *,
    started: dt.datetime | None = None,
    ended: dt.datetime | None = None,
) -> ArchivedHand:
    """Store one deal's full record and result, with summary columns
    (players, pot = chips lost by the losers, rake). ``voided`` marks a deal
    cancelled before its end (nobody paid)."""
    table = session.get(TableConfig, table_id)
    game = record.get("game") or (table.game if table else "")
    rake = result.get("rake", 0)
    hand = ArchivedHand(
        table_id=table_id,
        game=game,
        started=started,
        players=_players(record),
        pot=_pot(result),
        rake=rake if isinstance(rake, int) else 0,
        voided=voided,
        record=record,
        result=result,
    )
    if ended is not None:
        hand.ended = ended
    session.add(hand)
    session.flush()
    return hand


def get_hand(session: Session, hand_id: int) -> ArchivedHand | None:
    return session.get(ArchivedHand, hand_id)


def list_hands(
    session: Session,
    *,
    table_id: int | None = None,
    player: str | None = None,
    limit: int = 50,
    before_id: int | None = None,
) -> list[ArchivedHand]:
    """Newest first. ``player`` filters on the names dealt in (checked in
    Python: JSON containment differs between SQLite and PostgreSQL)."""
    stmt = select(ArchivedHand).order_by(ArchivedHand.id.desc())
    if table_id is not None:
        stmt = stmt.where(ArchivedHand.table_id == table_id)
    if before_id is not None:
        stmt = stmt.where(ArchivedHand.id < before_id)
    if player is None:
        return list(session.scalars(stmt.limit(limit)))
    out: list[ArchivedHand] = []
    for hand in session.scalars(stmt.execution_options(yield_per=200)):
        if player in hand.players:
            out.append(hand)
            if len(out) >= limit:
                break
    return out


def deal_steps(hand: ArchivedHand, player: str) -> list[dict[str, Any]]:
    """An archived deal as ``player`` saw it, step by step: his own view
    (``engine.view(player)``: never a card he could not see at that moment)
    before the first action and after each one, with the action. Refused
    (``LookupError``) unless he was dealt in."""
    if player not in (hand.players or []):
        raise LookupError("not dealt in this deal")
    out = []
    for engine, action in registry.replay_steps(hand.record):
        out.append({"action": action, "view": engine.view(player)})
    return out
