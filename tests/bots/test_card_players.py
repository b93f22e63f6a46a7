"""The rami family's « habitué » and « fort » (issue 37): the discard that
extends one's own laid meld, pairs and near-runs kept, dead runs seen from
the discards, and a seat's memory built from its own views only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tavern.bots import decide, policy
from tavern.bots import rami as rami_bot
from tavern.bots.arena import PLAYERS, new_deal
from tavern.bots.levels import FORT, REGULAR
from tavern.bots.rami_read import Memory
from tavern.bots.seated import Seated

DRAW = [{"action": "draw", "sources": ["stock", "discard"]}]


def _rami_view(hand: list[str], top: str, table: list[dict[str, Any]], phase: str = "draw") -> dict[str, Any]:
    players = [{"player": p, "chips": 1000, "cards": 7} for p in "ABC"]
    return {"game": "rami", "phase": phase, "dealer": "C", "to_act": ["A"], "players": players, "table": table,
            "discard": {"top": top, "size": 4}, "stock": 20, "hand": hand}


@pytest.mark.parametrize("level", [REGULAR, FORT])
def test_rami_takes_the_discard_that_extends_his_laid_meld(level: str) -> None:
    """« A turn: take the top discard or the top of the stock; optionally lay
    melds; optionally add cards to one's own melds on the table » (RULES.md,
    Rami français): the 8 of hearts goes onto his laid 5-6-7 of hearts, a
    card that costs nothing in his hand — he takes it, though it makes no
    meld with the cards he holds. Another player's meld is not his to add to:
    the same card beside someone else's run is left for the stock."""
    hand = ["Kc", "9d", "4s", "2c"]
    mine = [{"owner": "A", "kind": "run", "cards": ["5h", "6h", "7h"], "stands_for": [None] * 3, "marked": []}]
    theirs = [{**mine[0], "owner": "B"}]
    for seed in range(3):
        took = decide("rami", level, _rami_view(hand, "8h", mine), DRAW, random.Random(seed))
        left = decide("rami", level, _rami_view(hand, "8h", theirs), DRAW, random.Random(seed))
        assert took == {"action": "draw", "source": "discard"}
        assert left == {"action": "draw", "source": "stock"}


def _throw(hand: list[str], memory: Memory | None = None, level: str = REGULAR, seed: int = 1) -> str:
    view = _rami_view(hand, "2d", [], phase="play")
    legal = [{"action": "discard", "cards": list(hand)}]
    move = rami_bot.rami(view, legal, random.Random(seed), level, memory)
    assert move["action"] == "discard"
    return str(move["card"])


def test_rami_keeps_his_pair_and_near_run_and_throws_the_loose_card() -> None:
    """« melds are sets (3 or 4 cards of one rank) and runs (3 or more
    consecutive cards of one suit) » (RULES.md, Rami family): a pair of kings
    waits for a third king, the 6-7 of clubs for the 5 or the 8; the queen of
    spades goes with nothing. All three are worth 10 and the count alone
    cannot tell them apart: he throws the loose queen, not a king."""
    hand = ["Kd", "Kh", "6c", "7c", "Qs", "As", "Ah", "Ad"]
    for seed in range(5):
        assert _throw(hand, seed=seed) == "Qs"


def test_rami_keeps_the_card_that_goes_onto_his_laid_meld() -> None:
    """« optionally add cards to one's own melds on the table » (RULES.md,
    Rami français): the queen of hearts goes onto his laid 9-10-jack of
    hearts, so it costs nothing kept — he throws the loose 7 of spades, though
    the queen counts more (the look-ahead leaves out, once a decision, the
    cards that go onto his melds: rami_read.goes_on)."""
    hand = ["Qh", "7s", "Ac", "Ad", "Ah"]
    mine = [{"owner": "A", "kind": "run", "cards": ["9h", "Th", "Jh"], "stands_for": [None] * 3, "marked": []}]
    legal = [{"action": "discard", "cards": list(hand)}]
    for seed in range(3):
        view = _rami_view(hand, "2d", mine, phase="play")
        assert rami_bot.rami(view, legal, random.Random(seed), REGULAR, Memory("rami"))["card"] == "7s"


def test_rami_throws_from_the_run_he_saw_die_in_the_discards() -> None:
    """A run needs « 3 or more consecutive cards of one suit » (RULES.md):
    the 9-10 of diamonds waits for the 8 or the jack of diamonds; he saw both
    thrown (buried in the pile since, they will not come back), so the 9-10 is
    dead — while the jack-queen of spades still waits on live cards. With the
    memory he throws from the dead pair; without it the two pairs look alike
    and some draws make him break the live one."""
    hand = ["9d", "Td", "Js", "Qs", "Ac", "Ah", "As", "3h"]
    memory = Memory("rami")
    memory.buried = ["8d", "Jd"]
    throws = {_throw(hand, memory, seed=s) for s in range(6)}
    assert throws <= {"9d", "Td"}, throws
    blind = {_throw(hand, Memory("rami"), seed=s) for s in range(6)}
    assert blind & {"Js", "Qs"}, blind


