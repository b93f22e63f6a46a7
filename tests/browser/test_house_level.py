"""Issue 37 §2 in Chromium: « owners (house seats) may choose it » — the
tavern's owner sets his house players' level to « fort » beside the table's
house seats on « Gérer sa taverne » (no serious axe-core violation on the
page), and a player alone at that table is dealt in beside two house
players (the live table started at the owner's level)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tests.browser.axe import audit
from tests.browser.test_a11y import login
from tests.browser.test_table_page import ARTIFACTS, LIVE, Player
from tests.tables.liveserver import LiveServer, seed_table

from tavern.services import house_seats
from tavern.store.db import make_engine, session_factory
from tavern.store.models import TableConfig

pytestmark = [pytest.mark.browser, pytest.mark.db]


def test_the_owner_chooses_fort_and_a_player_is_dealt_in_beside_them(browser, db_url, tmp_path) -> None:
    srv = LiveServer(db_url, tmp_path, extra_env={"TAVERN_DEAL_PAUSE_SECONDS": "1.0"})
    srv.table_id, srv.ids = seed_table(db_url, ("ana",))
    engine = make_engine(db_url)
    with session_factory(engine)() as s, s.begin():
        s.get_one(TableConfig, srv.table_id).house_seats = 2
        house_seats.fund(s, 10_000, srv.ids["ana"])
    engine.dispose()
    srv.start()
    p = None
    try:
        patron = login(browser, srv, "patron")
        patron.goto("/ma-taverne")
        form = patron.locator("form.house-level")
        level = form.get_by_label("Niveau de la maison")
        expect(level).to_have_value("habitué")
        level.select_option("fort")
        form.get_by_role("button", name="Régler").click()
        expect(patron.locator("main")).to_contain_text("les joueurs de la maison jouent au niveau « fort »")
        expect(patron.locator("form.house-level").get_by_label("Niveau de la maison")).to_have_value("fort")
        patron.screenshot(path=str(ARTIFACTS / "house-level.png"), full_page=True)
        assert audit(patron, "owner, house level") == []
        engine = make_engine(db_url)
        with session_factory(engine)() as s:
            assert s.get_one(TableConfig, srv.table_id).house_level == "fort"
        engine.dispose()
        p = Player(browser, srv, "ana")
        p.sit(0, 150)
        expect(p.page.locator(f"{LIVE} .tl-seat .tl-house")).to_have_count(2, timeout=20_000)
        expect(p.page.locator(f"{LIVE} .tl-seat.me .tl-cards")).to_be_visible(timeout=20_000)
        assert not p.errors, p.errors
    finally:
        if p is not None:
            p.context.close()
        srv.stop()
