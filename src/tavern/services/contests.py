"""Contests in the store and the ledger: creation, registration, the start,
moves, knock-outs and prizes — each a function over the caller's session.

Money (docs/contests.md):

* Entry fees wait in the contest's escrow (``contest`` owner kind, écus);
  the prize the house adds comes from the house's contest account
  (:attr:`ledger.House.CONTESTS`) into the same escrow when the contest is
  created. Unregistering returns the fee; cancelling returns every fee and the
  house's prize. Prizes leave the escrow in one transfer at the end: the
  escrow is then empty.
* Contest chips are not écus: the contest issues each player's starting
  stack at his table (``contest`` chips account of that table, which may go
  negative), a move carries his chips from one table to another through the
  contest's accounts, and the winner's chips go back to the contest at the
  end. No cave, no cash-out, no daily hands, no rake.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavern.cards import RandomSource
from tavern.catalogue import french
from tavern.contest_floor import Floor, FloorTable, Move, table_counts
from tavern.contest_rules import (
    ContestRuleError,
    Finish,
    Level,
    Settings,
    check_settings,
    default_payouts,
    level_at,
    level_started,
    place_prizes,
    share_prizes,
)
from tavern.refusal import Refusal
from tavern.services import ledger
from tavern.store.models import (
    ArchivedHand,
    Contest,
    ContestEntry,
    ContestMove,
    LedgerAccount,
    Seat,
    TableConfig,
    User,
)


class ContestError(Refusal, ValueError):
    """A refused contest operation: a code the catalogue says in French."""


def structure(c: Contest) -> list[Level]:
    return [Level.of(lv) for lv in c.structure]


def escrow(s: Session, contest_id: int) -> LedgerAccount:
    return ledger.account(s, "contest", contest_id, "ecus")


def contest_chips(s: Session, contest_id: int, table_id: int) -> LedgerAccount:
    return ledger.account(s, "contest", contest_id, "chips", table_id)


def prize_pool(s: Session, c: Contest) -> int:
    """The fees escrowed plus the house's prize (what the escrow holds until
    the prizes are paid)."""
    if c.prize_pool is not None:
        return c.prize_pool
    return ledger.balance(s, "contest", c.id, "ecus")


def entries_count(s: Session, contest_id: int) -> int:
    return int(s.scalar(select(func.count()).select_from(ContestEntry)
                        .where(ContestEntry.contest_id == contest_id)) or 0)


def payout_table(c: Contest, field: int) -> list[int]:
    """The contest's payout table, or the default for ``field`` players."""
    return [int(p) for p in c.payouts] if c.payouts else default_payouts(field)


def late_registration_open(c: Contest, now: dt.datetime) -> bool:
    """"late registration until the end of level N" (0: none)."""
    if c.status != "running" or not c.late_levels or c.started_at is None:
        return False
    return (now - c.started_at).total_seconds() < level_started(structure(c), c.late_levels)


def level_now(c: Contest, now: dt.datetime) -> tuple[int, float]:
    """The level in play (index) and the seconds left before the next one."""
    if c.started_at is None:
        return 0, float(structure(c)[0].seconds)
    return level_at(structure(c), (now - c.started_at).total_seconds())


# --- the admin ------------------------------------------------------------------


def create(s: Session, admin_id: int, settings: Settings, now: dt.datetime) -> Contest:
    """Create a contest (checked: :func:`check_settings`); the house's prize
    moves into its escrow now."""
    admin = s.get(User, admin_id)
    if admin is None or admin.role != "admin":
        raise ContestError("contest_admin_only")
    try:
        check_settings(settings, now)
    except ContestRuleError as exc:
        raise ContestError(exc.code, **exc.params) from None
    c = Contest(
        name=settings.name.strip(), status="registering", starts_at=settings.starts_at, fee=settings.fee,
        house_prize=settings.house_prize, starting_chips=settings.starting_chips, seats=settings.seats,
        min_players=settings.min_players, max_players=settings.max_players,
        structure=[lv.as_dict() for lv in settings.structure], late_levels=settings.late_levels,
        action_timer_seconds=settings.action_timer,
        payouts=list(settings.payouts) if settings.payouts is not None else None,
        created_by=admin_id, created=now,
    )
    s.add(c)
    s.flush()
    if settings.house_prize:
        ledger.transfer(s, ledger.house(s, ledger.House.CONTESTS, "ecus"), escrow(s, c.id), settings.house_prize,
                        "ecus", "contest_prize", f"contest:{c.id}")
    return c


