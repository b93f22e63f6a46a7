"""Draw poker: five-card draw, high (RULES.md, draw-poker.fr.txt)."""

from __future__ import annotations

import json
import random

from tests.refusals import refused

from tavern.cards import CardError, SeededSource, deck52
from tavern.games.base import IllegalAction
from tavern.games.poker import draw
from tavern.games.poker.records import stacked_deck

FL = {"big_blind": 4, "structure": "fixed-limit", "draws": 1}


def seats(n, chips=500):
    return [{"player": f"P{i}", "chips": chips} for i in range(n)]


def kinds(engine, player):
    return {a["action"]: a for a in engine.legal_actions(player)}


def test_blinds_big_is_the_small_bet_small_is_half_rounded_down():
    """draw-poker.fr.txt: "dans un jeu à 4$-8$, le small blind est à 2$" and "le big
    blind est de 4$"; RULES.md: "small blind = half of it, rounded down"."""
    e = draw.new_deal(FL, seats(3), 2)
    assert e.b.bet[:2] == [2, 4]
    e = draw.new_deal({"big_blind": 5}, seats(3), 2)
    assert e.b.bet[:2] == [2, 5]
    with refused("draw_small_blind_half", IllegalAction):
        draw.new_deal({"big_blind": 4, "small_blind": 3}, seats(3), 2)


def test_first_round_nobody_checks_but_the_big_blind():
    """draw-poker.fr.txt: "Sur le premier tour uniquement, un joueur ne peut pas checker
    [...] Sur le premier tour seulement, le joueur en position de small blind agira
    après le bouton. Le joueur en position de big blind agira après le small blind";
    "Option – Le joueur qui a le big blind a l'option de soit lever, soit checker"."""
    e = draw.new_deal(FL, seats(4), 3)  # P0 small, P1 big, P2 first, P3 button
    order = []
    while e.phase == "bet":
        p = e.to_act()[0]
        order.append(p)
        legal = kinds(e, p)
        if p == "P1":
            assert set(legal) == {"check", "raise"}
            e.act(p, "check")
        else:
            assert "check" not in legal and {"fold", "call", "raise"} == set(legal)
            e.act(p, "call")
    assert order == ["P2", "P3", "P0", "P1"]
    assert e.phase == "draw"


def test_second_round_starts_left_of_the_button_and_check_raise_is_allowed():
    """draw-poker.fr.txt: "Lors du second tour, les paris commencent avec le premier
    joueur actif à gauche du bouton, ce dernier aura trois choix: checker, parier ou
    plier"; "Le Check-and-Raise est permi dans tous les jeux de Draw au second tour"."""
    e = draw.new_deal(FL, seats(4), 3)
    e.act("P2", "call")
    e.act("P3", "call")
    e.act("P0", "fold")
    e.act("P1", "check")
    for p in ("P1", "P2", "P3"):
        e.act(p, "draw", discard=[])
    assert e.to_act() == ["P1"] and set(kinds(e, "P1")) == {"check", "bet"}
    e.act("P1", "check")
    e.act("P2", "bet", amount=8)
    e.act("P3", "call")
    assert set(kinds(e, "P1")) == {"fold", "call", "raise"}
    e.act("P1", "raise", amount=16)  # check-raise


def test_draw_in_turn_from_the_left_of_the_button():
    """RULES.md: "Draw: in turn from the left of the button, each active player
    discards 0 to 5 cards and receives as many.\""""
    holes = [["2c", "3c", "4c", "5c", "7d"], ["2d", "3d", "4d", "5d", "7h"], ["2h", "3h", "4h", "5h", "7s"]]
    e = draw.new_deal(FL, seats(3), 2, deck=stacked_deck(holes, then=["As", "Ks", "Qs"]))
    e.act("P2", "call")
    e.act("P0", "call")
    e.act("P1", "check")
    assert e.to_act() == ["P0"] and kinds(e, "P0")["draw"]["cards"] == holes[0]
    with refused("throw_own_cards", IllegalAction):
        e.act("P0", "draw", discard=["2d"])
    with refused("not_your_turn", IllegalAction):
        e.act("P1", "draw", discard=[])
    e.act("P0", "draw", discard=["7d"])
    assert e.hole[0] == ["2c", "3c", "4c", "5c", "As"]
    e.act("P1", "draw", discard=[])  # stands pat
    e.act("P2", "draw", discard=["2h", "3h"])
    assert e.hole[2] == ["4h", "5h", "7s", "Ks", "Qs"]
    assert e.view(None)["drawn"] == {"P0": 1, "P1": 0, "P2": 2}
    assert e.phase == "bet" and e.round == 1


