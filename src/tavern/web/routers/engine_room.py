"""« Salle des machines » (admins only): the page and its JSON, read every
few seconds by static/engine_room.js (web/engine_room.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Depends, Request
from fastapi.responses import Response

from tavern.web import engine_room
from tavern.web.deps import CurrentUser, require_admin
from tavern.web.rendering import render
from tavern.web.routing import api_router, page_router
from tavern.web.sampler import sample_now

# As the other admin routers (web/routers/admin.py): the CSRF check, though both are reads.
pages = page_router("/admin")
api = api_router("/api/admin", "administration")


async def _figures(request: Request) -> dict[str, Any]:
    sample_now(request.app)  # this worker's state gauges as of now
    return await asyncio.to_thread(engine_room.figures)  # the registry read off the loop (several workers: files)


@pages.get("/salle-des-machines")
async def engine_room_page(request: Request, _: CurrentUser = Depends(require_admin)) -> Response:
    return render(request, "admin/engine_room.html", {"room": await _figures(request)})


@api.get("/engine-room", summary="The engine room's live figures (the same as /metrics)")
async def engine_room_api(request: Request, _: CurrentUser = Depends(require_admin)) -> dict[str, Any]:
    return await _figures(request)
