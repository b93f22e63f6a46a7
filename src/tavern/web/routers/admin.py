"""Site administration: users (level, role, credits) and the money audit."""

from __future__ import annotations

from typing import Literal

from fastapi import Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.refusal import Refusal
from tavern.services import adminlog, ledger, taverns, users
from tavern.store.models import User
from tavern.web.deps import CurrentUser, Id, act, form_fields, read_db, require_admin
from tavern.web.errors import describe_validation
from tavern.web.refusals import CURRENCY_LABELS, Refused
from tavern.web.rendering import render
from tavern.web.routers.auth import UserOut, user_out
from tavern.web.routing import api_router, page_router
from tavern.web.session import end_all_sessions, get_session
from tavern.web.state import services

pages = page_router("/admin")
api = api_router("/api/admin", "administration")

MAX_CREDIT = 1_000_000_000
MAX_LEVEL = 1000


class AdminUserOut(UserOut):
    ecus: int
    tokens: int
    banned: bool = False
    email: str | None = Field(None, description="the account's confirmed address (admins and its owner only)")
    totp: bool = Field(False, description="two-factor sign-in on")


REASON = Field("", max_length=adminlog.MAX_REASON, description="why (written in the admin log)")


class UserChange(BaseModel):
    level: int | None = Field(None, ge=0, le=MAX_LEVEL)
    role: Literal["player", "admin"] | None = None
    reason: str = REASON


class CreditIn(BaseModel):
    currency: Literal["ecus", "tokens"]
    amount: int = Field(gt=0, le=MAX_CREDIT)
    reason: str = REASON


class TavernIn(BaseModel):
    village: str = Field(min_length=1, max_length=80, description="created if it does not exist")
    owner: str = Field(min_length=1, max_length=40, description="the owner's username")
    name: str = Field(min_length=1, max_length=80)


class TavernCreated(BaseModel):
    id: int
    village_id: int
    owner_id: int
    name: str


class AuditOut(BaseModel):
    ok: bool
    totals: dict[str, int]
    issued: dict[str, int]
    held: dict[str, int]
    mismatched_accounts: list[str]
    negative_accounts: list[str]
    unbacked_tables: list[int]


def admin_user_out(db: Session, user: User | CurrentUser) -> AdminUserOut:
    return AdminUserOut(**user_out(user).model_dump(),
                        ecus=ledger.balance(db, "user", user.id, "ecus"),
                        tokens=ledger.balance(db, "user", user.id, "tokens"),
                        banned=bool(getattr(user, "banned", False)),
                        email=getattr(user, "email", None), totp=bool(getattr(user, "totp_secret", None)))


def all_users(db: Session) -> list[AdminUserOut]:
    return [admin_user_out(db, u) for u in db.scalars(select(User).order_by(User.username))]


def audit_out(db: Session) -> AuditOut:
    a = ledger.audit(db)
    # What players, taverns and tables hold = sum of every non-house balance
    # = total − house = (0 when conserved) + issued.
    held = {c: a.totals[c] + a.issued[c] for c in a.totals}
    return AuditOut(ok=a.ok, totals=a.totals, issued=a.issued, held=held,
                    mismatched_accounts=a.mismatched_accounts, negative_accounts=a.negative_accounts,
                    unbacked_tables=a.unbacked_tables)


def do_change(request: Request, admin: CurrentUser, user_id: int, change: UserChange) -> AdminUserOut:
    if user_id == admin.id and change.role == "player":
        # Nobody locks the site out of its own administration by accident.
        raise Refused(400, Refusal("no_self_demotion"))

    def work(s: Session) -> AdminUserOut:
        target = s.get(User, user_id)
        if target is None:
            raise Refused(404, Refusal("no_such_user"))
        if change.level is not None and change.level != target.level:
            adminlog.record(s, admin.id, user_id, "level", f"{target.level} → {change.level}", change.reason)
            users.set_level(s, user_id, change.level)
        if change.role is not None and change.role != target.role:
            adminlog.record(s, admin.id, user_id, "role", f"{target.role} → {change.role}", change.reason)
            users.set_role(s, user_id, change.role)
        return admin_user_out(s, target)
    return act(request, work)


