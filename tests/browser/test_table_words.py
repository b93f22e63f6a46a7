"""Issue 33 §8, §12, §13 in Chromium at 1280×800: Rams names its trump on
the felt for the whole deal and in the replay; Remigio's sort buttons stay
inside the player's seat box; a blocked Rummoli deal says why it ended and
what each player paid into the Rummoli pot."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import select
from tests.browser.test_more_games import one_move
from tests.browser.test_table_page import ARTIFACTS, LIVE, seat_everyone_generic, start_server

from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand

pytestmark = [pytest.mark.browser, pytest.mark.db]

SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def _first_hand(db_url: str, table_id: int) -> ArchivedHand:
    engine = make_engine(db_url)
    with session_factory(engine)() as s:
        hand = s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == table_id, ArchivedHand.voided.is_(False))
                         .order_by(ArchivedHand.id)).first()
        s.expunge_all()
    engine.dispose()
    return hand


def test_rams_names_the_trump_for_the_whole_deal_and_in_the_replay(browser, players, db_url, tmp_path):
    """RULES.md (Rams): "The next card is turned for trump; the dealer may
    exchange one card for it." The turned card shows; the felt says
    « Atout : ♥ » from the deal's start to its end, for every player, and the
    replay of the deal says it at every step."""
    srv = start_server(db_url, tmp_path, game="rams", stakes={"unit": 1})
    try:
        ps = players(srv)
        seat_everyone_generic(ps)
        seen_phases: set[str] = set()
        shot = False
        deadline = time.monotonic() + 150
        while not all(p.page.locator(f"{LIVE} .tl-result h3").count() for p in ps.values()):
            assert time.monotonic() < deadline, "the deal did not end"
            for p in ps.values():
                phase = p.page.get_attribute(LIVE, "data-phase")
                if phase in (None, "done"):
                    continue
                sign = p.page.locator(f"{LIVE} .tl-felt .tl-trump")
                assert sign.count() == 1, (p.name, phase)
                suit = sign.get_attribute("data-trump")
                assert sign.text_content() == f"Atout : {SUITS[suit]}", sign.text_content()
                seen_phases.add(phase)
                if not shot and p.page.locator(f"{LIVE} .tl-trick").count():
                    p.shot("rams-trump.png")
                    shot = True
                one_move(p)
        assert "play" in seen_phases and len(seen_phases) > 1, seen_phases  # before the tricks and during them
        hand = _first_hand(db_url, srv.table_id)
        ana = ps["ana"].page
        ana.goto(f"/mes-donnes/{hand.id}")
        ana.wait_for_selector("#rp-step")
        trumps = set()
        while True:
            sign = ana.locator("#rp-stage .rp-trump")
            assert sign.count() == 1, ana.text_content("#rp-step")
            trumps.add(sign.text_content())
            if ana.locator("#rp-next").is_disabled():
                break
            ana.click("#rp-next")
        assert len(trumps) == 1 and trumps.pop().startswith("Atout : "), trumps
        ana.screenshot(path=str(ARTIFACTS / "rams-replay-trump.png"), full_page=True)
        for p in ps.values():
            assert not p.errors, f"{p.name}'s page: {p.errors}"
    finally:
        srv.stop()


def test_remigio_sort_buttons_lie_within_the_seat_box(browser, players, db_url, tmp_path):
    """At 1280×800 the « Trier par couleur / par rang » buttons stuck out to
    the left of the player's seat box."""
    srv = start_server(db_url, tmp_path, game="remigio", stakes={"unit": 1})
    try:
        ps = players(srv)
        seat_everyone_generic(ps)
        for p in ps.values():
            assert p.page.viewport_size == {"width": 1280, "height": 800}
            seat = p.page.locator(f"{LIVE} .tl-seat.me").bounding_box()
            buttons = p.page.locator(f"{LIVE} .tl-seat.me .tl-sort button")
            assert buttons.count() == 2
            for k in range(2):
                b = buttons.nth(k).bounding_box()
                assert seat["x"] <= b["x"] and b["x"] + b["width"] <= seat["x"] + seat["width"], (p.name, seat, b)
                assert seat["y"] <= b["y"] and b["y"] + b["height"] <= seat["y"] + seat["height"], (p.name, seat, b)
            # The hand itself stays in the seat box too, and on the page.
            cards = p.page.locator(f"{LIVE} .tl-seat.me .tl-myhand .pc").evaluate_all(
                "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })")
            assert all(seat["x"] - 1 <= lo and hi <= seat["x"] + seat["width"] + 1 for lo, hi in cards), (seat, cards)
        ps["ana"].shot("remigio-sort.png")
        for p in ps.values():
            assert not p.errors, f"{p.name}'s page: {p.errors}"
    finally:
        srv.stop()


def test_a_blocked_rummoli_deal_says_why_and_what_each_paid(browser, players, db_url, tmp_path):
    """RULES.md (Rummoli): "If nobody can restart (deadlock), the deal ends
    and each player puts one chip per card held into the Rummoli pot." The
    result panel says it: the table's public result of a blocked deal (a
    known deck, tests/games/test_rummoli.py's S2) drawn by the page's own
    Rummoli module, in the page's result panel."""
    from tests.games.test_rummoli import DEAD_WIDOW, S2_DECK, finish_greedily, h, run, seats

    from tavern.games.rummoli import SPEC
    from tavern.games.rummoli import engine as rummoli
    from tavern.tables.actor import _public_result

    deal = rummoli.new_deal({}, seats(50), 2, deck=S2_DECK, carry={"board": {"rummoli": 5}})
    run(deal, DEAD_WIDOW + [("A", "lead", {"card": "2d"}), ("A", "play", {"cards": h("3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd")})])
    run(deal, [("C", "play", {"cards": ["Ad"]}), ("C", "lead", {"card": "3s"})])
    finish_greedily(deal)
    result = _public_result(deal.result(), SPEC)
    srv = start_server(db_url, tmp_path, game="rummoli", stakes={"unit": 1})
    try:
        ana = players(srv)["ana"]
        said = ana.page.evaluate("""async (r) => {
            const m = await import('/static/games/rummoli.js');
            const box = m.story(r);
            const panel = document.querySelector('#table-live .tl-result');
            panel.replaceChildren(box);
            const line = box.querySelector('.tl-said');
            return line ? [line.dataset.code, line.textContent] : null;
        }""", result)
        assert said is not None, "the result panel does not say how the deal ended"
        code, text = said
        assert code == "rummoli_deadlock"
        assert text.startswith("Donne bloquée : personne ne pouvait relancer la séquence."), text
        assert "un jeton par carte qu'il tient encore dans le pot du Rummoli" in text, text
        assert "B 7 cartes (7 jetons)" in text, text
        ana.page.locator(f"{LIVE} .tl-result").scroll_into_view_if_needed()
        ana.page.screenshot(path=str(ARTIFACTS / "rummoli-deadlock.png"), animations="disabled")
        assert not ana.errors, ana.errors
    finally:
        srv.stop()
