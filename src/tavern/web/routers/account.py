"""« Mon compte »: écus, tokens and hands left."""

from __future__ import annotations

import datetime as dt

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.services import hands, ledger
from tavern.store.models import Tavern
from tavern.web.csrf import csrf_protect
from tavern.web.deps import CurrentUser, read_db, require_user
from tavern.web.rendering import render
from tavern.web.routers.auth import UserOut, user_out

pages = APIRouter(dependencies=[Depends(csrf_protect)], include_in_schema=False)
api = APIRouter(prefix="/api", tags=["compte"], dependencies=[Depends(csrf_protect)])


class HandsOut(BaseModel):
    free_today: int
    paid: int
    total: int


class AccountOut(BaseModel):
    user: UserOut
    ecus: int
    tokens: int
    hands: HandsOut
    taverns: list[int]


def now_utc(request: Request) -> dt.datetime:
    """The clock, replaceable in tests (``app.state.clock``)."""
    clock = getattr(request.app.state, "clock", None)
    return clock() if clock else dt.datetime.now(dt.timezone.utc)


def hands_out(db: Session, user_id: int, now: dt.datetime) -> HandsOut:
    left = hands.hands_left(db, user_id, now)
    return HandsOut(free_today=left.free, paid=left.paid, total=left.total)


def account_out(db: Session, user: CurrentUser, now: dt.datetime) -> AccountOut:
    taverns = list(db.scalars(select(Tavern.id).where(Tavern.owner_id == user.id).order_by(Tavern.id)))
    return AccountOut(
        user=user_out(user),
        ecus=ledger.balance(db, "user", user.id, "ecus"),
        tokens=ledger.balance(db, "user", user.id, "tokens"),
        hands=hands_out(db, user.id, now),
        taverns=taverns,
    )


@pages.get("/compte")
def account_page(request: Request, user: CurrentUser = Depends(require_user),
                 db: Session = Depends(read_db)) -> Response:
    return render(request, "account.html", {"account": account_out(db, user, now_utc(request))})


@api.get("/me", response_model=AccountOut, summary="My balances and hands left")
def api_me(request: Request, user: CurrentUser = Depends(require_user),
           db: Session = Depends(read_db)) -> AccountOut:
    return account_out(db, user, now_utc(request))
