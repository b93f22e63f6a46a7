"""The table runtime's side of the database: seats, caves, daily hands, the
deal's settlement and its archive — each call one transaction.

The actor calls these from a worker thread (:func:`asyncio.to_thread`) so the
event loop never waits on the database.

Crash safety. Chips at a table are ledger balances, and a deal moves them in
the ledger only when it ends, in the same transaction as its archive
(:meth:`SqlBank.finish_deal`). A deal interrupted by the death of the process
has therefore moved nothing: every player already holds exactly what he put
into it. What remains is to say so: the deal is archived when it starts
(``result = {"in_progress": true}``, voided) and :meth:`SqlBank.void_interrupted`,
run at start-up, marks those rows voided for good.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar, cast

from sqlalchemy import Table, bindparam, delete, func, select, update
from sqlalchemy.orm import Session

from tavern import metrics
from tavern.bots.levels import REGULAR
from tavern.catalogue import french
from tavern.services import archive, hands, ledger, private_tables, seats, taverns
from tavern.settings import Settings
from tavern.store.db import bound, listed, read_session_factory, run_transaction
from tavern.store.direct import Direct
from tavern.store.models import ArchivedHand, Seat, TableConfig, Tavern, User, WaitingPlace, utcnow


@dataclass(frozen=True)
class TableInfo:
    """What the actor needs to know of its table's configuration."""

    id: int
    tavern_id: int
    owner_id: int
    game: str
    variant: str
    stakes: dict[str, Any]
    options: dict[str, Any]
    buy_in_min: int
    buy_in_max: int
    rake_percent: int
    rake_cap: int | None
    no_flop_no_drop: bool
    seats: int
    action_timer_seconds: int
    name: str
    #: The owner's « Joueurs de la maison » (tables/house.py; 0: none).
    house_seats: int = 0
    #: Their level as the table started (issue 37 §2); re-read before each deal (tables/house.py).
    house_level: str = REGULAR


@dataclass
class SeatRow:
    seat_no: int
    user_id: int
    username: str
    chips: int
    sitting_out: bool
    owes_big_blind: bool


@dataclass
class TableStart:
    """What a table actor starts from: its terms, its seats, the last deal's
    carry and each seat's daily hands (in seat order)."""

    info: TableInfo
    seats: list[SeatRow]
    carry: dict[str, Any] | None
    hands: list[dict[str, Any]]


class LostTable(Exception):
    """This worker's lease on the table is no longer the table's: another
    worker claimed it with a higher fence (tables/cluster.py). Nothing was
    written; the actor must stop."""


T = TypeVar("T")


class _Refused(Exception):
    """Players who may not be dealt in: the transaction is rolled back."""

    def __init__(self, players: dict[str, str]) -> None:
        super().__init__(players)
        self.players = players


_SEATS = cast(Table, Seat.__table__)
#: The table's fence, row-locked: checked first in each of its writes (several workers).
_FENCE = Direct(select(TableConfig.owner_fence).where(TableConfig.id == bindparam("table")).with_for_update())


@cache
def _blind_paid(players: int) -> Direct:
    """The seats of a deal's players owe no big blind any more (one statement
    per number of players: store.db.listed; run on the driver's cursor:
    store/direct.py)."""
    return Direct(_SEATS.update()
                  .where(_SEATS.c.table_id == bindparam("table"), _SEATS.c.user_id.in_(listed("players", players)),
                         _SEATS.c.owes_big_blind.is_(True))
                  .values(owes_big_blind=False))


def _hands_info(s: Session, user_ids: list[int], tavern_id: int, settings: Settings) -> dict[int, dict[str, Any]]:
    """Each player's daily hands as the table shows them (a few statements
    for the whole table: :func:`hands.deal_status`)."""
    return {uid: {"free": st.left.free, "paid": st.left.paid, "unlimited": st.unlimited, "can_deal": st.can_deal,
                  "why": st.why}
            for uid, st in hands.deal_status(s, user_ids, tavern_id, utcnow(), settings).items()}


def _seat_rows(s: Session, table_id: int) -> list[SeatRow]:
    return _seat_rows_of(s, [table_id]).get(table_id, [])


