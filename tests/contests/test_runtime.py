"""A contest played to the end by simulated players through the live
runtime: the contest manager seats them, the director hears every deal end
of the real table actors, the ledger moves every chip and écu. Marked ``db``:
CI runs it again on PostgreSQL."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker
from tests.dbtools import harness_settings

from tavern.cards import SeededSource
from tavern.contest_floor import Outcome
from tavern.contest_rules import Level, Settings, default_payouts, place_prizes
from tavern.contests.director import Director
from tavern.contests.manager import ContestManager
from tavern.contests.table import ContestBank
from tavern.games import registry
from tavern.services import contests as svc
from tavern.services import ledger
from tavern.store.models import ArchivedHand, Contest, ContestEntry, ContestMove, LedgerAccount, TableConfig, User
from tavern.tables.actor import CommandError
from tavern.tables.broadcast import LocalBroadcaster
from tavern.tables.commands import Act
from tavern.tables.manager import TableManager

pytestmark = pytest.mark.db

_HASH = "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"
NOW = dt.datetime.now(dt.UTC)
FAST = tuple(Level(sb, 2 * sb, 0 if i < 3 else sb // 4, 5) for i, sb in enumerate((10, 20, 40, 80, 160, 320, 640)))


def make_players(factory: sessionmaker[Session], n: int, ecus: int = 1000) -> tuple[int, dict[str, int]]:
    with factory() as s, s.begin():
        admin = User(username="admin", password_hash=_HASH, role="admin")
        s.add(admin)
        s.flush()
        ids = {}
        for i in range(n):
            u = User(username=f"joueur{i:02d}", password_hash=_HASH, role="player")
            s.add(u)
            s.flush()
            ledger.issue(s, u.id, ecus)
            ids[u.username] = u.id
        return admin.id, ids


def make_contest(factory: sessionmaker[Session], admin_id: int, **kw: Any) -> int:
    settings = Settings(name="Grand concours", starts_at=NOW + dt.timedelta(hours=1), fee=kw.get("fee", 10),
                        house_prize=kw.get("house_prize", 55), starting_chips=1000, seats=kw.get("seats", 6),
                        min_players=2, max_players=kw.get("max_players", 40), structure=FAST, late_levels=0,
                        action_timer=kw.get("timer", 30), payouts=None)
    with factory() as s, s.begin():
        return svc.create(s, admin_id, settings, NOW).id


def aggressive(r: random.Random, shove: float = 0.08):
    """Simulated players: sometimes all-in, else call or check — contests end."""

    def choose(name: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        names = {a["action"]: a for a in legal}
        for bet in ("raise", "bet"):
            if bet in names and r.random() < shove:
                return {"action": bet, "amount": names[bet]["max"]}
        if "check" in names:
            return {"action": "check"}
        if "call" in names:
            # a big bet is called one time in three
            big = names["call"]["amount"] > 3 * min(a.get("min", 0) for a in legal if "min" in a) \
                if any("min" in a for a in legal) else names["call"]["amount"] > 200
            return {"action": "call"} if not big or r.random() < 0.33 else {"action": "fold"}
        if "show" in names:
            return {"action": "show"}
        return {"action": next(iter(names))}

    return choose


def stall_report(director: Director) -> list[Any]:
    f = director.floor
    out: list[Any] = [("pending", f.pending, "busy", f.busy, "arrivals", director.arrivals)]
    for tid, t in f.tables.items():
        a = director.actors.get(tid)
        out.append((tid, dict(t.seats), "actor:", a and {s.seat_no: (s.name, s.chips) for s in a.seats.values()},
                    a and (a.engine is not None and not a.engine.over, a.next_deal_at, a.closed,
                           a._task.done() if a._task else None)))
    return out


async def drive(director: Director, choose: Any, limit: float = 60.0) -> None:
    """Every seated player acts as soon as it is his turn, at every table."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not director.done.is_set():
        assert loop.time() < end, ("the contest did not end in time", stall_report(director))
        acted = False
        for actor in list(director.actors.values()):
            eng = actor.engine
            if eng is None or eng.over or actor.closed:
                continue
            for name in eng.to_act():
                move = dict(choose(name, eng.legal_actions(name)))
                action = move.pop("action")
                try:
                    await actor.submit(Act(action=action, args=move), name)
                except CommandError:
                    pass
                acted = True
        if not acted:
            await asyncio.sleep(0.002)


