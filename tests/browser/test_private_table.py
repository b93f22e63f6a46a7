"""Issue 30 checks, in Chromium: "a private table is joined by link and
refused without it"."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect
from tests.browser.test_table_page import ARTIFACTS, LIVE, Player, start_server

from tavern.catalogue import french
from tavern.services import private_tables
from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand, Contest, TableConfig

pytestmark = [pytest.mark.browser, pytest.mark.db]


def _make_private(db_url: str, table_id: int) -> str:
    """The seeded table made a table among friends (spectators let in, so
    the player without the link reaches its page and tries to sit); its link's token."""
    engine = make_engine(db_url)
    token = "browser-invitation-token-0123456789abcdef"
    with session_factory(engine)() as s, s.begin():
        table = s.get_one(TableConfig, table_id)
        table.private, table.spectators = True, True
        table.invitation_hash = private_tables.token_hash(token)
    engine.dispose()
    return token


def test_private_table_joined_by_link_and_refused_without_it(browser, db_url, tmp_path):
    srv = start_server(db_url, tmp_path)
    token = _make_private(db_url, srv.table_id)
    try:
        ana, bob = Player(browser, srv, "ana"), Player(browser, srv, "bob")
        # ana opens the link: back at the table, told she is invited, and she sits.
        ana.page.goto(f"/invitation/{token}")  # the link's page grants nothing: its button does
        ana.page.get_by_role("button", name="Accepter l'invitation et rejoindre la table").click()
        ana.page.wait_for_url(re.compile(rf"/tables/{srv.table_id}$"))
        expect(ana.page.get_by_text(french("invitation_accepted", {"name": "t1"}))).to_be_visible()
        ana.page.wait_for_selector(f"{LIVE}[data-seq]")
        ana.sit(0, 100)
        # bob, without the link, watches (the owner let spectators in) but is refused the seat, in French.
        bob.page.click(f"{LIVE} button.tl-sit[data-seat='1']")
        bob.page.fill(f"{LIVE} .tl-cave-input", "100")
        bob.page.click(f"{LIVE} .tl-controls button[data-action=cave]")
        expect(bob.page.locator(f"{LIVE} .tl-error")).to_have_text(french("private_table_needs_invitation"))
        expect(bob.page.locator(f"{LIVE} .tl-seat.me")).to_have_count(0)
        assert not ana.errors and not bob.errors
        # and a forged link: the French refusal (a 403 page), no seat.
        bob.page.goto("/invitation/forged-browser-token")
        expect(bob.page.get_by_text(french("invitation_invalid"))).to_be_visible()
    finally:
        srv.stop()


def _deal_and_contest(db_url: str, table_id: int, owner_id: int) -> int:
    """A deal settled at the table (42 chips changed hands) and a contest
    starting in half an hour, written straight in the store as another
    worker would: the village page hears of both only through its socket."""
    engine = make_engine(db_url)
    now = dt.datetime.now(dt.UTC)
    with session_factory(engine)() as s, s.begin():
        s.add(ArchivedHand(table_id=table_id, game="ramponneau", ended=now, players=["ana", "bob"], pot=42,
                           rake=0, voided=False, record={}, result={}))
        contest = Contest(name="Concours du village", status="registering", starts_at=now + dt.timedelta(minutes=30),
                          fee=0, house_prize=0, starting_chips=1000, seats=6, min_players=2, max_players=10,
                          structure=[{"small_blind": 10, "big_blind": 20, "ante": 0, "seconds": 600}],
                          late_levels=0, action_timer_seconds=30, created_by=owner_id)
        s.add(contest)
        s.flush()
        contest_id = contest.id
    engine.dispose()
    return contest_id


def test_village_page_updates_from_its_one_socket(browser, db_url, tmp_path):
    """Issue 30 §4: "The village page updates without reloading … Updates
    pushed (one shared channel, not a socket per table)": the page opens
    /ws/village and its seat count follows a player sitting, with no reload
    and no read of the JSON API."""
    srv = start_server(db_url, tmp_path)
    try:
        ana = Player(browser, srv, "ana")
        village = ana.context.new_page()
        sockets: list[str] = []
        frames: list[str] = []
        polled: list[str] = []
        village.on("websocket", lambda ws: (sockets.append(ws.url),
                                            ws.on("framereceived", lambda payload: frames.append(str(payload)))))
        village.on("request", lambda r: "/api/village" in r.url and polled.append(r.url))
        village.goto("/")
        cell = village.locator(f"[data-table-seats='{srv.table_id}']")
        expect(cell).to_have_text("0/6")
        ana.sit(0, 100)
        expect(cell).to_have_text("1/6", timeout=10_000)
        # One village socket (and the logged-in player's own notices, on every page).
        assert sorted(u.rsplit("/", 2)[-2:] for u in sockets) == [["ws", "notices"], ["ws", "village"]]
        assert frames and not polled
        # "filters by game and stakes": on the page, rows hidden, none fetched.
        row = village.locator(f"tr:has([data-table-seats='{srv.table_id}'])")
        village.select_option("#village-filters select[name=game]", "rams")
        expect(row).to_be_hidden()
        village.select_option("#village-filters select[name=game]", "ramponneau")
        expect(row).to_be_visible()
        village.select_option("#village-filters select[name=stakes]", "1/2")
        expect(row).to_be_visible()
        village.select_option("#village-filters select[name=stakes]", "")
        village.select_option("#village-filters select[name=game]", "gin")
        expect(row).to_be_hidden()
        village.select_option("#village-filters select[name=game]", "")
        # "the average pot or the last deal's size, … contests opening soon": pushed too.
        pot = village.locator(f"[data-table-pot='{srv.table_id}']")
        contests = village.locator("#village-contests")
        expect(pot).to_have_text("—")
        expect(contests).to_be_hidden()
        contest_id = _deal_and_contest(db_url, srv.table_id, srv.ids["ana"])
        expect(pot).to_have_text("42", timeout=10_000)
        expect(contests).to_be_visible(timeout=10_000)
        link = contests.locator(f"li[data-contest='{contest_id}'] a")
        expect(link).to_have_text("Concours du village")
        expect(link).to_have_attribute("href", f"/concours/{contest_id}")
        expect(contests.locator(f"li[data-contest='{contest_id}'] span")).to_have_text(
            re.compile(r"^Ramponneau, début le \d\d/\d\d à \d\d:\d\d \(0 inscrit\)$"))
        ARTIFACTS.mkdir(exist_ok=True)
        village.screenshot(path=str(ARTIFACTS / "village-live.png"), full_page=True)
        # Every column in view, on a laptop and on a phone: in a 440 px grid
        # column the card scrolled sideways and hid the last deal and the
        # waiting list; on a phone each table is a block, cells labelled.
        for width in (1366, 390):
            village.set_viewport_size({"width": width, "height": 800})
            assert village.evaluate("[...document.querySelectorAll('article.tavern')]"
                                    ".every(a => a.scrollWidth <= a.clientWidth)"), width
            expect(pot).to_be_visible()
        assert village.evaluate("getComputedStyle(document.querySelector(\"[data-table-pot]\"), '::before')"
                                ".content") == '"Dernière donne"'
        village.screenshot(path=str(ARTIFACTS / "village-live-phone.png"), full_page=True)
        assert not polled and not ana.errors
    finally:
        srv.stop()
