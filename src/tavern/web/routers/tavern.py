"""« Ma taverne → Gérer sa taverne »: the shop, the inventory, the tables.

Only the tavern's owner gets here (403 for anybody else). Every change is a
service call in one transaction; a refusal (not enough écus, no free deck,
a table still occupied) shows the form again with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from anyio import from_thread
from fastapi import Depends, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavern.bots.levels import LEVELS, REGULAR
from tavern.bounds import MAX_AMOUNT, MAX_ID, Amount
from tavern.catalogue import french
from tavern.games import registry
from tavern.games.registry import GAMES
from tavern.refusal import Refusal
from tavern.services import ledger, private_tables, taverns
from tavern.settings import Settings
from tavern.store.models import Inventory, Seat, Tavern
from tavern.tables.actor import CommandError
from tavern.web.deps import (
    CurrentUser,
    Id,
    SiteSettings,
    act,
    form_fields,
    owned_tavern,
    read_db,
    require_user,
    site_settings,
)
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.routers.invitations import link
from tavern.web.routers.village import TableBrief, brief
from tavern.web.routing import api_router, page_router
from tavern.web.session import get_session
from tavern.web.state import services

pages = page_router()
api = api_router("/api/taverns", "ma taverne")

DeckKind = Literal["deck52", "deck32"]
STAKE_FIELDS = ("small_blind", "big_blind", "small_bet", "unit")


class ItemOut(BaseModel):
    id: int
    kind: str
    name: str
    tavern_id: int | None
    table_id: int | None


class ManageOut(BaseModel):
    id: int
    name: str
    ecus: int
    shop: dict[str, int]
    inventory: list[ItemOut]
    tables: list[TableBrief]


class PurchaseIn(BaseModel):
    kind: DeckKind


class StoreIn(BaseModel):
    inventory_id: int = Field(ge=1, le=MAX_ID)


class TableIn(BaseModel):
    """Same fields as the services' ``TableSettings``; checked there."""

    game: str = Field(description=f"one of {', '.join(GAMES)}")
    variant: str = Field("", max_length=30)
    name: str = Field("", max_length=80)
    stakes: dict[str, Amount]
    options: dict[str, Any] = Field(default_factory=dict)
    buy_in_min: Amount | None = None
    buy_in_max: Amount | None = None
    rake_percent: int = Field(0, ge=0, le=100)
    rake_cap: Amount | None = None
    no_flop_no_drop: bool = True
    seats: int | None = Field(None, ge=1, le=100, description="default: the game's usual table")
    action_timer_seconds: int = Field(30, ge=1, le=3600)
    chat: Literal["open", "players", "off"] = Field("open", description="who writes in its chat")
    private: bool = Field(False, description="a table among friends: only holders of its invitation link sit")
    spectators: bool = Field(True, description="at a private table: whether players without the link may watch")
    house_seats: int = Field(0, ge=0, le=100, description="house players who sit while humans are too few "
                                                         "(at most the table's seats less one)")
    house_level: str = Field(REGULAR, max_length=20, description=f"the house players' level: {', '.join(LEVELS)}")


class HouseLevelIn(BaseModel):
    level: str = Field(max_length=20, description=f"the house players' level: {', '.join(LEVELS)}")


class OpenedTable(TableBrief):
    #: a private table's invitation link (shown once: the table keeps only its hash)
    invitation: str | None = None


def item_out(inv: Inventory) -> ItemOut:
    return ItemOut(id=inv.id, kind=inv.item.kind, name=inv.item.name,
                   tavern_id=inv.tavern_id, table_id=inv.table_id)


def manage_out(db: Session, user: CurrentUser, tavern: Tavern, settings: Settings) -> ManageOut:
    return ManageOut(
        id=tavern.id, name=tavern.name, ecus=ledger.balance(db, "user", user.id, "ecus"),
        shop=taverns.shop_prices(settings),
        inventory=[item_out(i) for i in taverns.inventory(db, user.id)],
        tables=[brief(s.table, s.seats_taken) for s in taverns.list_open_tables(db, tavern.id)],
    )


# --- the actions, shared by pages and API ----------------------------------------


def do_buy(request: Request, user: CurrentUser, tavern_id: int, kind: str) -> ItemOut:
    def work(s: Session) -> ItemOut:
        owned_tavern(s, user, tavern_id)
        return item_out(taverns.buy_item(s, user.id, kind, site_settings(request)))
    return act(request, work)


