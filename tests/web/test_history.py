"""Issue 11 « Mes donnes »: a player's archived deals, each replayed step by
step as he saw it — never a card he could not see at that moment; nobody
else's deal."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.dbtools import session_scope
from tests.tables.conftest import Harness, build_world
from webtools import deal_stopped_mid_hand, login

from tavern.games import registry
from tavern.store.models import ArchivedHand, User

pytestmark = pytest.mark.db

CARD = re.compile(r'"([2-9TJQKA][cdhs])"')


def _play_one_deal(session_factory, password_hash: str) -> int:
    world = build_world(session_factory, stakes={"small_blind": 1, "big_blind": 2}, password_hash=password_hash)

    async def scenario():
        h = Harness(world, deal_pause=60.0)
        actor = await h.start(seated=("ana", "bob", "cid"))
        actor.next_deal_at = actor.clock()
        await h.settle()
        await h.settle()
        # ana folds at once; bob and cid play on to the showdown
        await h.play_deal(lambda name, legal: {"action": "fold"} if name == "ana" and any(
            a["action"] == "fold" for a in legal) else next(({"action": a} for a in ("check", "call", "show")
                                                             if any(x["action"] == a for x in legal)),
                                                            {"action": legal[0]["action"]}))
        await actor.stop()

    asyncio.run(scenario())
    with session_factory() as s:
        return s.scalars(select(ArchivedHand.id).where(ArchivedHand.table_id == world.table_id,
                                                       ArchivedHand.voided.is_(False))).one()


def test_a_player_replays_his_deal_seeing_only_what_he_saw(settings, client: TestClient, session_factory) -> None:
    from tavern.services import users

    deal = _play_one_deal(session_factory, users.hash_password("correct horse battery", settings))
    with session_scope() as s:
        record = s.get(ArchivedHand, deal).record
        assert s.scalars(select(User.id).where(User.username == "ana")).one()
    engine, _ = next(registry.replay_steps(record))  # who held what
    hole = {p: set(engine.hole[i]) for i, p in enumerate(engine.players)}
    login(client, "ana")
    listed = client.get("/api/me/deals").json()
    assert [d["id"] for d in listed] == [deal] and listed[0]["delta"] is not None
    steps = client.get(f"/api/me/deals/{deal}").json()
    assert len(steps) == len(record["actions"]) + 1 - sum(a["action"] == "post" for a in record["actions"])
    shown: set[str] = set()
    for k, step in enumerate(steps):
        seen = set(CARD.findall(json.dumps(step["view"])))
        if k == 0:
            assert hole["ana"] <= seen, "she sees her own cards once dealt"
        if step["action"] and step["action"]["action"] == "show":
            shown.add(step["action"]["player"])
        # RULES.md (Ramponneau): hands are shown at the showdown, not before.
        showdown = step["view"].get("phase") in ("showdown", "over")
        for other in ("bob", "cid"):
            if not showdown and other not in shown:  # another's hidden card, never before the showdown
                assert not seen & hole[other], (k, other)
    assert client.get("/mes-donnes").status_code == 200
    page = client.get(f"/mes-donnes/{deal}")
    assert page.status_code == 200 and "/static/replay.js" in page.text
    # Somebody who was not dealt in gets nothing.
    client.post("/logout")
    client.cookies.clear()
    login(client, "dan")
    assert client.get(f"/api/me/deals/{deal}").status_code == 404
    assert client.get(f"/mes-donnes/{deal}").status_code == 404
    assert client.get("/api/me/deals").json() == []


def test_a_voided_deal_still_reveals_its_seed_to_its_players(settings, client: TestClient, session_factory) -> None:
    """Issue 16: "A deal voided by a crash still reveals its seed" — to the
    deal's players, never while the deal is being played."""
    from tavern import fair, fair_cards
    from tavern.tables.bank import SqlBank

    world = deal_stopped_mid_hand(session_factory, settings)
    with session_factory() as s:
        deal = s.scalars(select(ArchivedHand.id).where(ArchivedHand.table_id == world.table_id)).one()
    login(client, "ana")
    assert client.get(f"/api/me/deals/{deal}/fair").status_code == 404  # still "in progress": secret
    SqlBank(session_factory, settings).void_interrupted(world.table_id)  # the restart voids it
    revealed = client.get(f"/api/me/deals/{deal}/fair")
    assert revealed.status_code == 200
    # Issue 42 §6: before TAVERN_FAIR_REVEAL_DAYS (30 by default) the openings
    # of the cards he saw, never the seed nor the deck (every folded hand).
    early = revealed.json()
    assert "server_seed" not in early["fair"] and "deck" not in early and early["seed_after"]
    with session_factory() as s:
        hand = s.get(ArchivedHand, deal)
        record = hand.record
        assert record["fair"]["server_seed"] not in revealed.text
        assert {o["card"] for o in early["fair"]["openings"]} == set(record["deck"][:4]) & {
            o["card"] for o in early["fair"]["openings"]}
        assert fair_cards.check_openings(early["fair"], record["fair"]["cards"], record["fair"]["commitment"])
        hand.ended = hand.ended - dt.timedelta(days=settings.fair_reveal_days, seconds=1)
        s.commit()
    revealed = client.get(f"/api/me/deals/{deal}/fair")  # the delay past: the seed and the deck
    assert fair.verify(revealed.json())  # what `tavern verify` reads
    assert revealed.json()["config"]["big_blind"] > 0  # the table's config: its packs (issue 33)
    assert "ses cartes vérifiables" in client.get("/mes-donnes").text
    client.post("/logout")
    client.cookies.clear()
    login(client, "cid")  # not dealt in
    assert client.get(f"/api/me/deals/{deal}/fair").status_code == 404