def _seat_rows_of(s: Session, table_ids: list[int]) -> dict[int, list[SeatRow]]:
    """The tables' seats with their players' names and chips, in two
    statements (not two per seat: a restart starts hundreds of tables)."""
    rows = s.execute(select(Seat.table_id, Seat.seat_no, Seat.user_id, User.username, Seat.sitting_out,
                            Seat.owes_big_blind)
                     .join(User, User.id == Seat.user_id)
                     .where(Seat.table_id.in_(table_ids)).order_by(Seat.table_id, Seat.seat_no)).all()
    chips = ledger.chips_of(s, [(r.user_id, r.table_id) for r in rows])
    out: dict[int, list[SeatRow]] = {}
    for r in rows:
        out.setdefault(r.table_id, []).append(SeatRow(r.seat_no, r.user_id, r.username, chips[r.user_id, r.table_id],
                                                      r.sitting_out, r.owes_big_blind))
    return out


def _last_carry(s: Session, table_id: int) -> dict[str, Any] | None:
    stmt = (select(ArchivedHand).where(ArchivedHand.table_id == table_id, ArchivedHand.voided.is_(False))
            .order_by(ArchivedHand.id.desc()).limit(1))
    row = s.scalars(stmt).first()
    return (row.result or {}).get("carry") if row is not None else None


#: The settlements' own worker thread (:func:`tavern.tables.deals.finish`): the
#: last view of a deal waits for its settlement, which must not queue in the
#: default thread pool behind the other tables' deal starts.
SETTLEMENTS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tavern-settle")


