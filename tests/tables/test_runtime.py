"""The table runtime with several simulated players on a real database."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from tests.tables.conftest import Harness, any_legal, build_world, passive

from tavern.tables.actor import CommandError
from tavern.tables.commands import Act, Auto, Cave, Connect, Disconnect, SitIn, SitOut

pytestmark = [pytest.mark.db]


def run(coro):
    return asyncio.run(coro)


def test_three_players_play_a_deal_and_the_ledger_follows(world):
    """RULES.md: chips at a table are ledger balances; the rake is "credited to
    the tavern owner"; "every hand is archived with its full record"."""

    async def scenario():
        h = Harness(world)
        actor = await h.start(seated=("ana", "bob", "cid"))
        await h.settle()
        assert actor.engine is not None and actor.deals == 1
        await h.play_deal(passive)
        await actor.stop()
        return actor

    run(scenario())
    chips = {n: world.chips(n) for n in ("ana", "bob", "cid")}
    from tavern.services import ledger
    from tavern.store.models import ArchivedHand
    with world.factory() as s:
        owner_ecus = ledger.balance(s, "user", world.owner_id, "ecus")
        done = [h for h in s.query(ArchivedHand).all() if not h.voided]
        rake = sum(h.rake for h in done)
    assert done and done[0].record["game"] == "ramponneau" and done[0].record["actions"]
    assert sum(chips.values()) + rake == 600  # no chip created or lost
    assert owner_ecus == rake
    assert world.audit_ok()


def test_cave_bounds_and_no_chips_added_mid_deal(world):
    """RULES.md: "Cave (buy-in): ... between 10× and 100× the big blind" and
    "Chips can be added between hands, never during one"."""

    async def scenario():
        h = Harness(world)
        actor = await h.start()
        with pytest.raises(CommandError, match="cave"):
            await h.sit("ana", 0, 10)  # below 10× the big blind (20)
        with pytest.raises(CommandError, match="cave"):
            await h.sit("ana", 0, 201)
        await h.sit("ana", 0, 100)
        await h.sit("bob", 1, 100)
        await h.settle()
        assert actor.engine is not None and not actor.engine.over
        with pytest.raises(CommandError, match="jamais pendant une donne"):
            await actor.submit(Cave(amount=10), "ana")
        await actor.stop()

    run(scenario())
    assert world.balance("ana") == 900  # the refused caves changed nothing


def test_a_player_without_hands_left_is_not_dealt_in(session_factory):
    """RULES.md: "Level 0 players get no free hands" and "A player with no hands
    left is not dealt in and is told why"."""
    w = build_world(session_factory, level=0)

    async def scenario():
        h = Harness(w)
        actor = await h.start()
        await h.sit("ana", 0)
        await h.sit("bob", 1)
        await h.settle()
        return actor, h

    actor, h = run(scenario())
    assert actor.engine is None
    assert "pas de donnes gratuites" in h.last("ana")["you"]["notice"]


def all_in_ana(name, legal):
    names = {a["action"]: a for a in legal}
    if name == "ana" and "raise" in names:
        return {"action": "raise", "amount": names["raise"]["max"]}
    if name == "ana" and "bet" in names:
        return {"action": "bet", "amount": names["bet"]["max"]}
    return passive(name, legal)


def test_rake_is_credited_to_the_tavern_owner(world):
    """RULES.md: "Rake: a percentage set by the owner, taken from every pot ...
    rounded down, optionally capped per pot, credited to the tavern owner"."""

    async def scenario():
        h = Harness(world)
        actor = await h.start(seated=("ana", "bob", "cid"))
        await h.settle()
        await h.play_deal(all_in_ana)  # everybody calls ana's all-in: one pot of 600
        await actor.stop()

    run(scenario())
    from tavern.services import ledger
    with world.factory() as s:
        assert ledger.balance(s, "user", world.owner_id, "ecus") == 600 * 5 // 100
    assert sum(world.chips(n) for n in ("ana", "bob", "cid")) == 600 - 30
    assert world.audit_ok()


