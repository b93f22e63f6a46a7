"""Jinja2 rendering of the server-side pages."""

from __future__ import annotations

import secrets
from importlib.resources import files
from typing import Any

from fastapi.templating import Jinja2Templates
from starlette.requests import Request
from starlette.responses import HTMLResponse

from tavern import catalogue
from tavern.bots.levels import LEVELS
from tavern.games import registry
from tavern.web.session import get_session

# templates/ and static/ ship inside the package (package data), so a normal
# wheel install and the Docker image find them as an editable install does.
_WEB = files("tavern.web")
TEMPLATES_DIR = _WEB / "templates"
STATIC_DIR = _WEB / "static"

templates = Jinja2Templates(directory=str(TEMPLATES_DIR))

#: Each game's French name, from its spec (games/spec.py).
GAME_LABELS = {name: spec.label for name, spec in registry.specs().items()}
templates.env.globals["GAME_LABELS"] = GAME_LABELS
#: The variants' French names (a table's betting structure).
templates.env.globals["VARIANTS"] = catalogue.VARIANTS
templates.env.globals["CHAT_MODES"] = catalogue.CHAT_MODES
templates.env.globals["HOUSE_LEVELS"] = LEVELS  # the house players' levels, weakest first (issue 37)
templates.env.globals["CHAT_PHRASES"] = catalogue.CHAT_PHRASES
#: The table's buttons in the players' words (the page reads them, table.html).
templates.env.globals["TABLE_WORDS"] = {**catalogue.ACTIONS, **catalogue.PILES}


def duration(seconds: float) -> str:
    """A level's length as a player reads it: « 15 s », « 10 min », « 1 min 30 s »
    (never « 0.2 min »: a contest's level may last seconds)."""
    total = round(seconds)
    minutes, rest = divmod(total, 60)
    if not minutes:
        return f"{rest} s"
    return f"{minutes} min" + (f" {rest} s" if rest else "")


templates.env.filters["duration"] = duration
#: « 0 écu », « 1 écu », « 2 écus » (catalogue.ecus, the one helper; issue 42 §7).
templates.env.filters["ecus"] = catalogue.ecus


BROWSER_COOKIE = "tavern_browser"


def render(request: Request, name: str, context: dict[str, Any] | None = None,
           status_code: int = 200) -> HTMLResponse:
    """Render a page with what every page needs: user, CSRF token, flashes."""
    sess = get_session(request)
    ctx: dict[str, Any] = {
        "user": getattr(request.state, "user", None),
        "owns_tavern": getattr(request.state, "owns_tavern", False),
        "csrf_token": sess.csrf,
        "flashes": sess.pop_flashes(),
        "errors": [],
    }
    ctx.update(context or {})
    response = templates.TemplateResponse(request, name, ctx, status_code=status_code)
    if BROWSER_COOKIE not in request.cookies:
        # A random name for this browser, whoever logs in with it: the
        # collusion report (services/surveillance.py) notes two accounts
        # playing from the same browser. Only its hash is ever stored.
        response.set_cookie(BROWSER_COOKIE, secrets.token_hex(16), max_age=400 * 24 * 3600,
                            httponly=True, samesite="lax", secure=request.url.scheme == "https")
    return response
