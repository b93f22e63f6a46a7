"""Gin in a real browser (issue 10 §4): the knocker's melds are his choice —
he gathers each meld's cards with « Choisir mes combinaisons », picks the
card he throws, knocks, and the deal is settled with the melds he showed
(the archived record keeps them). All of it by keyboard (issue 40 §2,
« choosing cards … to lay »): « m » and the arrows through his hand, space
to pick, « a » and Tab to his moves, Entrée; after each of « Choisir mes
combinaisons », « Garder cette combinaison » and « Fini » the focus is on
his hand, where he picks next."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import select
from tests.browser.test_table_page import LIVE, Player, start_server

from tavern.games.rami import gin
from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand

pytestmark = [pytest.mark.browser, pytest.mark.db]


def best_discard(hand: list[str]) -> str:
    def left(c: str) -> int:
        rest = list(hand)
        rest.remove(c)
        return gin._min_deadwood(rest)
    return min(hand, key=lambda c: (left(c), -gin.melds.points(c, gin.RULES)))


def pick(p: Player, card: str) -> None:
    """By keyboard: « m » to his hand, → to the card, space."""
    p.page.keyboard.press("m")
    for _ in range(20):
        if p.page.evaluate("() => document.activeElement.dataset.card") == card:
            break
        p.page.keyboard.press("ArrowRight")
    assert p.page.evaluate("() => document.activeElement.dataset.card") == card, card
    p.page.keyboard.press(" ")


def press(p: Player, action: str) -> None:
    """By keyboard: « a » to his moves, Tab to the one whose data-action is ``action``, Entrée."""
    p.page.keyboard.press("a")
    for _ in range(20):
        if p.page.evaluate("() => document.activeElement.dataset.action") == action:
            break
        p.page.keyboard.press("Tab")
    assert p.page.evaluate("() => document.activeElement.dataset.action") == action, action
    p.page.keyboard.press("Enter")


def on_his_hand(p: Player) -> bool:
    return bool(p.page.evaluate("() => !!document.activeElement.closest('#table-live .tl-myhand')"))


def test_the_knocker_chooses_his_melds_in_the_browser(browser, players, db_url, tmp_path):
    srv = start_server(db_url, tmp_path, game="gin", stakes={"unit": 1})
    try:
        ps = players(srv)
        ana, bob = ps["ana"], ps["bob"]
        ana.sit(0, 100)
        bob.sit(1, 100)
        deadline = time.monotonic() + 150
        knocker = None
        while knocker is None:
            assert time.monotonic() < deadline, "nobody could knock"
            acted = False
            for p in (ana, bob):
                offered = p.actions()
                if "knock-choose" in offered:
                    knocker = p
                    break
                if "draw" in offered:
                    p.click_action_button(p.page.locator(f"{LIVE} .tl-actions button[data-action=draw]",
                                                         has_text="la pioche"))
                    acted = True
                elif p.page.locator(f"{LIVE} .tl-actions button[data-action=discard]").count():
                    card = best_discard(p.my_cards())
                    pick(p, card)
                    p.click_action("discard")
                    acted = True
            if not acted and knocker is None:
                time.sleep(0.05)  # between deals (a gin or an empty stock ends one): the next comes
        hand = knocker.my_cards()
        # A card to throw whose rest knocks; the melds: one arrangement of the rest.
        choices = []
        for c in hand:
            rest = list(hand)
            rest.remove(c)
            if gin._min_deadwood(rest) and gin.knock_arrangements(rest, 11):
                choices.append((c, gin.knock_arrangements(rest, 11)))
        throw, options = None, []
        for c, arrangements in choices:
            pick(knocker, c)
            if knocker.page.locator(f"{LIVE} .tl-actions button[data-action=knock]").is_enabled():
                throw, options = c, arrangements
                break
        assert throw, (hand, choices)
        chosen = options[-1]
        press(knocker, "knock-choose")
        assert on_his_hand(knocker)
        for meld in chosen.melds:
            for c in meld.cards:
                pick(knocker, c)
            keep = knocker.page.locator(f"{LIVE} button[data-action=knock-meld]")
            assert keep.is_enabled()
            press(knocker, "knock-meld")
            assert on_his_hand(knocker)
        press(knocker, "knock-done")
        assert on_his_hand(knocker)
        pick(knocker, throw)
        button = knocker.page.locator(f"{LIVE} .tl-actions button[data-action=knock]")
        assert "avec mes combinaisons" in button.text_content()
        knocker.shot("gin-knock-chosen.png")
        before = knocker.seq()
        press(knocker, "knock")
        knocker.page.wait_for_function("([s]) => Number(document.getElementById('table-live').dataset.seq) > s",
                                       arg=[before], timeout=10_000)
        for p in (ana, bob):
            p.page.wait_for_selector(f"{LIVE} .tl-result h3", timeout=15_000)
        knocker.shot("gin-knock-result.png")
        engine = make_engine(db_url)
        with session_factory(engine)() as s:
            record = s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == srv.table_id,
                                                          ArchivedHand.voided.is_(False))
                               .order_by(ArchivedHand.id.desc())).first().record
        engine.dispose()
        knock = record["actions"][-1]
        assert knock["action"] == "knock" and knock["card"] == throw
        assert sorted(map(sorted, knock["melds"])) == sorted(sorted(m.cards) for m in chosen.melds)
        for p in ps.values():
            assert not p.errors, f"{p.name}'s page: {p.errors}"
    finally:
        srv.stop()
