"""``tavern seed``: the demo world, idempotent."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from tavern.games.registry import GAMES
from tavern.services import ledger, taverns, users
from tavern.services.seed import seed
from tavern.store.db import run_transaction
from tavern.store.models import Base

pytestmark = pytest.mark.db


def _counts(session) -> dict[str, int]:
    return {t.name: session.scalar(select(func.count()).select_from(t)) for t in Base.metadata.sorted_tables}


def test_seed_builds_the_demo_world_and_running_it_twice_changes_nothing(settings, session_factory):
    logins = run_transaction(session_factory, lambda s: seed(s, settings))
    with session_factory() as s:
        first = _counts(s)
        for login in logins:
            assert users.authenticate(s, login.username, login.password, settings) is not None
        assert users.find_by_username(s, "admin").role == "admin"
        tables = {t.table.name: t.table.game for t in taverns.list_open_tables(s)}
        # Issue 2: "open tables as soon as game engines exist" — one per game.
        assert sorted(tables.values()) == sorted(GAMES)
        assert tables["Ramponneau 1/2"] == "ramponneau" and tables["Draw Poker"] == "draw"
        alice = users.find_by_username(s, "alice")
        assert ledger.balance(s, "user", alice.id, "ecus") > 0
        assert ledger.balance(s, "user", alice.id, "tokens") > 0
        assert ledger.audit(s).ok
    run_transaction(session_factory, lambda s: seed(s, settings))
    with session_factory() as s:
        assert _counts(s) == first


def test_the_seeded_tables_can_deal(settings, session_factory):
    """The demo tables' configurations are accepted by their game engines,
    through the table runtime's own mapping (a deal starts, someone acts)."""
    from tavern.games.registry import load, spec
    from tavern.tables.bank import SqlBank
    from tavern.tables.engine_config import engine_config

    run_transaction(session_factory, lambda s: seed(s, settings))
    bank = SqlBank(session_factory, settings)
    with session_factory() as s:
        ids = [t.table.id for t in taverns.list_open_tables(s)]
    assert len(ids) == len(GAMES)
    for table_id in ids:
        info = bank.table_info(table_id)
        fewest = spec(info.game).min_players
        deal = load(info.game).new_deal(
            engine_config(info), [{"player": p, "chips": 200} for p in "ABCDEFGH"[:fewest]], 0
        )
        assert not deal.over and deal.to_act()
