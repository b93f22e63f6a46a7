"""Issue 40 §2-§4, checked as a blind player plays: « A Chromium test per
game that plays a whole practice deal using only the keyboard, reading only
the live region and the accessible names (…), and checks each announcement
against what happened (the engine's record of the deal) », with axe-core
(tests/browser/axe.py) at his turn, at another's turn and at the result,
at a laptop's and a phone's width.

What the test reads: the lines the live region (role « log ») receives, as
they are added (a MutationObserver: what a screen reader is handed), and
the buttons by their accessible names (``get_by_role``). What it presses:
the keys the « Raccourcis » help lists — « c » at poker, « 1 » for the first
move, « m », space and Entrée to pick a card and play it. What it checks
afterwards against the deal's record (/api/me/deals/{id}, the replayer's
steps as he saw them): every recorded move was told, in order, under its
player's name; the cards he was dealt were told by name (« Vous recevez :
dame de cœur, … »); at hold'em the flop, turn and river; the result."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from tests.browser.axe import audit
from tests.browser.test_a11y import login, open_practice
from tests.browser.test_table_page import ARTIFACTS, LIVE, start_server

pytestmark = [pytest.mark.browser, pytest.mark.db]

GAMES = ("ramponneau", "draw", "rami", "double_rami", "remigio", "gin", "rams", "rummoli")
SIZES = ((1366, 768), (390, 844))
RANKS = {"T": "10", "J": "valet", "Q": "dame", "K": "roi", "A": "as"}
SUITS = {"c": "trèfle", "d": "carreau", "h": "cœur", "s": "pique"}
#: Moves the record holds that the table does not tell by a player's name
#: (a Gin knocker's melds are the result's, a blind is posted by the deal).
UNTOLD = {"turn", "phase", "post", "meld", "knock_meld", "knock_done"}

#: Installed before the page's own scripts: every line the live region receives.
LISTEN = """window.told = [];
new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => {
  if (n.nodeType === 1 && m.target.matches && m.target.matches('#table-live [role=log]')) window.told.push(n.textContent);
}))).observe(document, {childList: true, subtree: true});"""


def said(code: str) -> str:
    """A card as a reader says it, « dame de cœur » (the words of RULES.md's French packs)."""
    return "joker" if code[0] == "X" else f"{RANKS.get(code[0], code[0])} de {SUITS[code[1]]}"


def his_cards(view: dict[str, Any], name: str) -> list[str]:
    if isinstance(view.get("hand"), list):
        return list(view["hand"])
    for p in view.get("players") or []:
        if isinstance(p, dict) and p.get("player") == name and isinstance(p.get("cards"), list):
            return list(p["cards"])
    return []


def audit_both(page: Any, where: str) -> list[str]:
    found = []
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        found += audit(page, f"{where} @{w}×{h}")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    return found


SCREENS = ((1366, 768), (1280, 720), (390, 844), (844, 390))


def one_screen(page: Any, game: str) -> list[str]:
    """At his turn, at each of the four sizes: a screenshot (looked at, in
    test-artifacts/) and whether his moves and his hand are in view without
    scrolling (issue 40 §1)."""
    out = []
    for w, h in SCREENS:
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("() => document.getElementById('table-live').scrollIntoView({block: 'start'})")
        page.screenshot(path=str(ARTIFACTS / f"screen-{game}-{w}x{h}.png"))
        for what, sel in (("moves", f"{LIVE} .tl-actions"), ("hand", f"{LIVE} .tl-myhand")):
            box = page.locator(sel).first.bounding_box()
            if box and (box["y"] < 0 or box["y"] + box["height"] > h or box["x"] < 0 or box["x"] + box["width"] > w):
                out.append(f"{game} @{w}×{h}: {what} out of view {box}")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    return out


def move(page: Any, game: str) -> str:
    """One move by keyboard, chosen from the moves' accessible names."""
    moves = page.get_by_role("group", name="Vos actions").get_by_role("button")
    names = [(b.get_attribute("data-action"), b.is_enabled(), (b.get_attribute("aria-label") or b.inner_text()))
             for b in moves.all()]
    usable = [n for n in names if n[1]]
    wants_card = any("choisissez" in n[2] for n in names if not n[1])
    if game in ("ramponneau", "draw") and any(a in ("check", "call") for a, on, _ in usable):
        page.keyboard.press("c")
        return f"c among {names}"
    hand = page.get_by_role("list", name="vos cartes").get_by_role("button")
    if wants_card and hand.count():
        # His first card, then the next while the live region says no move plays it (a rule refuses it).
        page.keyboard.press("m")
        before = page.get_attribute(LIVE, "data-seq")
        for _ in range(hand.count()):
            heard = page.evaluate("() => window.told.length")
            page.keyboard.press(" ")
            page.keyboard.press("Enter")
            page.wait_for_function("([s, n]) => document.getElementById('table-live').dataset.seq !== s"
                                   " || window.told.slice(n).some(t => t.includes('aucun de vos coups'))",
                                   arg=[before, heard], timeout=10_000)
            if page.get_attribute(LIVE, "data-seq") != before:
                break
            page.keyboard.press("ArrowRight")
        return f"m, space, Enter (→ while refused) among {names}"
    page.keyboard.press("1")
    return f"1 among {names}"


def play_by_keyboard(page: Any, game: str, outside: list[str], budget: float = 90) -> tuple[list[str], set[str]]:
    found: list[str] = []
    seen: set[str] = set()
    deadline = time.monotonic() + budget  # a failsafe against a stuck page, not a measure
    turn = page.get_by_role("group", name="Vos actions").get_by_text("À vous de jouer.")
    while time.monotonic() < deadline:
        told = page.evaluate("() => window.told")
        if any(t.startswith("Résultat de la donne") for t in told):
            if "result" not in seen:
                found += audit_both(page, f"{game} result")
                seen.add("result")
            return found, seen
        if turn.count() and page.get_by_role("group", name="Vos actions").get_by_role("button").count():
            if "his turn" not in seen:
                found += audit_both(page, f"{game} his turn")
                seen.add("his turn")
                outside.extend(one_screen(page, game))
            before = page.get_attribute(LIVE, "data-seq")
            did = move(page, game)
            try:
                page.wait_for_function("([s]) => document.getElementById('table-live').dataset.seq !== s"
                                       " || !document.querySelector('.tl-error').hidden", arg=[before], timeout=10_000)
            except Exception as exc:
                raise AssertionError(f"{game}: {did} changed nothing; told: {page.evaluate('() => window.told')[-6:]}") from exc
        else:
            if "another's turn" not in seen and page.get_by_text(re.compile(r"^À .+ de parler\.$")).count():
                found += audit_both(page, f"{game} another's turn")
                seen.add("another's turn")
            page.wait_for_timeout(50)
    raise AssertionError(f"{game}: no result within {budget} s; told: {page.evaluate('() => window.told')[-8:]}")


def check_told(page: Any, game: str, name: str) -> None:
    """The lines told against the engine's record of the deal (kept in
    test-artifacts/told-<game>.txt for a human to read)."""
    told: list[str] = page.evaluate("() => window.told")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"told-{game}.txt").write_text("\n".join(told) + "\n", encoding="utf-8")
    listed = page.request.get("/api/me/deals")
    assert listed.ok, (listed.status, listed.text())
    deal = listed.json()[-1]  # newest first: the first deal of his practice table, the one he played (the next may be on)
    got = page.request.get(f"/api/me/deals/{deal['id']}")
    assert got.ok, (got.status, got.text())
    steps = got.json()
    dealt = his_cards(steps[0]["view"], name)
    assert dealt, (game, steps[0]["view"])
    assert "Vous recevez : " + ", ".join(said(c) for c in dealt) + "." in told, (game, dealt, told[:6])
    players = {p for s in steps if s["action"] for p in [s["action"].get("player")] if p}
    at = 0
    for s in steps:
        a = s["action"]
        if not a or a.get("action") in UNTOLD or not a.get("player"):
            continue
        while at < len(told) and not told[at].startswith(a["player"] + " "):
            at += 1
        assert at < len(told), f"{game}: {a} never told after line {at}; told: {told}"
        at += 1
    if game == "ramponneau":
        board = steps[-1]["view"].get("board") or []
        for street, cut in (("Flop", slice(0, 3)), ("Turn", slice(3, 4)), ("River", slice(4, 5))):
            if board[cut]:
                assert f"{street} : {', '.join(said(c) for c in board[cut])}." in told, (street, board, told)
    assert any(re.match(r"^Résultat de la donne n° \d+ : ", t) and all(p in t for p in players) for t in told), told


#: Ramponneau and Rami in every run (a poker and a rami deal, ~1 min); the others are marked slow.
@pytest.mark.parametrize("game", [g if g in ("ramponneau", "rami") else pytest.param(g, marks=pytest.mark.slow) for g in GAMES])
def test_a_practice_deal_by_keyboard_and_live_region(browser, db_url, tmp_path, game) -> None:
    srv = start_server(db_url, tmp_path)
    try:
        page = login(browser, srv, "ana")
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(LISTEN)
        open_practice(page, game)
        outside: list[str] = []
        found, seen = play_by_keyboard(page, game, outside)
        check_told(page, game, "ana")
        assert not errors, errors
    finally:
        srv.stop()
    assert not found, "axe-core, serious or critical:\n" + "\n".join(found)
    assert seen >= {"his turn", "result"}, seen
    assert not outside, outside