def test_thirty_players_to_the_end(session_factory: sessionmaker[Session]) -> None:
    """Issue 13: "A 30-player contest (6 seats per table) played to the end by
    simulated players through the runtime with fast levels: the sum of stacks
    equals players × starting chips at every deal boundary; after each
    balancing step no two tables differ by more than one player; tables break
    when they should; every player gets exactly one place; the prizes paid
    sum exactly to the prize pool; the ledger audit balances"."""
    admin_id, ids = make_players(session_factory, 30)
    cid = make_contest(session_factory, admin_id)
    with session_factory() as s, s.begin():
        for uid in ids.values():
            svc.register(s, cid, uid, NOW)
    r = random.Random(7)
    seen: dict[str, Any] = {"decisions": 0, "breaks": 0, "moves": 0, "levels": set()}

    def check(director: Director, out: Outcome) -> None:
        floor = director.floor
        seen["decisions"] += 1
        seen["levels"].add(director.level_index()[0])
        alive = [p for t in floor.tables.values() for p in t.seats.values()]
        assert sum(floor.stacks[p] for p in alive) == 30 * 1000 or out.winner is not None
        counts = floor.counts()
        if counts and out.winner is None:
            assert max(counts.values()) - min(counts.values()) <= 1, counts
        active = [t for t in floor.tables.values() if t.seats]
        assert len(active) <= 1 or floor.left > 6 * (len(active) - 1), "a table should have been broken"
        seen["breaks"] += len(out.closed)
        seen["moves"] += len(out.moves)
        # The ledger holds the same chips: every contest table's players' chips.
        with session_factory() as s:
            total = s.scalar(select(func.coalesce(func.sum(LedgerAccount.balance), 0))
                             .join(TableConfig, TableConfig.id == LedgerAccount.table_id)
                             .where(TableConfig.contest_id == cid, LedgerAccount.owner_kind == "user"))
        assert total == (30 * 1000 if out.winner is None else 0)

    async def main() -> dict[int, int]:
        bank = ContestBank(session_factory, harness_settings())
        tables = TableManager(bank, LocalBroadcaster())
        await tables.start()
        # Fast levels: the contest's clock runs 20 times faster than the wall clock.
        t0 = dt.datetime.now(dt.UTC)
        mgr = ContestManager(bank, tables, rng=SeededSource(random.Random(3)), actor_options={"deal_pause": 0.0},
                             now=lambda: t0 + (dt.datetime.now(dt.UTC) - t0) * 20)
        director = await mgr.begin(cid)
        assert director is not None
        assert sorted(len(t.seats) for t in director.floor.tables.values()) == [6, 6, 6, 6, 6]
        director.observers.append(check)
        try:
            await drive(director, aggressive(r))
        finally:
            await mgr.close()
            await tables.close()
        return director.prizes

    prizes = asyncio.run(main())
    assert seen["breaks"] == 4, "five tables down to the final table"
    assert seen["moves"] > 0
    assert len(seen["levels"]) > 1, "the blind level changed on the clock"
    with session_factory() as s:
        c = s.get(Contest, cid)
        assert c.status == "finished"
        entries = list(s.scalars(select(ContestEntry).where(ContestEntry.contest_id == cid)))
        # every player exactly one place; places 1..30 covered once (ties share a range)
        groups: dict[int, int] = {}
        for e in entries:
            groups[e.place] = groups.get(e.place, 0) + 1
        covered = sorted(p for place, k in groups.items() for p in range(place, place + k))
        assert covered == list(range(1, 31))
        pool = 30 * 10 + 55
        assert c.prize_pool == pool
        assert sum(e.prize for e in entries) == pool == sum(prizes.values())
        paid_places = len(default_payouts(30))
        assert sum(1 for e in entries if e.prize) >= 1
        winner = next(e for e in entries if e.place == 1)
        if groups[1] == 1:
            assert winner.prize == place_prizes(pool, default_payouts(30))[0]
        assert paid_places == 4
        assert ledger.balance(s, "contest", cid, "ecus") == 0
        # écus: each player paid 10 and got his prize
        for e in entries:
            assert ledger.balance(s, "user", e.user_id, "ecus") == 1000 - 10 + e.prize
        # every contest chip back to the contest: no chips left anywhere
        assert s.scalar(select(func.coalesce(func.sum(LedgerAccount.balance), 0))
                        .where(LedgerAccount.owner_kind == "contest", LedgerAccount.currency == "chips")) == 0
        assert ledger.audit(s).ok
        # every table closed, every move recorded, every deal archived with the contest's id
        assert all(t.status == "closed" for t in s.scalars(select(TableConfig).where(TableConfig.contest_id == cid)))
        moves = list(s.scalars(select(ContestMove).where(ContestMove.contest_id == cid)))
        assert sum(1 for m in moves if m.reason == "start") == 30
        assert seen["moves"] == sum(1 for m in moves if m.reason in ("balance", "break"))
        assert any(m.reason == "break" for m in moves)
        deals = list(s.scalars(select(ArchivedHand).where(ArchivedHand.contest_id == cid)))
        assert deals and all(not d.voided and d.rake == 0 for d in deals)
        # "every deal is archived with the contest's id and replays with `tavern replay`"
        for d in deals[:: max(1, len(deals) // 10)]:
            assert registry.replay(d.record)["chips"] == d.result["chips"]
        # each deal dealt at one of the structure's levels, antes included
        levels = {(lv.small_blind, lv.big_blind, lv.ante) for lv in FAST}
        for d in deals:
            cfg = d.record["config"]
            assert (cfg["small_blind"], cfg["big_blind"], cfg.get("ante", 0)) in levels


def test_below_its_minimum_at_the_start_time_cancelled_and_refunded(session_factory: sessionmaker[Session]) -> None:
    """"At the start time (a contest below its minimum is cancelled and refunded)"."""
    admin_id, ids = make_players(session_factory, 2)
    settings = Settings(name="Trop peu", starts_at=NOW + dt.timedelta(minutes=5), fee=30, house_prize=20,
                        starting_chips=1000, seats=6, min_players=3, max_players=9, structure=FAST, late_levels=0,
                        action_timer=30, payouts=None)
    with session_factory() as s, s.begin():
        cid = svc.create(s, admin_id, settings, NOW).id
        for uid in ids.values():
            svc.register(s, cid, uid, NOW)

    async def main() -> list[int]:
        bank = ContestBank(session_factory, harness_settings())
        tables = TableManager(bank, LocalBroadcaster())
        mgr = ContestManager(bank, tables, now=lambda: NOW + dt.timedelta(minutes=6))
        try:
            return await mgr.tick()
        finally:
            await mgr.close()

    assert asyncio.run(main()) == [cid]
    with session_factory() as s:
        c = s.get(Contest, cid)
        assert c.status == "cancelled" and "Pas assez de joueurs" in c.cancelled_reason
        assert all(ledger.balance(s, "user", uid, "ecus") == 1000 for uid in ids.values())
        assert ledger.balance(s, "contest", cid, "ecus") == 0
        assert ledger.audit(s).ok


def test_late_registration_opens_a_table_and_balancing_fills_it(session_factory: sessionmaker[Session]) -> None:
    """"late registration while allowed": a random free seat at a table with
    the fewest players; every seat taken, a new table opens and balancing
    fills it. After the late levels, refused clearly."""
    admin_id, ids = make_players(session_factory, 4)
    settings = Settings(name="Tardif", starts_at=NOW + dt.timedelta(minutes=5), fee=10, house_prize=0,
                        starting_chips=1000, seats=3, min_players=2, max_players=9, structure=FAST, late_levels=1,
                        action_timer=30, payouts=None)
    names = list(ids)
    with session_factory() as s, s.begin():
        cid = svc.create(s, admin_id, settings, NOW).id
        for name in names[:3]:
            svc.register(s, cid, ids[name], NOW)
    clock = {"now": NOW + dt.timedelta(minutes=5)}

    async def main() -> None:
        bank = ContestBank(session_factory, harness_settings())
        tables = TableManager(bank, LocalBroadcaster())
        mgr = ContestManager(bank, tables, now=lambda: clock["now"], actor_options={"deal_pause": 3600.0})
        director = await mgr.begin(cid)
        assert director is not None and [len(t.seats) for t in director.floor.tables.values()] == [3]
        # Not behind the director's back: an entry without a seat would never play.
        with session_factory() as s, s.begin(), pytest.raises(svc.ContestError, match="réessayez"):
            svc.register(s, cid, ids[names[3]], clock["now"])
        seat = await mgr.register(cid, ids[names[3]])
        assert seat["table_id"] not in (director.floor.tables.keys() - {seat["table_id"]})
        assert sorted(len(t.seats) for t in director.floor.tables.values()) == [1, 3]
        assert director.actors[seat["table_id"]].seats  # seated at his new table
        clock["now"] += dt.timedelta(seconds=6)  # level 1 is over: late registration closed
        with pytest.raises(svc.ContestError, match="closes"):
            await mgr.register(cid, ids[names[0]])
        await mgr.close()
        await tables.close()

    asyncio.run(main())
    with session_factory() as s:
        late = s.scalars(select(ContestEntry).where(ContestEntry.contest_id == cid, ContestEntry.late)).one()
        assert late.user_id == ids[names[3]]
        assert s.scalars(select(ContestMove).where(ContestMove.contest_id == cid, ContestMove.reason == "late")).one()
        assert ledger.balance(s, "contest", cid, "ecus") == 40
        assert ledger.audit(s).ok


def test_a_deal_over_as_soon_as_dealt_is_settled_at_once(session_factory: sessionmaker[Session]) -> None:
    """Both players all-in from the blinds: the deal is over when dealt, nobody
    has a turn or a button; the table settles it and deals on by itself (it
    once waited for somebody's click forever)."""
    admin_id, ids = make_players(session_factory, 2)
    levels = (Level(150, 300, 0, 5), Level(300, 600, 0, 60))
    settings = Settings(name="Tapis", starts_at=NOW + dt.timedelta(minutes=5), fee=0, house_prize=0,
                        starting_chips=300, seats=2, min_players=2, max_players=2, structure=levels, late_levels=0,
                        action_timer=30, payouts=None)
    with session_factory() as s, s.begin():
        cid = svc.create(s, admin_id, settings, NOW).id
        for uid in ids.values():
            svc.register(s, cid, uid, NOW)
    clock = {"now": NOW + dt.timedelta(minutes=5)}

    async def main() -> None:
        bank = ContestBank(session_factory, harness_settings())
        tables = TableManager(bank, LocalBroadcaster())
        mgr = ContestManager(bank, tables, now=lambda: clock["now"], actor_options={"deal_pause": 0.05})
        director = await mgr.begin(cid)
        assert director is not None
        clock["now"] += dt.timedelta(seconds=6)  # level 2: 300/600, both all-in from the blinds
        try:
            await asyncio.wait_for(director.done.wait(), 20)
        finally:
            await mgr.close()
            await tables.close()

    asyncio.run(main())
    with session_factory() as s:
        assert s.get(Contest, cid).status == "finished"