def _locked(s: Session, contest_id: int) -> Contest:
    """The contest, its row locked (PostgreSQL) so registrations and the start
    are serialized; SQLite holds the database lock already."""
    c = s.scalars(select(Contest).where(Contest.id == contest_id).with_for_update()).one_or_none()
    if c is None:
        raise ContestError("no_such_contest")
    return c


def cancel(s: Session, contest_id: int, reason: str) -> Contest:
    """Cancel before the start: every fee back to its player, the house's
    prize back to the house, in one transfer."""
    c = _locked(s, contest_id)
    if c.status != "registering":
        raise ContestError("contest_cancel_not_started")
    box = escrow(s, c.id)
    legs = [ledger.Leg(box, ledger.account(s, "user", e.user_id, "ecus"), e.fee_paid, "ecus")
            for e in c.entries if e.fee_paid > 0]
    if c.house_prize:
        legs.append(ledger.Leg(box, ledger.house(s, ledger.House.CONTESTS, "ecus"), c.house_prize, "ecus"))
    if legs:
        ledger.post(s, legs, "contest_refund", f"contest:{c.id}:cancel")
    c.status = "cancelled"
    c.cancelled_reason = reason[:200]
    c.finished_at = dt.datetime.now(dt.UTC)
    return c


# --- the players ------------------------------------------------------------------


def register(s: Session, contest_id: int, user_id: int, now: dt.datetime, *, director: bool = False) -> ContestEntry:
    """Register (the fee into the escrow). Refused clearly: no funds, full,
    already registered, closed. A late registration is recorded here by the
    contest's director (``director=True``), who seats the player in the same
    transaction; without it a running contest refuses (an entry without a
    seat would never play)."""
    c = _locked(s, contest_id)
    late = c.status == "running"
    if c.status != "registering" and not late_registration_open(c, now):
        raise ContestError("contest_registration_closed")
    if late and not director:
        raise ContestError("contest_starting")
    if s.scalars(select(ContestEntry).where(ContestEntry.contest_id == c.id,
                                            ContestEntry.user_id == user_id)).first() is not None:
        raise ContestError("contest_already_registered")
    if entries_count(s, c.id) >= c.max_players:
        raise ContestError("contest_full", maximum=c.max_players)
    if c.fee:
        try:
            ledger.transfer(s, ledger.account(s, "user", user_id, "ecus"), escrow(s, c.id), c.fee, "ecus",
                            "contest_fee", f"contest:{c.id}")
        except ledger.InsufficientFunds as exc:
            raise ContestError("contest_fee_funds", fee=c.fee, available=exc.balance) from None
    entry = ContestEntry(contest_id=c.id, user_id=user_id, fee_paid=c.fee, registered=now, late=late)
    s.add(entry)
    s.flush()
    return entry


#: Why unregistering is refused, by the contest's status (running: it began).
_NO_UNREGISTER = {"finished": "contest_no_unregister_finished", "cancelled": "contest_no_unregister_cancelled"}


def unregister(s: Session, contest_id: int, user_id: int) -> None:
    """Unregister before the start: the fee comes back."""
    c = _locked(s, contest_id)
    if c.status != "registering":
        # Said as it is: a finished or cancelled contest has not just "begun".
        raise ContestError(_NO_UNREGISTER.get(c.status, "contest_no_unregister"))
    entry = s.scalars(select(ContestEntry).where(ContestEntry.contest_id == c.id,
                                                 ContestEntry.user_id == user_id)).first()
    if entry is None:
        raise ContestError("contest_not_registered")
    if entry.fee_paid:
        ledger.transfer(s, escrow(s, c.id), ledger.account(s, "user", user_id, "ecus"), entry.fee_paid, "ecus",
                        "contest_refund", f"contest:{c.id}:unregister")
    s.delete(entry)
    s.flush()


# --- the start ---------------------------------------------------------------------


def table_name(c: Contest, number: int) -> str:
    return french("contest_table_name", {"contest": c.name[:60], "number": number})


