"""A table deals from the provably fair stream (issue 16, docs/fairness.md):
the commitment is shown before the deal, the players' seeds enter the deck,
the seed is revealed after the deal to its players only, and the archived
record verifies."""

from __future__ import annotations

import asyncio
import json

import pytest
from sqlalchemy import select
from tests.tables.conftest import Harness, build_world, passive

from tavern import fair, fair_cards
from tavern.store.models import ArchivedHand
from tavern.tables.actor import CommandError
from tavern.tables.commands import ClientSeed

pytestmark = [pytest.mark.db]


def test_a_deal_is_committed_seeded_revealed_and_verifiable(session_factory) -> None:
    world = build_world(session_factory, stakes={"small_blind": 1, "big_blind": 2})

    async def scenario():
        h = Harness(world, deal_pause=60.0)  # no deal until told
        actor = await h.start(seated=("ana", "bob", "cid"))
        await actor.submit(ClientSeed(seed="graine-d-ana"), "ana")
        await actor.submit(ClientSeed(seed="b0b"), "bob")
        with pytest.raises(CommandError, match="64 caractères"):
            # Past the socket's parsing (a model built unchecked): the table checks again.
            await actor.submit(ClientSeed.model_construct(seed="pas|ça"), "cid")
        promised = h.last(None)["table"]["fair"]["next"]
        assert promised == actor.next_seed.commitment
        assert "server_seed" not in json.dumps(h.last(None))
        actor.next_deal_at = actor.clock()  # deal now
        await h.settle()  # the tick after this answer starts the deal
        await h.settle()
        assert actor.engine is not None
        during = h.last("ana")
        assert during["table"]["fair"]["deal"] == promised          # the deal dealt is the one promised
        assert during["table"]["fair"]["next"] != promised          # a seed serves once
        assert "fair" not in during or during["fair"]["commitment"] != promised  # not revealed yet
        await h.play_deal(passive)
        await h.settle()
        return actor, h, during, promised

    actor, h, during, promised = asyncio.run(scenario())
    asyncio.run(actor.stop())

    with world.factory() as s:
        row = s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == world.table_id)).one()
        record = row.record
    block = record["fair"]
    assert [c["seed"] for c in block["client_seeds"]] == ["graine-d-ana", "b0b", ""]
    assert fair.verify(record)  # raises on a mismatch
    # Issue 42 §6: the deal's players receive the openings of the cards they
    # saw — never the seed nor the deck (« the reveal gives every folded hand
    # away ») — and each opening checks against the digests shown with the
    # deal's state, before its first card was shown.
    shown_before = during["table"]["fair"]["cards"]
    assert shown_before == block["cards"] and len(shown_before) == 1
    for name in ("ana", "bob", "cid"):
        got = h.held(name)["fair"]
        assert "server_seed" not in got and "deck" not in got and block["server_seed"] not in json.dumps(h.inbox[name])
        assert got["game"] == record["game"] and got["commitment"] == promised
        assert fair_cards.check_openings(got, shown_before, promised)
        opened = {o["card"] for o in got["openings"]}
        assert opened == {record["deck"][i] for k, i in block["seen"][name]}
        assert len(opened) >= 2  # his hole cards at least
    assert all(block["server_seed"] not in json.dumps(m) for m in h.inbox[None])
    assert all(block["server_seed"] not in json.dumps(m) for m in h.inbox["dan"])
    # Another client seed would have given another deck from the same server seed.
    other = fair.FairStream(bytes.fromhex(block["server_seed"]), block["table"], block["deal"],
                            ["graine-d-ana", "b0c", ""]).shuffle(record["deck"])
    assert other != record["deck"]


def test_a_voided_deal_keeps_its_seed(session_factory) -> None:
    """Issue 16: "A deal voided by a crash still reveals its seed" — the block
    is archived when the deal starts, before any card is played."""
    world = build_world(session_factory, stakes={"small_blind": 1, "big_blind": 2})

    async def scenario():
        h = Harness(world, deal_pause=60.0)
        actor = await h.start(seated=("ana", "bob"))
        actor.next_deal_at = actor.clock()
        await h.settle()
        await h.settle()
        assert actor.engine is not None and not actor.engine.over
        await actor.stop()  # the process dies here, mid-deal

    asyncio.run(scenario())
    with world.factory() as s:
        row = s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == world.table_id)).one()
        assert row.voided
        assert fair.verify(row.record)