def test_a_seats_memory_holds_only_cards_its_own_views_showed() -> None:
    """« never reads hidden information »: a seat's memory (what it saw
    buried in the pile, which of its discards the next player took) is built
    from the views it was shown at its turns; every card it holds appeared in
    one of them, and the same views give the same moves to a fresh player."""
    for game in ("rami", "double_rami", "remigio", "gin"):
        n = PLAYERS[game]
        names = list("ABCDE"[:n])
        engine = new_deal(game, names, 0, seed=41)
        seats = {p: policy(game, REGULAR) for p in names}
        shown: dict[str, list[tuple[dict[str, Any], list[dict[str, Any]], int, dict[str, Any]]]] = {p: [] for p in names}
        step = 0
        while not engine.over and step < 600:
            p = engine.to_act()[0]
            view, legal = engine.view(p), engine.legal_actions(p)
            move = seats[p](view, legal, random.Random(step))
            shown[p].append((view, legal, step, move))
            engine.act(p, **move)
            step += 1
        assert engine.over
        for p in names:
            seen = {c for v, _, _, _ in shown[p] for c in _cards_in(v)}
            again = policy(game, REGULAR)
            for view, legal, s, move in shown[p]:
                assert again(view, legal, random.Random(s)) == move, (game, p, s)
            memory = _memory_of(again)
            assert set(memory.buried) | set(memory.fed) <= seen, game


def _cards_in(view: dict[str, Any]) -> list[str]:
    top = (view.get("discard") or {}).get("top")
    table = [c for m in view.get("table") or [] for c in m.get("cards", [])]
    return list(view.get("hand") or []) + table + ([top] if top else [])


def _memory_of(player: Any) -> Memory:
    """The Seated player a policy closes over, and its memory."""
    for cell in player.__closure__ or ():
        seated = cell.cell_contents
        if isinstance(seated, Seated):
            return seated.memory
    raise AssertionError("no seat memory")


def _gin_knock_view(stock: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    hand = ["As", "2s", "3s", "4h", "4d", "4c", "7c", "8c", "9c", "2d", "Kd"]
    view = {"game": "gin", "phase": "play", "hand": hand, "knock_limit": 7, "stock": stock,
            "discard": {"top": "Qh", "size": 6}, "to_act": ["A"]}
    return view, [{"action": "knock", "cards": ["Kd", "2d"]}, {"action": "discard", "cards": hand}]


def test_gin_plays_on_for_gin_with_outs_and_knocks_when_the_stock_runs_low() -> None:
    """« "petit gin": all 10 cards in melds after discarding — opponent's
    deadwood + 25 and 2 cocottes »; « A won deal that is not gin earns 1
    cocotte » (RULES.md, Gin). Holding three melds and the 2 of diamonds
    (2 points, a knock under the 7), the 4 of spades or the 6 or 10 of clubs
    would make gin: with 20 cards in the stock he throws the king and plays
    on; with 5 left he knocks."""
    early, legal = _gin_knock_view(20)
    late, _ = _gin_knock_view(5)
    for seed in range(3):
        assert decide("gin", REGULAR, early, legal, random.Random(seed)) == {"action": "discard", "card": "Kd"}
        assert decide("gin", REGULAR, late, legal, random.Random(seed)) == {"action": "knock", "card": "Kd"}


def _gin_three_sets(stock: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    hand = ["2c", "2h", "2s", "3d", "3s", "4d", "4h", "4s", "Qc", "Qd", "Qh"]
    view = {"game": "gin", "phase": "play", "dealer": "B", "to_act": ["A"], "hand": hand, "knock_limit": 10,
            "turned": "Th", "stock": stock, "discard": {"top": "Qs", "size": 8},
            "players": [{"player": "B", "chips": 1000, "cards": 10}, {"player": "A", "chips": 1000, "cards": 11}]}
    return view, [{"action": "discard", "cards": list(hand)}, {"action": "knock", "cards": ["3d", "3s"]}]


@pytest.mark.parametrize("stock", [22, 18])
def test_gin_fort_knocks_where_the_play_outs_say_gin_is_not_worth_waiting_for(stock: int) -> None:
    """« knocking: 8 or 9 cards in melds and the 1 or 2 other cards totalling
    less than the turned card's value; ... the knocker scores the difference
    of deadwood »; « "petit gin": all 10 cards in melds after discarding —
    opponent's deadwood + 25 and 2 cocottes »; « A won deal that is not gin
    earns 1 cocotte » (RULES.md, Gin). Three sets and a 3 (3 points, under
    the turned 10): a knock now, or play on for gin, worth 25 points and a
    cocotte more. Gin needs the 2 of diamonds or the 4 of clubs (the queen of
    spades lies on the pile): 2 cards of the 40 unseen, 1 draw in 20, and
    the 25 + 25 + 3 extra points are won on a twentieth of the draws, while
    the opponent, drawing too, may go down first. « habitué »'s rule (play
    on with 4 % of outs and stock left, measured against club players)
    plays on; « fort » plays the
    deal out in worlds dealt again from his view and knocks — the same code
    without its search (``search=False``) plays on, so this fails if the
    search is switched off."""
    from tavern.bots.gin import gin_with
    from tavern.bots.rami import RULES

    view, legal = _gin_three_sets(stock)
    for seed in range(3):
        assert decide("gin", REGULAR, view, legal, random.Random(seed)) == {"action": "discard", "card": "3d"}
        assert decide("gin", FORT, view, legal, random.Random(seed)) == {"action": "knock", "card": "3d"}
        off = gin_with(RULES["gin"], view, legal, random.Random(seed), FORT, Memory("gin"), search=False)
        assert off == {"action": "discard", "card": "3d"}
