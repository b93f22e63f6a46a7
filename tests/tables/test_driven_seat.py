"""Issue 28 §2: a seat driven by a program (tables/driving.py) — shown its
seat after every publication, answering with the very command models a
socket sends, refused as a socket is; and nobody else commands that seat
meanwhile. The program here is a test's own, not a house player."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from tests.tables.conftest import Harness, passive

from tavern.tables.actor import CommandError
from tavern.tables.commands import Act, SitIn, SitOut
from tavern.tables.driving import SeatHandle, SeatView

pytestmark = [pytest.mark.db]


class FirstLegal:
    """Always plays the first legal action it is shown (its least amount)."""

    def __init__(self) -> None:
        self.handle: SeatHandle | None = None
        self.views: list[SeatView] = []
        self.answers: list[asyncio.Future[Any]] = []

    def seen(self, view: SeatView) -> None:
        self.views.append(view)
        waiting = bool(self.answers) and not self.answers[-1].done()
        if view.legal and self.handle is not None and not waiting:
            first = view.legal[0]
            args = {"amount": first["min"]} if "min" in first else {}
            self.answers.append(self.handle.post(Act(action=first["action"], seq=view.seq, args=args)))


async def _until(condition: Any, h: Harness, limit: int = 200) -> None:
    """Let the table work, the test's socket player playing passively, until ``condition()``."""
    actor = h.actor
    for _ in range(limit):
        if condition():
            return
        to_act = actor.engine.to_act() if actor.engine is not None and not actor.engine.over else []
        if "ana" in to_act:
            move = passive("ana", actor.engine.legal_actions("ana"))
            action = move.pop("action")
            await actor.submit(Act(action=action, args=move), "ana")
        await h.settle()
    raise AssertionError("the table did not get there")


def test_a_program_plays_its_seat_through_the_same_commands(world) -> None:
    async def scenario() -> None:
        h = Harness(world, deal_pause=3600.0)  # one deal, dealt when told
        actor = await h.start(timer=3600, seated=("ana", "bob"))  # no time-out plays for anybody
        program = FirstLegal()
        program.handle = actor.drive("bob", world.users["bob"], program)
        actor.next_deal_at = actor.clock()
        await _until(lambda: actor.last_result is not None, h)
        story = list(actor.publisher.story)
        await actor.stop()
        # It was shown its own seat, with its own view of the deal.
        assert {v.name for v in program.views} == {"bob"}
        assert any(v.deal is not None and v.legal for v in program.views)
        # It played the deal out: every command it sent was taken, and its
        # moves are in the deal's story as his own (no time-out, no auto-action).
        assert program.answers and all(f.done() and f.exception() is None for f in program.answers)
        bobs = [e for e in story if e.get("player") == "bob" and e.get("event") != "deal"]
        assert bobs and not any("by" in e for e in bobs)

    asyncio.run(scenario())


def test_a_driven_seat_takes_no_command_but_its_programs(world) -> None:
    async def scenario() -> None:
        h = Harness(world, deal_pause=3600.0)  # no deal: the seat's own state only
        actor = await h.start(seated=("ana", "bob"))
        program = FirstLegal()
        handle = actor.drive("bob", world.users["bob"], program)
        # bob's own page (a socket) sends for the driven seat: refused, nothing changes.
        with pytest.raises(CommandError) as refused:
            await actor.submit(SitOut(), "bob")
        assert refused.value.code == "seat_driven"
        assert not next(s for s in actor.seats.values() if s.name == "bob").sitting_out
        # The program is refused as a socket is: the same codes.
        with pytest.raises(CommandError) as not_dealt:
            await handle.submit(Act(action="fold"))
        assert not_dealt.value.code == "not_in_deal"
        # and its own command goes through.
        await handle.submit(SitOut())
        assert next(s for s in actor.seats.values() if s.name == "bob").sitting_out
        # ana's seat is not driven: her commands are hers.
        await actor.submit(SitOut(), "ana")
        # Let go, the seat is its player's again (and the program's handle is refused).
        actor.release(handle)
        await actor.submit(SitIn(), "bob")
        assert not next(s for s in actor.seats.values() if s.name == "bob").sitting_out
        with pytest.raises(CommandError) as gone:
            await handle.submit(SitOut())
        assert gone.value.code == "seat_driven"
        await actor.stop()

    asyncio.run(scenario())


class HouseLike(FirstLegal):
    """A program whose account has no page, reading the deal on its turn only."""

    socketless = True
    turns_only = True


def test_a_socketless_program_gets_no_message_but_plays_its_turns(world) -> None:
    """A house player's seat (tables/driving.py ``socketless``, ``turns_only``):
    no page shows it, so no state message is built for it at any publication;
    its program is still shown its legal actions and, on its turn, its deal,
    and plays the deal out, its moves checked against what was shown."""
    async def scenario() -> None:
        h = Harness(world, deal_pause=3600.0)
        actor = await h.start(timer=3600, seated=("ana", "bob"))
        published: list[set[str]] = []
        publish = h.broadcaster.publish

        async def recording(table_id: int, messages: dict[str, str]) -> None:
            published.append(set(messages))
            await publish(table_id, messages)

        h.broadcaster.publish = recording  # type: ignore[method-assign]
        program = HouseLike()
        program.handle = actor.drive("bob", world.users["bob"], program)
        # Connected from the moment it is driven (no queued Connect to wait for).
        assert next(s for s in actor.seats.values() if s.name == "bob").connections == 1
        actor.next_deal_at = actor.clock()
        await _until(lambda: actor.last_result is not None, h)
        await actor.stop()
        assert published and all("bob" not in names for names in published)
        assert any("ana" in names for names in published)
        # Its deal only on its turns; its moves all taken.
        assert any(v.legal and v.deal is not None for v in program.views)
        assert all(v.deal is None for v in program.views if not v.legal)
        assert program.answers and all(f.done() and f.exception() is None for f in program.answers)

    asyncio.run(scenario())
