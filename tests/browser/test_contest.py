"""A contest in real browsers (Debian's Chromium driven by Playwright) against
a real server process. Issue 13: "an admin creates a contest in the browser,
three players register in their own browser contexts, play it to the end
(fast blinds), and see the final standings and their prize in their écus"."""

from __future__ import annotations

import datetime as dt
import re
import time
from zoneinfo import ZoneInfo

import httpx
import pytest
from playwright.sync_api import expect
from tests.browser.test_table_page import ARTIFACTS, LIVE, browser  # noqa: F401  (the module's browser fixture)
from tests.dbtools import harness_settings
from tests.tables.liveserver import PASSWORD, LiveServer

from tavern.services import ledger, users
from tavern.store.db import make_engine, session_factory
from tavern.store.models import User

pytestmark = [pytest.mark.browser, pytest.mark.db]

PLAYERS = ("ana", "bob", "cid")


def seed(db_url: str) -> None:
    engine = make_engine(db_url)
    with session_factory(engine)() as s, s.begin():
        hashed = users.hash_password(PASSWORD, harness_settings())
        s.add(User(username="admin", password_hash=hashed, role="admin"))
        for n in PLAYERS:
            u = User(username=n, password_hash=hashed, role="player")
            s.add(u)
            s.flush()
            ledger.issue(s, u.id, 1000)
    engine.dispose()


def open_page(browser, srv: LiveServer, name: str, errors: list[str]):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=srv.base)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"{name}: {exc}"))
    page.goto("/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return context, page


def test_admin_creates_three_players_register_play_to_the_end(browser, db_url, tmp_path):  # noqa: F811
    seed(db_url)
    srv = LiveServer(db_url, tmp_path, extra_env={"TAVERN_DEAL_PAUSE_SECONDS": "0.5"})
    srv.start()
    errors: list[str] = []
    contexts = []
    try:
        # The admin creates the contest with the form (fast blinds, 3 players).
        ctx, admin = open_page(browser, srv, "admin", errors)
        contexts.append(ctx)
        admin.goto("/admin/concours")
        assert "10/20 10" in admin.input_value("textarea[name=structure]")  # the default structure offered
        start = (dt.datetime.now(ZoneInfo("Europe/Paris")) + dt.timedelta(seconds=12)).strftime("%Y-%m-%dT%H:%M:%S")
        admin.fill("input[name=name]", "Concours éclair")
        admin.fill("input[name=starts_at]", start)
        admin.fill("input[name=fee]", "100")
        admin.fill("input[name=starting_chips]", "600")
        admin.fill("input[name=seats]", "6")
        admin.fill("input[name=min_players]", "3")
        admin.fill("input[name=max_players]", "3")
        admin.fill("textarea[name=structure]", "50/100 0.1\n100/200 0.1\n200/400 0.1\n300/600 0.5")
        admin.fill("input[name=action_timer]", "5")
        admin.click("#create-contest button[type=submit]")
        admin.wait_for_url(re.compile(r"/admin/concours/\d+$"))
        contest_id = int(admin.url.rsplit("/", 1)[1])
        assert "Inscriptions ouvertes" in admin.content()

        # Three players register, each in his own browser context.
        pages = {}
        for name in PLAYERS:
            ctx, page = open_page(browser, srv, name, errors)
            contexts.append(ctx)
            page.goto("/concours")
            page.click("text=Concours éclair")
            page.click("button:has-text(\"S'inscrire\")")
            page.wait_for_selector("text=Vous êtes inscrit au concours.")
            pages[name] = page

        # The contest starts on time: each player follows the link to his table.
        deadline = time.monotonic() + 40
        for page in pages.values():
            while page.locator("#my-table").count() == 0:
                assert time.monotonic() < deadline, "the contest did not start"
                time.sleep(0.5)
                page.goto(f"/concours/{contest_id}")
            page.click("#my-table")
            page.wait_for_selector(f"{LIVE}[data-seq]")
            page.wait_for_selector(f"{LIVE} .tl-contest:not([hidden])")
            assert "Concours — niveau" in page.locator(f"{LIVE} .tl-contest").text_content()
            # A contest counts no daily hand: its own sentence, never « Mains du jour : undefined ».
            expect(page.locator(f"{LIVE} .tl-hands")).to_contain_text("Concours : pas de donnes quotidiennes.")
            assert "undefined" not in page.locator(f"{LIVE} .tl-hands").text_content()

        # They play: check or call, whatever the blinds, until one is left.
        def finished() -> bool:
            return httpx.get(f"{srv.base}/api/contests/{contest_id}").json()["status"] == "finished"

        deadline = time.monotonic() + 90
        while not finished():
            if time.monotonic() > deadline:
                log = next(srv.data_dir.glob("server-*.log")).read_text()[-4000:]
                watch = httpx.get(f"{srv.base}/api/contests/{contest_id}").json()
                raise AssertionError(f"the contest did not end: {watch}\n{log}")
            acted = False
            for page in pages.values():
                buttons = page.locator(f"{LIVE} .tl-actions button[data-action]")
                offered = buttons.evaluate_all("els => els.filter(e => !e.disabled).map(e => e.dataset.action)")
                for choice in ("check", "call", "show"):
                    if choice in offered:
                        try:
                            page.click(f"{LIVE} .tl-actions button[data-action='{choice}']", timeout=2000)
                            acted = True
                        except Exception:  # the view moved on meanwhile: look again
                            pass
                        break
            if not acted:
                time.sleep(0.1)

        # Everybody sees the final standings; the winner his prize, in his écus.
        info = httpx.get(f"{srv.base}/api/contests/{contest_id}").json()
        winner = next(s["name"] for s in info["standings"] if s["place"] == 1)
        assert info["prize_pool"] == 300 and [s["prize"] for s in info["standings"]].count(300) == 1
        for name, page in pages.items():
            page.goto(f"/concours/{contest_id}")
            assert "Classement final" in page.content()
            result = page.locator("#my-result").text_content()
            page.goto("/compte")
            ecus = int(re.sub(r"\D", "", page.locator("#ecus").text_content()))
            if name == winner:
                assert "terminé 1er et gagné 300 écus" in result
                assert ecus == 1000 - 100 + 300
            else:
                assert "gagné" not in result and ecus == 900
        ARTIFACTS.mkdir(exist_ok=True)
        pages[winner].goto(f"/concours/{contest_id}")
        pages[winner].screenshot(path=str(ARTIFACTS / "contest-final.png"), full_page=True)
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()
        srv.stop()
