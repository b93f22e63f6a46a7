"""Concours de Ramponneau: the lobby, a contest's page (register, the clock,
the standings, the prizes) and the admins' pages (create, cancel, watch) —
and the same in the JSON API. The rules live in :mod:`tavern.contests` and
:mod:`tavern.services.contests`; here only forms and words."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from fastapi import Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.bounds import Amount, Count
from tavern.catalogue import CONTEST_FIELDS, CONTEST_STATUS, french
from tavern.contest_rules import (
    DEFAULT_LEVEL_MINUTES,
    DEFAULT_STARTING_CHIPS,
    ContestRuleError,
    Level,
    Settings,
    default_structure,
    parse_payouts,
    parse_structure,
    structure_text,
)
from tavern.refusal import Refusal
from tavern.services import contests as svc
from tavern.store.models import Contest, Seat, TableConfig, utcnow
from tavern.web.deps import CurrentUser, Id, act, form_fields, optional_user, read_db, require_admin, require_user
from tavern.web.refusals import Refused, refusal
from tavern.web.rendering import render
from tavern.web.routing import api_router, page_router
from tavern.web.session import get_session
from tavern.web.state import services

PARIS = ZoneInfo("Europe/Paris")
STATUS_LABELS = CONTEST_STATUS

pages = page_router()
api = api_router("/api", "concours")


def _paris(when: str) -> str:
    """An instant (ISO, UTC) as Paris local time for the pages."""
    return dt.datetime.fromisoformat(when).astimezone(PARIS).strftime("%d/%m/%Y %H:%M:%S")


def _summaries(db: Session) -> list[dict[str, Any]]:
    now = utcnow()
    return [svc.summary(db, c, now) for c in db.scalars(select(Contest).order_by(Contest.starts_at.desc()))]


def _contest(db: Session, contest_id: int) -> Contest:
    c = db.get(Contest, contest_id)
    if c is None:
        raise Refused(404, Refusal("no_such_contest"))
    return c


def _tables(db: Session, contest_id: int) -> list[dict[str, Any]]:
    """The running tables with their players and chips (the admin's watch)."""
    from tavern.services import ledger

    out = []
    for t in db.scalars(select(TableConfig).where(TableConfig.contest_id == contest_id, TableConfig.status == "open")
                        .order_by(TableConfig.id)):
        # Seats counted from 0, as everywhere a client reads them (docs/protocol.md "Seats").
        players = [{"seat": s.seat_no, "name": s.user.username, "chips": ledger.chips(db, s.user_id, t.id)}
                   for s in db.scalars(select(Seat).where(Seat.table_id == t.id).order_by(Seat.seat_no))]
        out.append({"id": t.id, "name": t.name, "players": players})
    return out


def _refused(exc: Exception) -> HTTPException:
    return refusal(exc) or Refused(400, Refusal("refused"))


# --- players -----------------------------------------------------------------------


async def do_register(request: Request, user: CurrentUser, contest_id: int) -> dict[str, Any]:
    try:
        return await services(request).contests.register(contest_id, user.id)
    except svc.ContestError as exc:
        raise _refused(exc) from None


def do_unregister(request: Request, user: CurrentUser, contest_id: int) -> None:
    def work(s: Session) -> None:
        try:
            svc.unregister(s, contest_id, user.id)
        except svc.ContestError as exc:
            raise _refused(exc) from None
    act(request, work)


@pages.get("/concours")
def lobby_page(request: Request, _: CurrentUser | None = Depends(optional_user),
               db: Session = Depends(read_db)) -> Response:
    contests = _summaries(db)
    groups = {k: [c for c in contests if c["status"] == k] for k in STATUS_LABELS}
    return render(request, "contests.html", {"groups": groups, "labels": STATUS_LABELS, "paris": _paris})


@pages.get("/concours/{contest_id}")
def contest_page(request: Request, contest_id: Id, user: CurrentUser | None = Depends(optional_user),
                 db: Session = Depends(read_db)) -> Response:
    c = _contest(db, contest_id)
    info = svc.summary(db, c, utcnow())
    mine = next((x for x in info["standings"] if user and x["name"] == user.username), None)
    uid = user.id if user else None
    registered = uid is not None and any(e.user_id == uid for e in c.entries)
    return render(request, "contest.html", {"c": info, "labels": STATUS_LABELS, "paris": _paris, "mine": mine,
                                            "registered": registered})


@pages.post("/concours/{contest_id}/inscription")
async def register_form(request: Request, contest_id: Id, user: CurrentUser = Depends(require_user)) -> Response:
    try:
        seat = await do_register(request, user, contest_id)
    except HTTPException as exc:
        get_session(request).flash(exc.detail, "error")
    else:
        get_session(request).flash(french("contest_registered_late" if seat else "contest_registered"))
    return RedirectResponse(f"/concours/{contest_id}", status_code=303)


@pages.post("/concours/{contest_id}/desinscription")
def unregister_form(request: Request, contest_id: Id, user: CurrentUser = Depends(require_user)) -> Response:
    try:
        do_unregister(request, user, contest_id)
    except HTTPException as exc:
        get_session(request).flash(exc.detail, "error")
    else:
        get_session(request).flash(french("contest_unregistered"))
    return RedirectResponse(f"/concours/{contest_id}", status_code=303)


@api.get("/contests", summary="Every contest: fee, prize pool, players, start, structure, payouts")
def api_lobby(_: CurrentUser | None = Depends(optional_user), db: Session = Depends(read_db)) -> list[dict[str, Any]]:
    return _summaries(db)


@api.get("/contests/{contest_id}", summary="A contest: level and clock, standings, prizes")
def api_contest(contest_id: Id, _: CurrentUser | None = Depends(optional_user),
                db: Session = Depends(read_db)) -> dict[str, Any]:
    return svc.summary(db, _contest(db, contest_id), utcnow())


@api.post("/contests/{contest_id}/register", summary="Register (the fee is escrowed); late registration seats you")
async def api_register(request: Request, contest_id: Id, user: CurrentUser = Depends(require_user)) -> dict[str, Any]:
    return await do_register(request, user, contest_id)


@api.post("/contests/{contest_id}/unregister", status_code=204, response_class=Response,
          summary="Unregister before the start (the fee comes back)")
def api_unregister(request: Request, contest_id: Id, user: CurrentUser = Depends(require_user)) -> Response:
    do_unregister(request, user, contest_id)
    return Response(status_code=204)


# --- admins -----------------------------------------------------------------------------


# Every number bounded at the door (tavern.bounds): 2⁶³ in a fee reached the
# store and answered 500; the rules then check what makes sense.
class LevelIn(BaseModel):
    small_blind: Amount
    big_blind: Amount
    ante: Amount = 0
    seconds: Count


class ContestIn(BaseModel):
    name: str = Field(max_length=80)
    starts_at: dt.datetime = Field(description="with its zone; a naive time is Europe/Paris")
    fee: Amount = 0
    house_prize: Amount = 0
    starting_chips: Amount = DEFAULT_STARTING_CHIPS
    seats: Count = 9
    min_players: Count = 2
    max_players: Count = 100
    structure: list[LevelIn] | None = Field(None, description="default: the default structure")
    late_levels: Count = 0
    action_timer_seconds: Count = 30
    payouts: list[Count] | None = Field(None, description="percent by place; default: by the field size")

    def settings(self) -> Settings:
        when = self.starts_at if self.starts_at.tzinfo else self.starts_at.replace(tzinfo=PARIS)
        levels = tuple(Level(lv.small_blind, lv.big_blind, lv.ante, lv.seconds) for lv in self.structure) \
            if self.structure is not None else tuple(default_structure())
        return Settings(self.name, when, self.fee, self.house_prize, self.starting_chips, self.seats,
                        self.min_players, self.max_players, levels, self.late_levels, self.action_timer_seconds,
                        tuple(self.payouts) if self.payouts is not None else None)


def do_create(request: Request, admin: CurrentUser, settings: Settings) -> int:
    def work(s: Session) -> int:
        try:
            return svc.create(s, admin.id, settings, utcnow()).id
        except svc.ContestError as exc:
            raise _refused(exc) from None
    return act(request, work)


def do_cancel(request: Request, contest_id: int) -> None:
    def work(s: Session) -> None:
        try:
            svc.cancel(s, contest_id, french("contest_cancelled_by_admin"))
        except svc.ContestError as exc:
            raise _refused(exc) from None
    act(request, work)


def _form_defaults() -> dict[str, str]:
    start = (utcnow() + dt.timedelta(hours=1)).astimezone(PARIS).replace(second=0, microsecond=0)
    return {"name": "", "starts_at": start.strftime("%Y-%m-%dT%H:%M:%S"), "fee": "0", "house_prize": "0",
            "starting_chips": str(DEFAULT_STARTING_CHIPS), "seats": "9", "min_players": "2", "max_players": "100",
            "structure": structure_text(default_structure(DEFAULT_LEVEL_MINUTES)), "late_levels": "0",
            "action_timer": "30", "payouts": "défaut"}


def _admin_page(request: Request, db: Session, form: dict[str, str] | None = None,
                errors: list[str] | None = None, status: int = 200) -> Response:
    return render(request, "admin/contests.html", {"contests": _summaries(db), "form": form or _form_defaults(),
                                                    "errors": errors or [], "labels": STATUS_LABELS,
                                                    "paris": _paris}, status_code=status)


def _settings_of_form(form: dict[str, str]) -> Settings:
    def number(key: str) -> int:
        try:
            return int(form.get(key, "").strip())
        except ValueError:
            raise ContestRuleError("contest_form_integer", label=CONTEST_FIELDS[key]) from None

    try:
        when = dt.datetime.fromisoformat(form.get("starts_at", "").strip())
    except ValueError:
        raise ContestRuleError("contest_form_start") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=PARIS)
    return Settings(form.get("name", ""), when, number("fee"), number("house_prize"), number("starting_chips"),
                    number("seats"), number("min_players"), number("max_players"),
                    parse_structure(form.get("structure", "")), number("late_levels"), number("action_timer"),
                    parse_payouts(form.get("payouts", "")))


