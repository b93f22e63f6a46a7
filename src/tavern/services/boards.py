"""Leaderboards (issue 31 §2): per game and per week, Paris time, and for
the contests, points by place (docs/statistics.md "Leaderboards").

The weekly boards read ``player_weeks``, kept current as deals settle
(services/stats.py). Nobody flagged ``house`` (a player of the house) ever
appears, nor an account an admin took off the boards (``off_boards``, for
an account the surveillance report flags)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavern.catalogue import WEEK_LABEL
from tavern.refusal import Refusal
from tavern.services.stats import PARIS, week_of
from tavern.store.models import Contest, ContestEntry, PlayerWeek, User

#: Contest points by final place; every other finisher scores 1.
PLACE_POINTS = {1: 10, 2: 7, 3: 5, 4: 4, 5: 3, 6: 2}
OTHER_PLACE = 1
SHOWN = 20


class BoardError(Refusal, ValueError):
    """A refused leaderboard operation."""


def this_week(now: dt.datetime | None = None) -> dt.date:
    return week_of(now or dt.datetime.now(dt.UTC))


def _listed() -> Any:
    return (User.house.is_(False)) & (User.off_boards.is_(False))


def weekly(session: Session, game: str, week: dt.date, limit: int = SHOWN) -> list[dict[str, Any]]:
    """The week's best at ``game``: net chips won, then fewer deals."""
    rows = session.execute(
        select(User.username, PlayerWeek.net, PlayerWeek.deals).join(User, User.id == PlayerWeek.user_id)
        .where(PlayerWeek.game == game, PlayerWeek.week == week, _listed())
        .order_by(PlayerWeek.net.desc(), PlayerWeek.deals, User.username).limit(limit))
    return [{"rank": k + 1, "player": name, "net": net, "deals": deals} for k, (name, net, deals) in enumerate(rows)]


def points(place: int) -> int:
    return PLACE_POINTS.get(place, OTHER_PLACE)


def contests(session: Session, limit: int = SHOWN) -> list[dict[str, Any]]:
    """Points by place over every finished contest (PLACE_POINTS)."""
    score = func.sum(func.coalesce(_points_case(), OTHER_PLACE))
    rows = session.execute(
        select(User.username, score.label("points"), func.count(ContestEntry.id))
        .join(ContestEntry, ContestEntry.user_id == User.id).join(Contest, Contest.id == ContestEntry.contest_id)
        .where(Contest.status == "finished", ContestEntry.place.is_not(None), _listed())
        .group_by(User.username).order_by(score.desc(), User.username).limit(limit))
    return [{"rank": k + 1, "player": name, "points": int(pts), "contests": n}
            for k, (name, pts, n) in enumerate(rows)]


def _points_case() -> Any:
    from sqlalchemy import case

    return case(*((ContestEntry.place == place, pts) for place, pts in PLACE_POINTS.items()), else_=OTHER_PLACE)


def set_off_boards(session: Session, username: str, hidden: bool) -> User:
    """An admin takes an account off the leaderboards, or puts it back."""
    user = session.scalars(select(User).where(User.username == username)).first()
    if user is None:
        raise BoardError("board_no_such_player", name=username)
    user.off_boards = hidden
    return user


def week_label(week: dt.date) -> str:
    end = week + dt.timedelta(days=6)
    return WEEK_LABEL.format(start=week.strftime("%d/%m/%Y"), end=end.strftime("%d/%m/%Y"))


__all__ = ["PARIS", "PLACE_POINTS", "contests", "set_off_boards", "this_week", "weekly"]
