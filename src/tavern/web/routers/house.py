"""« Caisse de la maison » (issue 29 §2): the account the house players cave
from at real tables — its balance, what they won or lost at each table, and
the site admin's credit (a ledger entry from the house's issuance, like any
grant: services/house_seats.py)."""

from __future__ import annotations

from fastapi import Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.services import house_seats
from tavern.web.deps import CurrentUser, act, form_fields, read_db, require_admin
from tavern.web.rendering import render
from tavern.web.routers.admin import MAX_CREDIT
from tavern.web.routing import api_router, page_router
from tavern.web.session import get_session

pages = page_router("/admin")
api = api_router("/api/admin", "administration")


class HouseFundIn(BaseModel):
    amount: int = Field(gt=0, le=MAX_CREDIT)


class HouseTableOut(BaseModel):
    table_id: int
    name: str
    caved: int
    cashed: int
    at_table: int
    result: int


class HousePurseOut(BaseModel):
    balance: int
    tables: list[HouseTableOut]


def purse_out(db: Session) -> HousePurseOut:
    return HousePurseOut(balance=house_seats.purse(db).balance,
                         tables=[HouseTableOut(table_id=r.table_id, name=r.name, caved=r.caved, cashed=r.cashed,
                                               at_table=r.at_table, result=r.result)
                                 for r in house_seats.results(db)])


def do_fund(request: Request, admin: CurrentUser, body: HouseFundIn) -> HousePurseOut:
    def work(s: Session) -> HousePurseOut:
        house_seats.fund(s, body.amount, admin.id)
        return purse_out(s)
    return act(request, work)


def _page(request: Request, db: Session, errors: list[str] | None = None, status: int = 200) -> Response:
    """The purse's page; a refused credit shows it again with the reason (``errors``)."""
    return render(request, "admin/house.html", {"purse": purse_out(db), "errors": errors or [],
                                                 "max_credit": MAX_CREDIT}, status_code=status)


def _credit_of(form: dict[str, str]) -> int | None:
    """The form's amount, if it is a whole number of écus within the credit's bounds."""
    raw = (form.get("amount") or "").strip()
    amount = int(raw) if raw.isdigit() and len(raw) <= 12 else None
    return amount if amount is not None and 0 < amount <= MAX_CREDIT else None


@pages.post("/maison/crediter")
def fund_form(request: Request, admin: CurrentUser = Depends(require_admin), db: Session = Depends(read_db),
              form: dict[str, str] = Depends(form_fields)) -> Response:
    amount = _credit_of(form)
    if amount is None:
        return _page(request, db, [french("credit_range", {"maximum": MAX_CREDIT})], status=400)
    try:
        do_fund(request, admin, HouseFundIn(amount=amount))
    except HTTPException as exc:
        return _page(request, db, [exc.detail], status=exc.status_code)
    get_session(request).flash(french("house_purse_credited", {"amount": amount}))
    return RedirectResponse("/admin/maison", status_code=303)


@pages.get("/maison")
def house_page(request: Request, _: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> Response:
    return _page(request, db)


@api.get("/house", response_model=HousePurseOut,
         summary="The house players' purse: its balance and their result at each table")
def api_house(_: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> HousePurseOut:
    return purse_out(db)


@api.post("/house/credit", response_model=HousePurseOut,
          summary="Credit the house players' purse (a ledger entry from the house's issuance)")
def api_fund(request: Request, body: HouseFundIn, admin: CurrentUser = Depends(require_admin)) -> HousePurseOut:
    return do_fund(request, admin, body)
