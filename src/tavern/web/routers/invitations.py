"""Tables among friends (issue 30 §2): the invitation link and its renewal.

``GET /invitation/{token}`` is the link a tavern's owner gives his friends:
opened by a logged-in player, it shows the table it invites to and a button;
the GET writes nothing (mail scanners and link previews open links, issue
42 §12). The button (``POST``, with the CSRF token) writes his grant and
takes him to the table (the token leaves the address bar: it is not sent on
as a Referer).
The owner renews the link from « Gérer sa taverne » (the old one dies), or
invites a player by name: his grant written, and a notice on his pages
(web/notices.py).
The rules are in services/private_tables.py; docs/web.md "Private tables".
"""

from __future__ import annotations

import orjson
from anyio import from_thread
from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.refusal import Refusal
from tavern.services import private_tables
from tavern.services.private_tables import InvitationError
from tavern.tables.waiting import NOTICES
from tavern.web.csrf import csrf_protect
from tavern.web.deps import (
    CurrentUser,
    Id,
    ReadRoute,
    act,
    form_fields,
    owned_tavern,
    read_db,
    require_user,
    write,
)
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.session import get_session
from tavern.web.state import services

pages = APIRouter(route_class=ReadRoute, dependencies=[Depends(csrf_protect)], include_in_schema=False)
api = APIRouter(route_class=ReadRoute, prefix="/api", tags=["village"], dependencies=[Depends(csrf_protect)])


class InvitationOut(BaseModel):
    table_id: int
    #: the link to give (absolute); a new one kills the previous
    link: str


class InviteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(min_length=1, max_length=40, description="the player to invite, by name")


class AcceptedOut(BaseModel):
    table_id: int
    name: str


def link(request: Request, token: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/invitation/{token}"


def _accept(request: Request, user: CurrentUser, token: str) -> AcceptedOut:
    """The grant written, or a 403 with the French refusal (nothing written)."""

    def work(s: Session) -> AcceptedOut:
        table = private_tables.accept(s, token, user.id)
        return AcceptedOut(table_id=table.id, name=table.name)

    try:
        return write(request, work)
    except InvitationError as exc:
        raise Refused(403, exc) from None


def renew(request: Request, user: CurrentUser, tavern_id: int, table_id: int) -> InvitationOut:
    """A new link for a private table of the owner's tavern; the old one dies."""

    def work(s: Session) -> InvitationOut:
        owned_tavern(s, user, tavern_id)
        table = private_tables.table_of_tavern(s, table_id, tavern_id)
        if table is None:
            raise Refused(404, Refusal("table_not_in_your_tavern"))
        return InvitationOut(table_id=table_id, link=link(request, private_tables.new_invitation(s, table_id, user.id)))

    return act(request, work)


@pages.get("/invitation/{token}")
def invitation_page(request: Request, token: str, user: CurrentUser = Depends(require_user),
                    db: Session = Depends(read_db)) -> Response:
    """The link's page: the table and the button that accepts; nothing written."""
    try:
        table = private_tables.invited_to(db, token)
    except InvitationError as exc:
        raise Refused(403, exc) from None
    owner = table.tavern.owner.username if table.tavern is not None else ""
    return render(request, "invitation.html", {"table_name": table.name, "owner": owner, "token": token,
                                               "invited": private_tables.has_grant(db, table.id, user.id),
                                               "table_id": table.id})


@pages.post("/invitation/{token}")
def invitation_accept(request: Request, token: str, user: CurrentUser = Depends(require_user)) -> Response:
    """The link page's button: the grant written, then the table."""
    accepted = _accept(request, user, token)
    get_session(request).flash(french("invitation_accepted", {"name": accepted.name}))
    return RedirectResponse(f"/tables/{accepted.table_id}", status_code=303)


@pages.post("/ma-taverne/{tavern_id}/tables/{table_id}/invitation")
def renew_form(request: Request, tavern_id: Id, table_id: Id, user: CurrentUser = Depends(require_user),
               db: Session = Depends(read_db)) -> Response:
    owned_tavern(db, user, tavern_id)
    out = renew(request, user, tavern_id, table_id)
    name = private_tables.table_name(db, table_id)
    get_session(request).flash(french("invitation_link", {"name": name, "link": out.link}))
    return RedirectResponse(f"/ma-taverne/{tavern_id}", status_code=303)


@api.post("/invitations/{token}", response_model=AcceptedOut, summary="Open a private table's invitation link")
def api_accept(request: Request, token: str, user: CurrentUser = Depends(require_user)) -> AcceptedOut:
    return _accept(request, user, token)


@api.post("/taverns/{tavern_id}/tables/{table_id}/invitation", response_model=InvitationOut,
          summary="A new invitation link for a private table (the old one stops working)")
def api_renew(request: Request, tavern_id: Id, table_id: Id, user: CurrentUser = Depends(require_user)) -> InvitationOut:
    return renew(request, user, tavern_id, table_id)


def invite(request: Request, user: CurrentUser, tavern_id: int, table_id: int, username: str) -> str:
    """The owner invites ``username`` to a private table of his tavern: the
    grant written, then the notice on the guest's channel (his table's name
    and the owner's, nothing else). Returns the table's name."""

    def work(s: Session) -> tuple[int, str, str]:
        owned_tavern(s, user, tavern_id)
        if private_tables.table_of_tavern(s, table_id, tavern_id) is None:
            raise Refused(404, Refusal("table_not_in_your_tavern"))
        table, guest = private_tables.invite(s, table_id, user.id, username)
        return table.id, table.name, guest.username

    tid, name, guest = act(request, work)
    text = french("table_invitation_notice", {"owner": user.username, "table": name})
    notice = orjson.dumps({"type": "table_invitation", "table_id": tid, "table": name, "owner": user.username,
                           "text": text}).decode()
    from_thread.run(services(request).broadcaster.publish, NOTICES, {guest: notice})
    return name


@pages.post("/ma-taverne/{tavern_id}/tables/{table_id}/inviter")
def invite_form(request: Request, tavern_id: Id, table_id: Id, user: CurrentUser = Depends(require_user),
                form: dict[str, str] = Depends(form_fields)) -> Response:
    name = form.get("username", "").strip()[:40]
    table = invite(request, user, tavern_id, table_id, name)
    get_session(request).flash(french("invitation_sent", {"name": name, "table": table}))
    return RedirectResponse(f"/ma-taverne/{tavern_id}", status_code=303)


@api.post("/taverns/{tavern_id}/tables/{table_id}/invitations", status_code=204, response_class=Response,
          summary="Invite a player by name to a private table (he is told on his pages)")
def api_invite(request: Request, tavern_id: Id, table_id: Id, body: InviteIn,
               user: CurrentUser = Depends(require_user)) -> Response:
    invite(request, user, tavern_id, table_id, body.username)
    return Response(status_code=204)