def test_deck_runs_out_reshuffle_never_returns_own_discards():
    """draw-poker.fr.txt: "dans un jeu entier avec huit joueurs, 40 cartes sont
    distribuées, laissant 12 cartes [...] Deux des huit joueurs plient leurs mains.
    Le premier joueur à jouer tire cinq cartes, laissant sept cartes [...] Le second
    joueur tire quatre cartes, laissant seulement trois cartes [...] Le troisième
    joueur veut tirer quatre cartes. Il reçoit les trois dernières cartes [...] les
    cartes pliées par les deux joueurs [...] (10 cartes) et les cartes jetées par les
    premier et second joueurs (neuf cartes) sont battues, et le troisième joueur
    reçoit une carte de plus du deck re-mélangé. Aucune des quatre cartes que le
    troisième joueur actif avait jeté ne se trouvent dans ceux qui sont re-battues
    [...] Dix-huit cartes restent dans le deck"."""
    deck = deck52()
    e = draw.new_deal(FL, seats(8), 7, deck=deck, rng=SeededSource(random.Random(3)))
    assert len(e.stock) == 12
    e.act("P2", "fold")
    e.act("P3", "fold")
    for p in ("P4", "P5", "P6", "P7", "P0"):
        e.act(p, "call")
    e.act("P1", "check")
    folded = e.hole[2] + e.hole[3]
    first = list(e.hole[0])
    e.act("P0", "draw", discard=first)
    assert len(e.stock) == 7
    second = e.hole[1][:4]
    e.act("P1", "draw", discard=second)
    last_three = list(e.stock)
    assert len(last_three) == 3
    third_hand = list(e.hole[4])
    third = third_hand[:4]
    e.act("P4", "draw", discard=third)
    rec = e.record()
    assert len(rec["reshuffles"]) == 1
    new_deck = rec["reshuffles"][0]
    assert len(new_deck) == 19 and sorted(new_deck) == sorted(folded + first + second)
    assert not set(third) & set(new_deck)
    assert e.hole[4] == third_hand[4:] + last_three + new_deck[:1]
    assert len(e.stock) == 18
    # The next drawers draw from the rebuilt stock and never get their own discards.
    fourth = e.hole[5][:2]
    e.act("P5", "draw", discard=fourth)
    assert e.hole[5][3:] == new_deck[1:3]
    for p in ("P6", "P7"):
        e.act(p, "draw", discard=[])
    # The reshuffle is in the record: the replay deals the very same cards.
    while not e.over:
        p = e.to_act()[0]
        e.act(p, "check" if "check" in kinds(e, p) else "show")
    out = draw.replay(json.loads(json.dumps(e.record())))
    assert out["chips"] == e.result()["chips"]


def test_replay_refuses_a_reshuffle_with_the_drawers_own_discards():
    """RULES.md: "except the current drawer's own discards, so nobody gets his
    discards back": a record whose reshuffle holds them is refused."""
    e = draw.new_deal(FL, seats(8), 7, rng=SeededSource(random.Random(5)))
    e.act("P2", "fold")
    e.act("P3", "fold")
    for p in ("P4", "P5", "P6", "P7", "P0"):
        e.act(p, "call")
    e.act("P1", "check")
    e.act("P0", "draw", discard=list(e.hole[0]))
    e.act("P1", "draw", discard=e.hole[1][:4])
    own = e.hole[4][:4]
    e.act("P4", "draw", discard=own)
    rec = e.record()
    bad = json.loads(json.dumps(rec))
    bad["reshuffles"][0][0] = own[0]
    with refused("bad_reshuffle", CardError):
        draw.replay(bad)
    bad["reshuffles"] = []
    with refused("reshuffle_missing", CardError):
        draw.replay(bad)
    assert draw.replay(rec)["finished"] is False