def test_sit_out_and_back_posts_the_big_blind(world):
    """RULES.md: "'Se lever': stay seated, keep the chips, receive no cards, pay
    no blinds. 'Se rasseoir': come back; the player must post a big blind again
    (or wait for the big blind to reach them)"."""

    async def scenario():
        h = Harness(world)
        actor = await h.start(seated=("ana", "bob", "cid", "dan"))
        await h.settle()
        await h.play_deal(passive)
        await actor.submit(SitOut(), "bob")
        await h.play_deal(passive)  # a deal already under way ends (he folds at his turn)
        await h.settle()
        assert "bob" not in actor.dealt  # receives no cards
        before = world.chips("bob")
        await h.play_deal(passive)
        assert world.chips("bob") == before  # and pays no blinds
        await actor.submit(SitIn(post=True), "bob")
        for _ in range(3):  # not in the small blind's seat: then he waits one deal
            await h.play_deal(passive)
            await h.settle()
            if "bob" in actor.dealt:
                break
        assert "bob" in actor.dealt
        rec = actor.engine.record()
        names = [s["player"] for s in rec["seats"]]
        bob, n = names.index("bob"), len(names)
        big_blind = (rec["button"] + 2) % n
        # Back in: a live big blind posted out of position (a ``post`` action,
        # HAND_RECORDS.md), or the big blind itself.
        posted = any(a["player"] == "bob" and a["action"] == "post" for a in rec["actions"])
        assert posted or bob == big_blind
        await actor.stop()

    run(scenario())
    assert world.audit_ok()


def test_a_time_out_is_explained_to_the_player(world):
    """Issue 11 §10: "a player who times out gets no explanation". The table
    plays his time-out move and tells him so, with how many more make him
    sit out (the notice stays until he acts again)."""

    async def scenario():
        h = Harness(world, time_bank=0.0)
        actor = await h.start(timer=0.05)
        await h.sit("ana", 0, 200)
        await h.sit("bob", 1, 200)
        for _ in range(400):
            await asyncio.sleep(0.01)
            timed = [s for s in actor.seats.values() if s.timeouts == 1 and s.notice]
            if timed:
                break
        seat = timed[0]
        notice = seat.notice
        view = actor.message_for(seat.name)
        await actor.stop()
        return notice, view

    notice, view = run(scenario())
    assert notice == "Temps écoulé : la table a joué à votre place (1 sur 3 avant d'être levé)."
    assert view["you"]["notice"] == notice  # what his browser shows under the controls


def test_timeouts_check_or_fold_then_sit_the_player_out(world):
    """Issue: "on time-out check if possible, else fold; after three time-outs in
    a row the player is sat out"."""

    async def scenario():
        h = Harness(world, time_bank=0.0)
        actor = await h.start(timer=0.05)
        await h.sit("ana", 0, 200)
        await h.sit("bob", 1, 200)
        for _ in range(400):  # nobody acts: the clock plays for them
            await asyncio.sleep(0.01)
            # Sat out by his third time-out, and that deal settled (its record
            # written): stopping mid-settlement would leave the last fold
            # unread by the check below.
            if any(s.sitting_out for s in actor.seats.values()) and actor.archive_id is None:
                break
        await actor.stop()
        return actor

    actor = run(scenario())
    out = [s for s in actor.seats.values() if s.sitting_out]
    # Heads-up, the small blind faces the big blind: each time-out folds (no
    # check is possible), so the first player sat out has folded three deals.
    assert len(out) == 1 and "temps écoulés" in out[0].notice
    assert actor.deals >= 5
    from tavern.store.models import ArchivedHand
    with world.factory() as s:
        records = [h.record for h in s.query(ArchivedHand).order_by(ArchivedHand.id) if not h.voided]
    folds = [a for r in records for a in r["actions"] if a["player"] == out[0].name]
    assert len(folds) == 3 and all(a["action"] == "fold" for a in folds)
    assert world.audit_ok()


