"""Issue 29 in Chromium: « I register at night, the village is empty … I
wanted to learn Rams before sitting with strangers ». A newcomer registers,
opens a practice Rams table from the village page against two « débutant »
house players with fast play, and plays a whole deal by clicking; the page
shows the deal's result. No other human is anywhere."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect
from tests.browser import watch
from tests.browser.test_table_page import ARTIFACTS, LIVE, Player, rams_move
from tests.tables.liveserver import LiveServer

from tavern.catalogue import ecus

pytestmark = [pytest.mark.browser, pytest.mark.db]

PASSWORD = "une nuit au village"


class Newcomer(Player):
    """A player who registers through the form (Player logs in to a seeded table)."""

    def __init__(self, browser, srv: LiveServer, name: str) -> None:
        self.name = name
        self.context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=srv.base)
        self.page = self.context.new_page()
        watch.follow(self.page, "rams")
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.goto("/register")
        self.page.fill("input[name=username]", name)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.fill("input[name=password2]", PASSWORD)
        self.page.click("form button[type=submit]")
        self.page.wait_for_url(re.compile(r"/$"))


def test_a_newcomer_plays_a_whole_rams_deal_against_the_house(browser, db_url, tmp_path) -> None:
    srv = LiveServer(db_url, tmp_path, extra_env={"TAVERN_DEAL_PAUSE_SECONDS": "1.5"})
    srv.start()
    p = None
    try:
        p = Newcomer(browser, srv, "noctambule")
        form = p.page.locator("form.practice-form")
        # The opponents' field follows the game (static/practice.js): Gin seats two.
        opponents = form.locator("input[name=opponents]")
        form.locator("select[name=game]").select_option("gin")
        expect(opponents).to_have_value("1")
        expect(opponents).to_have_attribute("max", "1")
        form.locator("select[name=game]").select_option("rams")
        expect(opponents).to_have_attribute("min", "2")
        form.locator("input[name=opponents]").fill("2")
        form.locator("select[name=level]").select_option("débutant")
        form.locator("input[name=fast]").check()
        form.locator("button[type=submit]").click()
        p.page.wait_for_url(re.compile(r"/tables/\d+$"))
        p.page.wait_for_selector(f"{LIVE}[data-seq]")
        # Two house players, marked « maison » where their names appear.
        houses = p.page.locator(f"{LIVE} .tl-seat .tl-house")
        houses.first.wait_for()
        assert houses.count() == 2
        # The player clicks his moves; the house players answer by themselves.
        deadline = time.monotonic() + 90  # a failsafe, not a measure: fast play ends a deal in seconds
        done = p.page.locator(f"{LIVE} .tl-result h3", has_text="Donne n° 1")
        moves = 0
        while not done.count():
            assert time.monotonic() < deadline, f"the deal did not end after {moves} moves"
            if rams_move(p):
                moves += 1
            else:
                time.sleep(0.05)
        # The result tells the five tricks (RULES.md, Rams: "With a widow: 3–5
        # players 5 cards"), his and the house players'.
        line = p.page.locator(f"{LIVE} .tl-result .tl-tricks").text_content() or ""
        counts = [int(n) for n in re.findall(r"(?:noctambule|Maison Ana|Maison Bruno) (\d+)", line)]
        assert counts and sum(counts) == 5, line
        ARTIFACTS.mkdir(exist_ok=True)
        p.page.screenshot(path=str(ARTIFACTS / "practice-rams-end.png"), full_page=True, animations="disabled")
        watch.check_french(p.page, p.name)
        # The page's « écus » helper says what the server's does (issue 42 §7:
        # « 0 écu », « 1 écu », « 2 écus » everywhere).
        said = p.page.evaluate("() => import('/static/cards.js').then(m => [0, 1, 2, 150].map(m.ecus))")
        assert said == [ecus(n) for n in (0, 1, 2, 150)] == ["0 écu", "1 écu", "2 écus", "150 écus"]
        # He leaves: the table closes, and the page says he left his practice
        # table (issue 42 §7) — not the owner's closing, no « 0 écus rendus ».
        p.page.locator(f"{LIVE} .tl-controls button[data-action=leave]").click()
        p.page.locator(f"{LIVE} .tl-status", has_text="Entraînement terminé").wait_for()
        center = p.page.locator(f"{LIVE} .tl-center").text_content() or ""
        assert center == "Vous avez quitté votre table d'entraînement."
        page = p.page.locator(LIVE).text_content() or ""
        assert "patron" not in page and "rendus" not in page and "écus" not in page, page
        expect(p.page.locator(f"{LIVE} .tl-closed a[href='/entrainement']")).to_have_text("S'entraîner encore")
        p.page.screenshot(path=str(ARTIFACTS / "practice-left.png"), full_page=True, animations="disabled")
        watch.check_french(p.page, p.name)
        assert p.errors == []
    finally:
        if p is not None:
            p.context.close()
        srv.stop()