def test_double_draw_has_three_betting_rounds():
    """RULES.md: "Double draw: betting, draw, betting, draw, betting, showdown.\""""
    e = draw.new_deal({**FL, "draws": 2}, seats(2), 0)
    phases = []
    while not e.over:
        p = e.to_act()[0]
        if not phases or phases[-1] != e.phase:
            phases.append(e.phase)
        legal = kinds(e, p)
        if "draw" in legal:
            e.act(p, "draw", discard=[])
        elif "check" in legal:
            e.act(p, "check")
        elif "call" in legal:
            e.act(p, "call")
        else:
            e.act(p, "show")
    assert phases[:5] == ["bet", "draw", "bet", "draw", "bet"]


def test_heads_up_button_is_small_blind_and_speaks_first():
    """RULES.md: blinds "small blind the seat left of the button, big blind the next;
    heads-up, the button posts the small blind" (HAND_RECORDS.md)."""
    e = draw.new_deal(FL, seats(2), 1)  # P1 on the button
    assert e.b.bet[e.index["P1"]] == 2 and e.to_act() == ["P1"]


def test_seat_counts():
    """RULES.md: "2–8 seats (the source's 'minimum of eight' is a mistranslation of
    the maximum).\""""
    draw.new_deal(FL, seats(8), 0)
    with refused("players_range", IllegalAction):
        draw.new_deal(FL, seats(9), 0)


def test_no_limit_and_pot_limit_minimum_bet_is_the_big_blind():
    """draw-poker.fr.txt: "Le pari minimum au début de chaque tour est le montant du
    pari Big Blind.\""""
    for structure in ("pot-limit", "no-limit"):
        e = draw.new_deal({"big_blind": 4, "structure": structure}, seats(2), 0)
        e.act("P0", "call")
        e.act("P1", "check")
        e.act("P1", "draw", discard=[])
        e.act("P0", "draw", discard=[])
        assert kinds(e, "P1")["bet"]["min"] == 4


def test_time_out_at_the_draw_stands_pat_and_protection_stands_pat():
    """RULES.md: time-outs fold (or check); "A player who loses the connection is
    treated as all-in for the rest of that hand": at the draw he keeps his cards."""
    e = draw.new_deal(FL, seats(3), 2)
    e.act("P2", "call")
    e.act("P0", "call")
    e.act("P1", "check")
    assert e.timeout_action("P0") == {"action": "draw", "discard": []}
    hand = list(e.hole[1])
    e.protect("P1")
    e.act("P0", "draw", discard=[])
    assert e.hole[1] == hand and e.to_act() == ["P2"]


def test_view_shows_own_hand_only():
    """ARCHITECTURE.md: a view never holds "another player's hidden cards, the stock"."""
    e = draw.new_deal(FL, seats(3), 2)
    mine = json.dumps(e.view("P0"))
    assert all(f'"{c}"' in mine for c in e.hole[0])
    assert not any(f'"{c}"' in mine for c in e.hole[1] + e.hole[2] + e.stock)


def test_draw_rake_has_no_flop_no_drop_off_by_default():
    """RULES.md: draw poker "Rake ≈ 5 % with a cap, owner's choice"; "no flop, no drop"
    is the hold'em default only. The owner may still ask for it."""
    s = seats(3)
    for rake, expected in [({"percent": 10}, 1), ({"percent": 10, "no_flop_no_drop": True}, 0)]:
        e = draw.new_deal({"big_blind": 4, "rake": rake}, s, 2)
        e.act("P2", "raise", amount=8)
        e.act("P0", "fold")
        e.act("P1", "fold")
        assert e.result()["rake"] == expected  # 10 % of the 10 in the pot (2 + 4 + 4)
        assert e.record()["config"]["rake"]["no_flop_no_drop"] is bool(expected == 0)
