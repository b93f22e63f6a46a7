"""The share of the tables each worker runs (issue 32 §5), its arithmetic
and the sweep that applies it, without Redis (a cluster double).

Issue 32 §5: "after a failover the first survivor to sweep takes every
orphaned table (7–8 of 12 ended on one worker) and nothing ever moves them
back — balance tables across live workers (at deal boundaries, never
mid-deal)"."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from tavern.settings import DRAIN_DEFAULT_SECONDS, Settings
from tavern.tables import balance
from tavern.tables import turns as turns_module
from tavern.tables.manager import TableManager

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("tables", "workers", "share"), [
    (12, 3, 4), (12, 2, 6), (13, 3, 5), (0, 3, 0), (1, 3, 1), (5, 0, 5)])
def test_the_fair_share_is_the_tables_over_the_live_workers_rounded_up(tables, workers, share):
    assert balance.fair_share(tables, workers) == share


def test_a_survivor_takes_only_what_it_lacks_of_its_share():
    # 12 tables on 3 workers, one dies with its 4: each survivor (4 held)
    # takes 2 of the 4 orphans, not all of them.
    assert balance.orphans_to_take(4, 4, 12, 2) == 2
    # A survivor already above its share takes none; one below takes up to it.
    assert balance.orphans_to_take(4, 7, 12, 2) == 0
    assert balance.orphans_to_take(4, 1, 12, 2) == 4
    assert balance.orphans_to_take(4, 3, 12, 2) == 3


def test_a_worker_hands_over_only_beyond_its_share_plus_one():
    assert balance.surplus(5, 12, 3) == 0  # one over its share of 4: tolerated
    assert balance.surplus(6, 12, 3) == 2  # two over: back down to its share
    assert balance.surplus(8, 12, 3) == 4
    assert balance.surplus(12, 12, 3) == 8  # a worker come back empty gets its share


def _sweeps_until_still(workers: list[set[int]], tables: int, alive: list[int], rounds: int = 30) -> list[int]:
    """The arithmetic of the sweeps run in turn by the live workers: each
    takes its share of the orphans, or hands its surplus over; the counts
    once nothing moves any more."""
    for _ in range(rounds):
        moved = False
        for w in alive:
            held = {t for s in (workers[a] for a in alive) for t in s}
            orphans = sorted(set(range(tables)) - held)
            take = balance.orphans_to_take(len(orphans), len(workers[w]), tables, len(alive))
            workers[w] |= set(orphans[:take])
            moved |= bool(take)
            if not orphans:
                extra = balance.surplus(len(workers[w]), tables, len(alive))
                for t in sorted(workers[w])[:extra]:
                    workers[w].discard(t)
                moved |= bool(extra)
        if not moved:
            break
    return [len(workers[w]) for w in alive]


def test_after_a_failover_the_orphans_end_spread_and_a_worker_come_back_gets_its_share():
    # The case: 8 of 12 on one worker, 4 on the other, the third dead.
    workers = [set(range(8)), set(range(8, 12)), set()]
    counts = _sweeps_until_still(workers, 12, [0, 1])
    assert sorted(counts) == [6, 6]
    # The third comes back (a rolling restart): it gets its share again.
    counts = _sweeps_until_still(workers, 12, [0, 1, 2])
    assert max(counts) <= balance.fair_share(12, 3) + balance.TOLERANCE and sum(counts) == 12, counts
    assert min(counts) >= 3, counts


class _Cluster:
    """A cluster double: the placement Redis would report."""

    shared = True
    lease_seconds = 2.0
    worker_id = "me"

    def __init__(self, placed: dict[str, str | None], workers: int) -> None:
        self.placed = placed
        self.workers = workers

    async def placement(self) -> tuple[dict[str, str | None], int]:
        return dict(self.placed), self.workers

    async def orphans(self) -> list[str]:
        return [k for k, o in self.placed.items() if o is None]

    async def mark_live(self, key: str, live: bool) -> None:
        return None


def test_one_sweep_takes_only_its_share_of_the_orphans(monkeypatch):
    """Three workers held 4 of 12 tables each; one died. This survivor's
    sweep takes 2 of its 4 tables, not all 4 (the other survivor's sweep
    takes the rest)."""
    placed: dict[str, str | None] = {f"table:{t}": ("me" if t < 4 else "other" if t < 8 else None)
                                     for t in range(12)}
    taken: list[int] = []
    manager = TableManager.__new__(TableManager)
    manager.cluster = _Cluster(placed, workers=2)  # type: ignore[assignment]
    manager.actors = {}
    manager._handing = set()
    manager._unclaimed = {}
    manager.drain_seconds = 10.0

    async def get(table_id: int) -> Any:
        taken.append(table_id)
        placed[f"table:{table_id}"] = "me"
        return object()

    monkeypatch.setattr(manager, "get", get)

    asyncio.run(manager.balance())
    assert len(taken) == 2, taken  # ⌈12 / 2⌉ = 6, it held 4


def test_an_orphan_nobody_takes_is_taken_after_a_few_sweeps_whatever_the_share():
    """A worker counted alive that is not (its heartbeat not yet expired)
    must not leave a table without an owner for ever."""
    placed: dict[str, str | None] = {"table:1": "me", "table:2": None}
    manager = TableManager.__new__(TableManager)
    manager.cluster = _Cluster(placed, workers=3)  # type: ignore[assignment]
    manager.actors = {}
    manager._handing = set()
    manager._unclaimed = {}
    manager.drain_seconds = 10.0
    taken: list[int] = []

    async def get(table_id: int) -> Any:
        taken.append(table_id)
        return object()

    manager.get = get  # type: ignore[method-assign]

    async def sweeps() -> None:
        for _ in range(balance.STRANDED_SWEEPS):
            await manager.balance()

    placed["table:1"] = "me"
    placed.update({"table:3": "a", "table:4": "a"})  # share ⌈4 / 3⌉ = 2: "me" lacks one…
    placed["table:5"] = "me"  # … no longer: it holds its 2
    asyncio.run(sweeps())
    assert taken == [2]


def test_the_default_drain_outlasts_a_deal_with_one_slow_player():
    """A turn lasts the action timer, then the player's time bank (RULES.md;
    tables/actor.py: spent once a deal, at most TIME_BANK_MAX). A slow
    player at a table of the default 30 s timer, taking his whole timer at
    each of Ramponneau's four betting rounds and his whole bank once, ends
    his deal within 4 × 30 + 60 s: the drain must wait that long."""
    slow_deal = 4 * 30 + turns_module.TIME_BANK_MAX
    assert Settings(secret_key="x").drain_seconds == DRAIN_DEFAULT_SECONDS >= slow_deal


def test_the_stop_grace_outlasts_uvicorns_shutdown_and_the_drain():
    """The orchestrator kills a worker that is still draining when its stop
    grace ends: the grace must exceed uvicorn's graceful timeout plus the drain."""
    compose = (ROOT / "docker-compose.yml").read_text()
    grace = int(re.search(r"stop_grace_period: (\d+)s", compose).group(1))  # type: ignore[union-attr]
    uvicorn = int(re.search(r"--timeout-graceful-shutdown (\d+)", (ROOT / "Dockerfile").read_text()).group(1))  # type: ignore[union-attr]
    assert grace > uvicorn + DRAIN_DEFAULT_SECONDS