def test_auto_action_plays_as_soon_as_the_turn_comes(world):
    """RULES.md (draw poker): "Auto-actions chosen in advance (check/fold, call
    any, …) are executed when the turn comes"."""

    async def scenario():
        h = Harness(world)
        actor = await h.start(seated=("ana", "bob", "cid"))
        await h.settle()
        waiting = [n for n in actor.dealt if n not in actor.engine.to_act()]
        name = waiting[0]
        actor.deal_pause = 60.0  # keep this deal on the table once it ends
        await actor.submit(Auto(auto="call_any"), name)
        before = len(actor.engine.record()["actions"])
        await h.play_deal(passive)
        rec = actor.engine.record()
        mine = [a for a in rec["actions"][before:] if a["player"] == name]
        await actor.stop()
        return mine

    mine = run(scenario())
    assert mine and mine[0]["action"] in ("call", "check")


def test_stale_action_is_refused(world):
    """Issue: "stale commands (based on an older sequence) are refused"."""

    async def scenario():
        h = Harness(world)
        actor = await h.start()
        await h.sit("ana", 0)
        await h.sit("bob", 1)
        await h.settle()
        name = actor.engine.to_act()[0]
        with pytest.raises(CommandError, match="plus ancien"):  # the view before the deal was dealt
            await actor.submit(Act(action="call", seq=actor.legal_shown[name][1] - 1), name)
        await actor.stop()

    run(scenario())


def test_an_action_is_stale_only_behind_a_move_of_the_deal(world):
    """docs/protocol.md: "an action chosen on a view older than the one that
    last changed your legal actions is refused (a publication that left them
    as they were ... does not make it stale)" — and a sequence number the
    table never published is refused too."""

    async def scenario():
        h = Harness(world)
        actor = await h.start()
        await h.sit("ana", 0)
        await h.sit("bob", 1)
        await h.settle()
        name = actor.engine.to_act()[0]
        seen = actor.seq  # the view the player chooses on
        await h.sit("cid", 2)  # another seat taken meanwhile: a publication, no move
        await h.settle()
        assert actor.seq > seen
        with pytest.raises(CommandError, match="plus ancien"):
            await actor.submit(Act(action="call", seq=actor.seq + 1), name)
        await actor.submit(Act(action="call", seq=seen), name)
        await h.settle()
        other = actor.engine.to_act()[0]
        with pytest.raises(CommandError, match="plus ancien"):  # the call changed what the other may do
            await actor.submit(Act(action="check", seq=seen), other)
        await actor.stop()

    run(scenario())


def test_draw_poker_protects_a_disconnected_player_as_all_in(settings, session_factory):
    """RULES.md (draw poker): "A player who loses the connection is treated as
    all-in for the rest of the hand — a protection allowed a limited number of
    times a day (site setting, default 3); beyond that a time-out folds"."""
    w = build_world(session_factory, game="draw", stakes={"small_bet": 2}, variant="no-limit")

    async def scenario():
        h = Harness(w, settings.model_copy(update={"disconnect_protections_per_day": 1}), grace=0.0)
        actor = await h.start(seated=("ana", "bob", "cid"))
        await h.settle()
        protected_deals = 0
        for _ in range(2):
            gone = "cid"  # loses his connection at the start of two deals
            assert gone in actor.dealt
            await actor.submit(Connect(), gone)
            await actor.submit(Disconnect(), gone)
            deal_no = actor.deals
            for _ in range(200):
                if actor.deals != deal_no or actor.engine.over:
                    break
                to_act = actor.engine.to_act()
                if not to_act:
                    await h.settle()
                    continue
                name = to_act[0]
                if name == gone:  # he is away: only the table may act for him
                    await asyncio.sleep(0.01)
                    continue
                move = passive(name, actor.engine.legal_actions(name))
                args = {k: v for k, v in move.items() if k != "action"}
                await actor.submit(Act(action=move["action"], args=args), name)
            rec = [a for a in actor.engine.record()["actions"] if a["player"] == gone]
            protected_deals += any(a["action"] == "protect" for a in rec)
            await actor.submit(Connect(), gone)
            await h.play_deal(passive)
            await h.settle()
        await actor.stop()
        return protected_deals

    # Protected once (the daily allowance), not the second time.
    assert run(scenario()) == 1


