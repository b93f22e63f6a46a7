"""Villages, taverns, the shop, a tavern's inventory and its card tables.

RULES.md: "A village lists its taverns. A tavern has an owner. To open a card
table the owner must own a deck of cards item and store it in the tavern's
inventory (one deck item per open table; games played with two decks need
two)."

Rulings where the rules leave it open (also in docs):

* A ``deck52`` item is a full pack: 52 cards and 2 jokers, so one item serves
  Ramponneau, draw poker, rami, Rummoli and a 2–5 player Remigio (54 cards).
  Rams needs a ``deck32``.
* Decks per table: double rami and gin use two; Remigio one for 2–5 seats
  (two with the option ``two_decks``), three for 6–8 seats, four for 9–12 —
  counted on the table's number of seats, since anyone may sit down later.
* The cave bounds ("between 10× and 100× the big blind") use, as the big
  blind: Ramponneau the big blind, draw poker the small bet, and for the
  point games what one deal typically costs: rami family 10 units, Rummoli
  9 units (one ante on each of the 9 sections), Rams 5 units (the dealer's
  stake). The owner may narrow the bounds, never widen them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, model_validator
from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from tavern import catalogue
from tavern.bots.levels import LEVELS, REGULAR
from tavern.bounds import MAX_AMOUNT, Amount, Count
from tavern.catalogue import validation_refusals
from tavern.games import registry
from tavern.games.registry import GAMES
from tavern.games.spec import TableTerms
from tavern.refusal import Invalid, Refusal
from tavern.services import ledger
from tavern.services.table_options import check_options
from tavern.settings import Settings
from tavern.store.models import Inventory, Item, Seat, TableConfig, Tavern, User, Village, utcnow


class TavernError(Refusal, ValueError):
    """A refused tavern operation: a code the catalogue says in French."""


# --- what each game needs from a table: its spec (games/spec.py) ---------


#: The shop's items by kind, named by the catalogue.
ITEM_NAMES = catalogue.ITEM_NAMES


class TableSettings(BaseModel):
    """What the owner chooses on "Gérer sa taverne". Buy-in bounds default
    to the widest allowed."""

    model_config = ConfigDict(extra="forbid")

    game: str
    variant: str = ""
    name: str = ""
    stakes: dict[str, Any]
    #: The game's options (services/table_options.py), checked with the stakes.
    options: dict[str, Any] = Field(default_factory=dict)
    # Every number bounded (tavern.bounds): the API's and the form's too.
    buy_in_min: Amount | None = None
    buy_in_max: Amount | None = None
    rake_percent: Count = 0
    rake_cap: Amount | None = None
    no_flop_no_drop: bool = True
    #: None: the game's usual table (see :func:`default_seats`).
    seats: Count | None = None
    action_timer_seconds: int = Field(default=30, ge=5, le=600)
    #: Who writes in the table's chat (services/chat.py).
    chat: Literal["open", "players", "off"] = "open"
    #: A table among friends (services/private_tables.py): reached by its link only.
    private: bool = False
    #: At a private table: whether those without the link may watch.
    spectators: bool = True
    #: « Joueurs de la maison » (tables/house.py): house players who sit while humans are too few.
    house_seats: Count = 0
    #: Their level (issue 37 §2: tavern.bots.levels), changeable later (:func:`set_house_level`).
    house_level: str = REGULAR

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> TableSettings:
        # The site's limits (rake, buy-in range) come with the validation:
        # validate_table_settings(data, settings).
        settings: Settings = (info.context or {})["settings"]
        if self.game not in GAMES:
            raise Invalid("unknown_game", game=self.game)
        game = registry.spec(self.game)
        lo, hi = game.seats
        if self.seats is None:
            self.seats = game.default_seats()
        if self.variant not in game.variants:
            if game.variants == ("",):
                # Only Draw poker has structures to choose (RULES.md); Rami with
                # "pot-limit" used to be accepted and meant nothing.
                raise Invalid("no_variant", field="variant")
            # RULES.md: "Structures: fixed limit …, pot limit …, no limit."
            raise Invalid("variant_unknown", field="variant", game=self.game, variants=[v for v in game.variants if v])
        if not lo <= self.seats <= hi:
            raise Invalid("players_range", field="seats", game=self.game, lo=lo, hi=hi)
        if not 0 <= self.house_seats <= self.seats - 1:  # a seat at least is a human's
            raise Invalid("house_seats_range", field="house_seats", high=self.seats - 1)
        if self.house_level not in LEVELS:
            raise Invalid("house_level_unknown", field="house_level", level=self.house_level, choices=list(LEVELS))
        for key in game.stakes:
            value = self.stakes.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise Invalid("stake_positive", field=f"stakes.{key}")
            if value > MAX_AMOUNT:
                raise Invalid("less_than_equal", field=f"stakes.{key}", le=MAX_AMOUNT)
        problem = game.check_stakes(self.stakes)
        if problem:
            raise Invalid(problem, field="stakes")
        if not 0 <= self.rake_percent <= settings.max_rake_percent:
            raise Invalid("rake_range", field="rake_percent", maximum=settings.max_rake_percent)
        if self.rake_cap is not None and self.rake_cap < 0:
            raise Invalid("negative_rake_cap", field="rake_cap")
        check_options(game, TableTerms(stakes=self.stakes, options=self.options, variant=self.variant,
                                       rake_percent=self.rake_percent, rake_cap=self.rake_cap,
                                       no_flop_no_drop=self.no_flop_no_drop))
        bb = game.cave_unit(self.stakes)
        low, high = settings.buy_in_min_bb * bb, settings.buy_in_max_bb * bb
        self.buy_in_min = low if self.buy_in_min is None else self.buy_in_min
        self.buy_in_max = high if self.buy_in_max is None else self.buy_in_max
        if not low <= self.buy_in_min <= self.buy_in_max <= high:
            raise Invalid("cave_bounds", field="buy_in_min", low_bb=settings.buy_in_min_bb,
                          high_bb=settings.buy_in_max_bb, low=low, high=high)
        return self

    @property
    def decks_needed(self) -> int:
        assert self.seats is not None  # set by the validator
        return registry.spec(self.game).decks(self.seats, self.options)

    @property
    def deck_kind(self) -> str:
        return registry.spec(self.game).deck_kind


def default_seats(game: str) -> int:
    """Seats a new table of ``game`` gets when the owner says nothing: six,
    or the most the game takes (Gin is played by two, Rami by up to five)."""
    return registry.spec(game).default_seats()


def validate_table_settings(data: dict[str, Any], settings: Settings) -> TableSettings:
    """Parse the owner's form within the site's ``settings`` (rake, buy-in
    range); :class:`TavernError` lists what is wrong, in French."""
    try:
        return TableSettings.model_validate(data, context={"settings": settings})
    except ValidationError as exc:
        raise TavernError("invalid_settings", problems=validation_refusals(exc.errors())) from None


# --- villages and taverns ---------------------------------------------------


def create_village(session: Session, name: str) -> Village:
    name = name.strip()
    if not name:
        raise TavernError("village_needs_name")
    if session.scalar(select(Village.id).where(Village.name == name)) is not None:
        raise TavernError("village_exists", name=name)
    village = Village(name=name)
    session.add(village)
    session.flush()
    return village


def create_tavern(session: Session, village_id: int, owner_id: int, name: str) -> Tavern:
    name = name.strip()
    if not name:
        raise TavernError("tavern_needs_name")
    if session.get(Village, village_id) is None:
        raise TavernError("no_such_village")
    if session.get(User, owner_id) is None:
        raise TavernError("no_such_user")
    if session.scalar(select(Tavern.id).where(Tavern.village_id == village_id, Tavern.name == name)):
        raise TavernError("tavern_exists", name=name)
    tavern = Tavern(village_id=village_id, owner_id=owner_id, name=name)
    session.add(tavern)
    session.flush()
    return tavern


def list_villages(session: Session) -> list[Village]:
    return list(session.scalars(select(Village).order_by(Village.name)))


def list_taverns(session: Session, village_id: int | None = None) -> list[Tavern]:
    stmt = select(Tavern).options(selectinload(Tavern.owner)).order_by(Tavern.name)
    if village_id is not None:
        stmt = stmt.where(Tavern.village_id == village_id)
    return list(session.scalars(stmt))


def taverns_of(session: Session, owner_id: int) -> list[Tavern]:
    return list(session.scalars(select(Tavern).where(Tavern.owner_id == owner_id).order_by(Tavern.id)))


# --- the shop and the inventory --------------------------------------------


def item(session: Session, kind: str) -> Item:
    """The shop's item of ``kind``, created on first use."""
    if kind not in ITEM_NAMES:
        raise TavernError("no_such_item", kind=kind)
    found = session.scalars(select(Item).where(Item.kind == kind)).one_or_none()
    if found is None:
        found = Item(kind=kind, name=ITEM_NAMES[kind])
        session.add(found)
        session.flush()
    return found


