"""Issue 30 checks, in Chromium: "a full table's waiting list offers the seat
to the first in line, then to the next when he lets it pass"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from tests.browser.test_table_page import ARTIFACTS, LIVE, Player
from tests.tables.liveserver import LiveServer, seed_table

from tavern.catalogue import french
from tavern.services import seats
from tavern.store.db import make_engine, session_factory

pytestmark = [pytest.mark.browser, pytest.mark.db]

SEATED = ("ana", "bob", "cid", "dan", "eve", "fay")  # the table's six seats
WAITING = ("gus", "hal")


def _full_table(db_url: str, tmp_path) -> LiveServer:
    """Six players seated and sitting out (no deal runs: a seat frees as
    soon as one leaves), two more with an account."""
    srv = LiveServer(db_url, tmp_path)
    srv.table_id, srv.ids = seed_table(db_url, (*SEATED, *WAITING))
    engine = make_engine(db_url)
    with session_factory(engine)() as s, s.begin():
        for i, name in enumerate(SEATED):
            seats.sit(s, srv.table_id, srv.ids[name], i, 100)
            seats.set_sitting_out(s, srv.table_id, srv.ids[name], True)
    engine.dispose()
    srv.start()
    return srv


def _join(player: Player, place: int) -> None:
    box = player.page.locator("#waitlist")
    expect(box).to_be_visible()
    expect(player.page.locator("#waitlist-button")).to_have_text("Liste d'attente")
    player.page.click("#waitlist-button")
    expect(player.page.locator("#waitlist-text")).to_contain_text(f"place {place}")
    expect(player.page.locator("#waitlist-button")).to_have_text("Quitter la liste d'attente")


def test_the_offer_goes_to_the_first_then_to_the_next_when_he_lets_it_pass(browser, db_url, tmp_path):
    srv = _full_table(db_url, tmp_path)
    try:
        gus, hal = Player(browser, srv, "gus"), Player(browser, srv, "hal")
        _join(gus, 1)
        _join(hal, 2)
        # hal goes elsewhere on the site: the offer comes to any page.
        hal.page.goto("/")
        ana = Player(browser, srv, "ana")
        ana.page.click(f"{LIVE} button[data-action=leave]")  # « Ramasser ses gains »: seat 0 frees
        # The seat is held for the list: no « s'asseoir » on it for anybody.
        expect(gus.page.locator(f"{LIVE} .tl-seat[data-seat='0'] .tl-held")).to_have_text(
            "Place 1 réservée (liste d'attente)", timeout=10_000)
        expect(gus.page.locator(f"{LIVE} button.tl-sit[data-seat='0']")).to_have_count(0)
        gus.page.goto("/mes-donnes")
        offer = gus.page.locator("#notices .offer")
        expect(offer).to_be_visible(timeout=10_000)
        expect(offer.locator(".offer-text")).to_have_text(
            french("seat_offer_notice", {"table": "t1", "seconds": 30}))
        expect(hal.page.locator("#notices .offer")).to_have_count(0)  # the second waits his turn
        gus.page.click("#notices .offer button.offer-pass")  # « Laisser passer »
        expect(gus.page.get_by_text(french("seat_offer_passed", {"table": "t1"}))).to_be_visible()
        expect(offer).to_have_count(0)
        hal_offer = hal.page.locator("#notices .offer")
        expect(hal_offer).to_be_visible(timeout=10_000)
        expect(hal_offer.locator("button.offer-take")).to_have_text("Prendre la place")
        ARTIFACTS.mkdir(exist_ok=True)
        hal.page.screenshot(path=str(ARTIFACTS / "waiting-list-offer.png"))
        hal.page.click("#notices .offer button.offer-take")  # « Prendre la place »: seated, at the table
        hal.page.wait_for_url(re.compile(rf"/tables/{srv.table_id}$"))
        expect(hal.page.locator(f"{LIVE} .tl-seat.me[data-seat='0']")).to_be_visible(timeout=10_000)
        expect(hal.page.locator("#waitlist")).to_be_hidden()
        hal.page.screenshot(path=str(ARTIFACTS / "waiting-list-seated.png"), full_page=True)
        assert not gus.errors and not hal.errors and not ana.errors
    finally:
        srv.stop()
