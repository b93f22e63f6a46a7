"""Demo data for ``tavern seed``: a village, an admin, a tavern owner whose
tavern holds deck items and two open tables (Ramponneau 1/2 and draw poker),
and three players with écus and tokens.

Idempotent: everything is looked up by name first, money is issued only to
accounts created now, decks are bought only up to the wanted count and tables
opened only when missing — running it twice changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavern.services import ledger, taverns, twofactor, users
from tavern.settings import Settings
from tavern.store.models import Inventory, Item, TableConfig, Tavern, User, Village

VILLAGE = "Montmartre"
TAVERN = "Au Lapin Agile"
OWNER = ("patron", "patron-demo")
ADMIN = ("admin", "admin-demo")
PLAYERS = [("alice", "alice-demo"), ("bruno", "bruno-demo"), ("chloe", "chloe-demo")]
#: The demo admin's and owner's TOTP secrets (issue 39 §4: 2FA is required
#: of them), public like their passwords: ``tavern seed`` prints them, to
#: type into an authenticator app. Only when ``totp_required`` is on.
DEMO_TOTP = {"admin": "ADMINDEMOTAVERNEADMINDEMOTAVERNE", "patron": "PATRONDEMOTAVERNEPATRONDEMOTAVER"}
PLAYER_ECUS = 5_000
PLAYER_TOKENS = 50
OWNER_ECUS = 2_000
#: Enough decks for every demo table (Gin and Double rami use two each).
DECKS = {"deck52": 9, "deck32": 1}
TABLES = [
    {
        "name": "Ramponneau 1/2", "game": "ramponneau", "stakes": {"small_blind": 1, "big_blind": 2},
        "seats": 9, "rake_percent": 5, "rake_cap": 10, "action_timer_seconds": 30,
    },
    {
        "name": "Draw Poker", "game": "draw", "variant": "fixed-limit",
        "stakes": {"small_bet": 2},
        "seats": 6, "rake_percent": 5, "rake_cap": 10, "no_flop_no_drop": False, "action_timer_seconds": 30,
    },
    # The other games, one table each, a chip per point (or per trick, per section).
    {"name": "Rami français", "game": "rami", "stakes": {"unit": 1}, "seats": 4, "action_timer_seconds": 60},
    {"name": "Gin rummy", "game": "gin", "stakes": {"unit": 1}, "seats": 2, "action_timer_seconds": 60},
    {"name": "Double rami", "game": "double_rami", "stakes": {"unit": 1}, "seats": 4, "action_timer_seconds": 60},
    {"name": "Remigio", "game": "remigio", "stakes": {"unit": 1}, "seats": 5, "action_timer_seconds": 60},
    {"name": "Rummoli", "game": "rummoli", "stakes": {"unit": 1}, "seats": 6, "action_timer_seconds": 60},
    {"name": "Rams", "game": "rams", "stakes": {"unit": 1}, "seats": 5, "action_timer_seconds": 60},
]


@dataclass(frozen=True)
class Login:
    username: str
    password: str
    role: str
    note: str
    #: The TOTP secret of a demo account enrolled in two-factor sign-in.
    totp: str = ""


def _user(session: Session, name: str, password: str, settings: Settings,
          role: str = "player") -> tuple[User, bool]:
    found = users.find_by_username(session, name)
    if found is not None:
        return found, False
    return users.create_user(session, name, password, role=role, level=1, settings=settings), True


def _demo_totp(user: User, settings: Settings) -> str:
    """Enrol a demo admin or owner with his printed secret, when 2FA is required."""
    if not settings.totp_required:
        return ""
    if not user.totp_secret:
        twofactor.enrol_with(user, DEMO_TOTP[user.username])
    return user.totp_secret or ""


def seed(session: Session, settings: Settings) -> list[Login]:
    """Create the demo world if missing; return the demo logins."""
    logins: list[Login] = []
    admin, _ = _user(session, *ADMIN, settings, role="admin")
    logins.append(Login(*ADMIN, "admin", "site administrator", _demo_totp(admin, settings)))

    owner, new_owner = _user(session, *OWNER, settings)
    if new_owner:
        ledger.issue(session, owner.id, OWNER_ECUS, "ecus", "demo seed")
    logins.append(Login(*OWNER, "player", f"owner of {TAVERN!r}", _demo_totp(owner, settings)))

    village = session.scalars(select(Village).where(Village.name == VILLAGE)).one_or_none()
    if village is None:
        village = taverns.create_village(session, VILLAGE)
    tavern = session.scalars(
        select(Tavern).where(Tavern.village_id == village.id, Tavern.name == TAVERN)
    ).one_or_none()
    if tavern is None:
        tavern = taverns.create_tavern(session, village.id, owner.id, TAVERN)

    for kind, wanted in DECKS.items():
        have = session.scalar(
            select(func.count(Inventory.id)).join(Item)
            .where(Inventory.owner_id == owner.id, Inventory.tavern_id == tavern.id, Item.kind == kind)
        ) or 0
        for _ in range(wanted - have):
            # The demo owner gets the price from the house, then buys at the
            # shop like anybody: the ledger shows both movements.
            ledger.issue(session, owner.id, taverns.shop_prices(settings)[kind], "ecus", "demo seed: deck")
            inv = taverns.buy_item(session, owner.id, kind, settings)
            taverns.store_item(session, owner.id, inv.id, tavern.id)

    for spec in TABLES:
        exists = session.scalar(
            select(TableConfig.id).where(
                TableConfig.tavern_id == tavern.id, TableConfig.name == spec["name"],
                TableConfig.status == "open",
            )
        )
        if exists is None:
            taverns.open_table(session, tavern.id, owner.id, dict(spec), settings)

    for name, password in PLAYERS:
        player, new = _user(session, name, password, settings)
        if new:
            ledger.issue(session, player.id, PLAYER_ECUS, "ecus", "demo seed")
            ledger.issue(session, player.id, PLAYER_TOKENS, "tokens", "demo seed")
        logins.append(Login(name, password, "player", f"{PLAYER_ECUS} écus, {PLAYER_TOKENS} tokens at creation"))
    session.flush()
    return logins
