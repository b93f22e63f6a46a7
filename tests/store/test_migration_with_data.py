"""Migrations keep the money: upgrading a database that already holds ledger
rows (the SQLite table rebuild of 0002 must not trip over the foreign keys
pointing at it)."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import inspect, text
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



@pytest.mark.db
def test_upgrade_turns_the_old_no_cookie_visits_into_absent_browsers(tmp_path, postgres_url):
    """Issue 33: the visits written before 0007 noted a missing browser cookie
    as "-"; the upgrade makes them NULL (no browser) and keeps the real ones;
    the downgrade writes "-" again."""
    from tests.services.helpers import make_table, make_user

    from tavern.store.db import session_factory

    url = postgres_url or f"sqlite:///{tmp_path / 'visits.db'}"
    cfg = alembic_config(url)
    if postgres_url:
        command.downgrade(cfg, "base")
    command.upgrade(cfg, "head")
    engine = make_engine(url)
    with session_factory(engine)() as s:  # a player and a table, through the models
        owner, ana = make_user(s, "patron"), make_user(s, "ana")
        table_id, ana_id = make_table(s, owner).id, ana.id
        s.commit()
    engine.dispose()
    command.downgrade(cfg, "0006")
    engine = make_engine(url)
    insert = text("INSERT INTO table_visits (table_id, user_id, address, browser, first_seen, last_seen) "
                  "VALUES (:t, :u, :a, :b, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)")
    with engine.begin() as c:
        c.execute(insert, [{"t": table_id, "u": ana_id, "a": "1.2.3.4", "b": "-"},
                           {"t": table_id, "u": ana_id, "a": "1.2.3.4", "b": "h1"}])
    engine.dispose()
    command.upgrade(cfg, "head")
    engine = make_engine(url)
    browsers = "SELECT browser FROM table_visits ORDER BY id"
    with engine.begin() as c:
        assert [r[0] for r in c.execute(text(browsers))] == [None, "h1"]
    engine.dispose()
    command.downgrade(cfg, "0006")
    engine = make_engine(url)
    with engine.begin() as c:
        assert [r[0] for r in c.execute(text(browsers))] == ["-", "h1"]
    engine.dispose()
    if postgres_url:  # leave the shared database empty at head, as the other tests expect it
        command.downgrade(cfg, "base")
        command.upgrade(cfg, "head")


@pytest.mark.db
def test_house_level_upgrade_gives_existing_tables_habitue_and_downgrade_drops_it(tmp_path, postgres_url):
    """Issue 37 §2: 0015 adds the owner's house level; a table opened before
    it (house seats at « habitué », the only level they played) keeps it; the
    downgrade removes the column and keeps the table."""
    from tests.services.helpers import make_table, make_user

    from tavern.store.db import session_factory

    url = postgres_url or f"sqlite:///{tmp_path / 'house_level.db'}"
    cfg = alembic_config(url)
    if postgres_url:
        command.downgrade(cfg, "base")
    command.upgrade(cfg, "head")
    engine = make_engine(url)
    with session_factory(engine)() as s:
        owner = make_user(s, "patron")
        table_id = make_table(s, owner).id
        s.commit()
    engine.dispose()
    command.downgrade(cfg, "0014")
    engine = make_engine(url)
    with engine.begin() as c:
        assert "house_level" not in {col["name"] for col in inspect(c).get_columns("table_configs")}
        c.execute(text("UPDATE table_configs SET house_seats = 2 WHERE id = :t"), {"t": table_id})
    engine.dispose()
    command.upgrade(cfg, "head")
    engine = make_engine(url)
    with engine.begin() as c:
        assert c.execute(text("SELECT house_seats, house_level FROM table_configs WHERE id = :t"),
                         {"t": table_id}).one() == (2, "habitué")
    engine.dispose()
    if postgres_url:  # leave the shared database empty at head, as the other tests expect it
        command.downgrade(cfg, "base")
        command.upgrade(cfg, "head")