def test_a_carried_pot_is_booked_in_the_ledger_across_deals(session_factory):
    """RULES.md (Rams): "each one who took no trick is 'rams' and pays into the
    next pot as much as this pot held. The next dealer adds his 5 units" — the
    pot outlives the deal, so the table keeps it in its own ledger account."""
    import random

    from tavern.cards import SeededSource
    from tavern.services import ledger

    w = build_world(session_factory, game="rams", stakes={"unit": 1}, rake_percent=0)

    def ledger_pot() -> int:
        with w.factory() as s:
            return ledger.balance(s, "pot", w.table_id, "chips", w.table_id)

    async def scenario():
        # Seeded deals and play: the same pots every run.
        h = Harness(w, rng=SeededSource(random.Random(3)))
        actor = await h.start(seated=("ana", "bob", "cid"))
        policy = any_legal(random.Random(5))
        pots = []
        for _ in range(8):
            await h.play_deal(policy)
            await h.settle()
            if actor.engine is not None and actor.engine.over:
                continue
            # Between two deals' settlements the ledger's pot is the carry's pot.
            pots.append((ledger_pot(), (actor.carry or {}).get("pot", 0)))
        actor.deal_pause = 60.0
        await h.play_deal(policy)
        await actor.stop()
        return actor.carry, actor.deals, pots

    carry, deals, pots = run(scenario())
    assert deals >= 5 and carry is not None
    assert all(book == kept for book, kept in pots), pots
    assert any(book > 0 for book, _ in pots), pots  # the pot did carry chips over
    pot = ledger_pot()
    assert pot == carry["pot"]
    assert sum(w.chips(n) for n in ("ana", "bob", "cid")) + pot == 600
    assert w.audit_ok()

    async def restart():  # a new actor finds the carried pot where it was left
        h = Harness(w)
        actor = await h.start()
        await actor.stop()
        return actor.carry

    assert run(restart()) == carry


@pytest.mark.parametrize("game,names", [
    ("rummoli", ("ana", "bob", "cid")),
    ("gin", ("ana", "bob")),
    ("remigio", ("ana", "bob", "cid")),
    ("rami", ("ana", "bob", "cid")),
    ("double_rami", ("ana", "bob")),
    ("draw", ("ana", "bob", "cid")),
])
def test_the_runtime_plays_every_game_through_the_engine_contract(session_factory, game, names):
    """Issue: "The runtime must be game-agnostic (it drives any engine through
    the engine contract)". Each player plays the engine's own time-out move."""
    from tavern.services import ledger

    stakes = {"small_bet": 2} if game == "draw" else {"unit": 1}
    w = build_world(session_factory, game=game, stakes=stakes, rake_percent=0)

    async def scenario():
        h = Harness(w)
        actor = await h.start(seated=names)
        for _ in range(3):
            await h.play_deal(lambda name, legal: actor.engine.timeout_action(name))
            await h.settle()
        await actor.stop()
        return actor

    actor = run(scenario())
    assert actor.deals >= 2
    with w.factory() as s:
        pot = ledger.balance(s, "pot", w.table_id, "chips", w.table_id)
        from tavern.store.models import ArchivedHand
        finished = [h for h in s.query(ArchivedHand) if not h.voided]
    assert len(finished) >= 2 and all(h.record["game"] == game for h in finished)
    assert sum(w.chips(n) for n in names) + pot == 200 * len(names)  # no chip created or lost
    assert w.audit_ok()


def test_the_rams_deal_passes_to_the_right(session_factory):
    """RULES.md (Rams): "Seats follow the cut; play turns to the right of the
    dealer" — so does the deal: the next dealer sits at the dealer's right
    (the previous seat), where the other games pass it left."""
    w = build_world(session_factory, game="rams", stakes={"unit": 1}, rake_percent=0)

    async def scenario():
        h = Harness(w)
        actor = await h.start(seated=("ana", "bob", "cid"))
        dealers = []
        for _ in range(4):
            if actor.engine is not None and not actor.engine.over:
                dealers.append(actor.button_seat)
            await h.play_deal(lambda name, legal: actor.engine.timeout_action(name))
            await h.settle()
        await actor.stop()
        return dealers

    dealers = run(scenario())
    assert len(dealers) >= 3
    assert all(b == (a - 1) % 3 for a, b in itertools.pairwise(dealers)), dealers
