"""Issue 11, "tests that must exist": across the browser runs every action
each game offers is used from the browser at least once (raise, draw, take
the discard, meld, lay off, move a joker, bid for the widow, exchange, play
a trick, rams général …).

For each of the eight games three players sit down and an explorer plays
deal after deal by clicking what the page offers, choosing first an action
the pages have not sent yet at that game (watch.SENT, recorded from the
pages' own WebSocket frames), else one that moves the deal on, until every
action the game offers (watch.OFFERED) has been sent or the time is up. The
moves chance never offers in the time given come from their own scenarios
(below). Each game is photographed mid-deal and at the end of its first
deal (test-artifacts/<game>-mid-deal.png, <game>-end.png)."""

from __future__ import annotations

import time

import pytest
from tests.browser import watch
from tests.browser.test_table_page import LIVE, Player, seat_everyone_generic, start_server

from tavern.games.rami import melds

pytestmark = [pytest.mark.browser, pytest.mark.db, pytest.mark.slow]

#: Buttons that are not moves: the hand's sorting, the Gin knock's meld
#: chooser, the bet sizer's shortcuts (the sizer's own button is the move).
NOT_MOVES = {"sort-suit", "sort-rank", "knock-choose", "knock-meld", "knock-done", "half-pot",
             "three-quarter-pot", "pot", "all-in"}
#: Once every action has been tried, what moves a deal on (a fold or a rams
#: général again would only shorten or lengthen it).
PROGRESS = ("check", "call", "show", "draw:stock", "discard", "lay", "add", "close", "knock", "gin", "play", "lead",
            "keep", "exchange:keep", "speak:play", "pass", "draw:servi", "bid", "exchange", "draw", "speak:pass",
            "draw:discard", "bet", "raise", "move_joker", "muck", "fold")
SPEAK = {"Je joue": "speak:play", "Je passe": "speak:pass", "Prendre la fille": "speak:widow",
         "Prendre le jeu jeté": "speak:thrown", "Rams général": "speak:general"}
#: Any game's melds, to choose a discard that keeps the hand's combinations.
LOOSE = melds.MeldRules(ace_low=True, ace_high=True, jokers=True)
#: Actions whose button waits for a card of the hand to be picked.
PER_CARD = {"discard", "close", "knock", "gin", "play", "lead", "exchange:card", "draw"}


def button_key(game: str, action: str, label: str) -> str:
    """What the button sends, named as watch.action_key names it."""
    if action == "draw" and game != "draw":
        return "draw:discard" if "défausse" in label else "draw:stock"
    if action == "stand-pat":
        return "draw:servi"
    if action == "speak":
        return SPEAK.get(label, "speak:?")
    if action == "exchange" and game == "rams":
        return "exchange:keep" if label.startswith("Garder") else "exchange:card"
    if action == "gin" and label == "Grand gin":
        return "gin:grand"
    return action


def offered(p: Player, game: str) -> list[tuple[str, str, bool]]:
    """The move buttons shown: (key, label, enabled)."""
    raw = p.page.locator(f"{LIVE} .tl-actions button[data-action]").evaluate_all(
        "els => els.map(e => [e.dataset.action, e.textContent, !e.disabled])")
    return [(button_key(game, a, label), label, on) for a, label, on in raw if a not in NOT_MOVES]


def button_for(p: Player, game: str, key: str):
    """The enabled button sending ``key``, or None."""
    buttons = p.page.locator(f"{LIVE} .tl-actions button[data-action]:enabled")
    for k in range(buttons.count()):
        b = buttons.nth(k)
        if b.get_attribute("data-action") not in NOT_MOVES and button_key(game, b.get_attribute("data-action") or "",
                                                                            b.text_content() or "") == key:
            return b
    return None


def hand_order(p: Player, key: str) -> list[str]:
    """The cards to try picking for ``key``: for a discard, the one leaving the
    fewest points out of combinations first (the rami family keeps its melds)."""
    hand = p.my_cards()
    if key in ("discard", "knock", "close", "gin") and len(hand) >= 7:
        left = melds.discard_options(hand, LOOSE)
        return sorted(hand, key=lambda c: left.get(c, 999))
    return hand


