"""Migrations keep the money: upgrading a database that already holds ledger
rows (the SQLite table rebuild of 0002 must not trip over the foreign keys
pointing at it)."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import text
from tests.conftest import alembic_config

from tavern.store.db import make_engine


@pytest.mark.db
def test_upgrade_to_head_keeps_ledger_rows(tmp_path, postgres_url):
    url = postgres_url or f"sqlite:///{tmp_path / 'old.db'}"
    cfg = alembic_config(url)
    if postgres_url:
        command.downgrade(cfg, "base")
    command.upgrade(cfg, "0001")
    engine = make_engine(url)
    with engine.begin() as c:
        c.execute(text("INSERT INTO ledger_accounts (id, key, owner_kind, owner_id, currency, balance) "
                       "VALUES (1, 'house:1:ecus:-', 'house', 1, 'ecus', -5), (2, 'user:1:ecus:-', 'user', 1, 'ecus', 5)"))
        c.execute(text("INSERT INTO ledger_entries (id, debit_id, credit_id, amount, currency, reason, reference, "
                       "time, transfer_id) VALUES (1, 1, 2, 5, 'ecus', 'issue', '', CURRENT_TIMESTAMP, 't1')"))
    engine.dispose()
    command.upgrade(cfg, "head")
    engine = make_engine(url)
    with engine.begin() as c:
        assert c.execute(text("SELECT sum(balance) FROM ledger_accounts")).scalar() == 0
        assert c.execute(text("SELECT count(*) FROM ledger_entries")).scalar() == 1
        # the new owner kind is accepted after the upgrade
        c.execute(text("INSERT INTO ledger_accounts (id, key, owner_kind, owner_id, currency, table_id, balance) "
                       "VALUES (3, 'pot:1:chips:-', 'pot', 1, 'chips', NULL, 0)"))
        c.execute(text("DELETE FROM ledger_accounts WHERE id = 3"))
    engine.dispose()
    if postgres_url:  # leave the shared database as the other tests expect it
        with make_engine(url).begin() as c:
            c.execute(text("DELETE FROM ledger_entries"))
            c.execute(text("DELETE FROM ledger_accounts"))
