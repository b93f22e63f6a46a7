"""The waiting lists as the village reads them (issue 30 §4): each table's
list length, from the places the live tables keep (tables/waiting.py,
``waiting_places``) — the same for every worker, whichever owns the table."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavern.store.models import WaitingPlace


def lengths(session: Session) -> dict[int, int]:
    """Table id → how many wait there (tables nobody waits at are absent)."""
    rows = session.execute(select(WaitingPlace.table_id, func.count()).group_by(WaitingPlace.table_id))
    return {table_id: count for table_id, count in rows}
