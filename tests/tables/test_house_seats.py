"""Issue 29 §2, house seats at real tables (tables/house.py,
services/house_seats.py): « an owner may allow up to N house players at a
table. They sit only when humans are fewer than the game needs (or one human
waits alone), leave at the end of a deal as soon as a human wants the seat,
play the regular level with écus from a house account (…, the ledger audit
balanced), … never enter a contest »."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from tests.tables.conftest import Harness, passive, settle

from tavern.services import house_seats, ledger
from tavern.store.models import ArchivedHand, Contest, DailyHandUsage, Seat, TableConfig
from tavern.tables.actor import CommandError, TableActor
from tavern.tables.commands import Act, Leave, Sit, SitOut
from tavern.tables.house import HouseSeatsPolicy

pytestmark = [pytest.mark.db]

PURSE = 10_000


def _allow(world: Any, count: int, seats: int = 6, purse: int = PURSE) -> None:
    """The owner allows ``count`` house players; the admin puts ``purse`` écus in the house's purse."""
    with world.factory() as s, s.begin():
        table = s.get_one(TableConfig, world.table_id)
        table.house_seats, table.seats = count, seats
        if purse:
            house_seats.fund(s, purse, world.owner_id)


async def _start(world: Any, *seated: str, **options: Any) -> tuple[Harness, TableActor]:
    harness = Harness(world, **options)
    info = harness.bank.table_info(world.table_id)
    assert info is not None
    harness.options["policy"] = HouseSeatsPolicy(info.house_seats, think=(0.0, 0.0))
    actor = await harness.start(seated=seated)
    return harness, actor


