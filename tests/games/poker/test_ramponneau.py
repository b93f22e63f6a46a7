"""Ramponneau = no-limit hold'em (RULES.md, ramponneau.fr.txt)."""

from __future__ import annotations

import json
import random

import pytest
from tests.refusals import refused

from tavern.games import registry
from tavern.games.base import Engine, IllegalAction, lay_own, public_and_own, views
from tavern.games.poker import ramponneau
from tavern.games.poker.records import stacked_deck

CFG = {"small_blind": 5, "big_blind": 10}
BOARD = ["2c", "7d", "9h", "Js", "3s"]


def seats(*names, chips=1000):
    return [{"player": p, "chips": chips} for p in names]


def play(engine, moves):
    for player, action, *amount in moves:
        if amount:
            engine.act(player, action, amount=amount[0])
        else:
            engine.act(player, action)


def test_engine_contract():
    """base.py: every game module offers new_deal / replay / deck_composition and an
    Engine with the contract's methods."""
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 0)
    assert isinstance(e, Engine) and e.game == "ramponneau"
    assert len(ramponneau.deck_composition(CFG, 3)) == 52
    assert e.record()["deck"] and len(set(e.record()["deck"])) == 52


def test_heads_up_blinds_and_order():
    """RULES.md: "Heads-up: the button posts the small blind, acts first pre-flop
    and last after the flop.\""""
    e = ramponneau.new_deal(CFG, seats("X", "Y"), 0)  # X on the button
    assert e.b.bet[e.index["X"]] == 5 and e.b.bet[e.index["Y"]] == 10
    assert e.to_act() == ["X"]
    play(e, [("X", "call"), ("Y", "check")])
    assert len(e.board) == 3 and e.to_act() == ["Y"]
    play(e, [("Y", "check")])
    assert e.to_act() == ["X"]


def test_preflop_starts_left_of_the_big_blind_later_rounds_left_of_the_button():
    """RULES.md: "Pre-flop action starts left of the big blind; later rounds start
    with the first active player left of the button.\""""
    e = ramponneau.new_deal(CFG, seats("A", "B", "C", "D", "E"), 2)  # button C
    # D small blind, E big blind, A first to speak.
    assert e.b.bet[e.index["D"]] == 5 and e.b.bet[e.index["E"]] == 10
    assert e.to_act() == ["A"]
    play(e, [("A", "call"), ("B", "call"), ("C", "call"), ("D", "fold"), ("E", "check")])
    assert e.to_act() == ["E"]  # D, the first left of the button, folded


def test_blinds_count_as_bets():
    """ramponneau.fr.txt: "Les blindes posées sur la table comptent comme des mises :
    ainsi, le joueur situé à la gauche du donneur doit miser au minimum le montant de
    la grosse blinde, ou passer"; the big blind keeps his option."""
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 0)
    play(e, [("A", "call"), ("B", "call")])
    legal = {a["action"]: a for a in e.legal_actions("C")}
    assert set(legal) == {"check", "raise"} and legal["raise"]["min"] == 20


