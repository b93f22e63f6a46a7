"""« Salle des machines » in a real browser (issue 32 §4): the page redraws
itself from the live figures — players sit down at a table while an admin
watches, and the page shows them without being reloaded."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tests.browser.test_table_page import CHROMIUM, seat_everyone, start_server  # noqa: F401
from tests.dbtools import harness_settings
from tests.tables.liveserver import PASSWORD

from tavern.services import users
from tavern.store.db import make_engine, session_scope

pytestmark = [pytest.mark.browser, pytest.mark.db]


def test_the_engine_room_redraws_itself_live(browser, players, db_url, tmp_path):
    srv = start_server(db_url, tmp_path)
    engine = make_engine(db_url)
    with session_scope(engine) as s:
        users.create_user(s, "patronne", PASSWORD, role="admin", settings=harness_settings())
    engine.dispose()
    try:
        ctx = browser.new_context(base_url=srv.base)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/login?next=/admin/salle-des-machines")
        page.fill("input[name=username]", "patronne")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url("**/admin/salle-des-machines")
        assert page.text_content("#room-players").strip() == "0"
        assert "Aucune table en cours" in page.text_content("#room-games")

        ps = players(srv)  # three players open the table's page…
        seat_everyone(ps, 150)  # …and sit down: the first deal starts
        # Within two turns of the page's five-second refresh, without a reload.
        # Read with locators, not a string predicate: Playwright polls a bare
        # expression through eval, which the page's CSP refuses (no unsafe-eval).
        expect(page.locator("#room-players")).to_have_text("3", timeout=15_000)
        expect(page.locator("#room-games")).to_contain_text("Ramponneau", timeout=15_000)
        assert page.text_content("#room-tables-total").strip() == "1"
        assert errors == []
        ctx.close()
    finally:
        srv.stop()
