"""The hand archive (RULES.md: "every hand is archived with its full record
(deck order, every action, result) so that it can be replayed exactly. Using
the game to move écus between players is forbidden; admins need the archive
to spot it.")"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from sqlalchemy import Table, bindparam, select
from sqlalchemy.orm import Session

from tavern.games import registry
from tavern.services import stats
from tavern.store.db import expire_held
from tavern.store.direct import Direct
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


def _game(session: Session, table_id: int, record: dict[str, Any]) -> str:
    """The deal's game: its record's, else its table's ("" for a table gone)."""
    return record.get("game") or session.scalar(select(TableConfig.game).where(TableConfig.id == table_id)) or ""


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
    game = _game(session, table_id, record)
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


# The deal's own statements, built once and run on the driver's cursor
# (every deal of every table: store/direct.py).
_HANDS = cast(Table, ArchivedHand.__table__)
_OPEN = Direct(_HANDS.insert().returning(_HANDS.c.id),
               ("table_id", "game", "started", "ended", "players", "pot", "rake", "voided", "record", "result",
                "practice"))
# Returns the deal's contest (if any): its figures stay off the weekly boards.
_COMPLETE = Direct(_HANDS.update().where(_HANDS.c.id == bindparam("hand_id")).returning(_HANDS.c.contest_id),
                   ("record", "result", "voided", "pot", "rake", "ended"))


def open_hand(session: Session, table_id: int, record: dict[str, Any], result: dict[str, Any],
              started: dt.datetime, *, practice: bool = False) -> int:
    """A deal archived as it starts, voided until :func:`complete_hand`
    (a crash leaves it so: nobody paid). Returns its id. One Core insert:
    every deal of every table passes here (:func:`archive_hand` otherwise)."""
    return int(_OPEN.value(session.connection(), {
        "table_id": table_id, "game": _game(session, table_id, record), "started": started, "ended": started,
        "players": _players(record), "pot": 0, "rake": 0, "voided": True, "record": record, "result": result,
        "practice": practice}))


def complete_hand(session: Session, hand_id: int, record: dict[str, Any], result: dict[str, Any], rake: int,
                  ended: dt.datetime, *, practice: bool = False, first_round: list[tuple[str, str]] | None = None) -> None:
    """The deal opened by :func:`open_hand` is over: its full record and
    result, its summary columns, and it counts (no longer voided).
    ``first_round``: at poker, the first betting round's moves as the table
    saw them (:func:`stats.count_deal` then replays nothing)."""
    done = _COMPLETE.rows(session.connection(), {
        "hand_id": hand_id, "record": record, "result": result, "voided": False, "pot": _pot(result), "rake": rake,
        "ended": ended})
    if len(done) != 1:
        raise LookupError(f"no archived deal {hand_id} to complete")
    expire_held(session, ArchivedHand, [hand_id])
    # Its players' figures, in the settlement's transaction (services/stats.py);
    # a contest's chips are not money: its deals stay off the weekly boards.
    # A practice deal's figures are kept apart (« entraînement » in « Mes
    # statistiques »), never on the boards nor the public profile.
    stats.count_deal(session, record, result, ended=ended, weekly=done[0][0] is None, practice=practice,
                     first_round=first_round)


def in_progress(hand: ArchivedHand) -> bool:
    """Whether the deal is still being played: archived as it started
    (:func:`open_hand`; ``voided`` in the row so that a crash leaves it so)
    and neither completed nor voided for good since."""
    return bool((hand.result or {}).get("in_progress"))


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
    """An archived deal as ``player`` saw it, step by step
    (:func:`registry.seen_steps`: each action as he saw it and his own view,
    never a card he could not see at that moment). Refused (``LookupError``)
    unless he was dealt in."""
    if player not in (hand.players or []):
        raise LookupError("not dealt in this deal")
    return list(registry.seen_steps(hand.record, player))
