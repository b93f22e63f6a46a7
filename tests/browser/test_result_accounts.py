"""Issue 42 §10 in Chromium: « Results a newcomer can follow: at Rams and
Rummoli the chips won and lost shown do not add up (the dealer's pot, the
rams penalty, chips left on the board are not named); at Gin nothing says how
63 points become « Payé 113 jetons » or what the cocotte mark means. Every
result panel accounts for every chip of the deal (the shown amounts and what
stays in a pot sum to zero), in the game's own words. »

Three (two at Gin) players click a deal to its end; the result panel's
amounts, its account's lines and what stays in the pot are read from the
page and checked against the archived result — the page's sum, not ours."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from sqlalchemy import select
from tests.browser.test_gin_knock import best_discard, pick
from tests.browser.test_more_games import one_move
from tests.browser.test_table_page import LIVE, Player, rams_move, seat_everyone_generic, start_server

from tavern.store.db import make_engine, session_factory
from tavern.store.models import ArchivedHand

pytestmark = [pytest.mark.browser, pytest.mark.db]


def archived(db_url: str, table_id: int, won: bool = False) -> dict[str, Any]:
    """The table's first finished deal's result (``won``: the last one a player won, Gin)."""
    engine = make_engine(db_url)
    with session_factory(engine)() as s:
        hands = s.scalars(select(ArchivedHand).where(ArchivedHand.table_id == table_id, ArchivedHand.voided.is_(False))
                          .order_by(ArchivedHand.id)).all()
        results = [h.result for h in hands if h.result]
    engine.dispose()
    if won:
        return [r for r in results if (r.get("scoring") or {}).get("winner")][-1]
    return results[0]


def number(text: str) -> int:
    return int(text.replace("\u202f", "").replace("\xa0", "").replace("−", "-").replace("+", "") or 0)


def panel_adds_up(p: Player, result: dict[str, Any]) -> list[str]:
    """The page's result panel: its amounts are the archive's, its account's
    lines move the pot by what it kept, and the two sum to zero; returns the
    lines' sentences."""
    shown = {row.get_attribute("data-player"): number(row.locator("td.money").text_content())
             for row in p.page.locator(f"{LIVE} .tl-result tr[data-player]").all()}
    assert shown == result["delta"]
    acc = p.page.locator(f"{LIVE} .tl-result .tl-account")
    before, after = int(acc.get_attribute("data-before")), int(acc.get_attribute("data-after"))
    assert (before, after) == (result["account"]["before"], result["account"]["after"])
    moved = [int(x) for x in acc.locator("li").evaluate_all("els => els.map(e => e.dataset.pot)")]
    assert before + sum(moved) == after
    assert sum(shown.values()) + after - before == 0  # the shown amounts and what stays sum to zero
    assert "le compte est juste" in acc.locator(".tl-account-sum").text_content()
    return acc.locator("li").all_text_contents()


def test_a_rams_deal_names_the_dealers_stake_the_shares_the_rams_and_the_pot_left(browser, players, db_url,
                                                                                  tmp_path) -> None:
    """RULES.md, Rams: "the dealer puts 5 units in the pot (one per trick).
    Players who take part share the pot in proportion to their tricks; each
    one who took no trick is "rams" and pays into the next pot as much as
    this pot held." """
    srv = start_server(db_url, tmp_path, game="rams", stakes={"unit": 1})
    try:
        ps = players(srv)
        seat_everyone_generic(ps)
        deadline = time.monotonic() + 120
        while not all(p.page.locator(f"{LIVE} .tl-result .tl-account").count() for p in ps.values()):
            assert time.monotonic() < deadline, "the deal did not end"
            if not any([rams_move(p) for p in ps.values()]):
                time.sleep(0.05)
        result = archived(db_url, srv.table_id)
        for p in ps.values():
            lines = panel_adds_up(p, result)
            assert re.fullmatch(r"\w+ donne et met 5 jetons au pot, qui en tenait 0 de la donne précédente : "
                                r"le pot de la donne est de 5 jetons\.", lines[0]), lines
            rams = [n for n, t in result["tricks"].items() if t == 0]
            assert [t for t in lines if "est rams" in t] == [
                f"{n} est rams (aucun pli) : il paie au pot suivant autant que le pot tenait, 5 jetons." for n in rams]
            assert lines[-1] == f"Reste au pot pour la donne suivante : {result['carry']['pot']} jeton" + (
                "s." if result["carry"]["pot"] > 1 else ".")
            assert not p.errors, p.errors
        ps["ana"].shot("rams-account.png", full=True)
    finally:
        srv.stop()


