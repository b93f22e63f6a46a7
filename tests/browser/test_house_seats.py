"""Issue 29 §2 in Chromium: a player sits alone at a tavern's table whose
owner allows two house players; they sit beside him, marked « (maison) » on
the felt, and the deal starts."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from tests.browser.test_table_page import ARTIFACTS, LIVE, Player
from tests.tables.liveserver import LiveServer, seed_table

from tavern.services import house_seats
from tavern.store.db import make_engine, session_factory
from tavern.store.models import TableConfig

pytestmark = [pytest.mark.browser, pytest.mark.db]


def test_a_player_alone_sees_two_house_players_sit_beside_him(browser, db_url, tmp_path) -> None:
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
        p = Player(browser, srv, "ana")
        p.sit(0, 150)
        houses = p.page.locator(f"{LIVE} .tl-seat .tl-house")
        expect(houses).to_have_count(2, timeout=20_000)
        expect(houses.first).to_have_text(" (maison)")
        # The deal starts: ana is dealt in beside them (her cards on the felt).
        expect(p.page.locator(f"{LIVE} .tl-seat.me .tl-cards")).to_be_visible(timeout=20_000)
        # A house player is never « Déconnecté »: his seat is driven from the moment he sits.
        expect(p.page.locator(LIVE).get_by_text("Déconnecté")).to_have_count(0)
        p.page.screenshot(path=str(ARTIFACTS / "house-seats.png"))
        assert not p.errors, p.errors
    finally:
        if p is not None:
            p.context.close()
        srv.stop()