def do_credit(request: Request, admin: CurrentUser, user_id: int, credit: CreditIn) -> AdminUserOut:
    def work(s: Session) -> AdminUserOut:
        target = s.get(User, user_id)
        if target is None:
            raise Refused(404, Refusal("no_such_user"))
        ledger.issue(s, user_id, credit.amount, credit.currency, reference=f"admin:{admin.id}")
        adminlog.record(s, admin.id, user_id, "credit", f"+{credit.amount} {credit.currency}", credit.reason)
        return admin_user_out(s, target)
    return act(request, work)


def do_create_tavern(request: Request, body: TavernIn) -> TavernCreated:
    """Entrust a new tavern to a player (its village is created if needed)."""
    def work(s: Session) -> TavernCreated:
        owner = users.find_by_username(s, body.owner.strip())
        if owner is None:
            raise Refused(404, Refusal("no_such_username", username=body.owner.strip()))
        village = next((v for v in taverns.list_villages(s) if v.name == body.village.strip()), None)
        if village is None:
            village = taverns.create_village(s, body.village)
        tavern = taverns.create_tavern(s, village.id, owner.id, body.name)
        return TavernCreated(id=tavern.id, village_id=village.id, owner_id=owner.id, name=tavern.name)
    return act(request, work)


# --- pages ---------------------------------------------------------------------


def users_page_with(request: Request, db: Session, errors: list[str] | None = None, status: int = 200) -> Response:
    return render(request, "admin/users.html", {"users": all_users(db), "errors": errors or [],
                                                 "max_credit": MAX_CREDIT}, status_code=status)


def _int(raw: str | None) -> int | None:
    try:
        return int((raw or "").strip())
    except ValueError:
        return None