def shop_prices(settings: Settings) -> dict[str, int]:
    return {kind: settings.deck_price(kind) for kind in ITEM_NAMES}


def buy_item(session: Session, user_id: int, kind: str, settings: Settings) -> Inventory:
    """Buy a deck item for écus (a ledger transfer to the house's shop).
    Raises :class:`tavern.services.ledger.InsufficientFunds`."""
    it = item(session, kind)
    ledger.transfer(
        session,
        ledger.account(session, "user", user_id, "ecus"),
        ledger.house(session, ledger.House.SHOP, "ecus"),
        settings.deck_price(kind),
        "ecus",
        "shop",
        kind,
    )
    inv = Inventory(item_id=it.id, owner_id=user_id)
    session.add(inv)
    session.flush()
    return inv


def inventory(session: Session, user_id: int) -> list[Inventory]:
    stmt = (
        select(Inventory).options(selectinload(Inventory.item))
        .where(Inventory.owner_id == user_id).order_by(Inventory.id)
    )
    return list(session.scalars(stmt))


def store_item(session: Session, user_id: int, inventory_id: int, tavern_id: int | None) -> Inventory:
    """Put one of the user's items in his tavern (``None``: take it back home)."""
    inv = session.get(Inventory, inventory_id)
    if inv is None or inv.owner_id != user_id:
        raise TavernError("item_not_yours")
    if inv.table_id is not None:
        raise TavernError("deck_in_use")
    if tavern_id is not None:
        tavern = session.get(Tavern, tavern_id)
        if tavern is None or tavern.owner_id != user_id:
            raise TavernError("store_in_own_tavern")
    inv.tavern_id = tavern_id
    session.flush()
    return inv


