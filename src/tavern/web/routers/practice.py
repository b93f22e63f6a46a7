"""« S'entraîner » (issue 29): a practice table against the house players,
opened from the village page and each game's page (services/practice.py,
tables/practice.py)."""

from __future__ import annotations

from anyio import from_thread
from fastapi import Depends, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from tavern import catalogue
from tavern.bots.levels import LEVELS
from tavern.games import registry
from tavern.services import practice
from tavern.web.deps import CurrentUser, act, form_fields, read_db, require_user
from tavern.web.refusals import Refused
from tavern.web.rendering import GAME_LABELS, render
from tavern.web.routing import api_router, page_router
from tavern.web.state import services

pages = page_router()
api = api_router("/api/practice", catalogue.PRACTICE_WORD)


class PracticeIn(BaseModel):
    game: str = Field(description=f"one of {', '.join(registry.GAMES)}", max_length=30)
    opponents: int = Field(ge=0, le=99, description="house players, within the game's seat range less the player")
    level: str = Field(description=f"one of {', '.join(LEVELS)}", max_length=20)
    fast: bool = Field(False, description="house players think about 0.3 s instead of 1 to 3 s")


class PracticeOut(BaseModel):
    id: int = Field(description="the practice table's id: /tables/{id}, its socket /ws/tables/{id}")
    closed: list[int] = Field(description="the player's previous practice tables, closed by this one")


def _open(request: Request, user: CurrentUser, choice: practice.PracticeChoice) -> PracticeOut:
    """Open the table (a refusal: a 400 with its French reason, nothing
    created) and stop the live tables of the practice tables it closed."""
    table_id, closed = act(request, lambda s: practice.open_practice(s, user.id, choice))
    manager = services(request).tables
    for old in closed:
        from_thread.run(manager.discard, old)
    return PracticeOut(id=table_id, closed=closed)


def choices() -> dict[str, object]:
    """What the « S'entraîner » form offers: each game with its seat range, the levels."""
    return {"games": [(name, GAME_LABELS.get(name, name), registry.spec(name).seats) for name in registry.GAMES],
            "levels": LEVELS}


def _choice(form: dict[str, str]) -> practice.PracticeChoice:
    raw = form.get("opponents", "").strip()
    if not raw.isdigit() or len(raw) > 3:
        game = form.get("game", "")
        low, high = registry.spec(game).seats if game in registry.GAMES else (2, 2)
        raise practice.opponents_refused(low, high)
    return practice.PracticeChoice(game=form.get("game", ""), opponents=int(raw), level=form.get("level", ""),
                                   fast=form.get("fast") in {"1", "on", "true"})


@pages.get("/entrainement")
def practice_page(request: Request, game: str = "", _: CurrentUser = Depends(require_user)) -> Response:
    return render(request, "practice.html", {"practice": choices(), "chosen": game})


@pages.post("/entrainement")
def open_form(request: Request, user: CurrentUser = Depends(require_user), db: Session = Depends(read_db),
              form: dict[str, str] = Depends(form_fields)) -> Response:
    """Open the table (closing the player's previous practice table) and go to it;
    a refusal shows the form again with the reason, nothing created."""
    try:
        opened = _open(request, user, _choice(form))
    except (practice.PracticeError, Refused) as exc:
        message = exc.message if isinstance(exc, practice.PracticeError) else str(exc.detail)
        return render(request, "practice.html", {"practice": choices(), "chosen": form.get("game", ""),
                                                 "errors": [message]}, status_code=400)
    return RedirectResponse(f"/tables/{opened.id}", status_code=303)


@api.post("", response_model=PracticeOut, status_code=201,
          summary="Open a practice table against the house players (closes my previous one)")
def api_open(request: Request, body: PracticeIn, user: CurrentUser = Depends(require_user)) -> PracticeOut:
    return _open(request, user, practice.PracticeChoice(body.game, body.opponents, body.level, body.fast))