@pages.get("/admin/concours")
def admin_page(request: Request, _: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> Response:
    return _admin_page(request, db)


@pages.post("/admin/concours")
def create_form(request: Request, admin: CurrentUser = Depends(require_admin), db: Session = Depends(read_db),
                form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        contest_id = do_create(request, admin, _settings_of_form(form))
    except ContestRuleError as exc:
        return _admin_page(request, db, form, [str(exc)], status=400)
    except HTTPException as exc:
        return _admin_page(request, db, form, [exc.detail], status=exc.status_code)
    get_session(request).flash(french("contest_created"))
    return RedirectResponse(f"/admin/concours/{contest_id}", status_code=303)


@pages.get("/admin/concours/{contest_id}")
def watch_page(request: Request, contest_id: Id, _: CurrentUser = Depends(require_admin),
               db: Session = Depends(read_db)) -> Response:
    info = svc.summary(db, _contest(db, contest_id), utcnow())
    return render(request, "admin/contest.html", {"c": info, "tables": _tables(db, contest_id),
                                                  "labels": STATUS_LABELS, "paris": _paris})


@pages.post("/admin/concours/{contest_id}/annuler")
def cancel_form(request: Request, contest_id: Id, _: CurrentUser = Depends(require_admin)) -> Response:
    try:
        do_cancel(request, contest_id)
    except HTTPException as exc:
        get_session(request).flash(exc.detail, "error")
    else:
        get_session(request).flash(french("contest_cancelled"))
    return RedirectResponse(f"/admin/concours/{contest_id}", status_code=303)


@api.post("/admin/contests", status_code=201, summary="Create a contest (admins)")
def api_create(request: Request, body: ContestIn, admin: CurrentUser = Depends(require_admin)) -> dict[str, Any]:
    return {"id": do_create(request, admin, body.settings())}


@api.post("/admin/contests/{contest_id}/cancel", status_code=204, response_class=Response,
          summary="Cancel a contest before its start (every fee returned)")
def api_cancel(request: Request, contest_id: Id, _: CurrentUser = Depends(require_admin)) -> Response:
    do_cancel(request, contest_id)
    return Response(status_code=204)


@api.get("/admin/contests/{contest_id}", summary="Watch a contest: tables, players, chips, level and clock")
def api_watch(contest_id: Id, _: CurrentUser = Depends(require_admin),
              db: Session = Depends(read_db)) -> dict[str, Any]:
    return {**svc.summary(db, _contest(db, contest_id), utcnow()), "tables": _tables(db, contest_id)}
