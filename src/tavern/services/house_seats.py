"""House seats at real tables (issue 29 §2): the money side.

The house players who sit at a tavern's table while humans are too few
(tables/house.py) play real écus, from one account: the **house's purse**,
the écus account of a house user of its own (« Caisse de la maison »:
``User.house``, no password anyone can give, so nobody logs in as it). It
holds only what was put in it: the site admin credits it from the admin page
« Caisse de la maison » (:func:`fund`: a ledger entry from the house's
issuance like any grant — never écus from nowhere), and being a user's
account it never goes below zero (the ledger refuses; the audit would flag
it). A house player's cave is paid from the purse (:func:`sit`: purse écus
→ the table's cashier, the cashier's chips → the house player's chips at
that table) and his chips go back into it when he leaves or the table
closes (``services.seats.leave`` asks :func:`purse_of`), through the same
ledger entries as a human's cave and cash-out (``cave``, ``cash_out``), so
the money audit (``ledger.audit``) balances as ever. Rake is taken from their pots as from
anyone's; they count no daily hand (services/hands.py: they are the house).

What the house won or lost at each table (:func:`results`) is read from the
ledger: what its players cashed out there, plus their chips there now,
less their caves.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavern import catalogue
from tavern.bounds import MAX_AMOUNT
from tavern.refusal import Refusal
from tavern.services import ledger, practice
from tavern.store.models import LedgerAccount, LedgerEntry, Seat, TableConfig, User


class HouseSeatError(Refusal, ValueError):
    """A refused operation on the house's seats or purse."""


def purse_user(s: Session) -> User:
    """The house user whose écus account is the purse, made on first use (a
    name a player took for himself is skipped: never his account)."""
    names = [catalogue.HOUSE_PURSE_NAME, *(f"{catalogue.HOUSE_PURSE_NAME} {i}" for i in range(2, 5))]
    found = {u.username: u for u in s.scalars(select(User).where(User.username.in_(names)))}
    name = next(n for n in names if n not in found or found[n].house)
    if name not in found:
        # "!" is no Argon2 hash: no password logs in as the house (users.verify_password).
        found[name] = User(username=name, password_hash="!", house=True, level=0)
        s.add(found[name])
        s.flush()
    return found[name]


def purse(s: Session) -> LedgerAccount:
    """The purse's écus account."""
    return ledger.account(s, "user", purse_user(s).id, "ecus")


def purse_of(s: Session, user_id: int) -> LedgerAccount | None:
    """Where a leaving player's chips go when not into his own écus: the purse,
    for a house player; None for anybody else."""
    user = s.get(User, user_id)
    return purse(s) if user is not None and user.house else None


def fund(s: Session, amount: int, admin_id: int) -> str:
    """The site admin credits the purse: a grant from the house's issuance."""
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 < amount <= MAX_AMOUNT:
        raise HouseSeatError("bad_amount", amount=str(amount))
    return ledger.issue(s, purse_user(s).id, amount, "ecus", f"house-purse:admin:{admin_id}")


@dataclass(frozen=True)
class HouseSeat:
    """A house player just seated: his seat, account, name and chips."""

    seat_no: int
    user_id: int
    username: str
    chips: int


def sit(s: Session, table_id: int, count: int) -> list[HouseSeat]:
    """Seat up to ``count`` house players at the table's free seats, each
    with a cave from the purse (the table's largest, or what the purse holds
    when less, never under the smallest: with an empty purse nobody sits)."""
    table = s.get_one(TableConfig, table_id)
    if table.status != "open" or table.contest_id is not None or count <= 0:
        return []
    seated = list(s.scalars(select(Seat).where(Seat.table_id == table_id)))
    free = [n for n in range(table.seats) if n not in {seat.seat_no for seat in seated}]
    taken = {seat.user_id for seat in seated}
    # The practice tables' house players, by name (never the purse itself).
    players = [u for u in practice.house_players(s, len(taken) + count + 1) if u.id not in taken]
    bank = purse(s)
    out: list[HouseSeat] = []
    for seat_no, player in zip(free, players[:count], strict=False):
        cave = min(table.buy_in_max, bank.balance)
        if cave < table.buy_in_min:
            break  # the purse is short: the humans play without more house players
        s.add(Seat(table_id=table_id, seat_no=seat_no, user_id=player.id, sitting_out=False, owes_big_blind=False))
        s.flush()
        ledger.cave(s, player.id, table_id, cave, f"table:{table_id}:house-seat:{seat_no}", ecus=bank)
        out.append(HouseSeat(seat_no, player.id, player.username, cave))
    return out


@dataclass(frozen=True)
class TableResult:
    """What the house's players did at one table, in écus."""

    table_id: int
    name: str
    caved: int
    cashed: int
    at_table: int

    @property
    def result(self) -> int:
        """Won (positive) or lost (negative)."""
        return self.cashed + self.at_table - self.caved


def results(s: Session) -> list[TableResult]:
    """The house's players' result at each table they sat at (newest first)."""
    chips = (select(LedgerAccount.id, LedgerAccount.table_id, LedgerAccount.balance)
             .join(User, User.id == LedgerAccount.owner_id)
             .where(LedgerAccount.owner_kind == "user", LedgerAccount.currency == "chips", User.house.is_(True))
             .subquery())
    caved: dict[int, int] = dict(s.execute(select(chips.c.table_id, func.sum(LedgerEntry.amount))
                           .join(LedgerEntry, LedgerEntry.credit_id == chips.c.id)
                           .where(LedgerEntry.reason == "cave").group_by(chips.c.table_id)).all())
    cashed: dict[int, int] = dict(s.execute(select(chips.c.table_id, func.sum(LedgerEntry.amount))
                            .join(LedgerEntry, LedgerEntry.debit_id == chips.c.id)
                            .where(LedgerEntry.reason == "cash_out").group_by(chips.c.table_id)).all())
    held: dict[int, int] = dict(s.execute(select(chips.c.table_id, func.sum(chips.c.balance)).group_by(chips.c.table_id)).all())
    names: dict[int, str] = dict(s.execute(select(TableConfig.id, TableConfig.name).where(TableConfig.id.in_(list(caved)))).all())
    return [TableResult(tid, names.get(tid, ""), int(caved[tid]), int(cashed.get(tid) or 0), int(held.get(tid) or 0))
            for tid in sorted(caved, reverse=True)]


def level_of(s: Session, table_id: int) -> str | None:
    """The house players' level the owner chose at this table (issue 37 §2)."""
    return s.scalar(select(TableConfig.house_level).where(TableConfig.id == table_id))


def house_ids(s: Session, user_ids: list[int]) -> set[int]:
    """Which of these players are the house's."""
    if not user_ids:
        return set()
    return set(s.scalars(select(User.id).where(User.id.in_(user_ids), User.house.is_(True))))


def house_names(s: Session, names: list[str]) -> set[str]:
    """Which of these player names are the house's (marked « maison » wherever a name appears)."""
    if not names:
        return set()
    return set(s.scalars(select(User.username).where(User.username.in_(sorted(set(names))), User.house.is_(True))))
