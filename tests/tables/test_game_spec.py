"""Issue 10 §1: a game is described once, by its spec, and the runtime asks
the spec — so a game the house has never seen plays through the real table
runtime (seats, caves, deals, settlement, archive, ledger) once registered."""

from __future__ import annotations

import asyncio
import sys
import types

import pytest
from sqlalchemy import select
from tests.tables.conftest import Harness, build_world

from tavern import fair
from tavern.cards import deck52
from tavern.games import registry
from tavern.services import taverns
from tavern.store.models import ArchivedHand

pytestmark = [pytest.mark.db]


@pytest.fixture
def highcard():
    # The game as the house may see it: a module holding its SPEC and nothing
    # else, so every entry point the runtime, the replay and the fairness
    # check use must come from the spec, none found by name in the module.
    from tests.tables import highcard as game

    alone = types.ModuleType("highcard_spec_only")
    alone.SPEC = game.SPEC  # type: ignore[attr-defined]  # a module built here
    sys.modules[alone.__name__] = alone
    registry.register("highcard", alone.__name__)
    yield registry.spec("highcard")
    registry.GAMES.pop("highcard")
    del sys.modules[alone.__name__]


def test_every_game_has_one_spec() -> None:
    specs = registry.specs()
    assert list(specs) == list(registry.GAMES)
    assert all(s.name == name and s.label and s.stakes for name, s in specs.items())
    assert specs["gin"].default_seats() == 2 and specs["rami"].default_seats() == 5
    assert specs["rams"].turns_right and specs["draw"].disconnect_protection and specs["ramponneau"].blinds
    assert [n for n, s in specs.items() if s.variants != ("",)] == ["draw"]


def test_a_registered_game_plays_through_the_runtime(settings, session_factory, highcard) -> None:
    # The owner's form knows it: its seats, its stakes, its deck.
    terms = taverns.validate_table_settings({"game": "highcard", "name": "Carte haute", "stakes": {"unit": 1}},
                                            settings)
    assert (terms.seats, terms.deck_kind, terms.buy_in_min) == (4, "deck52", 20)
    world = build_world(session_factory, game="highcard", stakes={"unit": 1}, rake_percent=0)

    async def scenario():
        h = Harness(world)
        actor = await h.start(seated=("ana", "bob", "cid"))
        for _ in range(5):
            await h.play_deal(lambda name, legal: {"action": "show"})
        actor.deal_pause = 60.0
        await h.settle()
        view = h.last("ana")
        await actor.stop()
        return view, actor.deals

    view, deals = asyncio.run(scenario())
    assert deals >= 5
    assert view["table"]["label"] == "Carte haute"
    assert view["table"]["view"] == "generic"  # the page draws it with its generic module
    assert fair.table_packs("highcard", {"unit": 1}, 3) == [deck52()]
    with world.factory() as s:
        hands = s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == world.table_id,
                                                     ArchivedHand.voided.is_(False))).all()
    assert len(hands) >= 4
    for hand in hands:  # each settled deal: one winner took the three antes
        assert sorted(hand.result["delta"].values()) == [-1, -1, 2]
        assert registry.replay(hand.record)["delta"] == hand.result["delta"]
        steps = list(registry.seen_steps(hand.record, "ana"))  # « Mes donnes »
        assert len(steps) == len(hand.record["actions"]) + 1
    chips = {n: world.chips(n) for n in ("ana", "bob", "cid")}
    assert sum(chips.values()) == 600  # no chip created or lost
    assert world.audit_ok()
