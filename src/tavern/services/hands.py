"""Daily hands (RULES.md, "Tavern, money and quotas"):

    every player gets 20 free hands a day (reset at midnight, Europe/Paris).
    Packs of 200 extra hands are bought with tokens in the premium page; they
    never expire; free hands are used before paid ones. A hand is counted when
    the player is dealt in. Level 0 players get no free hands. A tavern owner
    plays unlimited hands in his own tavern. A player with no hands left is not
    dealt in and is told why. Counts and prices are site settings.

``now`` is always handed in (an aware datetime; a naive one is taken as UTC)
so the midnight reset can be tested on any day, DST changes included; so are
the site's ``settings`` (counts, prices, the time zone): the app's, or a
test's own.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import cache
from typing import Any, cast
from zoneinfo import ZoneInfo

from sqlalchemy import Table, bindparam, func, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.refusal import Refusal
from tavern.services import ledger
from tavern.settings import Settings
from tavern.store.db import bound, expire_held, listed
from tavern.store.direct import Direct
from tavern.store.models import DailyHandUsage, PremiumPack, Tavern, User


class NoHandsLeft(Refusal, ValueError):
    """The player may not be dealt in; the code says why (``str()`` in French)."""


@dataclass(frozen=True)
class HandsLeft:
    free: int  #: free hands left today
    paid: int  #: hands left in premium packs

    @property
    def total(self) -> int:
        return self.free + self.paid


def local_day(now: dt.datetime, settings: Settings) -> dt.date:
    """The calendar day in the site's timezone (Paris) at instant ``now``."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=dt.UTC)
    return now.astimezone(ZoneInfo(settings.timezone)).date()


