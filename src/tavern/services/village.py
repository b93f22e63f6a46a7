"""What the live village shows besides the seats (issue 30 §4): each table's
last deal's size and the contests opening soon — each read in one query
for the whole village, never one per table, since the village feed reads
them every half second while anybody watches (web/village_feed.py).

The last deal's size is ``archived_hands.pot``: the chips that changed hands
in the deal (what its losers lost), the one size every game's result gives
(services/archive.py). Only the deals ended within :data:`RECENT` are read,
through the index on ``ended``: the read costs the village's recent deals,
never a table's whole history, on SQLite as on PostgreSQL; a table quiet
for longer shows no size.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import false, func, or_, select
from sqlalchemy.orm import Session

from tavern.services.contests import late_registration_open
from tavern.store.models import ArchivedHand, Contest, ContestEntry

#: How far back a table's last deal is looked for.
RECENT = dt.timedelta(minutes=15)
#: A contest is "opening soon" when it starts within this (or when one may register).
SOON = dt.timedelta(hours=1)


def last_pots(session: Session, now: dt.datetime, table_id: int | None = None) -> dict[int, int]:
    """Each table's last deal's size, {table id: chips}, for the tables with a
    deal ended within :data:`RECENT` (only ``table_id``'s when given). Deals
    voided (and those still being played, voided until settled) and practice
    deals are left out; the caller keeps only the tables it may show."""
    last = (select(func.max(ArchivedHand.id))
            .where(ArchivedHand.ended >= now - RECENT, ArchivedHand.voided == false(),
                   ArchivedHand.practice == false())
            .group_by(ArchivedHand.table_id))
    if table_id is not None:
        last = last.where(ArchivedHand.table_id == table_id)
    rows = session.execute(select(ArchivedHand.table_id, ArchivedHand.pot).where(ArchivedHand.id.in_(last)))
    return {int(table_id): int(pot) for table_id, pot in rows}


@dataclass(frozen=True)
class ContestSoon:
    """A contest one may register for now, or starting within :data:`SOON`."""

    id: int
    name: str
    status: str  #: ``registering`` or ``running`` (late registration open)
    starts_at: dt.datetime
    registered: int


def contests_soon(session: Session, now: dt.datetime) -> list[ContestSoon]:
    """Contests whose registration is open (before the start and not full, or
    late registration while running) or that start within :data:`SOON`,
    soonest first — one query, the entries counted inside it."""
    entries = (select(func.count(ContestEntry.id)).where(ContestEntry.contest_id == Contest.id)
               .correlate(Contest).scalar_subquery())
    stmt = (select(Contest, entries)
            .where(or_(Contest.status == "registering", (Contest.status == "running") & (Contest.late_levels > 0)))
            .order_by(Contest.starts_at, Contest.id))
    out = []
    for contest, n in session.execute(stmt):
        n = int(n or 0)
        if contest.status == "running":
            open_now = late_registration_open(contest, now)
        else:
            open_now = n < contest.max_players or contest.starts_at <= now + SOON
        if open_now:
            out.append(ContestSoon(contest.id, contest.name, contest.status, contest.starts_at, n))
    return out