def test_a_deal_in_progress_is_listed_en_cours_without_its_steps(settings, client: TestClient,
                                                                  session_factory) -> None:
    """Issue 33 §9: « Mes donnes » listed a deal still being played as
    ``"voided": true`` with an end time. It is listed in progress — no end,
    not voided, no result — and its steps and seed wait for its end: a replay
    must not show more than the live table did while it goes on."""
    from tavern.tables.bank import SqlBank

    world = deal_stopped_mid_hand(session_factory, settings)
    with session_factory() as s:
        deal = s.scalars(select(ArchivedHand.id).where(ArchivedHand.table_id == world.table_id)).one()
    login(client, "ana")
    listed = client.get("/api/me/deals").json()
    assert [(d["id"], d["voided"], d["ended"], d["delta"], d.get("in_progress")) for d in listed] == \
        [(deal, False, None, None, True)]
    steps = client.get(f"/api/me/deals/{deal}")
    assert steps.status_code == 409 and steps.json()["code"] == "deal_in_progress"
    assert "en cours" in steps.json()["message"] and not CARD.search(steps.text)
    page = client.get(f"/mes-donnes/{deal}")
    assert page.status_code == 409 and "Cette donne est en cours" in page.text
    mine = client.get("/mes-donnes").text
    assert "en cours" in mine and f'href="/mes-donnes/{deal}"' not in mine and "ses cartes vérifiables" not in mine
    # Voided by the restart: now it has ended, voided, with its seed and no replay.
    SqlBank(session_factory, settings).void_interrupted(world.table_id)
    listed = client.get("/api/me/deals").json()
    assert [(d["in_progress"], d["voided"], d["delta"]) for d in listed] == [(False, True, None)]
    assert listed[0]["ended"] is not None
    refused = client.get(f"/api/me/deals/{deal}")
    assert refused.status_code == 409 and refused.json()["code"] == "deal_voided_no_replay"
    assert "ses cartes vérifiables" in client.get("/mes-donnes").text
    # Somebody else's deal is still not his to see.
    client.post("/logout")
    client.cookies.clear()
    login(client, "cid")
    assert client.get(f"/api/me/deals/{deal}").json()["code"] == "not_your_deal"
