"""The waiting lists as the village reads them (issue 30 §4): each table's
list length, from the places the live tables keep (tables/waiting.py,
``waiting_places``) — the same for every worker, whichever owns the table."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavern.store.models import TableConfig, WaitingPlace


def lengths(session: Session) -> dict[int, int]:
    """Table id → how many wait there (tables nobody waits at are absent)."""
    rows = session.execute(select(WaitingPlace.table_id, func.count()).group_by(WaitingPlace.table_id))
    return {table_id: count for table_id, count in rows}


def offers_to(session: Session, user_id: int, now: dt.datetime) -> list[tuple[int, str, int, float]]:
    """The seats held for ``user_id`` now: (table id, its name, the seat, seconds left)."""
    rows = session.execute(
        select(WaitingPlace.table_id, TableConfig.name, WaitingPlace.offered_seat, WaitingPlace.offered_until)
        .join(TableConfig, TableConfig.id == WaitingPlace.table_id)
        .where(WaitingPlace.user_id == user_id, WaitingPlace.offered_until > now, TableConfig.status == "open"))
    return [(tid, name, seat, (until - now).total_seconds()) for tid, name, seat, until in rows
            if seat is not None and until is not None]