def free_decks(session: Session, tavern_id: int, kind: str) -> list[Inventory]:
    """Deck items of ``kind`` stored in the tavern and not used by a table."""
    tavern = session.get(Tavern, tavern_id)
    if tavern is None:
        return []
    stmt = (
        select(Inventory).join(Item)
        .where(
            Inventory.tavern_id == tavern_id, Inventory.owner_id == tavern.owner_id,
            Inventory.table_id.is_(None), Item.kind == kind,
        )
        .order_by(Inventory.id)
        .with_for_update()
    )
    return list(session.scalars(stmt))


# --- tables ---------------------------------------------------------------


def open_table(session: Session, tavern_id: int, owner_id: int, config: TableSettings | dict[str, Any],
               settings: Settings) -> TableConfig:
    """Open a table configured by the tavern's owner. Refused without enough
    free deck items of the right kind stored in the tavern."""
    cfg = config if isinstance(config, TableSettings) else validate_table_settings(config, settings)
    tavern = session.get(Tavern, tavern_id)
    if tavern is None:
        raise TavernError("no_such_tavern")
    if tavern.owner_id != owner_id:
        raise TavernError("owner_only_opens")
    decks = free_decks(session, tavern_id, cfg.deck_kind)
    need = cfg.decks_needed
    if len(decks) < need:
        raise TavernError("decks_needed", game=cfg.game, decks=need, item=ITEM_NAMES[cfg.deck_kind],
                          free=len(decks))
    table = TableConfig(
        tavern_id=tavern_id, name=cfg.name or cfg.game, game=cfg.game, variant=cfg.variant,
        stakes=dict(cfg.stakes), options=dict(cfg.options),
        buy_in_min=cfg.buy_in_min, buy_in_max=cfg.buy_in_max,
        rake_percent=cfg.rake_percent, rake_cap=cfg.rake_cap, no_flop_no_drop=cfg.no_flop_no_drop,
        seats=cfg.seats, action_timer_seconds=cfg.action_timer_seconds, status="open", chat=cfg.chat,
        private=cfg.private, spectators=cfg.spectators or not cfg.private, house_seats=cfg.house_seats,
        house_level=cfg.house_level,
    )
    session.add(table)
    session.flush()
    for deck in decks[:need]:
        deck.table_id = table.id
    session.flush()
    return table


