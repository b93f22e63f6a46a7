"""A full table's waiting list (issue 30 §3, tables/waiting.py), on the real
actor and database with a clock the test moves.

Issue 30 §3: « A full table offers "Liste d'attente": in order of arrival;
when a seat frees, the first in line is offered it for 30 seconds (on any
page of the site he has open), then the next. Leaving the list, being
offered a seat and losing the turn are all visible. »
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from sqlalchemy import update
from tests.tables.conftest import Harness, World, build_world, settle

from tavern.contests.table import ContestPolicy
from tavern.services import rgpd
from tavern.store.models import TableConfig, WaitingPlace
from tavern.tables.actor import CommandError, TableActor
from tavern.tables.commands import Leave, OfferAccept, OfferPass, Sit, Sync, WaitJoin, WaitLeave
from tavern.tables.practice import PracticePolicy
from tavern.tables.waiting import NOTICES, OFFER_SECONDS

pytestmark = [pytest.mark.db]

SEATED = ("ana", "bob", "cid", "dan", "eve", "fay")  # the table's six seats
NAMES = (*SEATED, "gus", "hal", "ivy")


def run(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """The scenario on its own event loop (the suite's way: asyncio.run)."""
    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return wrapper


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def full(session_factory) -> World:
    return build_world(session_factory, names=NAMES)


async def _start(world: World) -> tuple[Harness, TableActor, Clock, dict[str, list[dict[str, Any]]]]:
    clock = Clock()
    # No deal starts (its pause never ends on this clock): a seat frees at once.
    h = Harness(world, clock=clock, deal_pause=10_000.0)
    actor = await h.start(seated=SEATED)
    notices: dict[str, list[dict[str, Any]]] = {}
    for name in NAMES:
        box = notices.setdefault(name, [])
        h.broadcaster.subscribe(NOTICES, name, lambda t, box=box: box.append(json.loads(t)))
    return h, actor, clock, notices


async def _do(h: Harness, command: Any, name: str) -> Any:
    return await h.actor.submit(command, name, user_id=h.world.users[name])


def _state(h: Harness, name: str | None) -> dict[str, Any]:
    return [m for m in h.inbox[name] if m["type"] == "state"][-1]


@run
async def test_in_order_of_arrival_the_first_is_offered_the_freed_seat(full: World) -> None:
    h, actor, _, notices = await _start(full)
    assert await _do(h, WaitJoin(), "gus") == {"place": 1}
    assert await _do(h, WaitJoin(), "hal") == {"place": 2}
    await _do(h, Leave(), "ana")  # seat 0 frees
    await settle(actor)
    assert [n["type"] for n in notices["gus"]] == ["seat_offer"]
    offer = notices["gus"][0]
    assert (offer["table_id"], offer["seat"], offer["seconds"]) == (full.table_id, 0, OFFER_SECONDS)
    assert offer["text"] == "Une place vous attend à la table t1 — 30 s."
    assert notices["hal"] == []  # the second in line waits his turn
    assert _state(h, "gus")["waiting"] == {"place": 1, "offer": {"seat": 0, "left": 30.0}}
    assert _state(h, "hal")["waiting"] == {"place": 2, "offer": None}
    # Everybody sees the list's length and the seat held, never who waits.
    spectators = _state(h, None)
    assert spectators["table"]["waiting"] == {"length": 2, "held": [0]}
    assert "waiting" not in spectators
    assert "gus" not in json.dumps(spectators) and "hal" not in json.dumps(spectators)
    assert "waiting" not in _state(h, "bob")  # a seated player sees the length only
    await actor.stop()


@run
async def test_a_sit_in_the_held_seat_is_refused_to_anybody_else(full: World) -> None:
    h, actor, _, _ = await _start(full)
    await _do(h, WaitJoin(), "gus")
    await _do(h, Leave(), "ana")
    await settle(actor)
    ecus = full.balance("ivy")
    with pytest.raises(CommandError) as refused:
        await _do(h, Sit(seat=0, cave=100), "ivy")
    assert refused.value.code == "seat_held"
    assert "réservée" in refused.value.message
    assert 0 not in actor.seats and full.balance("ivy") == ecus  # nothing changed
    await actor.stop()


@run
async def test_accepting_seats_him_with_his_cave(full: World) -> None:
    h, actor, _, notices = await _start(full)
    await _do(h, WaitJoin(), "gus")
    await _do(h, WaitJoin(), "hal")
    await _do(h, Leave(), "ana")
    await settle(actor)
    assert await _do(h, OfferAccept(cave=100), "gus") == {"seat": 0, "chips": 100}
    await settle(actor)
    assert actor.seats[0].name == "gus" and full.chips("gus") == 100
    assert notices["gus"][-1]["why"] == "seated"
    assert actor.waiting.names() == ["hal"] and actor.waiting.offers == {}
    assert _state(h, "hal")["waiting"] == {"place": 1, "offer": None}
    assert notices["hal"] == []  # no seat free: no offer
    await actor.stop()


@run
async def test_a_refused_cave_keeps_the_offer(full: World) -> None:
    h, actor, _, _ = await _start(full)
    await _do(h, WaitJoin(), "gus")
    await _do(h, Leave(), "ana")
    await settle(actor)
    with pytest.raises(CommandError) as refused:
        await _do(h, OfferAccept(cave=5), "gus")  # under the table's smallest cave (20)
    assert refused.value.code == "cave_out_of_range"
    assert actor.waiting.offer_of("gus") is not None and 0 not in actor.seats
    await actor.stop()


@run
async def test_letting_it_pass_moves_the_offer_to_the_next(full: World) -> None:
    h, actor, _, notices = await _start(full)
    await _do(h, WaitJoin(), "gus")
    await _do(h, WaitJoin(), "hal")
    await _do(h, Leave(), "ana")
    await settle(actor)
    assert await _do(h, OfferPass(), "gus") == {}
    await settle(actor)
    assert notices["gus"][-1]["type"] == "seat_offer_over" and notices["gus"][-1]["why"] == "passed"
    assert [n["type"] for n in notices["hal"]] == ["seat_offer"] and notices["hal"][0]["seat"] == 0
    assert actor.waiting.names() == ["hal"]  # gus lost his turn
    assert "waiting" not in _state(h, "gus") or _state(h, "gus")["waiting"] is None
    await actor.stop()


@run
async def test_the_offer_runs_out_after_30_seconds_and_goes_to_the_next(full: World) -> None:
    h, actor, clock, notices = await _start(full)
    await _do(h, WaitJoin(), "gus")
    await _do(h, WaitJoin(), "hal")
    await _do(h, Leave(), "ana")
    await settle(actor)
    clock.now += OFFER_SECONDS - 0.5
    await actor.submit(Sync())
    assert actor.waiting.offer_of("gus") is not None and notices["hal"] == []
    assert _state(h, "gus")["waiting"]["offer"]["left"] == 0.5
    clock.now += 0.5
    await actor.submit(Sync())
    await settle(actor)
    assert notices["gus"][-1]["why"] == "expired"
    assert "Temps écoulé" in notices["gus"][-1]["text"]
    assert actor.waiting.offer_of("hal") is not None and actor.waiting.offer_of("hal").seat == 0
    assert actor.waiting.names() == ["hal"]
    # hal's 30 s start when his offer does.
    assert _state(h, "hal")["waiting"]["offer"] == {"seat": 0, "left": 30.0}
    await actor.stop()


@run
async def test_the_table_wakes_when_an_offer_runs_out(full: World) -> None:
    """The offer's end is among the actor's wake-ups: nobody need click."""
    h, actor, clock, _ = await _start(full)
    await _do(h, WaitJoin(), "gus")
    await _do(h, Leave(), "ana")
    await settle(actor)
    deadline = actor.waiting.offer_of("gus").until
    assert actor._next_wake() <= deadline - clock.now
    await actor.stop()


@run
async def test_leaving_the_list_lets_the_next_have_the_offer(full: World) -> None:
    h, actor, _, notices = await _start(full)
    await _do(h, WaitJoin(), "gus")
    await _do(h, WaitJoin(), "hal")
    await _do(h, Leave(), "ana")
    await settle(actor)
    assert await _do(h, WaitLeave(), "gus") == {}
    await settle(actor)
    assert notices["gus"][-1]["why"] == "left"
    assert actor.waiting.offer_of("hal") is not None
    await actor.stop()


@pytest.mark.parametrize("who,command,code", [
    ("bob", WaitJoin(), "waiting_seated"),  # a table one already sits at
    ("gus", WaitJoin(), "waiting_twice"),  # twice
    ("hal", WaitLeave(), "waiting_not_listed"),
    ("gus", OfferAccept(), "no_seat_offered"),
    ("gus", OfferPass(), "no_seat_offered"),
])
@run
async def test_bad_input_is_refused_in_french_and_changes_nothing(full: World, who: str, command: Any,
                                                                  code: str) -> None:
    h, actor, _, notices = await _start(full)
    await _do(h, WaitJoin(), "gus")
    before = (list(actor.waiting.line), dict(actor.waiting.offers), dict(actor.seats))
    with pytest.raises(CommandError) as refused:
        await _do(h, command, who)
    assert refused.value.code == code and refused.value.message != code  # said in French
    assert (list(actor.waiting.line), dict(actor.waiting.offers), dict(actor.seats)) == before
    assert all(box == [] for box in notices.values())
    await actor.stop()


@run
async def test_a_table_with_a_free_seat_has_no_list(session_factory) -> None:
    world = build_world(session_factory, names=NAMES)
    h = Harness(world, deal_pause=10_000.0)
    actor = await h.start(seated=SEATED[:5])
    with pytest.raises(CommandError) as refused:
        await actor.submit(WaitJoin(), "gus", user_id=world.users["gus"])
    assert refused.value.code == "waiting_seat_free"
    assert actor.waiting.line == []
    await actor.stop()


@run
async def test_a_private_table_needs_its_invitation(full: World) -> None:
    h, actor, _, _ = await _start(full)
    with full.factory() as s, s.begin():  # made private once its players sat
        s.execute(update(TableConfig).where(TableConfig.id == full.table_id).values(private=True))
    with pytest.raises(CommandError) as refused:
        await _do(h, WaitJoin(), "gus")
    assert refused.value.code == "private_table_needs_invitation"
    assert actor.waiting.line == []
    await actor.stop()


def test_practice_and_contest_tables_have_no_list() -> None:
    assert PracticePolicy.refusal(object.__new__(PracticePolicy), WaitJoin()) == "practice_no_waiting"
    assert ContestPolicy.refusal(object.__new__(ContestPolicy), WaitJoin()) == "contest_no_waiting"


@run
async def test_a_waiting_player_who_sits_in_a_seat_free_to_all_leaves_the_line(full: World) -> None:
    """Two seats free, one in line: the second seat is free to all; the
    player in line sitting in it leaves the line, and his offer goes."""
    h, actor, _, _ = await _start(full)
    await _do(h, WaitJoin(), "gus")
    await _do(h, Leave(), "ana")
    await settle(actor)
    await _do(h, Leave(), "bob")  # seat 1 frees: nobody else in line
    await settle(actor)
    assert set(actor.waiting.offers) == {0}
    await _do(h, Sit(seat=1, cave=50), "gus")
    await settle(actor)
    assert actor.waiting.line == [] and actor.waiting.offers == {}
    assert "waiting" not in _state(h, None)["table"]  # nobody waits: not said
    await actor.stop()


@run
async def test_the_list_survives_a_move_to_another_worker(full: World) -> None:
    """Kept in the database: the table's next actor (a takeover, a drain)
    starts with the list, in order; the seat is offered again."""
    h, actor, _, _ = await _start(full)
    await _do(h, WaitJoin(), "gus")
    await _do(h, WaitJoin(), "hal")
    await _do(h, WaitJoin(), "ivy")
    await _do(h, WaitLeave(), "hal")
    await actor.stop()
    again = TableActor(actor.info, h.bank, h.broadcaster, clock=Clock(), deal_pause=10_000.0)
    await again.start()
    assert again.waiting.names() == ["gus", "ivy"]
    await again.submit(Leave(), "ana", user_id=full.users["ana"])
    await settle(again)
    assert again.waiting.offer_of("gus").seat == 0
    await again.stop()


def test_a_deleted_account_leaves_every_waiting_list(full: World) -> None:
    """docs/privacy.md: his places in waiting lists are erased at the deletion."""
    with full.factory() as s, s.begin():
        s.add(WaitingPlace(table_id=full.table_id, user_id=full.users["gus"]))
        s.add(WaitingPlace(table_id=full.table_id, user_id=full.users["hal"]))
    with full.factory() as s, s.begin():
        rgpd.delete_account(s, full.users["gus"])
    with full.factory() as s:
        assert [p.user_id for p in s.query(WaitingPlace)] == [full.users["hal"]]