def do_store(request: Request, user: CurrentUser, tavern_id: int, inventory_id: int) -> ItemOut:
    def work(s: Session) -> ItemOut:
        owned_tavern(s, user, tavern_id)
        return item_out(taverns.store_item(s, user.id, inventory_id, tavern_id))
    return act(request, work)


def do_open(request: Request, user: CurrentUser, tavern_id: int, data: dict[str, Any]) -> OpenedTable:
    def work(s: Session) -> OpenedTable:
        owned_tavern(s, user, tavern_id)
        table = taverns.open_table(s, tavern_id, user.id, data, site_settings(request))
        # A table among friends gets its first link with it, in the same transaction.
        token = private_tables.new_invitation(s, table.id, user.id) if table.private else None
        return OpenedTable(**brief(table, 0).model_dump(), invitation=link(request, token) if token else None)
    return act(request, work)


def do_close(request: Request, user: CurrentUser, tavern_id: int, table_id: int) -> bool:
    """Close a table of the owner's tavern. An empty table closes here; a
    table with players seated is closed by its live table (the actor): the
    chips it carries are shared out, every player is cashed out, then it
    closes — at once between deals, at the end of a deal in progress.
    Returns whether the table is closed now (``False``: at the deal's end)."""

    def work(s: Session) -> bool:
        owned_tavern(s, user, tavern_id)
        table = taverns.get_table(s, table_id)
        if table is None or table.tavern_id != tavern_id:
            raise Refused(404, Refusal("table_not_in_your_tavern"))
        if table.status == "open" and s.scalar(select(func.count()).select_from(Seat)
                                                .where(Seat.table_id == table_id)):
            return True  # players seated: the live table closes it
        taverns.close_table(s, table_id, user.id)
        return False

    manager = services(request).tables
    if not act(request, work):
        from_thread.run(manager.discard, table_id)
        return True
    try:
        out = from_thread.run(manager.close_table, table_id, user.id)
    except CommandError as exc:
        raise Refused(400, exc) from None
    return bool(out.get("closed"))


# --- pages -----------------------------------------------------------------------


def _form_int(raw: Any, field: str, problems: list[str], *, optional: bool = False) -> int | None:
    """A whole number from a form field; else a French problem naming the
    field by its label (tavern.catalogue.FIELDS)."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        if optional:
            return None
        problems.append(french("missing", {"field": field}))
        return None
    try:
        value = int(text)
    except ValueError:
        problems.append(french("int_parsing", {"field": field}))
        return None
    if abs(value) > MAX_AMOUNT:
        problems.append(french("less_than_equal", {"field": field, "le": MAX_AMOUNT}))
        return None
    return value


def table_form_data(form: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The owner's form as the service's table settings, or what is wrong."""
    problems: list[str] = []
    game = form.get("game", "")
    if game not in GAMES:
        problems.append(french("unknown_game", {"field": "game", "game": game}))
        return {}, problems
    stakes = {}
    for key in registry.spec(game).stakes:
        stakes[key] = _form_int(form.get(key), key, problems)
    data: dict[str, Any] = {
        "game": game,
        "variant": str(form.get("variant", "")).strip()[:30],
        "name": str(form.get("name", "")).strip()[:80],
        "stakes": stakes,
        "buy_in_min": _form_int(form.get("buy_in_min"), "buy_in_min", problems, optional=True),
        "buy_in_max": _form_int(form.get("buy_in_max"), "buy_in_max", problems, optional=True),
        "rake_percent": _form_int(form.get("rake_percent", "0"), "rake_percent", problems),
        "rake_cap": _form_int(form.get("rake_cap"), "rake_cap", problems, optional=True),
        "no_flop_no_drop": form.get("no_flop_no_drop") in ("on", "1", "true"),
        # Left empty: the game's usual table (Gin two, Rami up to five).
        "seats": _form_int(form.get("seats"), "seats", problems, optional=True),
        "action_timer_seconds": _form_int(form.get("action_timer_seconds", "30"), "action_timer_seconds", problems),
        "chat": form.get("chat") or "open",  # anything else refused by the service, naming the field
        "private": form.get("private") in ("on", "1", "true"),
        "spectators": form.get("spectators") in ("on", "1", "true"),
        "house_seats": _form_int(form.get("house_seats", "0") or "0", "house_seats", problems),
        "house_level": str(form.get("house_level") or REGULAR)[:20],  # an unknown one refused by the service
    }
    if not data["name"]:
        problems.append(french("missing", {"field": "table_name"}))
    return data, problems


