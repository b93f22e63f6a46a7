"""The live village's summary beyond the seats (issue 30 §4): each public
table's last deal's size and the contests opening soon, as the village
socket pushes them (web/village_feed.py) and the JSON API gives them
(``GET /api/village``'s ``last_pot``, ``GET /api/village/contests``).

Two queries for the whole village (services/village.py), whatever its
number of tables. The summary is the same for every visitor: a table's
size is kept only for the public tables the caller lists, so a private or
a practice table never enters it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel
from sqlalchemy.orm import Session

from tavern.catalogue import DAY_AND_TIME, french
from tavern.services import village

PARIS = ZoneInfo("Europe/Paris")
#: Every contest is a Concours de Ramponneau (RULES.md "Contests").
CONTEST_GAME = "ramponneau"


class ContestSoonOut(BaseModel):
    id: int
    name: str
    game: str
    status: str
    #: UTC, ISO 8601
    starts_at: str
    registered: int
    #: its page, where one registers
    link: str
    #: the line the village page shows: game, start (Paris time) or late registration, players registered
    text: str


def contest_out(c: village.ContestSoon) -> ContestSoonOut:
    start = c.starts_at.astimezone(PARIS).strftime(DAY_AND_TIME)
    code = "village_contest_late" if c.status == "running" else "village_contest_starts"
    return ContestSoonOut(
        id=c.id, name=c.name, game=CONTEST_GAME, status=c.status, starts_at=c.starts_at.isoformat(),
        registered=c.registered, link=f"/concours/{c.id}",
        text=french(code, {"game": CONTEST_GAME, "start": start, "entered": c.registered}))


def contests_soon(session: Session, now: dt.datetime) -> list[ContestSoonOut]:
    return [contest_out(c) for c in village.contests_soon(session, now)]


def extras(session: Session, public: Collection[int], now: dt.datetime | None = None) -> dict[str, Any]:
    """The summary's keys beside ``tables``: ``pots``, ``[[id, chips], …]`` for
    the ``public`` tables with a recent deal, and ``contests``."""
    now = now or dt.datetime.now(dt.UTC)
    pots = village.last_pots(session, now)
    return {"pots": [[tid, pots[tid]] for tid in sorted(pots) if tid in public],
            "contests": [c.model_dump() for c in contests_soon(session, now)]}