def try_key(p: Player, game: str, key: str) -> bool:
    """Send ``key`` by clicking, picking a card of the hand first if it needs one."""
    b = button_for(p, game, key)
    if b is None and key in PER_CARD:
        for c in hand_order(p, key):
            card = p.page.locator(f"{LIVE} .tl-seat.me .tl-myhand button.pc[data-card='{c}']")
            if not card.count():
                continue  # not clickable: a card the rules refuse here
            card.first.click()
            b = button_for(p, game, key)
            if b is not None:
                break
            if game == "draw":
                card.first.click()  # draw poker picks several: unpick before the next
    if b is None:
        return False
    p.click_action_button(b)
    return True


def explore_move(p: Player, game: str) -> bool:
    """One move if ``p`` has buttons: an action not yet sent at this game
    first, else what moves the deal on."""
    shown = offered(p, game)
    if not shown:
        return False
    used = watch.SENT[game]
    keys = list(dict.fromkeys(k for k, _, _ in shown))
    fresh = [k for k in keys if k in watch.OFFERED[game] and not used[k]]
    if "bet" in keys and not used["raise"]:
        fresh.append("bet")  # a raise needs a bet to answer: bet again until somebody raised
    # What opens further moves before what ends them (a fold last).
    fresh.sort(key=lambda k: (k == "fold", k == "muck", k != "bet"))
    rest = sorted((k for k in keys if k not in fresh), key=lambda k: PROGRESS.index(k) if k in PROGRESS else 99)
    for key in fresh + rest:
        if try_key(p, game, key):
            return True
    return False


def explore(game: str, ps: dict[str, Player], budget: float) -> None:
    deadline = time.monotonic() + budget
    shot_mid = shot_end = False
    moves = 0
    while time.monotonic() < deadline:
        if shot_end and not (watch.OFFERED[game] - set(watch.SENT[game])):
            return
        moved = False
        for p in ps.values():
            if explore_move(p, game):
                moved = True
                moves += 1
                if moves == 8 and not shot_mid:
                    p.shot(f"{game}-mid-deal.png")
                    shot_mid = True
        if not shot_end and all(p.page.locator(f"{LIVE} .tl-result h3").count() for p in ps.values()):
            ps["ana"].shot(f"{game}-end.png", full=True)
            shot_end = True
        if not moved:
            time.sleep(0.05)


STAKES = {"ramponneau": {"small_blind": 1, "big_blind": 2}, "draw": {"small_bet": 2}}
#: Rummoli's poker pot is played with bets under its second method (rummoli.fr.txt), an option.
OPTIONS = {"rummoli": {"poker_method": 2}}
BUDGET = {"ramponneau": 60, "draw": 60, "rams": 90, "rummoli": 120, "gin": 120, "rami": 150, "double_rami": 150,
          "remigio": 150}


@pytest.mark.parametrize("game", list(watch.OFFERED))
def test_every_action_a_game_offers_is_used_from_the_browser(game, browser, players, db_url, tmp_path):
    srv = start_server(db_url, tmp_path, game=game, stakes=STAKES.get(game, {"unit": 1}),
                       options=OPTIONS.get(game))
    try:
        ps = players(srv)
        if game == "gin":  # a game for two (gin.fr.txt): cid watches
            for k, name in enumerate(("ana", "bob")):
                ps[name].sit(k, 100)
            for name in ("ana", "bob"):
                ps[name].page.wait_for_selector(f"{LIVE} .tl-seat.me .tl-myhand .pc.face", timeout=15_000)
        else:
            seat_everyone_generic(ps)
        explore(game, ps, BUDGET[game])
        for p in ps.values():
            assert not p.errors, f"{p.name}'s page: {p.errors}"
        missing = sorted(watch.OFFERED[game] - set(watch.SENT[game]))
        print(f"{game}: sent {dict(watch.SENT[game])}; never offered in time: {missing}")
    finally:
        srv.stop()
