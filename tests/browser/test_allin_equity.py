"""Issue 29 "Beyond" in Chromium: "When every player still in a Ramponneau
deal is all in before the river, the table and the replayer show each hand's
equity at that moment". The three players go all in before the flop from
their pages (the first to speak presses « Tapis », the others call); the
felt then shows « NN % » beside each tabled hand, and « Mes donnes » shows
the same figures at the last step. Screenshots: test-artifacts/
ramponneau-allin-equity.png and ramponneau-allin-equity-replay.png."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from tests.browser.test_table_page import ARTIFACTS, LIVE, PLAYERS, play, seat_everyone
from tests.browser.test_table_words import _first_hand
from tests.tables.liveserver import LiveServer, seed_table

PCT = re.compile(r"^\d{1,3}\u00a0%$")


def shove_or_call(p, offered):
    for a in ("all-in", "call", "show", "check"):
        if a in offered:
            return a
    return None


def test_the_felt_and_the_replayer_show_each_hands_equity_after_an_all_in(browser, players, db_url, tmp_path):
    # A long pause between deals: the finished deal stays on the felt while it is read.
    srv = LiveServer(db_url, tmp_path, extra_env={"TAVERN_DEAL_PAUSE_SECONDS": "6"})
    srv.table_id, srv.ids = seed_table(db_url, PLAYERS)
    srv.game = "ramponneau"
    srv.start()
    try:
        ps = players(srv)
        seat_everyone(ps, cave=100)
        ana = ps["ana"]
        for p in ps.values():
            expect(p.page.locator(f"{LIVE} .tl-equity")).to_have_count(0)  # nobody is all in yet
        play(ps, shove_or_call, done=lambda: ana.page.locator(f"{LIVE}[data-phase=over]").count() > 0)
        for p in ps.values():
            notes = p.page.locator(f"{LIVE} .tl-equity")
            expect(notes).to_have_count(3)  # beside each tabled hand
            for k in range(3):
                note = notes.nth(k)
                expect(note.locator("b")).to_have_text(PCT)
                name = note.get_attribute("data-player")
                seat = p.page.locator(f"{LIVE} .tl-seat[data-player='{name}']")
                expect(seat.locator(".tl-equity")).to_have_count(1)
                expect(seat.locator(".tl-cards .pc.face")).to_have_count(2)  # the hand is face up beside it
            shares = [int(notes.nth(k).get_attribute("data-equity") or -1) for k in range(3)]
            assert 990 <= sum(shares) <= 1010 and all(0 <= s <= 1000 for s in shares), shares
        expect(ana.page.locator(f"{LIVE} .tl-equity").first).to_have_attribute("title", re.compile("avant le flop"))
        ana.shot("ramponneau-allin-equity.png")
        felt = {n.get_attribute("data-player"): n.get_attribute("data-equity")
                for n in ana.page.locator(f"{LIVE} .tl-equity").all()}

        hand = _first_hand(db_url, srv.table_id)
        page = ana.page
        page.goto(f"/mes-donnes/{hand.id}")
        page.wait_for_selector("#rp-step")
        expect(page.locator("#rp-stage .rp-equity")).to_have_count(0)  # not before the all-in
        while not page.locator("#rp-next").is_disabled():
            page.click("#rp-next")
        said = page.locator("#rp-stage .rp-equity")
        expect(said).to_have_count(3)
        assert {n.get_attribute("data-player"): n.get_attribute("data-equity") for n in said.all()} == felt
        expect(said.first).to_contain_text("\u00a0%")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "ramponneau-allin-equity-replay.png"), full_page=True)
        for p in ps.values():
            assert not p.errors, f"{p.name}'s page: {p.errors}"
    finally:
        srv.stop()