def open_table(s: Session, c: Contest, number: int, first_button: int | None = None) -> TableConfig:
    """A contest table: Ramponneau, no tavern, no rake; the cave bounds are
    the starting stack (nobody caves at a contest, but the column asks)."""
    level = structure(c)[0]
    t = TableConfig(
        tavern_id=None, contest_id=c.id, name=table_name(c, number), game="ramponneau", variant="no-limit",
        stakes={"small_blind": level.small_blind, "big_blind": level.big_blind},
        options={"first_button": first_button} if first_button is not None else {},
        buy_in_min=c.starting_chips, buy_in_max=c.starting_chips, rake_percent=0, rake_cap=None,
        no_flop_no_drop=True, seats=c.seats, action_timer_seconds=c.action_timer_seconds, status="open",
    )
    s.add(t)
    s.flush()
    return t


def seat_player(s: Session, c: Contest, user_id: int, table_id: int, seat_no: int, reason: str,
                chips: int | None = None) -> None:
    """Seat a player who has no seat yet with his stack issued by the contest."""
    amount = c.starting_chips if chips is None else chips
    s.add(Seat(table_id=table_id, seat_no=seat_no, user_id=user_id, sitting_out=False, owes_big_blind=False))
    ledger.transfer(s, contest_chips(s, c.id, table_id), ledger.account(s, "user", user_id, "chips", table_id),
                    amount, "chips", "contest_stack", f"contest:{c.id}")
    s.add(ContestMove(contest_id=c.id, user_id=user_id, from_table_id=None, from_seat=None, to_table_id=table_id,
                      to_seat=seat_no, chips=amount, reason=reason))
    s.flush()


def players_of(s: Session, contest_id: int) -> dict[str, int]:
    """Registered players: username → user id."""
    rows = s.execute(select(User.username, User.id).join(ContestEntry, ContestEntry.user_id == User.id)
                     .where(ContestEntry.contest_id == contest_id).order_by(ContestEntry.id))
    return {name: uid for name, uid in rows}


def move(s: Session, c: Contest, m: Move, user_id: int) -> int:
    """Carry a player and his chips from one table to another (one transfer:
    his chips there back to the contest, the contest's chips here to him).
    Returns his chips."""
    seat = s.scalars(select(Seat).where(Seat.table_id == m.from_table, Seat.user_id == user_id)).one()
    amount = ledger.chips(s, user_id, m.from_table)
    s.delete(seat)
    s.flush()
    s.add(Seat(table_id=m.to_table, seat_no=m.to_seat, user_id=user_id, sitting_out=False, owes_big_blind=False))
    if amount > 0:
        ledger.post(s, [
            ledger.Leg(ledger.account(s, "user", user_id, "chips", m.from_table),
                       contest_chips(s, c.id, m.from_table), amount, "chips"),
            ledger.Leg(contest_chips(s, c.id, m.to_table),
                       ledger.account(s, "user", user_id, "chips", m.to_table), amount, "chips"),
        ], "contest_move", f"contest:{c.id}")
    s.add(ContestMove(contest_id=c.id, user_id=user_id, from_table_id=m.from_table, from_seat=m.from_seat,
                      to_table_id=m.to_table, to_seat=m.to_seat, chips=amount, reason=m.reason))
    s.flush()
    return amount


def knock_out(s: Session, c: Contest, finishes: Sequence[Finish], ids: dict[str, int], table_id: int,
              started: dict[str, int], now: dt.datetime) -> None:
    """Players with no chips are out: their places (tie order kept), their
    seats freed."""
    for f in finishes:
        for k, name in enumerate(f.players):
            uid = ids[name]
            entry = s.scalars(select(ContestEntry).where(ContestEntry.contest_id == c.id,
                                                         ContestEntry.user_id == uid)).one()
            entry.place, entry.tie_order, entry.out_stack, entry.out_at = f.place, k, started.get(name), now
            seat = s.scalars(select(Seat).where(Seat.table_id == table_id, Seat.user_id == uid)).first()
            if seat is not None:
                if ledger.chips(s, uid, table_id):
                    raise ledger.LedgerError("still_has_chips", name=name)
                s.delete(seat)
    s.flush()


def close_tables(s: Session, table_ids: Sequence[int], now: dt.datetime) -> None:
    for tid in table_ids:
        t = s.get(TableConfig, tid)
        if t is not None and t.status == "open":
            if s.scalar(select(func.count()).select_from(Seat).where(Seat.table_id == tid)):
                raise ContestError("contest_table_closes_empty")
            t.status, t.closed = "closed", now


