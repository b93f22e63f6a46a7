"""The end of the game: the owner closes a table with players seated.

The chips a table carries from deal to deal (Rummoli's board, the Rams pot)
sit in its ``pot`` ledger account; closing the table shares them out among
the seated players, cashes everybody out and closes the table.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from tests.dbtools import harness_settings
from tests.tables.conftest import World, build_world, play_deal, settle

from tavern.cards import SeededSource
from tavern.services import ledger, taverns
from tavern.store.models import ArchivedHand, Inventory, Seat, TableConfig
from tavern.tables.actor import CommandError
from tavern.tables.bank import SqlBank
from tavern.tables.broadcast import LocalBroadcaster
from tavern.tables.closing import order_from_dealer, share_equally
from tavern.tables.commands import Sit, SitOut
from tavern.tables.manager import TableManager

pytestmark = [pytest.mark.db]

NAMES = ("ana", "bob", "cid")
CAVE = 200


def run(coro):
    return asyncio.run(coro)


def give_deck(w: World, kind: str) -> int:
    """A deck item of the owner's, stored in the tavern and used by the table."""
    with w.factory() as s, s.begin():
        inv = Inventory(item_id=taverns.item(s, kind).id, owner_id=w.owner_id, tavern_id=w.tavern_id,
                        table_id=w.table_id)
        s.add(inv)
        s.flush()
        return inv.id


def pot(w: World) -> int:
    with w.factory() as s:
        return ledger.balance(s, "pot", w.table_id, "chips", w.table_id)


class Table:
    """A live table through the manager, as the web app holds it, with one
    inbox per player and one for spectators."""

    def __init__(self, w: World, **options: Any) -> None:
        self.w = w
        self.bank = SqlBank(w.factory, harness_settings())
        self.broadcaster = LocalBroadcaster()
        self.manager = TableManager(self.bank, self.broadcaster, deal_pause=0.0, **options)
        self.inbox: dict[str | None, list[dict[str, Any]]] = {}

    async def start(self):
        for i, name in enumerate(NAMES):
            self.bank.sit(self.w.table_id, self.w.users[name], i, CAVE)
        for name in [*NAMES, None]:
            box = self.inbox.setdefault(name, [])
            self.broadcaster.subscribe(self.w.table_id, name, lambda t, box=box: box.append(json.loads(t)))
        await self.manager.start()
        return await self.manager.get(self.w.table_id)

    async def play_deal(self, actor, policy) -> None:
        """Play the current deal to its end (and its settlement)."""
        await play_deal(actor, lambda name: policy(actor, name))


def timeout_policy(actor, name):
    return actor.engine.timeout_action(name)


def seeded_policy(seed: int):
    rng = random.Random(seed)
    return lambda actor, name: rng.choice(actor.engine.legal_actions(name))


def check_closed(w: World, before: dict[str, int], awards: dict[str, int], deck_id: int) -> None:
    """Every chip accounted for: the pot is empty, each player's écus are
    1000 − cave + his final chips, the audit is OK, the table closed, its deck back."""
    assert pot(w) == 0
    for name in NAMES:
        assert w.chips(name) == 0
        assert w.balance(name) == 1000 - CAVE + before[name] + awards.get(name, 0), name
    assert w.audit_ok()
    with w.factory() as s:
        table = s.get(TableConfig, w.table_id)
        assert table.status == "closed" and table.closed is not None
        assert s.query(Seat).filter_by(table_id=w.table_id).count() == 0
        deck = s.get(Inventory, deck_id)
        assert deck.table_id is None and deck.tavern_id == w.tavern_id
        assert ledger.balance(s, "table", w.table_id, "chips", w.table_id) == 0
        closing = s.query(ArchivedHand).filter_by(table_id=w.table_id).order_by(ArchivedHand.id.desc()).first()
        assert closing.record["closing"] is True and closing.result["awards"] == awards


def spy_close(actor, w: World) -> list[tuple[dict[str, Any], dict[str, int]]]:
    """Record what the table hands to the closing transaction: the carry and
    each player's chips after the last deal's settlement."""
    seen: list[tuple[dict[str, Any], dict[str, int]]] = []
    original = actor.bank.close_table

    def spy(table_id, owner_id, awards, record, result):
        seen.append((record["carry"], {s.name: s.chips for s in actor.seats.values()}))
        assert pot(w) == sum(awards.values())
        return original(table_id, owner_id, awards, record, result)

    actor.bank.close_table = spy
    return seen


