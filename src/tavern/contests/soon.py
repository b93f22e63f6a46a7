"""A contest starting soon, told to its registered players (issue 30 §4):
once per player, on his own notice channel (web/notices.py), whatever page
of the site he has open, within :data:`SOON` of the start time.

The contests' leader (contests/manager.py) asks every few seconds; a player
registering within the five minutes is told too. Who was told is kept in
the leader's memory: a new leader (the old one died) may tell a player a
second time — a notice too many rather than one missing.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import orjson
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.store.models import Contest, ContestEntry, User
from tavern.tables.broadcast import Broadcaster
from tavern.tables.waiting import NOTICES

#: How long before its start a contest is told to its players.
SOON = dt.timedelta(minutes=5)


def starting_soon(session: Session, now: dt.datetime) -> list[tuple[int, str, dt.datetime, int, str]]:
    """(contest id, its name, its start, user id, name) of every player
    registered at a contest starting within :data:`SOON`."""
    rows = session.execute(
        select(Contest.id, Contest.name, Contest.starts_at, User.id, User.username)
        .join(ContestEntry, ContestEntry.contest_id == Contest.id).join(User, User.id == ContestEntry.user_id)
        .where(Contest.status == "registering", Contest.starts_at > now, Contest.starts_at <= now + SOON))
    return [(cid, name, starts, uid, username) for cid, name, starts, uid, username in rows]


@dataclass
class Herald:
    """Tells each player of a contest starting soon, once."""

    broadcaster: Broadcaster
    told: set[tuple[int, int]] = field(default_factory=set)  #: (contest id, user id)

    async def tell(self, soon: list[tuple[int, str, dt.datetime, int, str]], now: dt.datetime) -> int:
        """Publish the notices not sent yet; how many were."""
        sent = 0
        for cid, name, starts, uid, username in soon:
            if (cid, uid) in self.told:
                continue
            minutes = max(1, -(-int((starts - now).total_seconds()) // 60))  # rounded up: "dans 5 minutes"
            text = french("contest_soon_notice", {"contest": name, "minutes": minutes})
            notice = {"type": "contest_soon", "contest_id": cid, "contest": name, "minutes": minutes, "text": text}
            await self.broadcaster.publish(NOTICES, {username: orjson.dumps(notice).decode()})
            self.told.add((cid, uid))
            sent += 1
        current = {(cid, uid) for cid, _, _, uid, _ in soon}
        self.told &= current  # begun or cancelled: forgotten
        return sent
