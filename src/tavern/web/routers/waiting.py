"""A full table's waiting list over HTTP (issue 30 §3, docs/web.md "The
waiting list"): for a player on any page of the site, where no table socket
is open — the notice's « Prendre la place » and « Laisser passer » buttons
(static/notices.js) and the table page's « Liste d'attente ».

Each route is the table's own command (tables/waiting.py), submitted to the
table's actor here or carried to its owner worker (tables/manager.py
``RemoteTable``) like a socket's: the same refusals, said in French.
CSRF-protected like every API post.
"""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from tavern.bounds import Amount
from tavern.refusal import Refusal
from tavern.tables.commands import CommandError, OfferAccept, OfferPass, TableCommand, WaitJoin, WaitLeave
from tavern.tables.manager import TableMoved
from tavern.web.deps import CurrentUser, Id, require_user
from tavern.web.refusals import Refused
from tavern.web.routing import api_router
from tavern.web.state import services

api = api_router("/api", "village")


class PlaceOut(BaseModel):
    place: int = Field(description="your place in the table's waiting list, from 1")


class OfferIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cave: Amount | None = Field(default=None, gt=0, description="your cave (default: the table's smallest)")


class SeatedOut(BaseModel):
    seat: int = Field(ge=0, description="the seat, counted from 0 as in the table protocol")
    chips: int


async def _submit(request: Request, table_id: int, user: CurrentUser, command: TableCommand) -> Any:
    """The command at the live table, or its French refusal (nothing changed)."""
    manager = services(request).tables
    try:
        actor = await manager.get(table_id)
        if actor is None:
            raise Refused(404, Refusal("table_closed"))
        return await actor.submit(command, user.username, user_id=user.id)
    except TableMoved:
        raise Refused(409, Refusal("table_moving")) from None
    except CommandError as exc:
        raise Refused(409 if exc.code in ("table_closed", "table_moving") else 400, exc) from None


@api.post("/tables/{table_id}/waiting", response_model=PlaceOut,
          summary="Join a full table's waiting list")
async def join(request: Request, table_id: Id, user: CurrentUser = Depends(require_user)) -> PlaceOut:
    out = await _submit(request, table_id, user, WaitJoin())
    return PlaceOut(place=int(out["place"]))


@api.delete("/tables/{table_id}/waiting", status_code=204, response_class=Response,
            summary="Leave a table's waiting list")
async def leave(request: Request, table_id: Id, user: CurrentUser = Depends(require_user)) -> Response:
    await _submit(request, table_id, user, WaitLeave())
    return Response(status_code=204)


@api.post("/tables/{table_id}/offer/accept", response_model=SeatedOut,
          summary="Take the seat offered to you")
async def accept(request: Request, table_id: Id, body: OfferIn | None = None,
                 user: CurrentUser = Depends(require_user)) -> SeatedOut:
    out = await _submit(request, table_id, user, OfferAccept(cave=body.cave if body else None))
    return SeatedOut(seat=int(out["seat"]), chips=int(out["chips"]))


@api.post("/tables/{table_id}/offer/pass", status_code=204, response_class=Response,
          summary="Let the seat offered to you go to the next in line")
async def pass_offer(request: Request, table_id: Id, user: CurrentUser = Depends(require_user)) -> Response:
    await _submit(request, table_id, user, OfferPass())
    return Response(status_code=204)