def test_a_rummoli_deal_names_the_antes_each_section_and_the_board_left(browser, players, db_url, tmp_path) -> None:
    """RULES.md, Rummoli: "At each deal every player antes 1 chip on each of
    the 9 sections; unwon chips stay and accumulate." """
    srv = start_server(db_url, tmp_path, game="rummoli", stakes={"unit": 1})
    try:
        ps = players(srv)
        seat_everyone_generic(ps)
        deadline = time.monotonic() + 150
        while not all(p.page.locator(f"{LIVE} .tl-result .tl-account").count() for p in ps.values()):
            assert time.monotonic() < deadline, "the deal did not end"
            if not any([one_move(p) for p in ps.values()]):
                time.sleep(0.05)
        result = archived(db_url, srv.table_id)
        for p in ps.values():
            lines = panel_adds_up(p, result)
            assert lines[0] == "Mises : chacun met 1 jeton sur chacune des 9 sections du tableau, 27 jetons en tout."
            assert lines[-1].startswith("Restent sur le tableau pour la donne suivante : ")
            assert any(t.startswith("Pot du poker : ") for t in lines), lines
            assert not p.errors, p.errors
        ps["ana"].shot("rummoli-account.png", full=True)
    finally:
        srv.stop()


def test_gin_says_how_the_points_become_the_chips_paid_and_what_a_cocotte_is(browser, players, db_url,
                                                                           tmp_path) -> None:
    """RULES.md, Gin: "knocking: … the knocker scores the difference of
    deadwood; if the opponent has less, the opponent scores the difference +
    20 …; A won deal that is not gin earns 1 cocotte. … Final count per
    player: the three columns' points + 25 per cocotte + …" """
    srv = start_server(db_url, tmp_path, game="gin", stakes={"unit": 1})
    try:
        ps = players(srv)
        ana, bob = ps["ana"], ps["bob"]
        ana.sit(0, 100)
        bob.sit(1, 100)
        deadline = time.monotonic() + 150
        while not all(p.page.locator(f"{LIVE} .tl-result .tl-gin-account").count() for p in (ana, bob)):
            assert time.monotonic() < deadline, "nobody could knock"
            acted = False
            for p in (ana, bob):
                offered = p.actions()
                knock = p.page.locator(f"{LIVE} .tl-actions button[data-action=knock]")
                if "draw" in offered:
                    p.click_action_button(p.page.locator(f"{LIVE} .tl-actions button[data-action=draw]",
                                                         has_text="la pioche"))
                    acted = True
                elif knock.count() or p.page.locator(f"{LIVE} .tl-actions button[data-action=discard]").count():
                    pick(p, best_discard(p.my_cards()))
                    if knock.count() and knock.is_enabled():
                        p.click_action_button(knock)
                    else:
                        p.click_action("discard")
                    acted = True
            if not acted:
                time.sleep(0.05)
        sc = archived(db_url, srv.table_id, won=True)["scoring"]
        paid = sum(sc.get("paid", {}).values())
        for p in (ana, bob):
            lines = p.page.locator(f"{LIVE} .tl-result .tl-gin-account li").all_text_contents()
            text = " ".join(lines)
            assert "Une cocotte marque une donne gagnée" in text and "vaut 25 points au compte du match" in text
            change = abs(sc["match_change"][sc["winner"]])
            assert f"change de {change} point" in text and f"({sc['points']} point" in text, lines
            if paid:
                assert f" × 1 jeton le point = {paid} jeton" in text, lines
            # The points: the difference of what each kept (+ 20 when the knocker has more), or gin's bonus.
            if sc["ending"] == "knock":
                f = sc["factor"]
                assert f"garde {sc['knocker_points']} point" in text and f"{sc['points'] // f} point" in text
            assert not p.errors, p.errors
        ana.shot("gin-account.png", full=True)
    finally:
        srv.stop()


def test_gin_petit_gin_at_deal_scoring_shows_points_plus_cocottes_times_25(browser, players, db_url,
                                                                           tmp_path) -> None:
    """RULES.md, Gin: « "petit gin": all 10 cards in melds after discarding —
    opponent's deadwood + 25 and 2 cocottes », paid « deal » (the table option:
    the deal's points + 25 per cocotte, × the unit). A real engine's petit gin,
    its public result drawn by the page's own Gin module: the panel says how
    the points are made and how they and the cocottes become what was paid."""
    from tests.games.rami.test_gin import A_LOOSE, B_MELDS, deal

    from tavern.games.registry import spec

    e = deal(B_MELDS + ["7s", "Kd"], A_LOOSE, unit=1, scoring="deal")
    e.act("B", "gin", card="Kd")
    result = spec("gin").public_result(e.result())
    sc = result["scoring"]
    assert sc["ending"] == "petit gin" and sc["cocottes"] == 2
    paid = sc["paid"]["A"]
    assert paid == sc["points"] + 2 * 25  # what the engine made the loser pay
    srv = start_server(db_url, tmp_path, game="gin", stakes={"unit": 1})
    try:
        page = players(srv)["ana"].page
        lines = page.evaluate(
            "r => import('/static/games/rami.js').then(m => Array.from(m.story(r).querySelectorAll('p, li'))"
            ".map(e => e.textContent))", result)
    finally:
        srv.stop()
    assert f"Payé : A {paid} jetons." in lines
    assert (f"Petit gin de B : les {sc['opponent_points']} points restés à A + 25 = {sc['points']} points."
            in lines), lines
    assert any(t.startswith("B gagne 2 cocottes (petit gin). Une cocotte marque une donne gagnée") for t in lines)
    assert f"A paie ({sc['points']} points + 2 cocottes × 25) × 1 jeton le point = {paid} jetons." in lines