def test_rummoli_board_is_shared_out_when_the_owner_closes(session_factory):
    """RULES.md (Rummoli): "unwon chips stay and accumulate" and "The game ends
    when the players agree (the table closes); leftover chips go to the highest
    card cut or to the best ordinary poker hand" — the owner's choice, here the
    best poker hand. Then "'Ramasser ses gains' converts all the player's chips
    back to écus and leaves the seat" — "not during a hand in which the player
    is still involved": asked during a deal, the close waits for its end."""
    w = build_world(session_factory, game="rummoli", stakes={"unit": 1}, rake_percent=0,
                    options={"leftover": "poker"})
    deck_id = give_deck(w, "deck52")

    async def scenario():
        t = Table(w, rng=SeededSource(random.Random(11)))
        actor = await t.start()
        await settle(actor)
        for _ in range(3):
            await t.play_deal(actor, timeout_policy)
        assert actor.engine is not None and not actor.engine.over and actor.deals == 4
        assert pot(w) == sum(actor.carry["board"].values()) > 0  # the board waits in the pot account
        out = await t.manager.close_table(w.table_id, w.owner_id)
        assert out == {"closed": False, "notice": "La table fermera à la fin de la donne en cours."}
        assert not actor.closed
        with pytest.raises(CommandError, match="Le patron ferme"):
            await actor.submit(Sit(seat=4, cave=CAVE), "dan", user_id=w.users["dan"])
        seen = spy_close(actor, w)
        await t.play_deal(actor, timeout_policy)
        assert actor.closed and actor.deals == 4  # no new deal started
        assert w.table_id not in t.manager.actors  # stopped and forgotten
        assert await t.manager.get(w.table_id) is None
        with pytest.raises(CommandError, match="fermée"):
            await actor.submit(SitOut(), "ana")
        await t.manager.close()
        return seen, t

    [(carry, before)], t = run(scenario())
    board = sum(carry["board"].values())
    assert board > 0 and sum(before.values()) + board == CAVE * len(NAMES)
    closed = t.inbox[None][-1]
    assert closed["type"] == "closed" and closed["method"] == "poker"
    awards = closed["awards"]
    assert sum(awards.values()) == board  # all the board's chips reach the players
    assert set(awards) <= set(closed["winners"]) <= set(NAMES)
    assert closed["ecus"] == {n: before[n] + awards.get(n, 0) for n in NAMES}
    check_closed(w, before, awards, deck_id)
    # Connected clients are told: a state whose table is closed, then "closed".
    for name in [*NAMES, None]:
        state, last = t.inbox[name][-2:]
        assert state["type"] == "state" and state["table"]["closed"] is True and state["table"]["players"] == []
        assert last == closed


def test_rams_pot_is_shared_equally_when_the_owner_closes(session_factory):
    """RULES.md (Rams): "Stakes 'au coup' (default): the dealer puts 5 units in
    the pot … each one who took no trick is 'rams' and pays into the next pot as
    much as this pot held" — the pot outlives the deal. Closing the table
    between deals ends the game: the pot is shared equally among the seated
    players, the remainder one chip each by seat order from the dealer's right
    (docs/games/rams.md, "Fin de partie"); then everybody "Ramasser ses gains"."""
    w = build_world(session_factory, game="rams", stakes={"unit": 1}, rake_percent=0)
    deck_id = give_deck(w, "deck32")

    async def scenario():
        t = Table(w, rng=SeededSource(random.Random(3)))
        actor = await t.start()
        await settle(actor)
        policy = seeded_policy(5)
        actor.deal_pause = 60.0  # one deal at a time: the test starts the next
        for _ in range(30):  # play until a deal leaves a pot to carry
            await t.play_deal(actor, policy)
            if pot(w) > 0:
                break
            actor.next_deal_at = actor.clock()
            await settle(actor)
        assert actor.engine.over and actor.archive_id is None and pot(w) == actor.carry["pot"] > 0
        dealer_seat = actor.button_seat
        seen = spy_close(actor, w)
        out = await t.manager.close_table(w.table_id, w.owner_id)
        assert actor.closed and w.table_id not in t.manager.actors
        await t.manager.close()
        return out, seen, dealer_seat

    out, [(carry, before)], dealer_seat = run(scenario())
    total = carry["pot"]
    order = [NAMES[i] for i in order_from_dealer([0, 1, 2], dealer_seat, right=True)]
    assert out["closed"] and out["method"] == "equal"
    assert out["awards"] == {n: a for n, a in share_equally(total, order).items() if a}
    assert sum(out["awards"].values()) == total
    check_closed(w, before, out["awards"], deck_id)


def test_a_game_without_carry_just_cashes_everybody_out(session_factory):
    """RULES.md: "'Ramasser ses gains' converts all the player's chips back to
    écus and leaves the seat"; a game that carries nothing only needs that."""
    w = build_world(session_factory, game="rami", stakes={"unit": 1}, rake_percent=0)
    deck_id = give_deck(w, "deck52")

    async def scenario():
        t = Table(w)
        actor = await t.start()
        await settle(actor)
        actor.deal_pause = 60.0
        await t.play_deal(actor, timeout_policy)
        before = {n: w.chips(n) for n in NAMES}
        out = await t.manager.close_table(w.table_id, w.owner_id)
        await t.manager.close()
        return out, before

    out, before = run(scenario())
    assert out["closed"] and out["awards"] == {} and sum(out["ecus"].values()) == CAVE * len(NAMES)
    check_closed(w, before, {}, deck_id)


def test_only_the_owner_closes_and_a_refusal_changes_nothing(session_factory):
    """RULES.md: "A tavern has an owner" — only he closes its tables."""
    w = build_world(session_factory, game="rummoli", stakes={"unit": 1}, rake_percent=0)

    async def scenario():
        t = Table(w)
        actor = await t.start()
        actor.deal_pause = 60.0
        actor.next_deal_at = None
        with pytest.raises(CommandError, match="patron"):
            await t.manager.close_table(w.table_id, w.users["ana"])
        assert not actor.closed and len(actor.seats) == 3
        await t.manager.close()

    run(scenario())
    assert all(w.chips(n) == CAVE for n in NAMES) and w.audit_ok()


def test_sharing_order_from_the_dealer():
    """Rams "turns to the right (counter-clockwise)": from the dealer's right,
    the dealer last; the other games go left."""
    assert order_from_dealer([0, 1, 2, 3, 4], 2, right=True) == [1, 0, 4, 3, 2]
    assert order_from_dealer([0, 1, 2, 3, 4], 2, right=False) == [3, 4, 0, 1, 2]
    assert order_from_dealer([0, 3, 5], 0, right=True) == [5, 3, 0]
    assert order_from_dealer([0, 3, 5], None, right=True) == [0, 3, 5]
    assert share_equally(11, ["b", "a", "c"]) == {"b": 4, "a": 4, "c": 3}