class _Writer:
    """One writer at a time among this process's threads; urgent turns
    (settlements: a player is waiting for the view) go before the others."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._busy = False
        self._urgent = 0  #: urgent turns waiting

    @contextmanager
    def turn(self, urgent: bool = False) -> Iterator[None]:
        with self._cond:
            self._urgent += int(urgent)
            try:
                while self._busy or (not urgent and self._urgent):
                    self._cond.wait()
            finally:
                self._urgent -= int(urgent)
            self._busy = True
        try:
            yield
        finally:
            with self._cond:
                self._busy = False
                self._cond.notify_all()


class SqlBank:
    """The real database, through the services layer."""

    def __init__(self, factory: Any, settings: Settings) -> None:
        self._factory = factory
        #: The site's settings (daily hands, protections): the app's, or a test's own.
        self.settings = settings
        # SQLite has one writer at a time, and a transaction that finds the
        # write lock taken polls for it with sleeps of up to 100 ms (its busy
        # handler), first come not first served. With the tables' worker
        # threads all writing (sit, begin_deal, finish_deal…), a settlement
        # could wait seconds behind the others. Our own threads queue on
        # :class:`_Writer` instead: woken as soon as the previous one commits,
        # settlements first (bench/bench_tables.py measured it).
        bind = getattr(self._factory, "kw", {}).get("bind")
        self._writer = _Writer() if bind is not None and bind.dialect.name == "sqlite" else None
        # What only reads (a table's terms, its seats when it starts, the
        # daily hands shown) needs neither the write lock SQLite's BEGIN
        # IMMEDIATE takes nor a writer's turn: WAL readers never wait for the
        # writer. A restart starts hundreds of tables at once (bench_capacity --storm).
        self._read_factory = (read_session_factory(bind) if bind is not None and self._writer is not None
                              else self._factory)
        #: The fence of each table this worker holds the lease of, when
        #: several workers share the store (tables/cluster.py); a table absent
        #: here is written unfenced when one process runs alone (nobody else
        #: runs it), refused otherwise (:attr:`fenced_only`).
        self.fences: dict[int, int] = {}
        #: Several workers share the store (set by the TableManager): a table
        #: with no fence here is this worker's no longer (or not yet), and a
        #: write for it is refused (LostTable), never made unfenced.
        self.fenced_only = False

    def share(self, other: SqlBank) -> None:
        """Work beside ``other``, the cash tables' bank (one per process): its
        SQLite writer queue, its lease fences and its fencing rule (the
        contest and practice tables' banks: their leases are claimed through
        the table manager's bank)."""
        self._writer = other._writer
        self.fences = other.fences
        self.fenced_only = other.fenced_only

    def _tx(self, work: Callable[[Session], T], *, urgent: bool = False, table: int | None = None) -> T:
        """``work`` in one transaction; with ``table``, only while this
        worker's fence is still the table's (checked under the row's lock,
        so a takeover and this write are ordered one way or the other)."""
        fence = self.fences.get(table) if table is not None else None
        if fence is None and table is not None and self.fenced_only:
            raise LostTable(table)

        def fenced(s: Session) -> T:
            current = _FENCE.value(s.connection(), {"table": table})
            if current != fence:
                raise LostTable(table)
            return work(s)

        run = work if fence is None else fenced
        if self._writer is None:
            return run_transaction(self._factory, run)
        with self._writer.turn(urgent):
            return run_transaction(self._factory, run)

    def _read(self, work: Callable[[Session], T]) -> T:
        """``work`` in a transaction that only reads."""
        return run_transaction(self._read_factory, work)

    def claim(self, table_id: int, fence: int) -> list[int] | None:
        """Take a table over with lease ``fence``, in one transaction: the
        table's row takes the fence (refused, ``None``, when it already holds
        a higher one: a stale lease), and the deals its previous owner left in
        progress are voided exactly as at a restart. Returns the voided ids."""

        def work(s: Session) -> list[int] | None:
            table = s.scalar(select(TableConfig).where(TableConfig.id == table_id).with_for_update())
            if table is None:
                return []
            if table.owner_fence >= fence:
                return None
            table.owner_fence = fence
            return _void_in_progress(s, table_id)

        voided = self._tx(work, urgent=True)
        if voided is not None:
            self.fences[table_id] = fence
            _count_voided(voided)
        return voided

    def table_fence(self, table_id: int) -> int:
        return self._read(lambda s: s.scalar(select(TableConfig.owner_fence).where(TableConfig.id == table_id)) or 0)

    def table_info(self, table_id: int) -> TableInfo | None:
        def work(s: Session) -> TableInfo | None:
            t = s.get(TableConfig, table_id)
            if t is None or t.status != "open" or t.contest_id is not None or t.practice_user_id is not None:
                return None  # a contest's tables are its director's (tavern.contests), a practice one its own
            assert t.tavern_id is not None  # a tavern's table (a contest's has none)
            owner_id = s.get_one(Tavern, t.tavern_id).owner_id
            return TableInfo(
                t.id, t.tavern_id, owner_id, t.game, t.variant, dict(t.stakes or {}), dict(t.options or {}),
                t.buy_in_min, t.buy_in_max, t.rake_percent, t.rake_cap, t.no_flop_no_drop, t.seats,
                t.action_timer_seconds, t.name, t.house_seats, t.house_level,
            )

        return self._read(work)

    def open_table_ids(self) -> list[int]:
        return self._read(lambda s: list(s.scalars(select(TableConfig.id).where(TableConfig.status == "open"))))

    def load_seats(self, table_id: int) -> list[SeatRow]:
        return self._read(lambda s: _seat_rows(s, table_id))

    def load_table(self, table_id: int, tavern_id: int) -> tuple[list[SeatRow], dict[str, Any] | None,
                                                                 list[dict[str, Any]]]:
        """What a table actor starts from, in one transaction: the seats, the
        last deal's carry and each seated player's daily hands (a restart
        starts hundreds of tables at once: one turn at the database each)."""
        def work(s: Session) -> tuple[list[SeatRow], dict[str, Any] | None, list[dict[str, Any]]]:
            rows = _seat_rows(s, table_id)
            hands_of = self._hands_in(s, [r.user_id for r in rows], tavern_id)
            return rows, _last_carry(s, table_id), [hands_of[r.user_id] for r in rows]

        return self._read(work)

    def load_tables(self, table_ids: list[int]) -> dict[int, TableStart]:
        """:meth:`table_info` and :meth:`load_table` of several cash tables in
        one transaction and a few statements whatever their number: a
        restart starts its hundreds of tables within seconds (the manager
        gathers the tables starting at the same moment: store/batch.py). A
        closed, unknown or contest table is absent."""
        def work(s: Session) -> dict[int, TableStart]:
            infos = {t.id: TableInfo(
                t.id, tavern_id, owner_id, t.game, t.variant, dict(t.stakes or {}), dict(t.options or {}),
                t.buy_in_min, t.buy_in_max, t.rake_percent, t.rake_cap, t.no_flop_no_drop, t.seats,
                t.action_timer_seconds, t.name, t.house_seats, t.house_level)
                for t, tavern_id, owner_id in s.execute(
                    select(TableConfig, Tavern.id, Tavern.owner_id).join(Tavern, Tavern.id == TableConfig.tavern_id)
                    .where(TableConfig.id.in_(table_ids), TableConfig.status == "open",
                           TableConfig.contest_id.is_(None), TableConfig.practice_user_id.is_(None)))}
            rows = _seat_rows_of(s, list(infos))
            last = (select(func.max(ArchivedHand.id))
                    .where(ArchivedHand.table_id.in_(list(infos)), ArchivedHand.voided.is_(False))
                    .group_by(ArchivedHand.table_id))
            carries = {tid: (result or {}).get("carry") for tid, result in s.execute(
                select(ArchivedHand.table_id, ArchivedHand.result).where(ArchivedHand.id.in_(last)))}
            hands_of: dict[tuple[int, int], dict[str, Any]] = {}  # (tavern, player): the owner plays unlimited in his own
            for tavern in {i.tavern_id for i in infos.values()}:
                users = [r.user_id for tid, seated in rows.items() if infos[tid].tavern_id == tavern for r in seated]
                hands_of.update({(tavern, uid): h for uid, h in self._hands_in(s, users, tavern).items()})
            return {tid: TableStart(info, rows.get(tid, []), carries.get(tid),
                                    [hands_of[info.tavern_id, r.user_id] for r in rows.get(tid, [])])
                    for tid, info in infos.items()}

        return self._read(work)

    def _hands_in(self, s: Session, user_ids: list[int], tavern_id: int) -> dict[int, dict[str, Any]]:
        """:meth:`hands_info` of several players inside a transaction (a
        contest's bank says otherwise)."""
        return _hands_info(s, user_ids, tavern_id, self.settings)

    def username(self, user_id: int) -> str:
        return self._read(lambda s: s.get_one(User, user_id).username)

    def sit(self, table_id: int, user_id: int, seat_no: int, cave: int) -> int:
        def work(s: Session) -> int:
            seats.sit(s, table_id, user_id, seat_no, cave)
            return ledger.chips(s, user_id, table_id)

        return self._tx(work, table=table_id)

    def add_chips(self, table_id: int, user_id: int, amount: int) -> int:
        return self._tx(lambda s: seats.add_chips(s, table_id, user_id, amount), table=table_id)

    def set_sitting_out(self, table_id: int, user_id: int, sitting_out: bool) -> None:
        self._tx(lambda s: seats.set_sitting_out(s, table_id, user_id, sitting_out) and None, table=table_id)

    def leave(self, table_id: int, user_id: int) -> int:
        return self._tx(lambda s: seats.leave(s, table_id, user_id), table=table_id)

    def hands_info(self, user_id: int, tavern_id: int) -> dict[str, Any]:
        """The player's daily hands as the table shows them."""
        return self._read(lambda s: _hands_info(s, [user_id], tavern_id, self.settings)[user_id])

    def use_disconnect_protection(self, user_id: int) -> bool:
        return self._tx(lambda s: hands.use_disconnect_protection(s, user_id, utcnow(), self.settings))

    def begin_deal(self, table_id: int, tavern_id: int, candidates: dict[str, int],
                   record: dict[str, Any]) -> tuple[int | None, dict[str, Any]]:
        """Count a hand for each player dealt in (``consume``) and archive the
        deal as in progress, in one transaction. Players with no hands left are
        returned with the reason instead, and the caller deals without them:
        ``(None, refused {username: why})``; with refusals nothing is written
        (the caller calls again with the remaining players). Otherwise
        ``(archive id, {username: hands info after this deal})``.

        This runs at every deal of every table, so it asks the database as
        little as it can: :func:`hands.deal_in` counts the whole table's hands
        in a few statements (it knows the tavern's owner, who plays unlimited
        hands there) and the seats' owed big blinds are cleared in one."""

        def work(s: Session) -> tuple[int | None, dict[str, Any]]:
            now = utcnow()
            spent: dict[int, list[Any]] = {}
            try:
                left = hands.deal_in(s, list(candidates.values()), tavern_id, now, self.settings, spent)
            except hands.NoHandsLeftFor as exc:
                names = {uid: name for name, uid in candidates.items()}
                raise _Refused({names[uid]: why for uid, why in exc.players.items()}) from None
            # The big blind owed is now paid or waived.
            _blind_paid(len(candidates)).run(s.connection(),
                                             {"table": table_id, **bound("players", list(candidates.values()))})
            # Where each hand came from: a deal voided by a crash gives them back.
            archive_id = archive.open_hand(s, table_id, record,
                                           {"in_progress": True, "finished": False,
                                            "spent": {str(u): w for u, w in spent.items()}}, now)
            info = {}
            for name, uid in candidates.items():
                hl = left[uid]
                if hl is None:  # "A tavern owner plays unlimited hands in his own tavern"
                    info[name] = {"free": 0, "paid": 0, "unlimited": True, "can_deal": True,
                                  "why": french("hands_unlimited")}
                else:
                    info[name] = {"free": hl.free, "paid": hl.paid, "unlimited": False,
                                  "can_deal": hl.total > 0,
                                  "why": french("hands_both_left", {"free": hl.free, "paid": hl.paid})}
            return archive_id, info

        try:
            return self._tx(work, table=table_id)
        except _Refused as refused:
            return None, refused.players

    def finish_deal(self, archive_id: int, table_id: int, owner_id: int, deltas: dict[int, int], rake: int,
                    record: dict[str, Any], result: dict[str, Any], carried: int = 0,
                    first_round: list[tuple[str, str]] | None = None) -> None:
        """The end of a deal, in one transaction: chips moved in the ledger
        (between players, and to or from the pot the table carries to the
        next deal), the rake paid to the tavern owner, the archive completed
        (``first_round``: at poker, the first betting round's moves, for the
        players' figures: services/stats.py)."""

        def work(s: Session) -> None:
            ledger.settle_deal(s, table_id, deltas, rake, owner_id, f"hand:{archive_id}", carried)
            archive.complete_hand(s, archive_id, record, result, rake, utcnow(), first_round=first_round)

        self._tx(work, urgent=True, table=table_id)  # the deal's last view waits for it

    def last_carry(self, table_id: int) -> dict[str, Any] | None:
        """What the table's last finished deal handed to the next one (the
        carried pot is in the ledger; this is its state for the engine)."""
        return self._read(lambda s: _last_carry(s, table_id))

    def may_sit(self, table_id: int, user_id: int) -> bool:
        """Whether ``user_id`` may sit at the table: a private one's link first
        (its waiting list asks before it takes a name: tables/waiting.py)."""

        def work(s: Session) -> bool:
            table = s.get(TableConfig, table_id)
            return table is not None and private_tables.may_sit(s, table, user_id)

        return self._read(work)

    def waiting_line(self, table_id: int) -> list[tuple[str, int]]:
        """The table's waiting list, in order of arrival: (name, user id)."""

        def work(s: Session) -> list[tuple[str, int]]:
            rows = s.execute(select(User.username, User.id).join(WaitingPlace, WaitingPlace.user_id == User.id)
                             .where(WaitingPlace.table_id == table_id).order_by(WaitingPlace.id))
            return [(name, uid) for name, uid in rows]

        return self._read(work)

    def wait_join(self, table_id: int, user_id: int) -> None:
        def work(s: Session) -> None:
            s.add(WaitingPlace(table_id=table_id, user_id=user_id))
            s.flush()

        self._tx(work, table=table_id)

    def wait_offer(self, table_id: int, user_id: int, seat: int, seconds: float) -> None:
        """The seat held for him, until when (a page he opens meanwhile is told)."""

        def work(s: Session) -> None:
            s.execute(update(WaitingPlace).where(WaitingPlace.table_id == table_id, WaitingPlace.user_id == user_id)
                      .values(offered_seat=seat, offered_until=utcnow() + dt.timedelta(seconds=seconds)))

        self._tx(work, table=table_id)

    def wait_remove(self, table_id: int, user_ids: list[int]) -> None:
        def work(s: Session) -> None:
            s.execute(delete(WaitingPlace).where(WaitingPlace.table_id == table_id,
                                                 WaitingPlace.user_id.in_(user_ids)))

        self._tx(work, table=table_id)

    def last_dealer(self, table_id: int) -> str | None:
        """The dealer of the table's last finished deal (by name), if any."""

        def work(s: Session) -> str | None:
            stmt = (select(ArchivedHand).where(ArchivedHand.table_id == table_id, ArchivedHand.voided.is_(False))
                    .order_by(ArchivedHand.id.desc()).limit(1))
            row = s.scalars(stmt).first()
            record: Any = row.record if row is not None else None
            try:
                return str(record["seats"][record["button"]]["player"])
            except (KeyError, IndexError, TypeError):
                return None

        return self._read(work)

    def close_table(self, table_id: int, owner_id: int, awards: dict[int, int],
                    record: dict[str, Any], result: dict[str, Any]) -> dict[int, int]:
        """The end of the game, in one transaction: the chips the table carries
        (its ``pot`` account) go to the players (``awards``: user id → chips,
        which must add up to the whole pot), every seated player is cashed out
        ("Ramasser ses gains": chips back to écus, seat freed), the closing is
        archived and the table closes (its decks go back to the tavern's
        inventory, :func:`tavern.services.taverns.close_table`). Returns each
        player's écus received (user id → écus)."""

        def work(s: Session) -> dict[int, int]:
            table = s.get(TableConfig, table_id)
            if table is None or table.status != "open":
                raise taverns.TavernError("no_such_open_table")
            if table.tavern is None or table.tavern.owner_id != owner_id:
                raise taverns.TavernError("owner_only_closes")
            pot = ledger.carried_pot(s, table_id)
            total = sum(awards.values())
            if pot.balance != total:
                raise ledger.LedgerError(
                    f"the table's carried pot holds {pot.balance} chips, the closing shares out {total}")
            seated = {seat.user_id for seat in seats.seats(s, table_id)}
            if set(awards) - seated:
                raise ledger.LedgerError("carried_pot_to_seated")
            legs = [ledger.Leg(pot, ledger.account(s, "user", uid, "chips", table_id), amount, "chips")
                    for uid, amount in sorted(awards.items()) if amount > 0]
            if legs:
                ledger.post(s, legs, "close", f"table:{table_id}:close")
            cashed = {}
            for seat in seats.seats(s, table_id):
                cashed[seat.user_id] = seats.leave(s, table_id, seat.user_id)
            archive.archive_hand(s, table_id, record, result, started=utcnow(), ended=utcnow())
            taverns.close_table(s, table_id, owner_id)
            return cashed

        return self._tx(work, urgent=True, table=table_id)

    def void_interrupted(self, table_id: int | None = None) -> list[int]:
        """At start-up: every deal archived as in progress was interrupted by
        the death of the process. Nothing of it reached the ledger, so every
        player holds what he put into it; mark it voided for good and give
        back the hands it counted."""

        voided = self._tx(lambda s: _void_in_progress(s, table_id))
        _count_voided(voided)  # once committed: a retried transaction counts once
        return voided

    def seat_rows_for_user(self, user_id: int) -> list[Seat]:
        return self._tx(lambda s: list(s.scalars(select(Seat).where(Seat.user_id == user_id))))


class _Voided(list[int]):
    """The ids of the deals voided, and their games (for the metrics)."""

    games: list[str]


def _count_voided(voided: list[int]) -> None:
    for game in getattr(voided, "games", []):
        metrics.deal(game, "voided")


def _void_in_progress(s: Session, table_id: int | None) -> list[int]:
    """Void the deals archived as in progress (of one table, or of all):
    their process died before they ended, so nothing of them reached the
    ledger. The daily hands (or pack hands) they used come back in this same
    transaction: a deal that never finished cost nobody a hand."""
    stmt = select(ArchivedHand).where(ArchivedHand.voided.is_(True))
    if table_id is not None:
        stmt = stmt.where(ArchivedHand.table_id == table_id)
    out = _Voided()
    out.games = []
    for row in s.scalars(stmt):
        if (row.result or {}).get("in_progress"):
            hands.give_back(s, (row.result or {}).get("spent") or {})
            row.result = {"voided": "the server stopped during the deal; nobody paid, no rake",
                          "finished": False, "rake": 0, "hands_given_back": True}
            row.ended = utcnow()
            out.append(row.id)
            out.games.append(row.game)
    return out