def test_showdown_starts_with_the_river_bettor():
    """ramponneau.fr.txt: "en commençant par le joueur qui a été payé à la river
    (ainsi, si un joueur A a misé 50 à la river, et qu'un joueur B a payé, c'est
    d'abord à A de montrer ses cartes)"; RULES.md: "then clockwise"."""
    holes = [["Qh", "Qd"], ["Ah", "Ad"], ["Kh", "Kd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 2, deck=stacked_deck(holes, BOARD))
    play(e, [("C", "call"), ("A", "call"), ("B", "check")])
    for _ in range(2):
        play(e, [("A", "check"), ("B", "check"), ("C", "check")])
    play(e, [("A", "check"), ("B", "bet", 50), ("C", "call"), ("A", "call")])
    assert e.sd_order == [1, 2, 0]  # B first, then clockwise: C, A
    # B (aces) shows; C and A are beaten by a shown hand, so they decide.
    assert e.to_act() == ["C"]
    e.act("C", "muck")
    e.act("A", "show")
    res = e.result()
    assert res["shown"] == {"B": ["Ah", "Ad"], "A": ["Qh", "Qd"]}
    assert res["pots"][0]["winners"] == ["B"] and res["hands"]["B"] == "pair"


def test_showdown_without_river_bet_starts_left_of_the_button():
    """RULES.md: "(if nobody bet, the first active player left of the button); then
    clockwise.\""""
    holes = [["Qh", "Qd"], ["Ah", "Ad"], ["Kh", "Kd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 2, deck=stacked_deck(holes, BOARD))
    play(e, [("C", "call"), ("A", "call"), ("B", "check")])
    for _ in range(3):
        play(e, [("A", "check"), ("B", "check"), ("C", "check")])
    assert e.sd_order == [0, 1, 2]
    # A shows first (nobody is shown yet: he cannot see he is beaten); B's aces beat
    # him, so B shows without being asked; C, beaten, decides.
    assert e.to_act() == ["C"] and e.shown.keys() == {0, 1}


def test_only_a_beaten_player_may_muck():
    """RULES.md: "A player who sees he is beaten may muck without showing." One who
    is not beaten by a shown hand must show (cards speak)."""
    holes = [["Ah", "Ad"], ["Kh", "Kd"], ["Qh", "Qd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 2, deck=stacked_deck(holes, BOARD))
    play(e, [("C", "call"), ("A", "call"), ("B", "check")])
    for _ in range(2):
        play(e, [("A", "check"), ("B", "check"), ("C", "check")])
    play(e, [("A", "check"), ("B", "check"), ("C", "bet", 20), ("A", "call"), ("B", "call")])
    # C (queens) bet the river and shows first; A's aces beat him: A shows unasked;
    # B (kings), beaten by A, may muck.
    assert e.sd_order == [2, 0, 1] and e.to_act() == ["B"]
    assert e.shown.keys() == {2, 0} and e.may_muck(1)
    e.act("B", "muck")
    assert e.over and "B" not in e.result()["shown"]


def test_muck_refused_when_not_beaten():
    """RULES.md: mucking is for "a player who sees he is beaten"; the first to show
    cannot see that, so a muck from him is refused with the rule."""
    holes = [["Ah", "Ad"], ["Kh", "Kd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B"), 1, deck=stacked_deck(holes, BOARD))
    e.shown.clear()
    e.sd_order, e.sd_pos = [0, 1], 0
    e.ranks = {0: 2, 1: 1}
    e.pots = [{"amount": 20, "eligible": [0, 1]}]
    e.phase = "showdown"
    with refused("muck_only_when_beaten", IllegalAction):
        e.act("A", "muck")


def test_cards_speak_when_the_record_has_no_showdown_decision():
    """HAND_RECORDS.md: "a player still in at showdown who has no show/muck in the
    record shows (cards speak).\""""
    holes = [["Ah", "Ad"], ["Kh", "Kd"], ["Qh", "Qd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 2, deck=stacked_deck(holes, BOARD))
    play(e, [("C", "call"), ("A", "call"), ("B", "check")])
    for _ in range(3):
        play(e, [("A", "check"), ("B", "check"), ("C", "check")])
    assert not e.over  # C may muck: a decision is due
    out = registry.replay(e.record())
    assert out["finished"] and out["chips"] == {"A": 1020, "B": 990, "C": 990}
    assert set(out["shown"]) == {"A", "B", "C"}


def test_all_in_pre_flop_deals_the_board_out():
    """ramponneau.fr.txt: "Un joueur qui est 'à tapis' ne prend plus part à aucune phase
    d'enchère"; with nobody left to bet, the board is dealt and hands compared."""
    holes = [["Ah", "Ad"], ["Kh", "Kd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", chips=300), 1, deck=stacked_deck(holes, BOARD))
    play(e, [("B", "raise", 300), ("A", "call")])
    # Ruling: in an all-in run-out every hand is tabled (no muck decision).
    assert e.over and e.board == BOARD and set(e.result()["shown"]) == {"A", "B"}
    assert e.result()["chips"] == {"A": 600, "B": 0}


def test_new_player_posts_the_big_blind_to_enter():
    """RULES.md: "Entering: a new player posts the big blind immediately, or waits for
    the big blind to reach them. A player who declines to post is sitting out and
    gets no cards." The post is live: he has the option like the big blind."""
    s = seats("A", "B", "C", "D", "E")
    s[3]["post"] = True  # D enters now
    s[4]["waiting"] = True  # E waits for the big blind
    e = ramponneau.new_deal(CFG, s, 0)  # button A: B small, C big, D posts
    assert "E" not in e.players and e.legal_actions("E") == []
    assert e.b.bet[e.index["D"]] == 10
    assert e.to_act() == ["D"]
    assert {a["action"] for a in e.legal_actions("D")} == {"check", "raise"}
    play(e, [("D", "check"), ("A", "call"), ("B", "call"), ("C", "check")])
    assert len(e.board) == 3 and sum(e.b.total) == 40
    e.act("B", "bet", amount=10)
    for p in ("C", "D", "A"):
        e.act(p, "fold")
    assert e.result()["chips"]["E"] == 1000 and e.result()["delta"]["E"] == 0


def test_missed_blinds_posted_small_one_dead():
    """draw-poker.fr.txt: "Un joueur qui est de retour après avoir manqué le Big
    Blind ou le Small Blind peut choisir de poster les blinds manquants": with
    ``"post": "both"`` the big blind is live, the small blind dead (in the pot,
    not counted as his bet)."""
    s = seats("A", "B", "C", "D")
    s[3]["post"] = "both"
    e = ramponneau.new_deal(CFG, s, 0)
    d = e.index["D"]
    assert e.b.bet[d] == 10 and e.b.total[d] == 15 and e.b.stack[d] == 985


def test_post_refused_between_the_button_and_the_big_blind():
    """draw-poker.fr.txt: a new player may post "exception faite quand il est entre le
    gros bouton et la position de Big Blind"."""
    s = seats("A", "B", "C")
    s[1]["post"] = True  # B is the small blind with the button on A
    with refused("post_between_button_and_blind", IllegalAction):
        ramponneau.new_deal(CFG, s, 0)


def test_seat_counts():
    """RULES.md: "2–10 seats.\""""
    with refused("players_range", IllegalAction):
        ramponneau.new_deal(CFG, seats("A"), 0)
    with refused("players_range", IllegalAction):
        ramponneau.new_deal(CFG, seats(*"ABCDEFGHIJK"), 0)
    with pytest.raises(IllegalAction, match="config"):
        ramponneau.new_deal({"small_blind": 20, "big_blind": 10}, seats("A", "B"), 0)


def test_protected_player_is_all_in_for_the_rest_of_the_deal():
    """RULES.md: "A player who loses the connection is treated as all-in for the rest
    of that hand": he is asked nothing more and stays eligible for the pots he
    contributed to."""
    holes = [["Ah", "Ad"], ["Kh", "Kd"], ["Qh", "Qd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 2, deck=stacked_deck(holes, BOARD))
    play(e, [("C", "call"), ("A", "call"), ("B", "check")])
    e.protect("A")  # A (aces) disconnects on the flop, 10 in
    assert e.to_act() == ["B"]
    play(e, [("B", "bet", 100), ("C", "call")])
    assert "A" not in e.to_act()
    for _ in range(2):
        play(e, [("B", "check"), ("C", "check")])
    # A's aces are shown for him (cards speak); B is not beaten in the side pot,
    # so he shows; C, beaten everywhere, decides.
    assert e.to_act() == ["C"]
    e.act("C", "show")
    res = e.result()
    assert [(p["amount"], p["eligible"], p["winners"]) for p in res["pots"]] == [
        (30, ["A", "B", "C"], ["A"]), (200, ["B", "C"], ["B"])]
    assert res["chips"] == {"A": 1020, "B": 1090, "C": 890}
    rec = e.record()
    assert {"player": "A", "action": "protect"} in rec["actions"]
    assert registry.replay(rec)["chips"] == res["chips"]
    with pytest.raises(IllegalAction):
        e.protect("A")


def test_view_hides_other_hidden_cards_until_shown():
    """ARCHITECTURE.md: view(player) is "his own private cards, public cards [...] never
    another player's hidden cards, the deck"; shown cards at showdown become public."""
    holes = [["Ah", "Ad"], ["Kh", "Kd"], ["Qh", "Qd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 2, deck=stacked_deck(holes, BOARD))
    text = json.dumps(e.view("B"))
    assert '"Kh"' in text and '"Ah"' not in text and '"Qh"' not in text
    assert not any(c in json.dumps(e.view(None)) for c in ('"Ah"', '"Kh"', '"Qh"', '"2c"'))
    assert "deck" not in e.view("B")
    assert e.view("C")["legal"] and e.view("B")["legal"] == []
    play(e, [("C", "call"), ("A", "call"), ("B", "check")])
    assert e.view(None)["board"] == BOARD[:3]
    for _ in range(3):
        play(e, [("A", "check"), ("B", "check"), ("C", "check")])
    assert e.to_act() == ["B"]
    e.act("B", "show")
    e.act("C", "muck")
    spectator = json.dumps(e.view(None))
    assert '"Ah"' in spectator and '"Kh"' in spectator and '"Qh"' not in spectator


def test_views_built_together_give_each_recipient_only_his_own_cards():
    """ARCHITECTURE.md: view(player) is "his own private cards, public cards [...] never
    another player's hidden cards". The table asks for every seat's view at once
    (games.base.views): a player's cards put into his copy must reach nobody
    else's, however the recipients are ordered; a folded hand is dead (in the muck)."""
    holes = [["Ah", "Ad"], ["Kh", "Kd"], ["Qh", "Qd"]]
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 2, deck=stacked_deck(holes, BOARD))
    e.act("C", "fold")
    own = {"A": '"Ah"', "B": '"Kh"', "C": '"Qh"'}
    for order in (["A", "B", "C", None, "Z"], [None, "C", "B", "A"]):
        together = views(e, order)
        assert set(together) == set(order)
        for who in order:
            text = json.dumps(together[who])
            assert together[who] == e.view(who)
            for player, card in own.items():
                assert (card in text) == (player == who and player != "C"), (who, player)
    assert views(e, ["A"])["A"]["legal"] == e.legal_actions("A") != []
    assert views(e, ["B", None])[None]["legal"] == []


def test_own_parts_laid_over_the_public_view_are_each_players_view():
    """ARCHITECTURE.md: view(player) is "his own private cards, public cards [...] never
    another player's hidden cards". A publication sends the public view to every
    seat and each player his own part beside it (docs/protocol.md "own"): laid
    over the public view, it must give exactly view(player), at every step of
    deals played to the end; the public view holds no card not shown."""
    rng = random.Random(7)
    for button in range(3):
        e = ramponneau.new_deal(CFG, seats("A", "B", "C", "D"), button)
        while True:
            public, own = public_and_own(e, ["A", "B", "C", "D"])
            assert public == e.view(None)
            for p in "ABCD":
                assert lay_own(public, own[p]) == e.view(p), p
            assert public == e.view(None)  # laying over a copy left the shared view as it was
            if e.over:
                break
            p = e.to_act()[0]
            legal = e.legal_actions(p)
            choice = rng.choice(legal)
            args = {"amount": choice["min"]} if "min" in choice else {}
            e.act(p, choice["action"], **args)
        hidden = {c for i, p in enumerate(e.players) if i not in e.shown for c in e.hole[i]}
        assert not any(f'"{c}"' in json.dumps(public) for c in hidden)


def test_record_replays_to_the_same_result():
    """HAND_RECORDS.md: "a JSON document from which the engine replays the deal
    exactly"."""
    e = ramponneau.new_deal(CFG, seats("A", "B", "C", "D"), 1)
    while not e.over:
        p = e.to_act()[0]
        legal = e.legal_actions(p)
        last = legal[-1]
        if "min" in last:
            e.act(p, last["action"], amount=last["min"])
        else:
            e.act(p, "call" if legal[0]["action"] == "fold" else legal[0]["action"])
    rec = json.loads(json.dumps(e.record()))
    out = registry.replay(rec)
    assert out["finished"] and out["chips"] == e.result()["chips"]
    assert out["pots"] == e.result()["pots"] and out["rake"] == e.result()["rake"]


def test_replay_of_an_unfinished_record():
    """HAND_RECORDS.md: "A record that stops before the deal is over [...] replays as
    far as it goes and says so in its output ("finished": false)"."""
    e = ramponneau.new_deal(CFG, seats("A", "B", "C"), 0)
    e.act("B", "call") if e.to_act() == ["B"] else e.act(e.to_act()[0], "call")
    out = registry.replay(e.record())
    assert out["finished"] is False and out["to_act"] == e.to_act()


def test_replay_refuses_an_illegal_action_naming_the_rule():
    """HAND_RECORDS.md: "An inconsistent record (an illegal action, a card that is not
    in the deck) is refused with a message naming the rule"."""
    e = ramponneau.new_deal(CFG, seats("A", "B"), 0)
    rec = e.record()
    rec["actions"] = [{"player": "A", "action": "call"}, {"player": "B", "action": "raise", "amount": 15}]
    with refused("in_action", IllegalAction):
        registry.replay(rec)
    rec["deck"] = rec["deck"][:-1] + [rec["deck"][0]]
    with refused("deck_not_permutation", Exception):
        registry.replay(rec)


def test_the_documented_example_runs():
    """docs/games/poker.md: the example of playing a deal from Python is real code."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "games" / "poker.md").read_text(encoding="utf-8")
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(compile(code, "docs/games/poker.md", "exec"), scope)
    deal = scope["deal"]
    assert deal.over and deal.result()["chips"] == {"Ana": 577, "Bob": 490, "Cid": 430}


def test_a_changed_config_is_validated_again():
    """The config is validated once and remembered (speed), but a table that edits
    its config dict between deals gets the new stakes, and a bad edit is refused."""
    cfg = {"small_blind": 5, "big_blind": 10}
    assert ramponneau.new_deal(cfg, seats("A", "B", "C"), 0).b.high == 10
    cfg["big_blind"] = 20
    assert ramponneau.new_deal(cfg, seats("A", "B", "C"), 0).b.high == 20
    cfg["big_blind"] = 1
    with pytest.raises(IllegalAction, match="config"):
        ramponneau.new_deal(cfg, seats("A", "B", "C"), 0)
