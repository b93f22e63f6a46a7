"""The tables of the tavern, as typed SQLAlchemy 2 models.

Alembic (``migrations/``) is the only way these reach a database: a change
here needs a new revision there. All money is an integer (écus, tokens,
chips); nothing is ever a float.

Long because it is the schema: every table of the site in one module, the
one place the migrations' revisions are checked against
(tests/store/test_migrations.py), each model short.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from tavern.bots.levels import REGULAR

# Stable constraint names so migrations can drop/alter them on every backend.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class UTCDateTime(TypeDecorator[dt.datetime]):
    """An instant, always handed back timezone-aware in UTC. PostgreSQL
    keeps the zone; SQLite stores naive text, so values are normalised to
    UTC going in and tagged UTC coming out — the same on both backends."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: object) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=dt.UTC)  # naive = UTC
        value = value.astimezone(dt.UTC)
        return value.replace(tzinfo=None) if getattr(dialect, "name", "") == "sqlite" else value

    def process_result_value(self, value: dt.datetime | None, dialect: object) -> dt.datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=dt.UTC)
        return value.astimezone(dt.UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


# The sets of allowed words, checked by the services and by the database.
ROLES = ("player", "admin")
ITEM_KINDS = ("deck52", "deck32")
CURRENCIES = ("ecus", "tokens", "chips")
#: ``pot``: chips a table carries from one deal to the next (a Rams pot, the
#: Rummoli board): they belong to no player until a deal awards them.
#: ``contest``: a contest's escrow of entry fees and prizes (écus), and its
#: supply of contest chips at each of its tables (chips, may go negative).
OWNER_KINDS = ("user", "tavern", "table", "house", "pot", "contest")
TABLE_STATUSES = ("open", "closed")


class User(Base):
    __tablename__ = "users"
    __table_args__ = (CheckConstraint("role IN ('player', 'admin')", name="role"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    #: Level 0 players get no free hands (RULES.md "Daily hands").
    level: Mapped[int] = mapped_column(Integer, default=1)
    role: Mapped[str] = mapped_column(String(10), default="player")
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: Set by an admin: the account cannot log in, its sessions are ended.
    banned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: A player of the house (a bot): never on a leaderboard (issue 31 §2).
    house: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: Hidden from the leaderboards by an admin (an account the surveillance report flags).
    off_boards: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: His confirmed e-mail address, lower-cased (issue 39 §1): one account an
    #: address. An address waiting for its confirmation lives in its token.
    email: Mapped[str | None] = mapped_column(String(254), unique=True, default=None)
    #: Two-factor sign-in (issue 39 §4): the TOTP secret (base32) once
    #: enrolled; the one shown in the QR code until its first code is given;
    #: the time step of the last code accepted (a code is never taken twice).
    totp_secret: Mapped[str | None] = mapped_column(String(64), default=None)
    totp_pending: Mapped[str | None] = mapped_column(String(64), default=None)
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger, default=None)


class WebSession(Base):
    """A logged-in browser session. The cookie carries a random token; only
    its SHA-256 is kept here, and deleting the row ends the session at once
    (logout, "log out everywhere", a password change, a ban)."""

    __tablename__ = "web_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)
    #: « Mes sessions » (issue 39 §5): the browser (its User-Agent, cut
    #: short), the coarse network it came from (a /24 or a /48, never the
    #: full address) and when it was last seen (for the idle expiry).
    user_agent: Mapped[str | None] = mapped_column(String(200), default=None)
    network: Mapped[str | None] = mapped_column(String(50), default=None)
    last_seen: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)


class RecoveryCode(Base):
    """One of an account's ten 2FA recovery codes (issue 39 §4), salted and
    hashed (SHA-256: the codes are random, 60 bits); deleted once used."""

    __tablename__ = "recovery_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    salt: Mapped[str] = mapped_column(String(32))
    code_hash: Mapped[str] = mapped_column(String(64))


class AdminAction(Base):
    """The admin log (issue 39 §6): an admin's action on an account — who,
    when, what, why. In the RGPD export of the account concerned; at its
    deletion the line stays (the admins' accountability) without the
    account's name."""

    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    admin_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    #: ``credit``, ``role``, ``level``, ``ban``, ``unban``, ``mute``, ``2fa_lifted``, ``delete``…
    action: Mapped[str] = mapped_column(String(30))
    detail: Mapped[str] = mapped_column(String(300), default="")
    reason: Mapped[str] = mapped_column(String(500), default="")


TOKEN_PURPOSES = ("email", "reset")


class AccountToken(Base):
    """A link sent by mail (issue 39): confirm an address (``email``, the
    address it confirms beside it) or set a new password (``reset``). Only the
    token's SHA-256 is kept; the row is deleted when it is used, so a link
    works once."""

    __tablename__ = "account_tokens"
    __table_args__ = (CheckConstraint("purpose IN ('email', 'reset')", name="purpose"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(10))
    email: Mapped[str | None] = mapped_column(String(254), default=None)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)


class OutboxMail(Base):
    """A mail to send (issue 39 §3): written in the transaction that decides
    it, sent by the mailer (web/mailer.py) outside any request or table."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The account it concerns: its mails go with it when it is deleted.
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    to_addr: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    html: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: When the mailer may (re)try it; a worker trying it moves it forward
    #: first, so that no other worker sends it meanwhile.
    next_try: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    sent: Mapped[dt.datetime | None] = mapped_column(UTCDateTime, default=None)
    #: ``smtp`` or ``journal`` (no SMTP server set: written to the log).
    via: Mapped[str | None] = mapped_column(String(10), default=None)
    last_error: Mapped[str | None] = mapped_column(String(500), default=None)
    #: Tried ``mail_max_attempts`` times: no more tries, shown to the admins.
    given_up: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Throttle(Base):
    """A counter per key (``login-user:alice``, ``signup-ip:1.2.3.4``…) in a
    fixed window: incremented atomically before the work it limits, and
    shared by every server process through the database."""

    __tablename__ = "throttles"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    #: When the window ends, in whole seconds since the epoch.
    reset_at: Mapped[int] = mapped_column(BigInteger)


class Village(Base):
    __tablename__ = "villages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)

    taverns: Mapped[list[Tavern]] = relationship(back_populates="village", order_by="Tavern.id")


class Tavern(Base):
    __tablename__ = "taverns"
    __table_args__ = (UniqueConstraint("village_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    village_id: Mapped[int] = mapped_column(ForeignKey("villages.id"), index=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(String(80))

    village: Mapped[Village] = relationship(back_populates="taverns")
    owner: Mapped[User] = relationship()


class Item(Base):
    """A kind of thing sold in the shop (a 52-card deck, a 32-card deck)."""

    __tablename__ = "items"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), unique=True)
    name: Mapped[str] = mapped_column(String(80))


class Inventory(Base):
    """One item instance owned by a user; stored in a tavern (``tavern_id``)
    it can be used by one open table (``table_id``)."""

    __tablename__ = "inventories"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("items.id"))
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    tavern_id: Mapped[int | None] = mapped_column(ForeignKey("taverns.id"), index=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("table_configs.id"), index=True)
    acquired: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    item: Mapped[Item] = relationship()


class TableConfig(Base):
    """A card table of a tavern, as its owner configured it — or a table of a
    contest (``contest_id``; no tavern), run by the contest's director."""

    __tablename__ = "table_configs"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'closed')", name="status"),
        CheckConstraint("buy_in_min > 0 AND buy_in_max >= buy_in_min", name="buy_in"),
        CheckConstraint("rake_percent >= 0", name="rake"),
        CheckConstraint("chat IN ('open', 'players', 'off')", name="chat"),
        CheckConstraint("house_seats >= 0 AND (house_seats = 0 OR contest_id IS NULL)", name="house_seats"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tavern_id: Mapped[int | None] = mapped_column(ForeignKey("taverns.id"), index=True)
    contest_id: Mapped[int | None] = mapped_column(ForeignKey("contests.id"), index=True)
    name: Mapped[str] = mapped_column(String(80), default="")
    game: Mapped[str] = mapped_column(String(30))
    variant: Mapped[str] = mapped_column(String(30), default="")
    #: Game-specific stakes: {"small_blind": 1, "big_blind": 2},
    #: {"small_bet": 2, "structure": "fixed"}, {"unit": 1}, …
    stakes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: Other engine options (variant switches) handed to ``new_deal``.
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    buy_in_min: Mapped[int] = mapped_column(BigInteger)
    buy_in_max: Mapped[int] = mapped_column(BigInteger)
    rake_percent: Mapped[int] = mapped_column(Integer, default=0)
    #: Per-pot cap in chips, ``None`` = no cap.
    rake_cap: Mapped[int | None] = mapped_column(BigInteger)
    no_flop_no_drop: Mapped[bool] = mapped_column(Boolean, default=True)
    seats: Mapped[int] = mapped_column(Integer)
    action_timer_seconds: Mapped[int] = mapped_column(Integer, default=30)
    status: Mapped[str] = mapped_column(String(10), default="open")
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    closed: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    #: The highest lease fence that claimed this live table (tables/cluster.py):
    #: a worker whose fence is lower lost the table and may write nothing of it.
    owner_fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    #: Who may write in the table's chat (services/chat.py): everybody
    #: logged in (``open``), the seated players only, or nobody (``off``).
    chat: Mapped[str] = mapped_column(String(10), default="open", server_default="open")
    #: A table among friends (issue 30 §2, services/private_tables.py): only
    #: the holders of its invitation link sit; absent from the village for others.
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: At a private table: whether those without the link may watch.
    spectators: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: SHA-256 of the invitation token (the link holds the token, never stored):
    #: a new token (revocation) kills the old link.
    invitation_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    #: A practice table's player (issue 29: against the house players, with
    #: practice chips; never listed in the village). None: a tavern's or a contest's.
    practice_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    #: « Joueurs de la maison » (tables/house.py): 0 none; never at a contest's table.
    house_seats: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: The house players' level there (issue 37: tavern.bots.levels, « habitué »
    #: unless the owner chose another; checked by services/taverns.py).
    house_level: Mapped[str] = mapped_column(String(20), default=REGULAR, server_default=REGULAR)

    tavern: Mapped[Tavern | None] = relationship()
    decks: Mapped[list[Inventory]] = relationship(foreign_keys=[Inventory.table_id])
    seated: Mapped[list[Seat]] = relationship(back_populates="table", order_by="Seat.seat_no")


class Seat(Base):
    """A player seated at a table. His cave is his chips account at this
    table in the ledger (``ledger_accounts`` with ``table_id``)."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("table_id", "seat_no"),
        UniqueConstraint("table_id", "user_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("table_configs.id"), index=True)
    seat_no: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    #: "Se lever": seated, keeps his chips, receives no cards, pays no blinds.
    sitting_out: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Must post a big blind to be dealt in (new player, or back from sitting out).
    owes_big_blind: Mapped[bool] = mapped_column(Boolean, default=True)
    joined: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    table: Mapped[TableConfig] = relationship(back_populates="seated")
    user: Mapped[User] = relationship()


class TableGrant(Base):
    """A player who opened a private table's invitation link: he may sit
    there (and watch) until the link is revoked."""

    __tablename__ = "table_grants"
    __table_args__ = (UniqueConstraint("table_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("table_configs.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    granted: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class WaitingPlace(Base):
    """A player in a full table's waiting list (tables/waiting.py), in order
    of ``id``: kept so that a table changing worker keeps its list (the
    seats offered are not: the new owner offers them again)."""

    __tablename__ = "waiting_places"
    __table_args__ = (UniqueConstraint("table_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("table_configs.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    joined: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: The seat held for him and until when (UTC): a page opened meanwhile is told (web/notices.py).
    offered_seat: Mapped[int | None] = mapped_column(Integer)
    offered_until: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class LedgerAccount(Base):
    """One balance in one currency. ``key`` makes (owner, currency, table)
    unique on every backend, NULL table ids included."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        CheckConstraint("currency IN ('ecus', 'tokens', 'chips')", name="currency"),
        CheckConstraint("owner_kind IN ('user', 'tavern', 'table', 'house', 'pot', 'contest')", name="owner_kind"),
        Index("ix_ledger_accounts_owner", "owner_kind", "owner_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(80), unique=True)
    owner_kind: Mapped[str] = mapped_column(String(10))
    owner_id: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str] = mapped_column(String(10))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("table_configs.id"), index=True)
    #: Cached sum of entries (credits − debits), updated under a row lock in
    #: the same transaction as the entries; ``ledger.audit`` re-checks it.
    balance: Mapped[int] = mapped_column(BigInteger, default=0)