def set_house_level(session: Session, table_id: int, tavern_id: int, level: str) -> TableConfig:
    """The owner's choice of his house players' level at one of his open
    tables (issue 37 §2). The live table reads it before each deal
    (tables/house.py): a deal under way is played out at the old level."""
    if level not in LEVELS:
        raise TavernError("house_level_unknown", field="house_level", level=level, choices=list(LEVELS))
    table = session.get(TableConfig, table_id)
    if table is None or table.tavern_id != tavern_id or table.status != "open":
        raise TavernError("table_not_in_your_tavern")
    table.house_level = level
    session.flush()
    return table


def close_table(session: Session, table_id: int, owner_id: int) -> TableConfig:
    """Close an empty table; its deck items go back to the tavern's inventory."""
    table = session.get(TableConfig, table_id)
    if table is None or table.status != "open":
        raise TavernError("no_such_open_table")
    if table.tavern is None or table.tavern.owner_id != owner_id:
        raise TavernError("owner_only_closes")
    if session.scalar(select(func.count()).select_from(Seat).where(Seat.table_id == table_id)):
        raise TavernError("players_still_seated")
    if ledger.balance(session, "table", table_id, "chips", table_id) != 0:
        raise TavernError("chips_still_out")
    for deck in session.scalars(select(Inventory).where(Inventory.table_id == table_id)):
        deck.table_id = None
    table.status = "closed"
    table.closed = utcnow()
    session.flush()
    return table


@dataclass(frozen=True)
class TableSummary:
    table: TableConfig
    seats_taken: int

    @property
    def seats_free(self) -> int:
        return self.table.seats - self.seats_taken


def list_open_tables(session: Session, tavern_id: int | None = None) -> list[TableSummary]:
    taken = (
        select(Seat.table_id, func.count(Seat.id).label("n")).group_by(Seat.table_id).subquery()
    )
    stmt = (
        select(TableConfig, func.coalesce(taken.c.n, 0))
        .outerjoin(taken, taken.c.table_id == TableConfig.id)
        .where(TableConfig.status == "open")
        .order_by(TableConfig.tavern_id, TableConfig.id)
    )
    if tavern_id is not None:
        stmt = stmt.where(TableConfig.tavern_id == tavern_id)
    return [TableSummary(t, int(n)) for t, n in session.execute(stmt)]


def get_table(session: Session, table_id: int) -> TableConfig | None:
    return session.get(TableConfig, table_id)