def _usage(session: Session, user_id: int, day: dt.date, *, create: bool) -> DailyHandUsage | None:
    stmt = (
        select(DailyHandUsage)
        .where(DailyHandUsage.user_id == user_id, DailyHandUsage.day == day)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    row = session.scalars(stmt).one_or_none()
    if row is not None or not create:
        return row
    row = DailyHandUsage(user_id=user_id, day=day, count=0, disconnect_protections=0)
    try:
        with session.begin_nested():  # another deal may create it at the same time
            session.add(row)
    except IntegrityError:
        row = session.scalars(stmt).one()
    return row


def _free_allowance(user: User, settings: Settings) -> int:
    return 0 if user.level <= 0 else settings.free_hands_per_day


def _is_owner(session: Session, user_id: int, tavern_id: int | None) -> bool:
    if tavern_id is None:
        return False
    return session.scalar(select(Tavern.owner_id).where(Tavern.id == tavern_id)) == user_id


def plays_unlimited(session: Session, user_id: int, tavern_id: int | None) -> bool:
    """"A tavern owner plays unlimited hands in his own tavern." """
    return _is_owner(session, user_id, tavern_id)


def _packs(session: Session, user_id: int, *, lock: bool = False) -> list[PremiumPack]:
    stmt = (
        select(PremiumPack)
        .where(PremiumPack.user_id == user_id, PremiumPack.hands_left > 0)
        .order_by(PremiumPack.id)
    )
    if lock:
        stmt = stmt.with_for_update().execution_options(populate_existing=True)
    return list(session.scalars(stmt))


def hands_left(session: Session, user_id: int, now: dt.datetime, settings: Settings) -> HandsLeft:
    """Free hands left today and paid hands left (an owner's own tavern aside)."""
    user = session.get(User, user_id)
    if user is None:
        return HandsLeft(0, 0)
    usage = _usage(session, user_id, local_day(now, settings), create=False)
    used = usage.count if usage else 0
    free = max(0, _free_allowance(user, settings) - used)
    paid = sum(p.hands_left for p in _packs(session, user_id))
    return HandsLeft(free, paid)


def can_deal(
    session: Session, user_id: int, tavern_id: int | None, now: dt.datetime, settings: Settings
) -> tuple[bool, str]:
    """May the player be dealt in now? ``(False, why)`` when not; ``why`` is
    said to the player, in French. Whether he plays unlimited hands (an
    owner in his own tavern): ask :func:`plays_unlimited`."""
    if _is_owner(session, user_id, tavern_id):
        return True, french("hands_unlimited")
    user = session.get(User, user_id)
    if user is None:
        return False, french("unknown_player")
    left = hands_left(session, user_id, now, settings)
    if left.free:
        return True, french("hands_free_left", {"free": left.free})
    if left.paid:
        return True, french("hands_paid_left", {"paid": left.paid})
    return False, _why_none(_free_allowance(user, settings))


@dataclass(frozen=True)
class DealStatus:
    """What a table shows of a player's daily hands: :func:`hands_left`,
    :func:`plays_unlimited` and :func:`can_deal` in one."""

    left: HandsLeft
    unlimited: bool
    can_deal: bool
    why: str


def deal_status(
    session: Session, user_ids: list[int], tavern_id: int | None, now: dt.datetime, settings: Settings
) -> dict[int, DealStatus]:
    """:func:`hands_left`, :func:`plays_unlimited` and :func:`can_deal` for
    several players at once, in four statements whatever their number: a
    restart starts hundreds of tables together, each reading its seats'
    hands (the three functions one player at a time took about eight).
    The same answers, player by player (tests/services/test_hands.py)."""
    owner = session.scalar(select(Tavern.owner_id).where(Tavern.id == tavern_id)) if tavern_id is not None else None
    day = local_day(now, settings)
    found = session.execute(select(User.id, User.level, User.house).where(User.id.in_(user_ids))).all()
    levels = {uid: level for uid, level, _ in found}
    house = {uid for uid, _, is_house in found if is_house}  # they count no hand (tables/house.py)
    used = dict(session.execute(
        select(DailyHandUsage.user_id, DailyHandUsage.count)
        .where(DailyHandUsage.user_id.in_(user_ids), DailyHandUsage.day == day)).all())
    paid = dict(session.execute(
        select(PremiumPack.user_id, func.sum(PremiumPack.hands_left))
        .where(PremiumPack.user_id.in_(user_ids), PremiumPack.hands_left > 0)
        .group_by(PremiumPack.user_id)).all())
    out = {}
    for u in user_ids:
        if u not in levels:
            out[u] = DealStatus(HandsLeft(0, 0), u == owner, u == owner,
                                french("hands_unlimited" if u == owner else "unknown_player"))
            continue
        allowance = 0 if levels[u] <= 0 else settings.free_hands_per_day
        left = HandsLeft(max(0, allowance - used.get(u, 0)), int(paid.get(u) or 0))
        if u == owner or u in house:
            ok, why = True, french("hands_unlimited")
        elif left.free:
            ok, why = True, french("hands_free_left", {"free": left.free})
        elif left.paid:
            ok, why = True, french("hands_paid_left", {"paid": left.paid})
        else:
            ok, why = False, _why_none(allowance)
        out[u] = DealStatus(left, u == owner, ok, why)
    return out


def _why_code(allowance: int) -> str:
    """Why a player with no hands left is refused (a catalogue code)."""
    return "no_free_hands_at_level_0" if allowance == 0 else "no_hands_left_today"


def _why_none(allowance: int) -> str:
    """What a player with no hands left is told."""
    return french(_why_code(allowance))


class NoHandsLeftFor(NoHandsLeft):
    """Some players of a deal have no hands left: ``players`` maps each
    user id to why."""

    def __init__(self, players: dict[int, str]) -> None:
        super().__init__("no_hands_left_for", reasons=sorted(set(players.values())))
        self.players = players


# :func:`deal_in`'s statements, built once and run on the driver's cursor
# (store/direct.py: it runs at every deal of every table; SQLAlchemy's
# execution costs more than SQLite running them) — those with the table's
# players in an IN list, once per number of players.
_USAGE_ROWS, _PACK_ROWS = cast(Table, DailyHandUsage.__table__), cast(Table, PremiumPack.__table__)
_OWNER = Direct(select(Tavern.owner_id).where(Tavern.id == bindparam("tavern")))


@cache
def _levels_of(players: int) -> Direct:
    return Direct(select(User.id, User.level, User.house).where(User.id.in_(listed("players", players))))


def _counting(conn: Any, players: list[int]) -> tuple[list[int], dict[int, int], set[int]]:
    """Of a deal's players (the owner aside), those who count a hand and
    their levels, and the house players: a house player (tables/house.py)
    counts no hand, he is the house."""
    found = _levels_of(len(players)).rows(conn, bound("players", players))
    house = {uid for uid, _, is_house in found if is_house}
    return [u for u in players if u not in house], {u: lv for u, lv, is_house in found if not is_house}, house


@cache
def _usages_of(players: int) -> Direct:
    return Direct(select(_USAGE_ROWS.c.id, _USAGE_ROWS.c.user_id, _USAGE_ROWS.c.count)
                  .where(_USAGE_ROWS.c.user_id.in_(listed("players", players)), _USAGE_ROWS.c.day == bindparam("day"))
                  .with_for_update())


@cache
def _packs_of(players: int) -> Direct:
    return Direct(select(_PACK_ROWS.c.id, _PACK_ROWS.c.user_id, _PACK_ROWS.c.hands_left)
                  .where(_PACK_ROWS.c.user_id.in_(listed("players", players)), _PACK_ROWS.c.hands_left > 0)
                  .order_by(_PACK_ROWS.c.id).with_for_update())


@cache
def _new_usage_rows(dialect: str) -> Direct:
    """Players' rows of the day, created unless there already (SQLite and
    PostgreSQL write ``ON CONFLICT DO NOTHING`` alike; SQLAlchemy builds it
    per dialect)."""
    insert = sqlite_insert if dialect == "sqlite" else postgresql_insert
    return Direct(insert(_USAGE_ROWS).on_conflict_do_nothing(index_elements=["user_id", "day"]),
                  ("user_id", "day", "count", "disconnect_protections"))


_COUNT_FREE = Direct(_USAGE_ROWS.update().where(_USAGE_ROWS.c.id == bindparam("row_id"))
                     .values(count=_USAGE_ROWS.c.count + 1))
_COUNT_PACK = Direct(_PACK_ROWS.update().where(_PACK_ROWS.c.id == bindparam("pack_id"))
                     .values(hands_left=_PACK_ROWS.c.hands_left - 1))


def deal_in(
    session: Session, user_ids: list[int], tavern_id: int | None, now: dt.datetime, settings: Settings,
    spent: dict[int, list[Any]] | None = None,
) -> dict[int, HandsLeft | None]:
    """Count one hand for every player dealt into a deal, all at once: the
    rules of :func:`consume` (free hands first, then the oldest pack; level 0
    has no free hands; the owner plays unlimited in his own tavern) with a few
    statements for the whole table instead of several per player — this runs
    at every deal of every table, hence Core statements, not the ORM's unit
    of work. Returns each player's hands left afterwards (``None`` for the
    owner: unlimited). Raises :class:`NoHandsLeftFor` and changes nothing
    when any player has none."""
    session.flush()  # the caller's pending changes are in what is read and locked
    conn = session.connection()
    owner = _OWNER.value(conn, {"tavern": tavern_id}) if tavern_id else None
    counted = [u for u in user_ids if u != owner]
    day = local_day(now, settings)
    counted, levels, house = _counting(conn, counted)
    if not counted:  # the owner against house players: nobody counts a hand
        return {u: None for u in user_ids}
    players = bound("players", counted)
    usages: dict[int, tuple[int, int]] = {  # player: (row id, hands used today)
        user_id: (row_id, count)
        for row_id, user_id, count in _usages_of(len(counted)).rows(conn, {**players, "day": day})}
    packs: dict[int, list[list[int]]] = {u: [] for u in counted}  # player: [[pack id, hands left]], oldest first
    for pack_id, user_id, hands_left in _packs_of(len(counted)).rows(conn, players):
        packs[user_id].append([pack_id, hands_left])
    free_now = _hand_sources(counted, levels, usages, packs, settings)
    # The first free hand of the day creates the players' rows, all in one
    # statement (a table's first deal: six rows), then reads them locked; a
    # row another deal just created for the same player is taken as it is.
    firsts = [u for u, free in free_now.items() if free and u not in usages]
    if firsts:
        _new_usage_rows(conn.dialect.name).run_many(
            conn, [{"user_id": u, "day": day, "count": 0, "disconnect_protections": 0} for u in firsts])
        usages.update({user_id: (row_id, count) for row_id, user_id, count
                       in _usages_of(len(firsts)).rows(conn, {**bound("players", firsts), "day": day})})
    left: dict[int, HandsLeft | None] = {u: None for u in user_ids if u == owner or u in house}
    counted_today: list[int] = []  # usage rows counting one more free hand
    from_packs: list[int] = []  # packs giving one hand
    for u, free in free_now.items():
        if free:
            counted_today.append(usages[u][0])
            usages[u] = (usages[u][0], usages[u][1] + 1)
        else:
            packs[u][0][1] -= 1  # oldest pack first
            from_packs.append(packs[u][0][0])
        if spent is not None:  # where each hand came from, to give it back (give_back)
            spent[u] = ["free", day.isoformat()] if free else ["pack", packs[u][0][0]]
        allowance = 0 if levels[u] <= 0 else settings.free_hands_per_day
        left[u] = HandsLeft(max(0, allowance - (usages[u][1] if u in usages else 0)),
                            sum(hands for _, hands in packs[u]))
    _COUNT_FREE.run_many(conn, [{"row_id": i} for i in counted_today])
    _COUNT_PACK.run_many(conn, [{"pack_id": i} for i in from_packs])
    # ORM copies the caller's session may hold are read again on next use.
    expire_held(session, DailyHandUsage, counted_today)
    expire_held(session, PremiumPack, from_packs)
    return left


def _hand_sources(counted: list[int], levels: dict[int, int], usages: dict[int, tuple[int, int]],
                  packs: dict[int, list[list[int]]], settings: Settings) -> dict[int, bool]:
    """Whether each player's hand is a free one (else his oldest pack's):
    free hands are used before paid ones. Raises :class:`NoHandsLeftFor`
    naming every player who has neither."""
    refused: dict[int, str] = {}
    free_now: dict[int, bool] = {}
    for u in counted:
        if u not in levels:
            refused[u] = french("unknown_player")
            continue
        allowance = 0 if levels[u] <= 0 else settings.free_hands_per_day
        used = usages[u][1] if u in usages else 0
        if used < allowance:
            free_now[u] = True
        elif packs[u]:
            free_now[u] = False
        else:
            refused[u] = _why_none(allowance)
    if refused:
        raise NoHandsLeftFor(refused)
    return free_now


def give_back(session: Session, spent: dict[Any, list[Any]]) -> None:
    """Undo :func:`deal_in`'s count for a deal that never happened (voided by
    a crash): each free hand goes back to its day, each paid one to its pack."""
    for uid, (source, where) in spent.items():
        if source == "free":
            row = _usage(session, int(uid), dt.date.fromisoformat(where), create=False)
            if row is not None and row.count > 0:
                row.count -= 1
        elif source == "pack":
            pack = session.get(PremiumPack, int(where), with_for_update=True)
            if pack is not None:
                pack.hands_left += 1


def consume(session: Session, user_id: int, tavern_id: int | None, now: dt.datetime,
            settings: Settings) -> str:
    """Count one hand for a player being dealt in. Returns where it came
    from: ``"owner"`` (not counted), ``"free"`` or ``"pack"``. Raises
    :class:`NoHandsLeft` (the reason) and changes nothing when he has none."""
    if _is_owner(session, user_id, tavern_id):
        return "owner"
    user = session.get(User, user_id)
    if user is None:
        raise NoHandsLeft("unknown_player")
    allowance = _free_allowance(user, settings)
    if allowance:
        usage = _usage(session, user_id, local_day(now, settings), create=True)
        assert usage is not None
        if usage.count < allowance:  # free hands are used before paid ones
            usage.count += 1
            session.flush()
            return "free"
    packs = _packs(session, user_id, lock=True)
    if packs:
        packs[0].hands_left -= 1  # oldest pack first
        session.flush()
        return "pack"
    raise NoHandsLeft(_why_code(allowance))


def buy_pack(session: Session, user_id: int, settings: Settings) -> PremiumPack:
    """Buy a pack of extra hands with tokens (a ledger transfer to the
    house). Raises :class:`tavern.services.ledger.InsufficientFunds`."""
    ledger.transfer(
        session,
        ledger.account(session, "user", user_id, "tokens"),
        ledger.house(session, ledger.House.PREMIUM, "tokens"),
        settings.pack_price_tokens,
        "tokens",
        "hand_pack",
        f"user:{user_id}",
    )
    pack = PremiumPack(user_id=user_id, hands_bought=settings.pack_hands, hands_left=settings.pack_hands)
    session.add(pack)
    session.flush()
    return pack


def use_disconnect_protection(session: Session, user_id: int, now: dt.datetime, settings: Settings) -> bool:
    """A lost connection makes the player all-in for the rest of the hand, a
    limited number of times a day (RULES.md, ramponneau: "site setting,
    default 3; beyond that a time-out folds"). True if one was left (and is
    now used)."""
    usage = _usage(session, user_id, local_day(now, settings), create=True)
    assert usage is not None
    if usage.disconnect_protections >= settings.disconnect_protections_per_day:
        return False
    usage.disconnect_protections += 1
    session.flush()
    return True