@pages.get("/utilisateurs")
def users_page(request: Request, _: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> Response:
    return users_page_with(request, db)


@pages.post("/utilisateurs/{user_id}")
def change_form(request: Request, user_id: Id, admin: CurrentUser = Depends(require_admin),
                db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    level = _int(form.get("level")) if form.get("level", "").strip() else None
    role = form.get("role") or None
    problems = []
    if form.get("level", "").strip() and (level is None or not 0 <= level <= MAX_LEVEL):
        problems.append(french("level_range", {"maximum": MAX_LEVEL}))
    if role not in (None, "player", "admin"):
        problems.append(french("role_choice", {"first": "player", "second": "admin"}))
    if not problems:
        try:
            out = do_change(request, admin, user_id, UserChange.model_validate(
                {"level": level, "role": role, "reason": form.get("reason", "")[:adminlog.MAX_REASON]}))
        except HTTPException as exc:
            problems.append(exc.detail)
        else:
            get_session(request).flash(french("user_changed", {"username": out.username, "level": out.level, "role": out.role}))
            return RedirectResponse("/admin/utilisateurs", status_code=303)
    return users_page_with(request, db, problems, status=400)


@pages.post("/utilisateurs/{user_id}/crediter")
def credit_form(request: Request, user_id: Id, admin: CurrentUser = Depends(require_admin),
                db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    amount = _int(form.get("amount"))
    currency = form.get("currency", "")
    problems = []
    if currency not in ("ecus", "tokens"):
        problems.append(french("credit_currency"))
    if amount is None or not 0 < amount <= MAX_CREDIT:
        problems.append(french("credit_range", {"maximum": MAX_CREDIT}))
    if not problems:
        try:
            out = do_credit(request, admin, user_id, CreditIn(currency=currency, amount=amount,  # type: ignore[arg-type]  # the currency is checked against CreditIn's Literal just above
                                                              reason=form.get("reason", "")[:adminlog.MAX_REASON]))
        except HTTPException as exc:
            problems.append(exc.detail)
        else:
            get_session(request).flash(french("user_credited", {"username": out.username, "amount": amount, "currency": currency}))
            return RedirectResponse("/admin/utilisateurs", status_code=303)
    return users_page_with(request, db, problems, status=400)


@pages.post("/utilisateurs/{user_id}/bannir")
def ban_form(request: Request, user_id: Id, admin: CurrentUser = Depends(require_admin),
             db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    banned = form.get("banned", "1") != "0"
    try:
        out = do_ban(request, admin, user_id, banned, form.get("reason", "")[:adminlog.MAX_REASON])
    except HTTPException as exc:
        return users_page_with(request, db, [exc.detail], status=exc.status_code)
    get_session(request).flash(french("user_banned" if banned else "user_unbanned", {"username": out.username}))
    return RedirectResponse("/admin/utilisateurs", status_code=303)


def _taverns_page(request: Request, db: Session, errors: list[str] | None = None,
                  form: dict[str, str] | None = None, status: int = 200) -> Response:
    villages = [(v, taverns.list_taverns(db, v.id)) for v in taverns.list_villages(db)]
    return render(request, "admin/taverns.html", {"villages": villages, "errors": errors or [],
                                                   "form": form or {}}, status_code=status)


@pages.get("/tavernes")
def taverns_page(request: Request, _: CurrentUser = Depends(require_admin),
                 db: Session = Depends(read_db)) -> Response:
    return _taverns_page(request, db)


@pages.post("/tavernes")
def create_tavern_form(request: Request, _: CurrentUser = Depends(require_admin),
                       db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    try:
        body = TavernIn(village=form.get("village", ""), owner=form.get("owner", ""), name=form.get("name", ""))
    except ValidationError as exc:
        return _taverns_page(request, db, describe_validation([dict(e) for e in exc.errors()]), form, status=400)
    try:
        out = do_create_tavern(request, body)
    except HTTPException as exc:
        return _taverns_page(request, db, [exc.detail], form, status=400)
    get_session(request).flash(french("tavern_entrusted", {"name": out.name, "username": body.owner.strip()}))
    return RedirectResponse("/admin/tavernes", status_code=303)


@pages.get("/audit")
def audit_page(request: Request, _: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> Response:
    return render(request, "admin/audit.html", {"audit": audit_out(db), "labels": CURRENCY_LABELS})


# --- API -----------------------------------------------------------------------


@api.get("/users", response_model=list[AdminUserOut], summary="Every user with balances")
def api_users(_: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> list[AdminUserOut]:
    return all_users(db)


@api.patch("/users/{user_id}", response_model=AdminUserOut, summary="Change a user's level or role")
def api_change(request: Request, user_id: Id, body: UserChange,
               admin: CurrentUser = Depends(require_admin)) -> AdminUserOut:
    return do_change(request, admin, user_id, body)


@api.post("/users/{user_id}/credit", response_model=AdminUserOut,
          summary="Credit ecus or tokens (a ledger entry from the house)")
def api_credit(request: Request, user_id: Id, body: CreditIn,
               admin: CurrentUser = Depends(require_admin)) -> AdminUserOut:
    return do_credit(request, admin, user_id, body)


class BanIn(BaseModel):
    banned: bool
    reason: str = REASON


def do_ban(request: Request, admin: CurrentUser, user_id: int, banned: bool, reason: str = "") -> AdminUserOut:
    """Ban (or pardon) an account: a ban ends all its sessions at once."""
    if user_id == admin.id:
        raise Refused(400, Refusal("no_self_ban"))

    def work(s: Session) -> AdminUserOut:
        target = s.get(User, user_id)
        if target is None:
            raise Refused(404, Refusal("no_such_user"))
        if target.banned != banned:
            adminlog.record(s, admin.id, user_id, "ban" if banned else "unban", "", reason)
        target.banned = banned
        if banned:
            end_all_sessions(s, user_id)
        return admin_user_out(s, target)
    out = act(request, work)
    if banned:
        services(request).ws_limits.end_sessions(user_id)
    return out


@api.post("/users/{user_id}/ban", response_model=AdminUserOut,
          summary="Ban an account (its sessions end at once) or lift the ban")
def api_ban(request: Request, user_id: Id, body: BanIn,
            admin: CurrentUser = Depends(require_admin)) -> AdminUserOut:
    return do_ban(request, admin, user_id, body.banned, body.reason)


@api.post("/taverns", response_model=TavernCreated, status_code=201,
          summary="Entrust a new tavern to a player (the village is created if needed)")
def api_create_tavern(request: Request, body: TavernIn, _: CurrentUser = Depends(require_admin)) -> TavernCreated:
    return do_create_tavern(request, body)


@api.get("/audit", response_model=AuditOut, summary="Money audit: per currency, issued vs held")
def api_audit(_: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> AuditOut:
    return audit_out(db)
