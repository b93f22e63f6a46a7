"""A player's profile (public) and statistics (his own), issue 31 §1.

The figures are read from ``player_stats``, which the settlement keeps
current (services/stats.py): a few rows per player whatever his number of
deals."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Path, Request
from fastapi.responses import Response
from sqlalchemy.orm import Session

from tavern.refusal import Refusal
from tavern.services import stats
from tavern.web.deps import CurrentUser, read_db, require_user
from tavern.web.refusals import Refused
from tavern.web.rendering import GAME_LABELS, render
from tavern.web.routing import api_router, page_router

pages = page_router()
api = api_router("/api", "players")

Name = Annotated[str, Path(min_length=1, max_length=40)]


def _mine(db: Session, user: CurrentUser) -> list[dict[str, Any]]:
    return [stats.rates(row) for row in stats.of_player(db, user.id)]


def _profile(db: Session, name: str) -> dict[str, Any]:
    found = stats.public_profile(db, name)
    if found is None:
        raise Refused(404, Refusal("no_such_player"))
    return found


@pages.get("/mes-statistiques")
def stats_page(request: Request, user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> Response:
    return render(request, "my_stats.html", {"rows": _mine(db, user), "labels": GAME_LABELS, "poker": stats.POKER})


@pages.get("/joueurs/{name}")
def profile_page(request: Request, name: Name, db: Session = Depends(read_db)) -> Response:
    return render(request, "profile.html", {"profile": _profile(db, name), "labels": GAME_LABELS})


@api.get("/me/stats", summary="My figures per game (deals, chips, poker's VPIP/PFR/showdowns, matches, rams)")
def api_stats(user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> list[dict[str, Any]]:
    return _mine(db, user)


@api.get("/players/{name}", summary="A player's public profile")
def api_profile(name: Name, db: Session = Depends(read_db)) -> dict[str, Any]:
    return _profile(db, name)