class _Actor:
    """An actor double: a deal that ends after ``deal_ticks`` polls."""

    closed = False

    def __init__(self, deal_ticks: int) -> None:
        self.deal_ticks = deal_ticks
        self.draining = False
        self.stopped_while_dealing: bool | None = None
        self.synced = 0

    @property
    def dealing(self) -> bool:
        self.deal_ticks -= 1
        return self.deal_ticks >= 0

    async def submit(self, command: Any, username: str | None = None) -> dict[str, int]:
        self.synced += 1
        return {"seq": 0}

    async def stop(self) -> None:
        self.stopped_while_dealing = self.deal_ticks > 0
        self.closed = True


def _manager_with(actor: _Actor, let_go: list[int]) -> TableManager:
    manager = TableManager.__new__(TableManager)
    manager.cluster = _Cluster({}, workers=1)  # type: ignore[assignment]
    manager.actors = {7: actor}  # type: ignore[dict-item]
    manager._handing = {7}
    manager._stopping = False
    manager._locks = {}
    manager.bank = type("Bank", (), {"fences": {}})()  # type: ignore[assignment]

    async def _let_go(table_id: int, *, live: bool) -> None:
        let_go.append(table_id)

    manager._let_go = _let_go  # type: ignore[method-assign]
    return manager


def test_a_table_handed_over_moves_only_once_its_deal_has_ended():
    """"at deal boundaries, never mid-deal": the table deals no new hand,
    and its lease goes only when the running deal has settled."""
    actor, let_go = _Actor(deal_ticks=5), []
    manager = _manager_with(actor, let_go)

    async def hand_over() -> None:
        deadline = asyncio.get_running_loop().time() + 10
        await manager._hand_over(7, actor, deadline, void_past=False)  # type: ignore[arg-type]

    asyncio.run(hand_over())
    assert actor.draining and actor.stopped_while_dealing is False
    assert let_go == [7] and 7 not in manager.actors and manager._handing == set()


def test_a_hand_over_whose_deal_outlasts_the_bound_is_given_up_not_voided():
    actor, let_go = _Actor(deal_ticks=10_000), []
    manager = _manager_with(actor, let_go)

    async def hand_over() -> None:
        deadline = asyncio.get_running_loop().time() + 0.3
        await manager._hand_over(7, actor, deadline, void_past=False)  # type: ignore[arg-type]

    asyncio.run(hand_over())
    # The table stays here and deals on: no lease let go, nothing stopped.
    assert let_go == [] and manager.actors == {7: actor} and actor.stopped_while_dealing is None
    assert not actor.draining and actor.synced == 2


def test_a_socket_opening_a_table_being_handed_over_waits_for_the_let_go():
    """A page opening the table while the hand-over stops its actor used to
    start a new actor at once on the fence being let go — left running on
    no lease and no fence. Now it waits for the let-go, then finds the
    table nobody's (and takes it with a fence of its own)."""
    actor, let_go = _Actor(deal_ticks=0), []
    manager = _manager_with(actor, let_go)
    seen: list[list[int]] = []

    async def slow_stop() -> None:
        actor.closed = True
        await asyncio.sleep(0.1)

    async def _get_locked(table_id: int) -> None:
        seen.append(list(let_go))

    actor.stop = slow_stop  # type: ignore[method-assign]
    manager._get_locked = _get_locked  # type: ignore[method-assign]

    async def scenario() -> None:
        deadline = asyncio.get_running_loop().time() + 10
        handing = asyncio.create_task(manager._hand_over(7, actor, deadline, void_past=False))  # type: ignore[arg-type]
        await asyncio.sleep(0.03)  # the stop under way
        await manager.get(7)
        await handing

    asyncio.run(scenario())
    assert seen == [[7]]
