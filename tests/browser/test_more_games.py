"""Issue 11, "tests that must exist": three players play a deal of Rummoli,
Remigio and Double rami to its end in Chromium by clicking what the page
offers, and each sees in the result panel what everybody won or lost —
the amounts of the archived result; no JavaScript error on the way."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import select
from tests.browser.test_table_page import LIVE, Player, seat_everyone_generic, start_server

from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand

pytestmark = [pytest.mark.browser, pytest.mark.db, pytest.mark.slow]

#: Buttons preferred when several are offered: what moves a deal on.
PREFERRED = ("check", "call", "play", "lead", "lay", "add", "close", "knock", "draw", "discard", "pass",
             "speak", "exchange", "bid", "keep", "show")


def click(p: Player, action: str) -> None:
    """The first enabled button of ``action`` (Rummoli offers one per run)."""
    p.click_action_button(p.page.locator(f"{LIVE} .tl-actions button[data-action='{action}']:enabled").first)


def one_move(p: Player) -> bool:
    """Play one move if it is this player's turn: an offered button, or pick
    the hand's cards one by one until a card's button comes alive."""
    buttons = p.page.locator(f"{LIVE} .tl-actions button[data-action]")
    if not buttons.count():
        return False
    offered = [a for a in p.actions() if not a.startswith(("sort-", "knock-"))]
    for want in PREFERRED:
        if want in offered:
            click(p, want)
            return True
    if offered and offered != ["fold"]:
        click(p, offered[0])
        return True
    hand = p.page.locator(f"{LIVE} .tl-seat.me .tl-myhand button.pc")
    for k in range(hand.count()):
        hand.nth(k).click()
        alive = [a for a in p.actions() if not a.startswith(("sort-", "knock-"))]
        if alive and alive != ["fold"]:
            click(p, next((a for a in PREFERRED if a in alive), alive[0]))
            return True
    if "fold" in offered:
        click(p, "fold")
        return True
    return False


@pytest.mark.parametrize("game", ["rummoli", "remigio", "double_rami"])
def test_a_deal_is_played_to_its_end_by_clicking(game, browser, players, db_url, tmp_path):
    srv = start_server(db_url, tmp_path, game=game, stakes={"unit": 1})
    try:
        ps = players(srv)
        seat_everyone_generic(ps)
        if game == "rummoli":
            # Issue 11 §4: the whole board with the chips on each section, French letters.
            board = ps["ana"].page.locator(f"{LIVE} .tl-board-rummoli .tl-section")
            labels = board.locator("small").all_text_contents()
            assert board.count() == 9 and labels[:2] == ["Pot Rummoli", "Pot du poker"], labels
            assert {"V♦", "D♣", "R♥", "R♦+A♦", "7-8-9"} <= set(labels), labels
            assert all(int(c) > 0 for c in board.evaluate_all("els => els.map(e => e.dataset.chips)"))
        deadline = time.monotonic() + 150
        shot_mid = False
        while not all(p.page.locator(f"{LIVE} .tl-result h3").count() for p in ps.values()):
            assert time.monotonic() < deadline, f"{game}: the deal did not end"
            moved = False
            for p in ps.values():
                if one_move(p):
                    moved = True
                    if not shot_mid:
                        p.shot(f"{game}-mid-deal.png")
                        shot_mid = True
            if not moved:
                time.sleep(0.05)
        engine = make_engine(db_url)
        with session_factory(engine)() as s:
            hand = s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == srv.table_id,
                                                        ArchivedHand.voided.is_(False))
                             .order_by(ArchivedHand.id)).first()
            result = hand.result
        engine.dispose()
        delta = result.get("delta") or {}
        for p in ps.values():
            rows = p.page.locator(f"{LIVE} .tl-result tr[data-player]")
            shown = {rows.nth(k).get_attribute("data-player"):
                     rows.nth(k).locator("td.money").text_content().replace("\u202f", "").replace("\xa0", "")
                     for k in range(rows.count())}
            want = {name: (f"+{d}" if d > 0 else str(d)) for name, d in delta.items()}
            assert shown == want, (game, p.name, shown, want)
            assert not p.errors, f"{p.name}'s page: {p.errors}"
        ps["ana"].shot(f"{game}-result.png", full=True)
    finally:
        srv.stop()
