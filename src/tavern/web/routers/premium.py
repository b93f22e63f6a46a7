"""« Accès premium »: packs of extra hands bought with tokens."""

from __future__ import annotations

from fastapi import Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.services import hands, ledger
from tavern.store.models import PremiumPack
from tavern.web.deps import CurrentUser, act, read_db, require_user, site_settings
from tavern.web.rendering import render
from tavern.web.routers.account import HandsOut, hands_out, now_utc
from tavern.web.routing import api_router, page_router
from tavern.web.session import get_session

pages = page_router()
api = api_router("/api/premium", "premium")


class PremiumOut(BaseModel):
    tokens: int
    free_hands_per_day: int
    pack_hands: int
    pack_price_tokens: int
    hands: HandsOut


class PackOut(BaseModel):
    id: int
    hands_bought: int
    hands_left: int


class PurchaseOut(BaseModel):
    pack: PackOut
    premium: PremiumOut


def premium_out(request: Request, db: Session, user: CurrentUser) -> PremiumOut:
    settings = site_settings(request)
    return PremiumOut(
        tokens=ledger.balance(db, "user", user.id, "tokens"),
        free_hands_per_day=settings.free_hands_per_day,
        pack_hands=settings.pack_hands,
        pack_price_tokens=settings.pack_price_tokens,
        hands=hands_out(db, user.id, now_utc(request), settings),
    )


def buy(request: Request, user: CurrentUser) -> PurchaseOut:
    """One pack, paid in tokens: the ledger refuses if the player has too few."""
    def work(s: Session) -> PurchaseOut:
        pack = hands.buy_pack(s, user.id, site_settings(request))
        return PurchaseOut(pack=PackOut(id=pack.id, hands_bought=pack.hands_bought,
                                        hands_left=pack.hands_left),
                           premium=premium_out(request, s, user))
    return act(request, work)


def _page(request: Request, db: Session, user: CurrentUser, errors: list[str] | None = None,
          status: int = 200) -> Response:
    packs = list(db.scalars(select(PremiumPack).where(PremiumPack.user_id == user.id)
                            .order_by(PremiumPack.id.desc())))
    return render(request, "premium.html", {"premium": premium_out(request, db, user),
                                            "packs": packs, "errors": errors or []},
                  status_code=status)


@pages.get("/premium")
def premium_page(request: Request, user: CurrentUser = Depends(require_user),
                 db: Session = Depends(read_db)) -> Response:
    return _page(request, db, user)


@pages.post("/premium/acheter")
def premium_buy_form(request: Request, user: CurrentUser = Depends(require_user),
                     db: Session = Depends(read_db)) -> Response:
    try:
        out = buy(request, user)
    except HTTPException as exc:
        return _page(request, db, user, [exc.detail], status=400)
    get_session(request).flash(
        french("pack_bought", {"hands": out.pack.hands_bought}))
    return RedirectResponse("/premium", status_code=303)


@api.get("", response_model=PremiumOut, summary="Tokens, pack price, hands left")
def api_premium(request: Request, user: CurrentUser = Depends(require_user),
                db: Session = Depends(read_db)) -> PremiumOut:
    return premium_out(request, db, user)


@api.post("/packs", response_model=PurchaseOut, status_code=201,
          summary="Buy a pack of extra hands with tokens")
def api_buy_pack(request: Request, user: CurrentUser = Depends(require_user)) -> PurchaseOut:
    return buy(request, user)
