"""Issue 29: a practice table (tables/practice.py) — a player alone against
house players driven by the bots' policies, through the real actor, with
practice chips: every deal archived as practice, no money anywhere, no daily
hand counted; a client command for a house seat refused; the table closes
when the player leaves."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy import func, select
from tests.dbtools import harness_settings
from tests.tables.conftest import any_legal, passive, settle

from tavern.services import practice
from tavern.store.models import ArchivedHand, DailyHandUsage, LedgerEntry, Seat, TableConfig
from tavern.tables.actor import CommandError, TableActor
from tavern.tables.bank import SqlBank
from tavern.tables.broadcast import LocalBroadcaster
from tavern.tables.commands import Act, Cave, Connect, Disconnect, Leave, Sit, SitOut, Sync
from tavern.tables.practice import PracticeBank, practice_table

pytestmark = [pytest.mark.db]


def _open(world: Any, game: str, opponents: int = 2, level: str = "débutant") -> int:
    with world.factory() as s, s.begin():
        table_id, _ = practice.open_practice(s, world.users["ana"], practice.PracticeChoice(game, opponents, level))
    return table_id


async def _start(world: Any, table_id: int, deal_pause: float = 0.0) -> TableActor:
    bank = PracticeBank(world.factory, harness_settings(), share_with=SqlBank(world.factory, harness_settings()))
    found = bank.practice(table_id)
    assert found is not None
    actor = practice_table(found[0], found[1], bank, LocalBroadcaster(), deal_pause=deal_pause, think=(0.0, 0.0))
    await actor.start()
    return actor


async def _play(actor: TableActor, deals: int, choose: Any, limit: int = 5000) -> None:
    """ana plays by ``choose(legal)`` when she is to act; the house players by themselves."""
    for _ in range(limit):
        if actor.deals > deals or (actor.deals == deals and actor.engine is not None and actor.engine.over
                                   and actor.archive_id is None):
            return
        engine = actor.engine
        if engine is not None and not engine.over and "ana" in engine.to_act():
            move = dict(choose("ana", engine.legal_actions("ana")))
            await actor.submit(Act(action=move.pop("action"), args=move, seq=actor.seq), "ana")
        await asyncio.sleep(0.001)
        await settle(actor)
    raise AssertionError(f"the practice table did not finish {deals} deals (at {actor.deals})")


def _counts(world: Any) -> dict[str, int]:
    with world.factory() as s:
        return {"ledger": s.scalar(select(func.count()).select_from(LedgerEntry)) or 0,
                "daily": s.scalar(select(func.count()).select_from(DailyHandUsage)) or 0}


@pytest.mark.parametrize(("game", "choose"), [("rams", any_legal(random.Random(3))),
                                              ("ramponneau", passive)])
def test_house_players_and_a_player_play_whole_deals(world, game, choose) -> None:
    before = _counts(world)
    table_id = _open(world, game)

    async def scenario() -> None:
        actor = await _start(world, table_id)
        assert {s.name for s in actor.seats.values()} == {"ana", "Maison Ana", "Maison Bruno"}
        await _play(actor, 3, choose)
        # The action timer (60 s) never ran out in this test: every move was the seat's own.
        assert actor.info.action_timer_seconds == 60
        await actor.submit(Leave(), "ana")
        assert actor.closed
        await actor.stop()

    asyncio.run(scenario())
    with world.factory() as s:
        hands = list(s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == table_id,
                                                          ArchivedHand.voided.is_(False))))
        assert len(hands) >= 3 and all(h.practice for h in hands)
        # The house players played their seats: their moves are in the deals' records.
        movers = {a.get("player") for h in hands for a in h.record.get("actions", [])}
        assert {"Maison Ana", "Maison Bruno"} <= movers, movers
        # The table closed when ana left: no seat left, nothing listed.
        assert s.get_one(TableConfig, table_id).status == "closed"
        assert not s.scalars(select(Seat).where(Seat.table_id == table_id)).all()
    # Practice chips: not one ledger entry, not one daily hand counted.
    assert _counts(world) == before


def test_a_client_command_for_a_house_seat_is_refused(world) -> None:
    table_id = _open(world, "rams")

    async def scenario() -> None:
        actor = await _start(world, table_id)
        house = next(s for s in actor.seats.values() if s.name == "Maison Ana")
        for command in (SitOut(), Act(action="pass"), Leave()):
            with pytest.raises(CommandError) as refused:
                await actor.submit(command, "Maison Ana", user_id=house.user_id)
            assert refused.value.code == "seat_driven"
        assert not house.sitting_out and not actor.closed
        # Somebody watching the table has no seat there: his « leave » closes nothing.
        with pytest.raises(CommandError) as refused:
            await actor.submit(Leave(), "bob", user_id=world.users["bob"])
        assert refused.value.code == "not_seated" and not actor.closed
        # The player may not take another seat nor buy chips: the seats are set.
        for command, code in ((Sit(seat=3, cave=100), "practice_seats_set"), (Cave(amount=10), "practice_no_cave")):
            with pytest.raises(CommandError) as refused:
                await actor.submit(command, "ana", user_id=world.users["ana"])
            assert refused.value.code == code
        await actor.stop()

    asyncio.run(scenario())


def test_the_table_closes_when_its_player_is_gone_past_the_grace(world) -> None:
    table_id = _open(world, "ramponneau")

    async def scenario() -> None:
        bank = PracticeBank(world.factory, harness_settings(), share_with=SqlBank(world.factory, harness_settings()))
        info, terms = bank.practice(table_id)
        actor = practice_table(info, terms, bank, LocalBroadcaster(), deal_pause=3600.0, grace=0.0,
                               think=(0.0, 0.0))
        await actor.start()
        await actor.submit(Connect(), "ana")
        await actor.submit(Disconnect(), "ana")  # her page is gone; the grace (0 s here) passes
        actor.next_deal_at = actor.clock()  # the next deal is due
        await actor.submit(Sync())  # wakes the table: the deal's start finds her gone
        for _ in range(200):
            if actor.closed:
                break
            await asyncio.sleep(0.01)
        assert actor.closed and actor.engine is None
        await actor.stop()

    asyncio.run(scenario())
    with world.factory() as s:
        assert s.get_one(TableConfig, table_id).status == "closed"
        assert not s.scalars(select(Seat).where(Seat.table_id == table_id)).all()
        # No deal was started for the house players alone.
        assert not s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == table_id)).all()


def test_a_name_a_player_took_is_never_a_house_player(world) -> None:
    from tavern.store.models import User

    with world.factory() as s, s.begin():
        s.add(User(username="Maison Ana", password_hash="x", house=False))
    table_id = _open(world, "rams")
    with world.factory() as s:
        seated = {seat.user.username: seat.user.house for seat in s.get_one(TableConfig, table_id).seated}
    assert seated == {"ana": False, "Maison Bruno": True, "Maison Céline": True}


def test_the_manager_starts_a_practice_table_with_its_house_players_where_it_runs(world) -> None:
    """Started on first use like any table (the manager's claim), with its
    own bank and policy, and its house seats driven by the actor's worker —
    not by the web request that opened it."""
    from tavern.tables.manager import TableManager
    from tavern.tables.policy import CashPolicy
    from tavern.tables.practice import PracticePolicy

    table_id = _open(world, "rummoli", opponents=3)

    async def scenario() -> None:
        manager = TableManager(SqlBank(world.factory, harness_settings()), LocalBroadcaster(), deal_pause=3600.0)
        await manager.start()
        actor = await manager.get(table_id)
        assert isinstance(actor, TableActor) and isinstance(actor.policy, PracticePolicy)
        assert isinstance(actor.bank, PracticeBank)
        assert set(actor.driven) == {"Maison Ana", "Maison Bruno", "Maison Céline"}
        cash = await manager.get(world.table_id)  # a tavern's table is what it was
        assert isinstance(cash, TableActor) and isinstance(cash.policy, CashPolicy) and not cash.driven
        await manager.close()

    asyncio.run(scenario())


class _Handle:
    """A handle that records the commands a driver sends, each answered at once."""

    def __init__(self) -> None:
        self.sent: list[Act] = []

    async def submit(self, command: Act) -> dict[str, Any]:
        self.sent.append(command)
        return {}


def _view(seq: int, legal: list[dict[str, Any]], deal: dict[str, Any] | None) -> Any:
    from tavern.tables.driving import SeatView

    return SeatView("Maison Ana", seq, legal, deal, 100, False, False)


@pytest.mark.parametrize(("fast", "low", "high"), [(False, 1.0, 3.0), (True, 0.2, 0.4)])
def test_a_house_player_thinks_then_plays_only_on_its_turn(fast, low, high) -> None:
    """"They think like people at a real table (1 to 3 s, randomized; faster
    at a practice table if the player asks) and never act out of turn." The
    think time is the one drawn (recorded, not waited)."""
    from tavern.bots import arena
    from tavern.tables.practice import FAST, THINK, HouseDriver, PracticePolicy, PracticeTerms

    policy = PracticePolicy(PracticeTerms(1, "débutant", fast, 500))
    assert policy.think == (FAST if fast else THINK) == (low, high)
    deal = arena.new_deal("rams", ["ana", "Maison Ana", "bea"], 0, seed=1, config={"unit": 1})
    me = deal.to_act()[0]
    waited: list[float] = []

    async def scenario() -> list[Act]:
        driver = HouseDriver("rams", "débutant", policy.think, random.Random(7))

        async def wait(seconds: float) -> None:
            waited.append(seconds)

        driver.wait = wait  # type: ignore[method-assign]
        handle = _Handle()
        driver.handle = handle  # type: ignore[assignment]
        # Not its turn (no legal action shown), or no deal: it does nothing.
        driver.seen(_view(4, [], deal.view(me)))
        driver.seen(_view(5, deal.legal_actions(me), None))
        for _ in range(5):
            await asyncio.sleep(0)
        assert handle.sent == [] and waited == []
        # Its turn: it thinks, then answers that very view, carrying its seq.
        driver.seen(_view(6, deal.legal_actions(me), deal.view(me)))
        while driver._task is not None:
            await asyncio.sleep(0)
        # The same view shown again (a presence change): it does not play twice.
        driver.seen(_view(6, deal.legal_actions(me), deal.view(me)))
        for _ in range(5):
            await asyncio.sleep(0)
        return handle.sent

    sent = asyncio.run(scenario())
    assert len(sent) == 1 and sent[0].seq == 6
    assert sent[0].action in {a["action"] for a in deal.legal_actions(me)}
    assert len(waited) == 1 and low <= waited[0] <= high


def test_a_practice_table_is_fenced_like_any_table(world) -> None:
    """Several workers: the practice bank writes under the lease's fence the
    worker's cash bank claimed (they share the fences), so a worker that lost
    the table settles nothing of its deal."""
    from tavern.tables.bank import LostTable

    table_id = _open(world, "rams")
    first_cash, second_cash = (SqlBank(world.factory, harness_settings()) for _ in range(2))
    first, second = (PracticeBank(world.factory, harness_settings(), share_with=cash)
                     for cash in (first_cash, second_cash))
    assert first_cash.claim(table_id, 1) == [] and first.fences[table_id] == 1
    players = {"ana": world.users["ana"]}
    archive_id, _ = first.begin_deal(table_id, 0, players, {"game": "rams", "deck": []})
    assert second_cash.claim(table_id, 2) == [archive_id]  # taken over: the deal in progress voided
    with pytest.raises(LostTable):
        first.finish_deal(archive_id, table_id, 0, {}, 0, {"game": "rams"}, {"chips": {}})
    with pytest.raises(LostTable):
        first.close_practice(table_id)
    second.close_practice(table_id)  # the new owner closes it
    with world.factory() as s:
        assert s.get_one(ArchivedHand, archive_id).voided
        assert s.get_one(TableConfig, table_id).status == "closed"


def test_while_the_player_sits_out_the_house_players_wait_for_him(world) -> None:
    """No deal is played for nobody: « Se lever » pauses the table, « Se
    rasseoir » brings the house players back with him."""
    from tavern.tables.commands import SitIn

    table_id = _open(world, "rams")

    async def scenario() -> None:
        actor = await _start(world, table_id, deal_pause=3600.0)  # deals when the test says
        await actor.submit(Connect(), "ana")
        await actor.submit(SitOut(), "ana")
        actor.next_deal_at = actor.clock()  # a deal is due
        await settle(actor)
        await settle(actor)
        assert actor.deals == 0 and actor.engine is None and not actor.closed
        assert all(s.sitting_out for s in actor.seats.values())
        await actor.submit(SitIn(), "ana")
        assert not any(s.sitting_out for s in actor.seats.values())
        actor.next_deal_at = actor.clock()
        await _play(actor, 1, any_legal(random.Random(2)))  # a deal, ana and the house players
        await actor.stop()

    asyncio.run(scenario())


def test_a_table_taken_over_closes_if_its_player_never_comes(world) -> None:
    """A worker's takeover starts the table with nobody connected: past the
    grace, the deal's start finds its player gone and the table closes."""
    table_id = _open(world, "rams")

    async def scenario() -> None:
        bank = PracticeBank(world.factory, harness_settings(), share_with=SqlBank(world.factory, harness_settings()))
        info, terms = bank.practice(table_id)
        actor = practice_table(info, terms, bank, LocalBroadcaster(), deal_pause=3600.0, grace=0.0,
                               think=(0.0, 0.0))
        await actor.start()
        actor.next_deal_at = actor.clock()
        await actor.submit(Sync())
        for _ in range(200):
            if actor.closed:
                break
            await asyncio.sleep(0.01)
        assert actor.closed and actor.deals == 0
        await actor.stop()

    asyncio.run(scenario())


def test_a_poker_house_player_remembers_the_deals_it_was_dealt_in(world) -> None:
    """Issue 37: at « habitué » a Ramponneau house player reads the other
    players from deal to deal: the table shows it each deal's end (not only
    its turns), and its model of ana counts the deals it saw."""
    from tavern.tables.practice import HouseDriver, PracticePolicy

    table_id = _open(world, "ramponneau", level="habitué")

    async def scenario() -> None:
        actor = await _start(world, table_id)
        policy = actor.policy
        assert isinstance(policy, PracticePolicy)
        await _play(actor, 3, passive)
        drivers = list(policy.drivers.values())
        assert drivers and all(isinstance(d, HouseDriver) and d.turns_only and d.deal_ends for d in drivers)
        for driver in drivers:
            reader = driver.decide.reader
            assert reader is not None
            # Prior of six deals, then each deal's end it was shown (one per deal, not one per view).
            assert 6 + 2 <= reader.habits["ana"].dealt <= 6 + 3, reader.habits["ana"]
        await actor.submit(Leave(), "ana")
        await actor.stop()

    asyncio.run(scenario())