class LedgerEntry(Base):
    """Money moving from ``debit`` (the source) to ``credit`` (the destination)."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        CheckConstraint("debit_id <> credit_id", name="two_accounts"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    debit_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    credit_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(10))
    reason: Mapped[str] = mapped_column(String(40))
    reference: Mapped[str] = mapped_column(String(120), default="")
    time: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    #: Legs of one movement (a cave's écus and chips, a deal's settlement)
    #: share a transfer id.
    transfer_id: Mapped[str] = mapped_column(String(36), index=True)


class DailyHandUsage(Base):
    """Free hands used by a player on one Paris calendar day."""

    __tablename__ = "daily_hand_usage"
    __table_args__ = (UniqueConstraint("user_id", "day"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    day: Mapped[dt.date] = mapped_column(Date)
    count: Mapped[int] = mapped_column(Integer, default=0)
    disconnect_protections: Mapped[int] = mapped_column(Integer, default=0)


class PremiumPack(Base):
    """Extra hands bought with tokens; they never expire."""

    __tablename__ = "premium_packs"
    __table_args__ = (CheckConstraint("hands_left >= 0 AND hands_left <= hands_bought", name="left"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    hands_bought: Mapped[int] = mapped_column(Integer)
    hands_left: Mapped[int] = mapped_column(Integer)
    bought: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class ArchivedHand(Base):
    """Every deal, with its full hand record (``HAND_RECORDS.md``) so that it
    can be replayed exactly, and summary columns for the admins' lists."""

    __tablename__ = "archived_hands"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("table_configs.id"), index=True)
    game: Mapped[str] = mapped_column(String(30))
    started: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    ended: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    #: Player names/ids dealt in, in seat order.
    players: Mapped[list[Any]] = mapped_column(JSON, default=list)
    pot: Mapped[int] = mapped_column(BigInteger, default=0)
    rake: Mapped[int] = mapped_column(BigInteger, default=0)
    voided: Mapped[bool] = mapped_column(Boolean, default=False)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: The contest this deal was played in (``None``: a tavern's table).
    contest_id: Mapped[int | None] = mapped_column(ForeignKey("contests.id"), index=True)
    #: Played at a practice table, with practice chips: « entraînement » in
    #: « Mes donnes », never in the surveillance report, figures or boards.
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


CONTEST_STATUSES = ("registering", "running", "finished", "cancelled")


class Contest(Base):
    """A Concours de Ramponneau launched by an admin (docs/contests.md).
    Its entry fees and the house's added prize wait in its escrow account
    (owner kind ``contest``) until prizes are paid or refunds made."""

    __tablename__ = "contests"
    __table_args__ = (
        CheckConstraint("status IN ('registering', 'running', 'finished', 'cancelled')", name="status"),
        CheckConstraint("fee >= 0 AND house_prize >= 0", name="money"),
        CheckConstraint("seats >= 2 AND seats <= 10", name="seats"),
        CheckConstraint("min_players >= 2 AND max_players >= min_players", name="players"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(12), default="registering", index=True)
    starts_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, index=True)
    fee: Mapped[int] = mapped_column(BigInteger, default=0)
    house_prize: Mapped[int] = mapped_column(BigInteger, default=0)
    starting_chips: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[int] = mapped_column(Integer)
    min_players: Mapped[int] = mapped_column(Integer)
    max_players: Mapped[int] = mapped_column(Integer)
    #: Levels: [{"small_blind", "big_blind", "ante", "seconds"}, …]
    structure: Mapped[list[Any]] = mapped_column(JSON)
    #: Late registration until the end of this level (0: none).
    late_levels: Mapped[int] = mapped_column(Integer, default=0)
    action_timer_seconds: Mapped[int] = mapped_column(Integer, default=30)
    #: Percent of the prize pool by place; ``None``: the default for the field size.
    payouts: Mapped[list[Any] | None] = mapped_column(JSON)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    #: Why it was cancelled (shown in the lobby).
    cancelled_reason: Mapped[str | None] = mapped_column(String(200))
    #: The prize pool paid out (fixed when the contest ends).
    prize_pool: Mapped[int | None] = mapped_column(BigInteger)

    entries: Mapped[list[ContestEntry]] = relationship(back_populates="contest", order_by="ContestEntry.id")


class ContestEntry(Base):
    """A player registered in a contest: his fee, then his place and prize."""

    __tablename__ = "contest_entries"
    __table_args__ = (UniqueConstraint("contest_id", "user_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    fee_paid: Mapped[int] = mapped_column(BigInteger, default=0)
    registered: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Best place of his finish (tied players share it); ``None`` while in.
    place: Mapped[int | None] = mapped_column(Integer)
    #: Order among players tied on the same place (odd écus go to the first).
    tie_order: Mapped[int] = mapped_column(Integer, default=0)
    #: Chips he had at the start of the deal that knocked him out.
    out_stack: Mapped[int | None] = mapped_column(BigInteger)
    prize: Mapped[int | None] = mapped_column(BigInteger)
    out_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)

    contest: Mapped[Contest] = relationship(back_populates="entries")
    user: Mapped[User] = relationship()


class ContestMove(Base):
    """Every seat a contest gives: the start, a late registration, a move to
    balance the tables, a broken table's players ("Record every move")."""

    __tablename__ = "contest_moves"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    from_table_id: Mapped[int | None] = mapped_column(ForeignKey("table_configs.id"))
    from_seat: Mapped[int | None] = mapped_column(Integer)
    to_table_id: Mapped[int] = mapped_column(ForeignKey("table_configs.id"))
    to_seat: Mapped[int] = mapped_column(Integer)
    chips: Mapped[int] = mapped_column(BigInteger)
    #: "start", "late", "balance" or "break"
    reason: Mapped[str] = mapped_column(String(10))
    time: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


__all__ = [
    "ArchivedHand",
    "Base",
    "Contest",
    "ContestEntry",
    "ContestMove",
    "DailyHandUsage",
    "Inventory",
    "Item",
    "LedgerAccount",
    "LedgerEntry",
    "PremiumPack",
    "Seat",
    "TableConfig",
    "Tavern",
    "Throttle",
    "UTCDateTime",
    "User",
    "Village",
    "WebSession",
    "utcnow",
]


class TableVisit(Base):
    """Who opened a table's live channel from where: the client address and
    a hash of the page's browser cookie (``tavern_browser``), one row per
    (table, player, address, browser). The collusion report
    (services/surveillance.py) reads it for players at one table from the
    same place."""

    __tablename__ = "table_visits"
    __table_args__ = (UniqueConstraint("table_id", "user_id", "address", "browser"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("table_configs.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    address: Mapped[str] = mapped_column(String(64))
    #: None: the client sent no browser cookie (a bot, the API, a fresh
    #: private window) — no browser anybody could share.
    browser: Mapped[str | None] = mapped_column(String(64), nullable=True)
    first_seen: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_seen: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class PlayerStats(Base):
    """A player's figures at one game (issue 31 §1), kept current as deals
    settle: :func:`tavern.services.stats.count_deal` adds each finished deal
    in the transaction that settles it, so a deal is counted exactly when its
    chips moved (a server killed mid-deal counts nothing; the voided deal
    never settles). ``practice`` keeps practice deals apart (no practice
    table yet: always false)."""

    __tablename__ = "player_stats"
    __table_args__ = (UniqueConstraint("user_id", "game", "practice"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(30))
    practice: Mapped[bool] = mapped_column(Boolean, default=False)
    deals: Mapped[int] = mapped_column(BigInteger, default=0)
    won: Mapped[int] = mapped_column(BigInteger, default=0)  #: deals he ended with more chips
    chips_won: Mapped[int] = mapped_column(BigInteger, default=0)
    chips_lost: Mapped[int] = mapped_column(BigInteger, default=0)
    biggest_pot: Mapped[int] = mapped_column(BigInteger, default=0)  #: the most he took in one deal
    vpip: Mapped[int] = mapped_column(BigInteger, default=0)  #: poker: deals he put chips in before the flop/draw by choice
    pfr: Mapped[int] = mapped_column(BigInteger, default=0)  #: poker: deals he bet or raised before the flop/draw
    showdowns: Mapped[int] = mapped_column(BigInteger, default=0)
    showdowns_won: Mapped[int] = mapped_column(BigInteger, default=0)
    matches_won: Mapped[int] = mapped_column(BigInteger, default=0)  #: Gin and rami: matches he won
    rams_made: Mapped[int] = mapped_column(BigInteger, default=0)  #: Rams: « rams général » announced and made


class PlayerWeek(Base):
    """A player's net chips and deals at one game in one week (Monday to
    Sunday, Paris time): the weekly leaderboards, kept current with
    :class:`PlayerStats` in the settlement's transaction."""

    __tablename__ = "player_weeks"
    __table_args__ = (UniqueConstraint("user_id", "game", "week"), Index("ix_player_weeks_game_week", "game", "week"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(30))
    week: Mapped[dt.date] = mapped_column(Date)  #: the week's Monday, Paris time
    deals: Mapped[int] = mapped_column(BigInteger, default=0)
    net: Mapped[int] = mapped_column(BigInteger, default=0)


class ChatMessage(Base):
    """A line of a table's chat (services/chat.py), kept 30 days. An admin's
    deletion only flags it: the reports about it still show what was said."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_table_id_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("table_configs.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    text: Mapped[str] = mapped_column(String(300))
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ChatHide(Base):
    """A player who no longer reads another's messages (for himself only)."""

    __tablename__ = "chat_hides"
    __table_args__ = (UniqueConstraint("user_id", "author_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))


class ChatReport(Base):
    """A player's report of a message, for the admins' page."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id", ondelete="CASCADE"), index=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: Dealt with by an admin (the message deleted, or the report dismissed).
    handled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ChatMute(Base):
    """An account that may not write until ``until``: everywhere (an admin's,
    ``tavern_id`` None) or at one tavern's tables (its owner's)."""

    __tablename__ = "chat_mutes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    tavern_id: Mapped[int | None] = mapped_column(ForeignKey("taverns.id", ondelete="CASCADE"))
    until: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