def finishes_of(s: Session, c: Contest) -> list[Finish]:
    """The finishes recorded so far (groups of tied players, tie order kept)."""
    rows = s.execute(select(ContestEntry.place, ContestEntry.tie_order, User.username)
                     .join(User, User.id == ContestEntry.user_id)
                     .where(ContestEntry.contest_id == c.id, ContestEntry.place.is_not(None))
                     .order_by(ContestEntry.place, ContestEntry.tie_order))
    groups: dict[int, list[str]] = {}
    for place, _, name in rows:
        groups.setdefault(place or 0, []).append(name)  # never None: filtered above
    return [Finish(place, tuple(names)) for place, names in sorted(groups.items())]


def finish(s: Session, c: Contest, winner_id: int, table_id: int, now: dt.datetime) -> dict[int, int]:
    """The last player with chips wins: his chips go back to the contest, his
    seat is freed, and the prizes are paid from the escrow in one transfer
    (the pool shared by the payout table for the final field, ties sharing).
    Returns each prize (user id → écus)."""
    chips = ledger.chips(s, winner_id, table_id)
    if chips:
        ledger.transfer(s, ledger.account(s, "user", winner_id, "chips", table_id),
                        contest_chips(s, c.id, table_id), chips, "chips", "contest_end", f"contest:{c.id}")
    for seat in s.scalars(select(Seat).where(Seat.table_id == table_id)):
        s.delete(seat)
    entry = s.scalars(select(ContestEntry).where(ContestEntry.contest_id == c.id,
                                                 ContestEntry.user_id == winner_id)).one()
    entry.place, entry.tie_order, entry.out_at = 1, 0, now
    s.flush()
    field = entries_count(s, c.id)
    pool = ledger.balance(s, "contest", c.id, "ecus")
    shares = share_prizes(finishes_of(s, c), place_prizes(pool, payout_table(c, field)))
    ids = players_of(s, c.id)
    paid = {ids[name]: amount for name, amount in shares.items()}
    box = escrow(s, c.id)
    legs = [ledger.Leg(box, ledger.account(s, "user", uid, "ecus"), amount, "ecus")
            for uid, amount in sorted(paid.items()) if amount > 0]
    if legs:
        ledger.post(s, legs, "contest_prize", f"contest:{c.id}:prizes")
    for e in c.entries:
        e.prize = paid.get(e.user_id, 0)
    c.status, c.finished_at, c.prize_pool = "finished", now, pool
    open_ids = list(s.scalars(select(TableConfig.id).where(TableConfig.contest_id == c.id,
                                                           TableConfig.status == "open")))
    close_tables(s, open_ids, now)
    return paid


# --- what the pages show -------------------------------------------------------------


@dataclass
class Standing:
    name: str
    place: int | None
    chips: int
    prize: int | None
    table_id: int | None


def standings(s: Session, c: Contest) -> list[Standing]:
    """Players still in by chips (most first), then the finishers by place."""
    seats = {row.user_id: row.table_id for row in s.scalars(
        select(Seat).join(TableConfig, TableConfig.id == Seat.table_id).where(TableConfig.contest_id == c.id))}
    out = []
    for e in c.entries:
        tid = seats.get(e.user_id)
        chips = ledger.chips(s, e.user_id, tid) if tid is not None else 0
        out.append(Standing(e.user.username, e.place, chips, e.prize, tid))
    return sorted(out, key=lambda st: (st.place is not None, st.place or 0, -st.chips, st.name))


