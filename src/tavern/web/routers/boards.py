"""Leaderboards (issue 31 §2): per game and week (Paris time) and for the
contests; an admin takes an account off them (services/boards.py)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.games import registry
from tavern.services import boards
from tavern.services.stats import PARIS, week_of
from tavern.web.deps import CurrentUser, act, form_fields, read_db, require_admin
from tavern.web.refusals import Refused
from tavern.web.rendering import GAME_LABELS, render
from tavern.web.routing import api_router, page_router
from tavern.web.session import get_session

pages = page_router()
api = api_router("/api/leaderboards", "leaderboards")

Week = Annotated[dt.date | None, Query(alias="semaine")]


def _game(game: str) -> str:
    if game not in registry.specs():
        raise Refused(404, boards.BoardError("board_unknown_game", game=game[:30]))
    return game


def _week(week: dt.date | None) -> dt.date:
    return week_of(dt.datetime.combine(week, dt.time(12), PARIS)) if week else boards.this_week()


def summary(db: Session, limit: int = 5) -> dict[str, Any]:
    """This week's top of every game, and the contests' (the village shows it)."""
    week = boards.this_week()
    return {"week": boards.week_label(week),
            "games": {g: rows for g in registry.specs() if (rows := boards.weekly(db, g, week, limit))},
            "contests": boards.contests(db, limit)}


@pages.get("/classements")
def boards_page(request: Request, db: Session = Depends(read_db)) -> Response:
    return render(request, "boards.html", {"board": summary(db, boards.SHOWN), "labels": GAME_LABELS,
                                           "points": boards.PLACE_POINTS, "other": boards.OTHER_PLACE})


@pages.get("/classements/{game}")
def game_board_page(request: Request, game: str, week: Week = None, db: Session = Depends(read_db)) -> Response:
    monday = _week(week)
    return render(request, "game_board.html", {
        "game": _game(game), "labels": GAME_LABELS, "rows": boards.weekly(db, game, monday),
        "week": boards.week_label(monday), "previous": (monday - dt.timedelta(days=7)).isoformat(),
        "next": (monday + dt.timedelta(days=7)).isoformat()})


@pages.post("/admin/classements")
def hide_form(request: Request, _: CurrentUser = Depends(require_admin),
              form: dict[str, str] = Depends(form_fields)) -> Response:
    """Take an account off the leaderboards (``hidden=1``) or put it back."""
    name, hidden = form.get("username", "").strip(), form.get("hidden", "1") != "0"
    act(request, lambda s: boards.set_off_boards(s, name, hidden))
    get_session(request).flash(french("off_boards_hidden" if hidden else "off_boards_shown", {"name": name}))
    # Back where the admin was: the surveillance report, else the boards (never an outside address).
    back = "/admin/surveillance" if form.get("next") == "/admin/surveillance" else "/classements"
    return RedirectResponse(back, status_code=303)


@api.get("/contests", summary="Contest points by place (docs/statistics.md)")
def api_contests(db: Session = Depends(read_db)) -> list[dict[str, Any]]:
    return boards.contests(db)


@api.get("/{game}", summary="A game's weekly leaderboard (Paris time): net chips won")
def api_game(game: str, week: Week = None, db: Session = Depends(read_db)) -> dict[str, Any]:
    monday = _week(week)
    return {"game": _game(game), "week": monday.isoformat(), "rows": boards.weekly(db, game, monday)}
