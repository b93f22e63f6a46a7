"""The table chat in Chromium (issue 30 §1, "Checks: Chromium: two players chat at a Rams
table; one hides the other; an admin mutes a third"): the one-click phrases and free text,
markup shown as text, a player hiding another for himself, and an admin's mute reaching the
muted player's page at once, his next message refused in French."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from sqlalchemy import select
from tests.browser.test_table_page import ARTIFACTS, Player, start_server
from tests.dbtools import harness_settings
from tests.tables.liveserver import PASSWORD

from tavern.services import users
from tavern.store.db import make_engine, session_factory
from tavern.store.models import ChatMessage

pytestmark = [pytest.mark.browser, pytest.mark.db]

LINES = "#chat-panel .chat-line"


def say(p: Player, text: str) -> None:
    p.page.fill("#chat-text", text)
    p.page.click("#chat-send")


def line(p: Player, author: str, text: str):
    return p.page.locator(f"{LINES}[data-author='{author}'] .chat-text", has_text=text)


def stored(db_url: str) -> list[str]:
    engine = make_engine(db_url)
    try:
        with session_factory(engine)() as s:
            return list(s.scalars(select(ChatMessage.text).order_by(ChatMessage.id)))
    finally:
        engine.dispose()


def test_players_chat_hide_and_an_admin_mutes_at_a_rams_table(browser, players, db_url, tmp_path):
    srv = start_server(db_url, tmp_path, game="rams", stakes={"unit": 1})
    engine = make_engine(db_url)
    with session_factory(engine)() as s, s.begin():
        users.create_user(s, "admin", PASSWORD, role="admin", settings=harness_settings())
    engine.dispose()
    try:
        ps = players(srv)
        ana, bob, cid = ps["ana"], ps["bob"], ps["cid"]
        ana.sit(0, 100)
        bob.sit(1, 100)
        # Free text, with markup: shown as the text it is, on both pages.
        say(ana, "Bonne chance <b>à tous</b>")
        for p in (ana, bob):
            expect(line(p, "ana", "Bonne chance <b>à tous</b>")).to_have_count(1)
            expect(p.page.locator(f"{LINES} .chat-text b")).to_have_count(0)  # no markup reached the page
        # A one-click phrase.
        bob.page.click("#chat-panel button[data-phrase='Merci']")
        expect(line(ana, "bob", "Merci")).to_have_count(1)
        # ana hides bob, for herself only: his lines go, his next one does not come.
        ana.page.locator(f"{LINES}[data-author='bob'] .chat-hide").first.click()
        expect(ana.page.locator(f"{LINES}[data-author='bob']")).to_have_count(0)
        expect(ana.page.locator("#chat-hidden")).to_contain_text("bob")
        say(bob, "tu ne me lis plus")
        say(cid, "moi je lis tout")  # a spectator writes too
        expect(line(cid, "bob", "tu ne me lis plus")).to_have_count(1)
        expect(line(ana, "cid", "moi je lis tout")).to_have_count(1)  # after bob's, in order
        expect(ana.page.locator(f"{LINES}[data-author='bob']")).to_have_count(0)
        expect(line(bob, "bob", "tu ne me lis plus")).to_have_count(1)
        # The admin mutes cid from the admins' page: cid's page is told at once.
        admin = Player.__new__(Player)
        admin.context = browser.new_context(base_url=srv.base)
        page = admin.context.new_page()
        page.goto("/login?next=/admin/discussion")
        page.fill("input[name=username]", "admin")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(re.compile(r"/admin/discussion$"))
        page.fill("#site-mute input[name=username]", "cid")
        page.fill("#site-mute input[name=minutes]", "30")
        page.click("#site-mute button[type=submit]")
        expect(page.locator(".flash")).to_contain_text("cid ne peut plus écrire jusqu'au")
        notice = cid.page.locator("#chat-notice")
        expect(notice).to_contain_text("Vous ne pouvez plus écrire ici jusqu'au")
        expect(notice).to_have_class(re.compile(r"\bmuted\b"))
        say(cid, "je parle encore")
        expect(notice).to_have_class(re.compile(r"\berror\b"))  # the refusal of his message, in French
        expect(notice).to_contain_text("Vous ne pouvez plus écrire ici jusqu'au")
        say(ana, "Bien joué")
        expect(line(cid, "ana", "Bien joué")).to_have_count(1)  # he still reads
        expect(cid.page.locator(LINES, has_text="je parle encore")).to_have_count(0)
        ARTIFACTS.mkdir(exist_ok=True)
        ana.page.locator("#chat-panel").scroll_into_view_if_needed()
        ana.page.screenshot(path=str(ARTIFACTS / "chat-ana.png"), full_page=True, animations="disabled")
        cid.page.screenshot(path=str(ARTIFACTS / "chat-cid-muted.png"), full_page=True, animations="disabled")
        admin.context.close()
        for p in (ana, bob, cid):
            assert not p.errors, p.errors
        assert "je parle encore" not in stored(db_url)
    finally:
        srv.stop()