def summary(s: Session, c: Contest, now: dt.datetime) -> dict[str, Any]:
    """What the lobby and the contest page show (JSON-ready)."""
    levels = structure(c)
    # A cancelled contest refunded every entry: nobody is registered any more
    # (the entries stay, for each player's history).
    n = entries_count(s, c.id) if c.status != "cancelled" else 0
    index, left = level_now(c, now)
    level = levels[index]
    field = n if c.status != "registering" else max(n, c.min_players)
    pool = prize_pool(s, c)
    payouts = payout_table(c, field)
    st = standings(s, c) if c.status in ("running", "finished") else []
    alive = [x for x in st if x.place is None]
    return {
        "id": c.id, "name": c.name, "status": c.status, "starts_at": c.starts_at.isoformat(),
        "fee": c.fee, "house_prize": c.house_prize, "prize_pool": pool, "registered": n,
        "min_players": c.min_players, "max_players": c.max_players, "starting_chips": c.starting_chips,
        "seats": c.seats, "late_levels": c.late_levels, "action_timer_seconds": c.action_timer_seconds,
        "structure": [lv.as_dict() for lv in levels], "payouts": payouts,
        "prizes": place_prizes(pool, payouts),
        "late_registration": late_registration_open(c, now),
        "cancelled_reason": c.cancelled_reason,
        "level": {"number": index + 1, **level.as_dict(),
                  "seconds_left": None if left == float("inf") else round(left, 1)}
        if c.status == "running" else None,
        "players_left": len(alive) if st else None,
        "average_stack": (sum(x.chips for x in alive) // len(alive)) if alive else None,
        "standings": [{"name": x.name, "place": x.place, "chips": x.chips, "prize": x.prize, "table_id": x.table_id}
                      for x in st],
    }


# --- the start and a restart ---------------------------------------------------------


def begin(s: Session, contest_id: int, now: dt.datetime, rng: RandomSource) -> Floor | None:
    """The start time has come: a contest below its minimum is cancelled and
    refunded (``None``); else its players are seated at random over the
    fewest balanced tables, each with its stack issued by the contest, and
    the first buttons drawn. Returns the floor."""
    c = _locked(s, contest_id)
    if c.status != "registering":
        raise ContestError("contest_not_registering")
    ids = players_of(s, c.id)
    if len(ids) < c.min_players:
        n = len(ids)
        cancel(s, c.id, french("contest_too_few_players", {"entered": n, "minimum": c.min_players}))
        return None
    floor = Floor(c.seats, rng)
    tables = [open_table(s, c, i + 1) for i in range(len(table_counts(len(ids), c.seats)))]
    buttons = floor.seat_field(list(ids), c.starting_chips, [t.id for t in tables])
    for t in tables:
        t.options = {"first_button": buttons[t.id]}
    for tid, ft in floor.tables.items():
        for seat_no, name in sorted(ft.seats.items()):
            seat_player(s, c, ids[name], tid, seat_no, "start")
    c.status, c.started_at = "running", now
    s.flush()
    return floor


def _before(seats: Sequence[int], seat: int) -> int | None:
    """The occupied seat before ``seat`` (the table moves the button to the next one after it)."""
    seats = sorted(seats)
    if len(seats) < 2:
        return None
    k = seats.index(seat) if seat in seats else next((i for i, x in enumerate(seats) if x > seat), 0)
    return seats[k - 1]


def load_floor(s: Session, c: Contest, rng: RandomSource) -> Floor:
    """A running contest as the database holds it (after a restart): its open
    tables, who sits where with which chips, each table's last button, the
    places given."""
    floor = Floor(c.seats, rng)
    for t in s.scalars(select(TableConfig).where(TableConfig.contest_id == c.id, TableConfig.status == "open")
                       .order_by(TableConfig.id)):
        ft = FloorTable(t.id)
        for seat in s.scalars(select(Seat).where(Seat.table_id == t.id)):
            name = s.get_one(User, seat.user_id).username
            ft.seats[seat.seat_no] = name
            floor.stacks[name] = ledger.chips(s, seat.user_id, t.id)
        last = s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == t.id, ArchivedHand.voided.is_(False))
                         .order_by(ArchivedHand.id.desc()).limit(1)).first()
        button: int | None = None
        try:
            dealer = last.record["seats"][last.record["button"]]["player"] if last is not None else None
        except (KeyError, IndexError, TypeError):
            dealer = None
        by_name = {name: seat for seat, name in ft.seats.items()}
        if dealer in by_name:
            button = by_name[dealer]
        elif ft.seats:
            first = (t.options or {}).get("first_button")
            button = _before(list(ft.seats), first if isinstance(first, int) else min(ft.seats))
        ft.button = button
        floor.tables[t.id] = ft
    floor.finishes = finishes_of(s, c)
    floor.places = {name: f.place for f in floor.finishes for name in f.players}
    return floor


def contest_table_ids(s: Session, contest_id: int) -> list[int]:
    return list(s.scalars(select(TableConfig.id).where(TableConfig.contest_id == contest_id)))


def running_ids(s: Session) -> list[int]:
    return list(s.scalars(select(Contest.id).where(Contest.status == "running").order_by(Contest.id)))


def due_ids(s: Session, now: dt.datetime) -> list[int]:
    """Contests whose start time has come."""
    return list(s.scalars(select(Contest.id).where(Contest.status == "registering", Contest.starts_at <= now)
                          .order_by(Contest.starts_at, Contest.id)))