def _manage_page(request: Request, db: Session, user: CurrentUser, tavern: Tavern,
                 errors: list[str] | None = None, form: dict[str, Any] | None = None,
                 status: int = 200) -> Response:
    return render(request, "tavern_manage.html", {
        "tavern": manage_out(db, user, tavern, site_settings(request)), "games": registry.specs(),
        "item_names": taverns.ITEM_NAMES,
        "errors": errors or [], "form": form or {},
    }, status_code=status)


def manage_again(request: Request, db: Session, user: CurrentUser, tavern: Tavern, errors: list[str],
                 status: int) -> Response:
    """The page again with what was refused (the chat's tools: routers/chat.py)."""
    return _manage_page(request, db, user, tavern, errors, status=status)


@pages.get("/ma-taverne")
def my_taverns(request: Request, user: CurrentUser = Depends(require_user),
               db: Session = Depends(read_db)) -> Response:
    mine = taverns.taverns_of(db, user.id)
    if len(mine) == 1:
        return RedirectResponse(f"/ma-taverne/{mine[0].id}", status_code=303)
    return render(request, "my_taverns.html", {"taverns": mine})


@pages.get("/ma-taverne/{tavern_id}")
def manage_page(request: Request, tavern_id: Id, user: CurrentUser = Depends(require_user),
                db: Session = Depends(read_db)) -> Response:
    return _manage_page(request, db, user, owned_tavern(db, user, tavern_id))


def _after(request: Request, db: Session, user: CurrentUser, tavern_id: int, action: Callable[[], object], ok: str,
           form: dict[str, Any] | None = None) -> Response:
    """Run ``action``; on success flash ``ok`` and go back to the page (PRG),
    on refusal show the page again with the reason (nothing changed)."""
    tavern = owned_tavern(db, user, tavern_id)
    try:
        action()
    except HTTPException as exc:
        if exc.status_code in (403, 404):
            raise
        problems = exc.params.get("problems") if isinstance(exc, Refused) else None
        # A refused form: one line per field, each naming it by the form's label.
        errors = [p["message"] for p in problems] if problems else [exc.detail]
        return _manage_page(request, db, user, tavern, errors, form, status=400)
    get_session(request).flash(ok)
    return RedirectResponse(f"/ma-taverne/{tavern_id}", status_code=303)