def careful(name: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Check, call a small bet, fold to a big one: a human who keeps his cave (the deals go on)."""
    by = {a["action"]: a for a in legal}
    if "call" in by and by["call"].get("amount", 0) > 10 and "fold" in by:
        return {"action": "fold"}
    return passive(name, legal)


async def _until(actor: TableActor, done: Any, humans: tuple[str, ...] = ("ana", "bob"), limit: int = 5000) -> None:
    """The humans play carefully when they are to act, the house players by
    themselves, until ``done()``."""
    for _ in range(limit):
        if done():
            return
        engine = actor.engine
        if engine is not None and not engine.over:
            for name in engine.to_act():
                if name in humans:
                    move = careful(name, engine.legal_actions(name))
                    await actor.submit(Act(action=move.pop("action"), args=move, seq=actor.seq), name)
                    break
        await asyncio.sleep(0.001)
        await settle(actor)
    raise AssertionError(f"not reached (deal {actor.deals}, seats {[s.name for s in actor.seats.values()]})")


def _settled(actor: TableActor, deals: int) -> Any:
    return lambda: actor.deals >= deals and actor.archive_id is None


def _purse(world: Any) -> int:
    with world.factory() as s:
        return house_seats.purse(s).balance


def test_house_players_sit_for_a_human_alone_and_play_whole_deals(world) -> None:
    _allow(world, 2)

    async def scenario() -> None:
        _, actor = await _start(world, "ana")
        assert {s.name for s in actor.seats.values()} == {"ana"}  # they come before the first deal
        await _until(actor, lambda: actor.engine is not None)
        names = {s.name for s in actor.seats.values()}
        assert names == {"ana", "Maison Ana", "Maison Bruno"}, names
        assert set(actor.dealt) == names
        # Marked « maison » on the public table.
        assert actor.public_table()["house"] == ["Maison Ana", "Maison Bruno"]
        # Their caves came from the purse, through the ledger.
        assert _purse(world) == PURSE - 2 * 200
        await _until(actor, _settled(actor, 3))
        await actor.submit(Leave(), "ana")
        await _until(actor, lambda: not any(s.name.startswith("Maison") for s in actor.seats.values()))
        await actor.stop()

    asyncio.run(scenario())
    with world.factory() as s:
        deals = list(s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == world.table_id,
                                                          ArchivedHand.voided.is_(False))))
        assert len(deals) >= 3
        movers = {a.get("player") for h in deals for a in h.record.get("actions", [])}
        assert {"Maison Ana", "Maison Bruno"} <= movers, movers
        # No daily hand for the house: ana's only.
        counted = set(s.scalars(select(DailyHandUsage.user_id)))
        assert counted == {world.users["ana"]}
        # The rake came from their pots as from anyone's (the owner's écus).
        assert ledger.balance(s, "user", world.owner_id, "ecus") > 0
        # Gone with ana: nobody seated, every house chip back in the purse.
        assert not s.scalars(select(Seat).where(Seat.table_id == world.table_id)).all()
        results = {r.table_id: r for r in house_seats.results(s)}
        assert results[world.table_id].at_table == 0
        assert house_seats.purse(s).balance == PURSE + results[world.table_id].result
        assert ledger.audit(s).ok


def test_a_human_sitting_at_a_quiet_table_gets_house_players(world) -> None:
    """The table runs and deals nothing (nobody seated); ana sits: alone, she gets house players and a deal."""
    _allow(world, 1)

    async def scenario() -> None:
        harness, actor = await _start(world)
        await settle(actor)
        assert actor.next_deal_at is None and not actor.seats
        await harness.sit("ana", 2)
        await _until(actor, lambda: actor.engine is not None)
        assert set(actor.dealt) == {"ana", "Maison Ana"}
        await actor.stop()

    asyncio.run(scenario())


def test_no_house_player_for_enough_humans_nor_without_the_setting(world) -> None:
    _allow(world, 0)

    async def scenario() -> None:
        _, actor = await _start(world, "ana")
        await asyncio.sleep(0.05)
        await settle(actor)
        assert [s.name for s in actor.seats.values()] == ["ana"] and actor.deals == 0
        await actor.stop()

    asyncio.run(scenario())
    with world.factory() as s, s.begin():
        s.get_one(TableConfig, world.table_id).house_seats = 2

    async def two_humans() -> None:
        Harness(world).bank.sit(world.table_id, world.users["bob"], 1, 200)  # beside ana, still seated
        _, actor = await _start(world)
        await _until(actor, _settled(actor, 2))
        assert {s.name for s in actor.seats.values()} == {"ana", "bob"}
        await actor.stop()

    asyncio.run(two_humans())
    assert _purse(world) == PURSE


def test_an_empty_purse_seats_nobody(world) -> None:
    _allow(world, 2, purse=0)

    async def scenario() -> None:
        _, actor = await _start(world, "ana")
        await asyncio.sleep(0.05)
        await settle(actor)
        assert [s.name for s in actor.seats.values()] == ["ana"] and actor.deals == 0
        await actor.stop()

    asyncio.run(scenario())
    with world.factory() as s:
        assert house_seats.purse(s).balance == 0 and ledger.audit(s).ok


def test_a_house_player_yields_his_seat_to_a_human_at_the_deals_end(world) -> None:
    _allow(world, 2, seats=3)  # ana and two house players: the table is full

    async def scenario() -> None:
        harness, actor = await _start(world, "ana", deal_pause=0.3)  # time to look between deals
        await _until(actor, lambda: actor.engine is not None and not actor.engine.over and len(actor.seats) == 3)
        house = next(s for s in actor.seats.values() if s.name == "Maison Bruno")
        assert house.name in actor.dealt
        deal = actor.deals
        answer = await harness.sit("bob", house.seat_no, cave=150)
        assert "fin de la donne" in answer["notice"]
        # During the deal the house player plays on; bob is not seated yet.
        assert actor.seats[house.seat_no].name == "Maison Bruno"
        assert world.balance("bob") == 1000
        await _until(actor, lambda: actor.deals == deal and actor.archive_id is None)
        seat = actor.seats[house.seat_no]
        assert seat.name == "bob" and seat.chips == 150
        assert "cédé sa place" in str(seat.notice)
        assert world.balance("bob") == 850
        # Two humans now: the other house player leaves before the next deal.
        await _until(actor, _settled(actor, deal + 1))
        assert {s.name for s in actor.seats.values()} == {"ana", "bob"}
        assert actor.public_table()["house"] == []
        await actor.stop()

    asyncio.run(scenario())
    with world.factory() as s:
        assert ledger.audit(s).ok
        assert not any(r.at_table for r in house_seats.results(s))


def test_between_deals_the_house_player_goes_at_once(world) -> None:
    _allow(world, 2, seats=3)

    async def scenario() -> None:
        harness, actor = await _start(world, "ana", deal_pause=0.3)
        await _until(actor, lambda: len(actor.seats) == 3 and actor.deals >= 1 and actor.archive_id is None)
        actor.next_deal_at = None  # hold the next deal: we are between deals
        house = next(s for s in actor.seats.values() if s.name == "Maison Ana")
        answer = await harness.sit("bob", house.seat_no, cave=100)
        assert answer == {"seat": house.seat_no, "chips": 100}
        assert actor.seats[house.seat_no].name == "bob" and "Maison Ana" not in actor.driven
        await actor.stop()

    asyncio.run(scenario())
    with world.factory() as s:
        assert ledger.audit(s).ok


def test_a_client_command_for_a_house_seat_is_refused(world) -> None:
    _allow(world, 2)

    async def scenario() -> None:
        _, actor = await _start(world, "ana")
        await _until(actor, lambda: len(actor.seats) == 3)
        house = next(s for s in actor.seats.values() if s.name == "Maison Ana")
        chips, seat_no = house.chips, house.seat_no
        for command in (SitOut(), Act(action="fold"), Leave(), Sit(seat=5, cave=100)):
            with pytest.raises(CommandError) as refused:
                await actor.submit(command, "Maison Ana", user_id=house.user_id)
            assert refused.value.code == "seat_driven"
            assert refused.value.message.startswith("Cette place est jouée par un programme")
        assert actor.seats[seat_no] is house and not house.sitting_out and not house.leave_after_deal
        assert house.chips <= chips + 10_000  # still playing, still seated
        await actor.stop()

    asyncio.run(scenario())
    with world.factory() as s:
        assert ledger.audit(s).ok


def test_never_at_a_contest_table(world) -> None:
    """« never enter a contest »: a contest's table refuses the setting in
    the database, and no house player is ever seated there."""
    import datetime as dt

    with world.factory() as s, s.begin():
        contest = Contest(name="Coupe", starts_at=dt.datetime(2030, 1, 1, tzinfo=dt.UTC), fee=0, house_prize=0,
                          starting_chips=1000, seats=6, min_players=2, max_players=6, status="running",
                          structure=[], created_by=world.owner_id)
        s.add(contest)
        s.flush()
        contest_table = TableConfig(tavern_id=None, contest_id=contest.id, name="c", game="ramponneau",
                                    stakes={"small_blind": 1, "big_blind": 2}, buy_in_min=1, buy_in_max=1, seats=6)
        s.add(contest_table)
        s.flush()
        table_id = contest_table.id
        house_seats.fund(s, PURSE, world.owner_id)
        assert house_seats.sit(s, table_id, 3) == []
    with pytest.raises(IntegrityError), world.factory() as s, s.begin():
        s.get_one(TableConfig, table_id).house_seats = 1
    with world.factory() as s:
        assert s.get_one(TableConfig, table_id).house_seats == 0
        assert house_seats.purse(s).balance == PURSE


def test_the_manager_gives_the_setting_s_tables_their_policy(world) -> None:
    """The table's row says it: the manager starts it with the house seats'
    policy (its number the owner's), any other tavern table as it was; a
    restart drives the house players it finds seated again."""
    from tests.dbtools import harness_settings

    from tavern.tables.bank import SqlBank
    from tavern.tables.broadcast import LocalBroadcaster
    from tavern.tables.manager import TableManager
    from tavern.tables.policy import CashPolicy

    _allow(world, 3)
    with world.factory() as s, s.begin():
        seated = house_seats.sit(s, world.table_id, 1)  # as a previous process left it
        other = TableConfig(tavern_id=world.tavern_id, name="t2", game="ramponneau",
                            stakes={"small_blind": 1, "big_blind": 2}, buy_in_min=20, buy_in_max=200, seats=6)
        s.add(other)
        s.flush()
        other_id = other.id

    async def scenario() -> None:
        manager = TableManager(SqlBank(world.factory, harness_settings()), LocalBroadcaster(), deal_pause=0.0)
        await manager.start()
        actor = await manager.get(world.table_id)
        assert isinstance(actor, TableActor) and isinstance(actor.policy, HouseSeatsPolicy)
        assert actor.policy.allowed == 3
        await settle(actor)
        await asyncio.sleep(0.05)
        await settle(actor)
        # Nobody human: the one found seated is driven, then leaves before any deal.
        assert not actor.seats and actor.deals == 0
        cash = await manager.get(other_id)
        assert isinstance(cash, TableActor) and isinstance(cash.policy, CashPolicy)
        await manager.close()

    asyncio.run(scenario())
    assert seated and _purse(world) == PURSE
    with world.factory() as s:
        assert ledger.audit(s).ok
