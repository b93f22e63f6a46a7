"""A live table on a real migrated database, driven without a browser."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker
from tests.dbtools import harness_settings
from tests.tables.liveserver import LiveServer, seed_table

from tavern.services import ledger
from tavern.settings import Settings
from tavern.store.models import TableConfig, Tavern, User, Village
from tavern.tables.actor import TableActor
from tavern.tables.bank import SqlBank
from tavern.tables.broadcast import LocalBroadcaster
from tavern.tables.commands import Act, Sit, Sync
from tavern.tables.publication import HELD, HELD_YOU

_HASH = "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"


@dataclasses.dataclass
class World:
    factory: sessionmaker[Session]
    owner_id: int
    table_id: int
    tavern_id: int
    users: dict[str, int]

    def balance(self, name: str, currency: str = "ecus") -> int:
        with self.factory() as s:
            return ledger.balance(s, "user", self.users[name], currency)

    def chips(self, name: str) -> int:
        with self.factory() as s:
            return ledger.chips(s, self.users[name], self.table_id)

    def audit_ok(self) -> bool:
        with self.factory() as s:
            return ledger.audit(s).ok


def build_world(factory: sessionmaker[Session], *, game: str = "ramponneau", stakes: dict[str, Any] | None = None,
                variant: str = "", names: tuple[str, ...] = ("ana", "bob", "cid", "dan"), level: int = 1,
                rake_percent: int = 5, options: dict[str, Any] | None = None, timer: int = 30,
                password_hash: str = _HASH) -> World:
    """An owner with a tavern and one open table, and players with 1,000 écus
    each. ``password_hash``: the players' (and owner's) password, hashed once
    (the default one matches no known password: fine when nobody logs in)."""
    with factory() as s, s.begin():
        owner = User(username="patron", password_hash=password_hash, level=1, role="player")
        s.add(owner)
        s.flush()
        village = Village(name="Montmartre")
        s.add(village)
        s.flush()
        tavern = Tavern(village_id=village.id, owner_id=owner.id, name="Au Lapin Agile")
        s.add(tavern)
        s.flush()
        table = TableConfig(
            tavern_id=tavern.id, name="t1", game=game, variant=variant,
            stakes=stakes or {"small_blind": 1, "big_blind": 2}, options=options or {},
            buy_in_min=20, buy_in_max=200, rake_percent=rake_percent, rake_cap=None, no_flop_no_drop=True,
            seats=6, action_timer_seconds=timer, status="open",
        )
        s.add(table)
        s.flush()
        users = {}
        for n in names:
            u = User(username=n, password_hash=password_hash, level=level, role="player")
            s.add(u)
            s.flush()
            ledger.issue(s, u.id, 1000)
            users[n] = u.id
        return World(factory, owner.id, table.id, tavern.id, users)


class Harness:
    """An actor and one inbox per player, on the in-process broadcaster."""

    def __init__(self, world: World, settings: Settings | None = None, **options: Any) -> None:
        self.world = world
        # The site's settings: the harness's, or the test's own overrides.
        self.bank = SqlBank(world.factory, settings or harness_settings())
        self.broadcaster = LocalBroadcaster()
        self.options = {"deal_pause": 0.0, **options}
        self.inbox: dict[str | None, list[dict[str, Any]]] = {}
        self.actor: TableActor | None = None

    async def start(self, timer: float | None = None, seated: tuple[str, ...] = ()) -> TableActor:
        """Start the actor; ``seated`` players sit (cave 200) before it starts,
        so that the first deal has them all."""
        import json

        for i, name in enumerate(seated):
            self.bank.sit(self.world.table_id, self.world.users[name], i, 200)

        info = self.bank.table_info(self.world.table_id)
        if timer is not None:
            info = dataclasses.replace(info, action_timer_seconds=timer)
        self.actor = TableActor(info, self.bank, self.broadcaster, **self.options)
        for name in [*self.world.users, None]:
            box = self.inbox.setdefault(name, [])
            self.broadcaster.subscribe(self.world.table_id, name, lambda t, box=box: box.append(json.loads(t)))
        await self.actor.start()
        return self.actor

    async def sit(self, name: str, seat: int, cave: int = 200) -> Any:
        return await self.actor.submit(Sit(seat=seat, cave=cave), name, user_id=self.world.users[name])

    async def settle(self) -> None:
        await settle(self.actor)

    def last(self, name: str | None) -> dict[str, Any]:
        """The last message, a state as a client holds it: with the table's
        held keys (docs/protocol.md ``table_at``) put back."""
        return self.with_table(name, self.inbox[name][-1])

    def with_table(self, name: str | None, msg: dict[str, Any]) -> dict[str, Any]:
        """``msg`` with the table's settings and fair commitments of the
        publication its ``table_at`` names, which must be one this recipient
        received (a state carrying them has the table's ``id``)."""
        if msg.get("type") != "state":
            return msg
        before = self.inbox[name][:self.inbox[name].index(msg) + 1]
        if "id" not in msg["table"]:
            carrier = next(m for m in reversed(before) if m["type"] == "state" and "id" in m["table"])
            assert carrier["seq"] == msg["table_at"] and carrier["epoch"] == msg["epoch"], (carrier["seq"], msg["table_at"])
            msg = {**msg, "table": {**msg["table"], **{k: carrier["table"][k] for k in HELD if k in carrier["table"]}}}
        if msg.get("you") and "hands" not in msg["you"]:
            carrier = next(m for m in reversed(before) if m["type"] == "state" and "hands" in (m.get("you") or {}))
            assert carrier["seq"] == msg["you_at"], (carrier["seq"], msg["you_at"])
            msg = {**msg, "you": {**msg["you"], **{k: carrier["you"][k] for k in HELD_YOU}}}
        return msg

    def held(self, name: str | None) -> dict[str, Any]:
        """The last state as a client holds it (docs/protocol.md): with the
        last result and revealed seed of the publication ``result_at`` names,
        which must be one this recipient received."""
        states = [m for m in self.inbox[name] if m["type"] == "state"]
        last = states[-1]
        carrier = next(m for m in reversed(states) if "last_result" in m)
        assert carrier is last or carrier["seq"] == last["result_at"], (carrier["seq"], last["result_at"])
        return {**self.with_table(name, last), "last_result": carrier["last_result"],
                **({"fair": carrier["fair"]} if "fair" in carrier else {})}

    async def play_deal(self, policy: Callable[[str, list[dict[str, Any]]], dict[str, Any]]) -> int:
        """Play the current deal to its end with ``policy(name, legal)``; returns the deal number."""
        actor = self.actor
        return await play_deal(actor, lambda name: policy(name, actor.engine.legal_actions(name)))


async def settle(actor: TableActor) -> None:
    """Let the actor work through what is queued, then wait for it to answer."""
    for _ in range(20):
        await asyncio.sleep(0)
    await actor.submit(Sync())


async def play_deal(actor: TableActor, choose: Callable[[str], dict[str, Any]], limit: int = 1000) -> int:
    """Play the actor's current deal to its end (and its settlement), each
    move ``choose(name)``; returns the deal number."""
    deal_no = actor.deals
    for _ in range(limit):
        if actor.engine is None or actor.engine.over or actor.deals != deal_no:
            break
        to_act = actor.engine.to_act()
        if not to_act:
            await settle(actor)
            continue
        name = to_act[0]
        move = dict(choose(name))
        action = move.pop("action")
        await actor.submit(Act(action=action, args=move), name)
    await settle(actor)
    return deal_no


def passive(name: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
    names = [a["action"] for a in legal]
    for choice in ("check", "call"):
        if choice in names:
            return {"action": choice}
    if "draw" in names:
        return {"action": "draw", "discard": []}
    return {"action": names[0]}


def random_policy(rng: random.Random) -> Callable[[str, list[dict[str, Any]]], dict[str, Any]]:
    """A random legal move of poker: a bet or raise of a random amount in
    its range, a draw of random cards."""
    def policy(name: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        a = rng.choice(legal)
        move = {"action": a["action"]}
        if "min" in a and "max" in a:
            move["amount"] = rng.randint(a["min"], a["max"])
        if a["action"] == "draw":
            hand = a["cards"]
            move = {"action": "draw", "discard": rng.sample(hand, rng.randint(0, len(hand)))}
        return move

    return policy


def any_legal(rng: random.Random) -> Callable[[str, list[dict[str, Any]]], dict[str, Any]]:
    """A random legal move, as offered: for games that spell every move out (Rams)."""
    def policy(name: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        return dict(rng.choice(legal))

    return policy


@pytest.fixture
def world(session_factory: sessionmaker[Session]) -> World:
    return build_world(session_factory)


@pytest.fixture
def server(db_url, tmp_path):
    """A real server process on a free port, one table seated ana, bob and
    cid (the socket tests of tests/tables: test_ws.py, test_ws_chat.py)."""
    srv = LiveServer(db_url, tmp_path)
    table_id, ids = seed_table(db_url, ("ana", "bob", "cid"))
    srv.table_id, srv.ids = table_id, ids
    srv.start()
    yield srv
    srv.stop()
