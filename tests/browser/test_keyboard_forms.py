"""Issue 40 §2, « Every game by keyboard … the sit/cave/leave forms, the
chat », with « focus kept on the controls after each move »: at a cash
table, a player who only presses Tab, Entrée and types sits down, tops up
his cave, gets up and sits in again, picks up his chips and leaves, and writes in the chat; after each
the focus is still on the seat's controls (or in the box he typed in),
never thrown back to the top of the page. What the test reads: the
focused element's accessible name (Playwright's ``get_by_role`` names and
``:focus``) and what the table did (the seat, the chips, the chat's line);
screenshots in test-artifacts/keyboard-forms-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.browser.test_table_page import ARTIFACTS, LIVE, Player, start_server

pytestmark = [pytest.mark.browser, pytest.mark.db]

#: What has the focus, as a screen reader names it (close enough: the label, else the text).
FOCUSED = """() => { const a = document.activeElement;
  if (!a || a === document.body) return null;
  return (a.getAttribute('aria-label') || a.innerText || a.placeholder || a.tagName).trim(); }"""


def focused(page: Any) -> str | None:
    return page.evaluate(FOCUSED)


def tab_to(page: Any, name: re.Pattern[str], limit: int = 60) -> int:
    """Tab until the focused element's name matches; how many presses it took."""
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if (now := focused(page)) and name.search(now):
            return n
    raise AssertionError(f"{name.pattern!r} not reached in {limit} Tabs (last: {focused(page)!r})")


def in_controls(page: Any) -> bool:
    return bool(page.evaluate("() => !!document.activeElement.closest('#table-live .tl-controls')"))


def chips(page: Any) -> str:
    return page.locator(f"{LIVE} .tl-controls .tl-you b").inner_text()


def test_sit_cave_leave_and_chat_by_keyboard_only(browser, db_url, tmp_path) -> None:
    srv = start_server(db_url, tmp_path)
    try:
        ana = Player(browser, srv, "ana")  # logged in by the form; from here on only keys
        bob = Player(browser, srv, "bob")  # reads the chat
        page = ana.page
        page.keyboard.press("Tab")
        assert focused(page) == "Aller à la table", focused(page)
        page.keyboard.press("Enter")  # the skip link
        # Sit: the first free seat's button, Entrée → the cave box has the focus, typed, Entrée.
        tab_to(page, re.compile(r"^Place 1 — s'asseoir"))
        page.keyboard.press("Enter")
        assert focused(page) == "montant de la cave", focused(page)
        page.keyboard.press("Control+A")
        page.keyboard.type("100")
        page.keyboard.press("Enter")
        expect(page.locator(f"{LIVE} .tl-seat.me[data-seat='0']")).to_have_count(1, timeout=10_000)
        assert chips(page) == "100 jetons", chips(page)
        assert in_controls(page), focused(page)  # still at his seat's controls, not the page's top
        page.screenshot(path=str(ARTIFACTS / "keyboard-forms-seated.png"))
        # Top up: the cave box (Shift+Tab back to it when the focus is on a button), 20, Entrée.
        if focused(page) != "montant de la cave":
            tab_to(page, re.compile("^montant de la cave$"))
        page.keyboard.press("Control+A")
        page.keyboard.type("20")
        page.keyboard.press("Enter")
        expect(page.locator(f"{LIVE} .tl-controls .tl-you b")).to_have_text("120 jetons", timeout=10_000)
        assert in_controls(page), focused(page)
        # A cave beyond the table's maximum, by Tab to « Cave » and Entrée: refused in French, nothing changed.
        page.keyboard.press("Control+A")
        page.keyboard.type("100000")
        tab_to(page, re.compile("^Cave$"), limit=3)
        page.keyboard.press("Enter")
        expect(page.locator(f"{LIVE} .tl-error")).to_have_text(re.compile(r"^La cave doit être entre"))
        assert chips(page) == "120 jetons"
        assert focused(page) == "Cave", focused(page)
        # Up and back: « Se lever », Entrée → « Se rasseoir » has the focus, Entrée → « Se lever » again.
        tab_to(page, re.compile("^Se lever$"), limit=6)
        page.keyboard.press("Enter")
        expect(page.locator(f"{LIVE} .tl-seat.me")).to_contain_text("Levé", timeout=10_000)
        assert focused(page) == "Se rasseoir", focused(page)
        page.keyboard.press("Enter")
        expect(page.locator(f"{LIVE} .tl-seat.me")).not_to_contain_text("Levé", timeout=10_000)
        assert focused(page) == "Se lever", focused(page)
        # Leave: Shift+Tab back to « Ramasser ses gains », Entrée; the seat is free and the focus at the controls to sit again.
        for _ in range(3):
            if focused(page) == "Ramasser ses gains":
                break
            page.keyboard.press("Shift+Tab")
        assert focused(page) == "Ramasser ses gains", focused(page)
        page.keyboard.press("Enter")
        expect(page.locator(f"{LIVE} .tl-seat.me")).to_have_count(0, timeout=10_000)
        expect(page.locator(f"{LIVE} button.tl-sit[data-seat='0']")).to_have_count(1)
        assert in_controls(page), focused(page)
        page.screenshot(path=str(ARTIFACTS / "keyboard-forms-left.png"))
        # The chat: Tab to its box, type, Entrée; the line reaches bob, the box is empty and keeps the focus.
        tab_to(page, re.compile("^Votre message$"))
        page.keyboard.type("Bonsoir la compagnie")
        page.keyboard.press("Enter")
        expect(bob.page.locator("#chat-lines")).to_contain_text("Bonsoir la compagnie", timeout=10_000)
        assert focused(page) == "Votre message", focused(page)
        assert page.input_value("#chat-text") == ""
        # A phrase in one press: Tab to it from the box's side (the phrases come before it), Entrée.
        phrase = page.locator("#chat-form [data-phrase]").first.inner_text()
        page.keyboard.press("Shift+Tab")
        for _ in range(20):
            if focused(page) == phrase:
                break
            page.keyboard.press("Shift+Tab")
        assert focused(page) == phrase, (focused(page), phrase)
        page.keyboard.press("Enter")
        expect(bob.page.locator("#chat-lines li").last).to_contain_text(phrase, timeout=10_000)
        assert focused(page) == phrase, focused(page)
        page.screenshot(path=str(ARTIFACTS / "keyboard-forms-chat.png"), full_page=True)
        assert not ana.errors and not bob.errors, (ana.errors, bob.errors)
    finally:
        srv.stop()