@pages.post("/ma-taverne/{tavern_id}/acheter")
def buy_form(request: Request, tavern_id: Id, user: CurrentUser = Depends(require_user),
             db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    kind = form.get("kind", "")
    if kind not in taverns.ITEM_NAMES:
        return _manage_page(request, db, user, owned_tavern(db, user, tavern_id),
                            [french("shop_does_not_sell")], status=400)
    return _after(request, db, user, tavern_id, lambda: do_buy(request, user, tavern_id, kind),
                  french("item_bought", {"item": taverns.ITEM_NAMES[kind]}))


@pages.post("/ma-taverne/{tavern_id}/entreposer")
def store_form(request: Request, tavern_id: Id, user: CurrentUser = Depends(require_user),
               db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    problems: list[str] = []
    inventory_id = _form_int(form.get("inventory_id"), "kind", problems)
    if inventory_id is not None and not 1 <= inventory_id <= MAX_ID:
        problems.append(french("no_such_inventory_item"))
    if problems or inventory_id is None:
        return _manage_page(request, db, user, owned_tavern(db, user, tavern_id), problems, status=400)
    return _after(request, db, user, tavern_id, lambda: do_store(request, user, tavern_id, inventory_id),
                  french("item_stored"))


@pages.post("/ma-taverne/{tavern_id}/tables")
def open_form(request: Request, tavern_id: Id, user: CurrentUser = Depends(require_user),
              db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    data, problems = table_form_data(form)
    if problems:
        return _manage_page(request, db, user, owned_tavern(db, user, tavern_id), problems, form, status=400)
    opened: list[OpenedTable] = []
    response = _after(request, db, user, tavern_id, lambda: opened.append(do_open(request, user, tavern_id, data)),
                      french("table_opened_private" if data["private"] else "table_opened"), form)
    if opened and opened[0].invitation:
        get_session(request).flash(french("invitation_link", {"name": opened[0].name, "link": opened[0].invitation}))
    return response


def do_house_level(request: Request, user: CurrentUser, tavern_id: int, table_id: int, level: str) -> str:
    """The house players' level at one of the owner's tables (issue 37 §2);
    the live table plays it from its next deal (tables/house.py). Returns the table's name."""
    def work(s: Session) -> str:
        owned_tavern(s, user, tavern_id)
        return taverns.set_house_level(s, table_id, tavern_id, level).name
    return act(request, work)


@pages.post("/ma-taverne/{tavern_id}/tables/{table_id}/maison")
def house_level_form(request: Request, tavern_id: Id, table_id: Id, user: CurrentUser = Depends(require_user),
                     db: Session = Depends(read_db), form: dict[str, str] = Depends(form_fields)) -> Response:
    """Like :func:`_after`, with the message naming the table."""
    tavern = owned_tavern(db, user, tavern_id)
    level = form.get("level", "")[:20]
    try:
        name = do_house_level(request, user, tavern_id, table_id, level)
    except HTTPException as exc:
        if exc.status_code in (403, 404):
            raise
        return _manage_page(request, db, user, tavern, [exc.detail], status=400)
    get_session(request).flash(french("house_level_changed", {"name": name, "level": level}))
    return RedirectResponse(f"/ma-taverne/{tavern_id}", status_code=303)


CLOSED = french("table_closed_now")
CLOSING = french("table_closing_after_deal")


@pages.post("/ma-taverne/{tavern_id}/tables/{table_id}/fermer")
def close_form(request: Request, tavern_id: Id, table_id: Id, user: CurrentUser = Depends(require_user),
               db: Session = Depends(read_db)) -> Response:
    """Like :func:`_after`, with the message saying whether it closed now."""
    tavern = owned_tavern(db, user, tavern_id)
    try:
        now = do_close(request, user, tavern_id, table_id)
    except HTTPException as exc:
        if exc.status_code in (403, 404):
            raise
        return _manage_page(request, db, user, tavern, [exc.detail], status=400)
    get_session(request).flash(CLOSED if now else CLOSING)
    return RedirectResponse(f"/ma-taverne/{tavern_id}", status_code=303)


# --- API ---------------------------------------------------------------------------


@api.get("/mine", response_model=list[int], summary="Ids of the taverns I own")
def api_mine(user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> list[int]:
    return [t.id for t in taverns.taverns_of(db, user.id)]


@api.get("/{tavern_id}", response_model=ManageOut, summary="Manage my tavern: shop, inventory, tables")
def api_manage(tavern_id: Id, settings: SiteSettings, user: CurrentUser = Depends(require_user),
               db: Session = Depends(read_db)) -> ManageOut:
    return manage_out(db, user, owned_tavern(db, user, tavern_id), settings)


@api.post("/{tavern_id}/shop", response_model=ItemOut, status_code=201, summary="Buy a deck item for ecus")
def api_buy(request: Request, tavern_id: Id, body: PurchaseIn, user: CurrentUser = Depends(require_user)) -> ItemOut:
    return do_buy(request, user, tavern_id, body.kind)


@api.post("/{tavern_id}/inventory", response_model=ItemOut, summary="Store one of my items in the tavern")
def api_store(request: Request, tavern_id: Id, body: StoreIn, user: CurrentUser = Depends(require_user)) -> ItemOut:
    return do_store(request, user, tavern_id, body.inventory_id)


@api.post("/{tavern_id}/tables", response_model=OpenedTable, status_code=201,
          summary="Open a table (needs a free deck item stored in the tavern)")
def api_open(request: Request, tavern_id: Id, body: TableIn, user: CurrentUser = Depends(require_user)) -> OpenedTable:
    return do_open(request, user, tavern_id, body.model_dump())


@api.post("/{tavern_id}/tables/{table_id}/close", status_code=204, response_class=Response,
          summary="Close a table; its deck goes back to the inventory",
          description="An empty table closes at once (204). With players seated the live table ends the "
                      "game: the chips carried from deal to deal are shared out among the seated players, "
                      "each is cashed out, and the table closes — at once between deals (204), at the end "
                      "of a deal in progress (202, with a `detail`).")
def api_close(request: Request, tavern_id: Id, table_id: Id, user: CurrentUser = Depends(require_user)) -> Response:
    if do_close(request, user, tavern_id, table_id):
        return Response(status_code=204)
    return JSONResponse({"detail": CLOSING}, status_code=202)


@api.put("/{tavern_id}/tables/{table_id}/house-level", status_code=204, response_class=Response,
         summary=f"The house players' level at a table: {', '.join(LEVELS)}",
         description="Played from the table's next deal (a deal under way ends at the old level).")
def api_house_level(request: Request, tavern_id: Id, table_id: Id, body: HouseLevelIn,
                    user: CurrentUser = Depends(require_user)) -> Response:
    do_house_level(request, user, tavern_id, table_id, body.level)
    return Response(status_code=204)
