"""Property tests of the ledger with Hypothesis: random transfers, alone and
from several threads at once, never create or destroy money and never leave a
player below zero (ARCHITECTURE.md, "Money": "Money never appears or
disappears … At any moment the sum over all accounts is what the house
issued"). Run on SQLite, and on PostgreSQL when TAVERN_DATABASE_URL points
there (scripts/with-postgres.sh)."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.services.helpers import make_table, make_user

from tavern.services import ledger
from tavern.services.ledger import House, InsufficientFunds
from tavern.store.db import get_engine, run_transaction
from tavern.store.db import session_factory as make_factory

pytestmark = pytest.mark.db

N_PLAYERS = 3
players = st.integers(0, N_PLAYERS - 1)
amounts = st.integers(1, 400)

operations = st.one_of(
    st.tuples(st.just("issue"), players, amounts, st.sampled_from(["ecus", "tokens"])),
    st.tuples(st.just("pay"), players, players, amounts, st.sampled_from(["ecus", "tokens"])),
    st.tuples(st.just("shop"), players, amounts),
    st.tuples(st.just("cave"), players, amounts),
    st.tuples(st.just("cashout"), players),
    st.tuples(st.just("deal"), players, players, amounts, st.integers(0, 20)),
)

def db_settings(max_examples: int) -> settings:
    """Each example builds a fresh database: no deadline, fixtures allowed."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


class World:
    """A fresh database with players, a tavern owner and one table."""

    def __init__(self, fresh_db) -> None:
        self.factory = make_factory(get_engine(fresh_db()))
        with self.factory() as s, s.begin():
            owner = make_user(s, "patron")
            self.users = [make_user(s, f"p{i}").id for i in range(N_PLAYERS)]
            self.owner = owner.id
            self.table = make_table(s, owner).id

    def run(self, op: tuple) -> tuple | None:
        """Apply ``op`` in its own transaction; return its effect (a list of
        (account key, change)) or None when refused for lack of funds."""
        kind = op[0]
        uid = self.users

        def work(s):
            if kind == "issue":
                _, p, amount, cur = op
                ledger.issue(s, uid[p], amount, cur)
                return [(("user", uid[p], cur, None), amount)]
            if kind == "pay":
                _, p, q, amount, cur = op
                if p == q:
                    return []
                ledger.transfer(
                    s, ledger.account(s, "user", uid[p], cur), ledger.account(s, "user", uid[q], cur),
                    amount, cur, "gift",
                )
                return [(("user", uid[p], cur, None), -amount), (("user", uid[q], cur, None), amount)]
            if kind == "shop":
                _, p, amount = op
                ledger.transfer(
                    s, ledger.account(s, "user", uid[p], "ecus"), ledger.house(s, House.SHOP, "ecus"),
                    amount, "ecus", "shop",
                )
                return [(("user", uid[p], "ecus", None), -amount)]
            if kind == "cave":
                _, p, amount = op
                ledger.cave(s, uid[p], self.table, amount)
                return [(("user", uid[p], "ecus", None), -amount), (("user", uid[p], "chips", self.table), amount)]
            if kind == "cashout":
                _, p = op
                got = ledger.cash_out(s, uid[p], self.table)
                return [(("user", uid[p], "ecus", None), got), (("user", uid[p], "chips", self.table), -got)]
            if kind == "deal":
                _, w, loser, amount, rake = op
                if w == loser or rake > amount:
                    return []
                ledger.settle_deal(s, self.table, {uid[w]: amount - rake, uid[loser]: -amount}, rake, self.owner, "h")
                return [
                    (("user", uid[w], "chips", self.table), amount - rake),
                    (("user", uid[loser], "chips", self.table), -amount),
                    (("user", self.owner, "ecus", None), rake),
                ]
            raise AssertionError(kind)

        try:
            return run_transaction(self.factory, work)
        except InsufficientFunds:
            return None

    def check(self, effects: list[list]) -> None:
        expected: Counter = Counter()
        for effect in effects:
            for key, change in effect:
                expected[key] += change
        with self.factory() as s:
            report = ledger.audit(s)
            assert report.ok, report
            assert report.totals == {"ecus": 0, "tokens": 0, "chips": 0}
            for (kind, owner, cur, table), value in expected.items():
                assert ledger.balance(s, kind, owner, cur, table) == value
            everyone = [self.owner, *self.users]
            held = sum(ledger.balance(s, "user", u, "ecus") for u in everyone)
            held += ledger.balance(s, "table", self.table, "ecus")
            # issued = minus all house balances: what was issued less what the shop took back
            assert held == report.issued["ecus"]


@db_settings(25)
@given(ops=st.lists(operations, min_size=1, max_size=25))
def test_random_transfers_conserve_money_and_match_a_model(fresh_db, ops):
    world = World(fresh_db)
    model: Counter = Counter()
    effects = []
    for op in ops:
        effect = world.run(op)
        if effect is None:
            # Refused: then the model says some player account would go negative.
            trial = model.copy()
            for key, change in world_preview(world, op, model):
                trial[key] += change
            assert any(v < 0 for k, v in trial.items() if k[0] == "user"), op
            continue
        for key, change in effect:
            model[key] += change
            assert model[key] >= 0, (op, key)
        effects.append(effect)
    world.check(effects)


def world_preview(world: World, op: tuple, model: Counter) -> list:
    """What ``op`` would have done, from the model alone (for refusals)."""
    u, t = world.users, world.table
    kind = op[0]
    if kind == "pay":
        _, p, q, amount, cur = op
        return [(("user", u[p], cur, None), -amount), (("user", u[q], cur, None), amount)]
    if kind == "shop":
        return [(("user", u[op[1]], "ecus", None), -op[2])]
    if kind == "cave":
        return [(("user", u[op[1]], "ecus", None), -op[2])]
    if kind == "deal":
        _, _w, loser, amount, _rake = op
        return [(("user", u[loser], "chips", t), -amount)]
    raise AssertionError(f"{op} cannot be refused")


@db_settings(12)
@given(
    seed_money=st.lists(st.integers(0, 300), min_size=N_PLAYERS, max_size=N_PLAYERS),
    batches=st.lists(st.lists(operations, min_size=1, max_size=10), min_size=2, max_size=4),
)
def test_concurrent_random_transfers_conserve_money(fresh_db, seed_money, batches):
    """Several threads post random transfers at the same time: whatever
    interleaving the database chose, the final balances are the sum of the
    movements that succeeded, the audit balances and no player is negative."""
    world = World(fresh_db)
    effects: list[list] = []
    for p, amount in enumerate(seed_money):
        if amount:
            effects.append(world.run(("issue", p, amount, "ecus")))
    lock = threading.Lock()
    barrier = threading.Barrier(len(batches))
    errors: list[BaseException] = []

    def worker(batch: list[tuple]) -> None:
        try:
            barrier.wait()
            for op in batch:
                effect = world.run(op)
                if effect is not None:
                    with lock:
                        effects.append(effect)
        except BaseException as exc:  # surfaced below, not lost in the thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(b,)) for b in batches]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    world.check(effects)
