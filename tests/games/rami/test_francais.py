"""Rami français (game ``rami``): RULES.md § Rami family and rules/rami.fr.txt.

Deals are stacked: the helper builds a deck order from the hands wanted, so
each test plays exactly the situation the rule describes.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.refusals import refused

from tavern.cards import SeededSource, deck
from tavern.games import registry
from tavern.games.base import IllegalAction, RecordError
from tavern.games.rami import francais as rami

PLAYERS = ["A", "B", "C", "D", "E"]


def seats(n: int, chips: int = 1000) -> list[dict]:
    return [{"player": p, "chips": chips} for p in PLAYERS[:n]]


def stacked(composition: list[str], hands: dict[str, list[str]], button: int,
            turned: str, stock: list[str]) -> list[str]:
    """A deck order dealing ``hands`` (one card at a time from the dealer's left),
    then ``turned`` (the first discard), then ``stock`` on top of the stock."""
    players = list(hands)
    n = len(players)
    order = [players[(button + 1 + i) % n] for i in range(n)]
    size = len(hands[players[0]])
    out = [hands[p][k] for k in range(size) for p in order]
    out += [turned] + stock
    rest = Counter(composition) - Counter(out)
    assert not Counter(out) - Counter(composition), "a stacked card is not in the deck"
    return out + sorted(rest.elements())


def deal(hands: dict[str, list[str]], stock: list[str], turned: str = "Jc",
         config: dict | None = None, button: int | None = None, chips: int = 1000,
         carry: dict | None = None) -> rami.RamiEngine:
    """A deal whose first player (left of the dealer) is the first key of ``hands``."""
    config = config or {}
    n = len(hands)
    button = n - 1 if button is None else button
    composition = rami.deck_composition(config, n)
    order = stacked(composition, hands, button, turned, stock)
    return rami.new_deal(config, [{"player": p, "chips": chips} for p in hands],
                         button, deck=order, carry=carry)


def pass_turn(e: rami.RamiEngine) -> None:
    """Draw from the stock and throw the drawn card: the hand does not change."""
    p = e.to_act()[0]
    e.act(p, "draw", source="stock")
    e.act(p, "discard", card=e.hands[p][-1])


def every_card(e: rami.RamiEngine) -> Counter:
    c = Counter(e.stock) + Counter(e.discards)
    for h in e.hands.values():
        c += Counter(h)
    for tm in e.table:
        c += Counter(tm.meld.cards)
    return c


# A: 2♣ 3♣ 4♣ 9♦ 9♥ 9♠ K♦ ; B holds 51 points, C 40.
A7 = ["2c", "3c", "4c", "9d", "9h", "9s", "Kd"]
B7 = ["Ac", "7d", "Kh", "Qs", "5h", "8s", "Td"]  # 1+7+10+10+5+8+10 = 51
C7 = ["2d", "3h", "4s", "6d", "7h", "8h", "Js"]  # 2+3+4+6+7+8+10 = 40
# Other losing hands, for tests whose player A needs some of the cards above.
B_ALT = ["Ac", "7d", "Kc", "Qc", "6h", "7s", "Th"]  # 51
C_ALT = ["2d", "3h", "4h", "6d", "7h", "7s", "Js"]  # 39
C_NO_3H = ["2d", "3d", "4s", "6d", "7h", "8h", "Js"]  # 40


# ------------------------------------------------------------------ the deal


def test_seven_cards_each_dealt_one_by_one_and_the_turned_card_starts_the_discards():
    """"Le donneur distribue une par une 7 cartes à chacun ... puis retourne et pose,
    face visible, la première carte du talon ... la première carte de l'écart."
    "en commençant par le joueur situé à gauche du donneur"."""
    order = deck()
    e = rami.new_deal({}, seats(3), 1, deck=order)
    # Seat 2 (C) is left of the dealer B: he gets the 1st, 4th, 7th... card.
    assert e.hands["C"] == order[0:21:3]
    assert e.hands["A"] == order[1:21:3]
    assert e.hands["B"] == order[2:21:3]
    assert e.discards == [order[21]]
    assert len(e.stock) == 52 - 22
    assert e.to_act() == ["C"]
    assert e.legal_actions("C") == [{"action": "draw", "sources": ["stock", "discard"]}]
    e.act("C", "draw", source="stock")
    assert e.hands["C"][-1] == order[22]  # the top of the stock is the next card


@pytest.mark.parametrize("n,size", [(2, 10), (3, 7), (4, 7), (5, 6)])
def test_rummy_deal_sizes(n, size):
    """"comme au Rummy, de distribuer 10 cartes à chacun pour deux joueurs, 7 cartes
    à chacun pour trois ou quatre joueurs, 6 cartes à chacun pour cinq joueurs"."""
    e = rami.new_deal({"rummy_deal": True}, seats(n), 0, rng=SeededSource(random.Random(n)))
    assert all(len(h) == size for h in e.hands.values())
    plain = rami.new_deal({}, seats(n), 0, rng=SeededSource(random.Random(n)))
    assert all(len(h) == 7 for h in plain.hands.values())


def test_two_to_five_players():
    """"Deux à cinq joueurs utilisent un jeu de 52 cartes"."""
    assert len(rami.deck_composition({}, 5)) == 52
    for n in (1, 6):
        with refused("players_range", IllegalAction):
            rami.new_deal({}, seats(1) if n == 1 else seats(5) + [{"player": "F", "chips": 9}], 0)


def test_registry_knows_the_game():
    assert registry.load("rami") is rami


# ------------------------------------------------------------------ melds


def test_a_card_belongs_to_one_meld_only():
    """"Une même carte ne peut participer à deux combinaisons différentes. (8♥, 8♦,
    8♣, 9♣, 10♣ constituent un brelan ou une tierce, mais pas les deux)."""
    hand = ["8h", "8d", "8c", "9c", "Tc", "2s", "5d"]
    for first, second in ((["8h", "8d", "8c"], ["9c", "Tc"]), (["8c", "9c", "Tc"], ["8h", "8d"])):
        e = deal({"A": hand, "B": B7, "C": C_ALT}, stock=["Kc"])
        e.act("A", "draw", source="stock")
        with refused("meld_set_or_run", IllegalAction):
            e.act("A", "lay", cards=["8h", "8d", "8c", "9c", "Tc"])
        e.act("A", "lay", cards=first)
        with pytest.raises(IllegalAction):
            e.act("A", "lay", cards=second)  # the 8♣ is already in the other meld
        assert e.hands["A"].count("8c") == 0 and len(e.table) == 1


def test_a_run_needs_three_consecutive_cards_of_one_suit():
    """"des séquences (au moins trois cartes de la même couleur, et qui se suivent ;
    7♣, 8♣, 9♣ constituent une tierce ; 10♦, V♦, D♦, R♦ constituent une quarte...)"."""
    hand = ["7c", "8c", "9c", "Jc", "Td", "Jd", "Qd"]
    e = deal({"A": hand, "B": B_ALT, "C": C7}, stock=["Kd"], turned="2h")
    e.act("A", "draw", source="stock")
    with refused("run_consecutive", IllegalAction):
        e.act("A", "lay", cards=["7c", "8c", "Jc"])
    e.act("A", "lay", cards=["7c", "8c", "9c"])
    e.act("A", "lay", cards=["Td", "Jd", "Qd", "Kd"])
    assert [tm.meld.kind for tm in e.table] == ["run", "run"]
    assert e.table[1].meld.cards == ("Td", "Jd", "Qd", "Kd")


def test_sets_of_three_and_four():
    """"des brelans (trois cartes identiques ...) ; des carrés (quatre cartes identiques)"."""
    hand = ["Jc", "Jd", "Jh", "5c", "5d", "5h", "2s"]
    e = deal({"A": hand, "B": B_ALT, "C": C7}, stock=["5s"], turned="3d")
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["Jc", "Jd", "Jh"])
    e.act("A", "lay", cards=["5c", "5d", "5h", "5s"])
    assert [len(tm.meld.cards) for tm in e.table] == [3, 4]
    assert all(tm.meld.kind == "set" for tm in e.table)


# ------------------------------------------------------------------ a turn


def test_a_turn_draw_then_lay_then_add_then_discard():
    """"il prend la première carte de l'écart si celle-ci l'intéresse, sinon la
    première carte du talon ; s'il possède des combinaisons, il peut les poser ...
    il peut compléter une de ses combinaisons posées sur la table (un joueur a posé
    7♣, 8♣, 9♣ sur la table au tour précédent ; il tire le 10♣ ; il peut le poser à
    la suite du 9♣) ; enfin, il pose une carte, face visible, sur l'écart."""
    hand = ["7c", "8c", "9c", "Kd", "Qh", "4s", "2h"]
    e = deal({"A": hand, "B": B7, "C": C_ALT}, stock=["3d", "Ad", "Tc"], turned="6s")
    with refused("draw_first", IllegalAction):
        e.act("A", "lay", cards=["7c", "8c", "9c"])
    e.act("A", "draw", source="discard")  # takes the turned 6♠
    assert "6s" in e.hands["A"] and e.discards == []
    with refused("already_drawn", IllegalAction):
        e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["7c", "8c", "9c"])
    e.act("A", "discard", card="Kd")
    assert e.to_act() == ["B"] and e.discards == ["Kd"]
    pass_turn(e)  # B
    pass_turn(e)  # C
    e.act("A", "draw", source="stock")  # the 10♣
    assert e.hands["A"][-1] == "Tc"
    legal = {a["action"]: a for a in e.legal_actions("A")}
    assert {"meld": 0, "cards": ["Tc"]} in legal["add"]["options"]
    e.act("A", "add", meld=0, cards=["Tc"])
    assert e.table[0].meld.cards == ("7c", "8c", "9c", "Tc")
    e.act("A", "discard", card="Qh")
    assert e.to_act() == ["B"]


def test_one_adds_only_to_ones_own_melds():
    """RULES.md: "optionally add cards to one's own melds on the table"."""
    e = deal({"A": ["7c", "8c", "9c", "Kd", "Qh", "4s", "2h"], "B": ["Tc"] + B7[1:], "C": C_ALT},
             stock=["3d", "5d"])
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["7c", "8c", "9c"])
    e.act("A", "discard", card="3d")
    e.act("B", "draw", source="stock")
    with refused("own_melds_only", IllegalAction):
        e.act("B", "add", meld=0, cards=["Tc"])
    assert all(a["action"] != "add" for a in e.legal_actions("B"))


def test_not_your_turn_and_unknown_actions():
    e = deal({"A": A7, "B": B7, "C": C7}, stock=["5c"])
    with refused("not_your_turn", IllegalAction):
        e.act("B", "draw", source="stock")
    with refused("unknown_action_of", IllegalAction):
        e.act("A", "knock")
    with refused("takes_arguments", IllegalAction):
        e.act("A", "draw")
    with refused("not_dealt_in", IllegalAction):
        e.act("Z", "draw", source="stock")
    assert e.legal_actions("B") == []


def test_an_illegal_move_leaves_the_state_untouched():
    """Bad input raises IllegalAction and leaves the state untouched."""
    e = deal({"A": A7, "B": B7, "C": C7}, stock=["5c", "Qd"])
    e.act("A", "draw", source="stock")
    before = (e.record(), [e.view(p) for p in "ABC"], every_card(e))
    for action, args in [
        ("lay", {"cards": ["2c", "3c", "9d"]}),
        ("lay", {"cards": ["2c", "3c", "4c", "Ah"]}),  # A does not hold the A♥
        ("lay", {"cards": ["2c", "2c", "3c"]}),
        ("add", {"meld": 0, "cards": ["5c"]}),  # no meld 0 yet
        ("discard", {"card": "Ah"}),
        ("discard", {"card": "zz"}),
        ("lay", {"cards": "2c 3c 4c"}),
    ]:
        with pytest.raises(IllegalAction):
            e.act("A", action, **args)
        assert (e.record(), [e.view(p) for p in "ABC"], every_card(e)) == before


def test_the_card_taken_from_the_discard_pile_cannot_be_thrown_back():
    """Ruling (source silent): taking the top discard and throwing it back would
    be a pass, so it is refused unless the table option allows it."""
    e = deal({"A": A7, "B": B7, "C": C7}, stock=["5c"], turned="Qd")
    e.act("A", "draw", source="discard")
    assert "Qd" not in e.legal_actions("A")[-1]["cards"]
    with refused("discard_another", IllegalAction):
        e.act("A", "discard", card="Qd")
    e.act("A", "discard", card="Kd")
    f = deal({"A": A7, "B": B7, "C": C7}, stock=["5c"], turned="Qd",
             config={"may_return_discard": True})
    f.act("A", "draw", source="discard")
    f.act("A", "discard", card="Qd")
    assert f.discards == ["Qd"]


# ------------------------------------------------------------------ going out


def _lay_first_turn(e):
    e.act("A", "draw", source="stock")  # Q♦
    e.act("A", "lay", cards=["2c", "3c", "4c"])
    e.act("A", "discard", card="Qd")
    pass_turn(e)
    pass_turn(e)


def test_going_out_with_a_final_discard():
    """"il se débarrasse soit des cartes restant en main en posant une combinaison
    sur la table ou en complétant une de ses combinaisons, et en posant une carte
    sur l'écart" — each other player pays the points left in his hand: "Les figures
    valent dix. Les autres cartes ont leur valeur nominale (le sept vaut 7 points ;
    l'as vaut 1 point)"."""
    e = deal({"A": A7, "B": B7, "C": C7}, stock=["Qd", "Ks", "Kc", "5c"], config={"unit": 2})
    _lay_first_turn(e)
    e.act("A", "draw", source="stock")  # 5♣
    e.act("A", "add", meld=0, cards=["5c"])
    e.act("A", "lay", cards=["9d", "9h", "9s"])
    assert not e.over
    events = e.act("A", "discard", card="Kd")
    assert e.over and events[-1]["event"] == "end"
    r = e.result()
    assert r["scoring"]["ending"] == "out" and r["scoring"]["winners"] == ["A"]
    assert r["scoring"]["points"] == {"B": 51, "C": 40}
    assert r["delta"] == {"A": 2 * 91, "B": -2 * 51, "C": -2 * 40}
    assert r["chips"] == {"A": 1182, "B": 898, "C": 920}
    assert r["carry"] is None and r["rake"] == 0


def test_going_out_by_laying_the_last_cards_without_discard():
    """"soit de toutes ses cartes restant en main en posant une combinaison sur la
    table ou en complétant une de ses combinaisons"."""
    hand = ["2c", "3c", "4c", "9d", "9h", "9s", "6c"]
    e = deal({"A": hand, "B": B7, "C": C7}, stock=["Qd", "Ks", "Kc", "5c"])
    _lay_first_turn(e)
    e.act("A", "draw", source="stock")  # 5♣
    e.act("A", "lay", cards=["9d", "9h", "9s"])
    events = e.act("A", "add", meld=0, cards=["5c", "6c"])
    assert e.over and e.hands["A"] == [] and events[-1]["ending"] == "out"
    assert e.table[0].meld.cards == ("2c", "3c", "4c", "5c", "6c")
    assert e.result()["delta"] == {"A": 91, "B": -51, "C": -40}


def test_rami_all_at_once_doubles_the_score():
    """"soit en une seule fois de toutes ses cartes en les posant sur la table. On dit
    alors qu'il a « fait rami »." — "Lorsqu'un joueur fait rami, la marque (ou le
    nombre de jetons) est doublée." (RULES.md: going out in a single turn with
    nothing laid before.)"""
    hand = ["2c", "3c", "4c", "9d", "9h", "9s", "9c"]
    e = deal({"A": hand, "B": B7, "C": C7}, stock=["5c"])
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["9d", "9h", "9s", "9c"])
    e.act("A", "lay", cards=["2c", "3c", "4c", "5c"])
    r = e.result()
    assert r["scoring"]["ending"] == "rami" and r["scoring"]["factor"] == 2
    assert r["delta"] == {"A": 2 * 91, "B": -2 * 51, "C": -2 * 40}


def test_rami_with_a_final_discard_is_still_rami():
    """Ruling (RULES.md): nothing laid before and out in one turn is rami, the final
    discard included."""
    e = deal({"A": A7, "B": B7, "C": C7}, stock=["5c"])
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["2c", "3c", "4c", "5c"])
    e.act("A", "lay", cards=["9d", "9h", "9s"])
    e.act("A", "discard", card="Kd")
    assert e.result()["scoring"]["ending"] == "rami"
    assert e.result()["delta"]["A"] == 2 * 91


def test_chips_rounded_up_to_the_ten():
    """"chaque joueur donne au gagnant du coup un nombre de jetons, que l'on peut
    arrondir à la dizaine supérieure pour plus de commodité"."""
    e = deal({"A": A7, "B": B7, "C": C7}, stock=["Qd", "Ks", "Kc", "5c"],
             config={"round_up_to_ten": True})
    _lay_first_turn(e)
    e.act("A", "draw", source="stock")
    e.act("A", "add", meld=0, cards=["5c"])
    e.act("A", "lay", cards=["9d", "9h", "9s"])
    e.act("A", "discard", card="Kd")
    assert e.result()["delta"] == {"A": 60 + 40, "B": -60, "C": -40}


def test_a_loser_pays_at_most_his_chips():
    """Ruling: table chips never go below zero; money is conserved."""
    e = deal({"A": A7, "B": B7, "C": C7}, stock=["5c"], chips=30)
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["2c", "3c", "4c", "5c"])
    e.act("A", "lay", cards=["9d", "9h", "9s"])
    e.act("A", "discard", card="Kd")
    r = e.result()
    assert r["delta"] == {"A": 60, "B": -30, "C": -30}
    assert sum(r["delta"].values()) == 0 and min(r["chips"].values()) == 0


# ------------------------------------------------------------------ stock exhausted


FIVE = {
    "A": ["Kc", "Kd", "2h", "9s", "3c", "Th", "4d"],   # 10+10+2+9+3+10+4 = 48
    "B": ["Ac", "2c", "Ad", "2d", "Ah", "3d", "4h"],   # 1+2+1+2+1+3+4 = 14
    "C": ["5c", "6d", "7h", "8s", "9c", "Qd", "Jh"],   # 5+6+7+8+9+10+10 = 55
    "D": ["As", "2s", "3s", "3h", "4c", "4s", "6c"],   # 1+2+3+3+4+4+6 = 23
    "E": ["5d", "5h", "7c", "7d", "8c", "8d", "Js"],   # 5+5+7+7+8+8+10 = 50
}


def test_stock_exhausted_lowest_count_wins_and_others_pay_the_difference():
    """"Lorsqu'aucun joueur n'est arrivé à se débarrasser de toutes ses cartes avant
    épuisement du talon, chaque joueur étale ses cartes restantes sur la table, et
    compte ses points. Le joueur qui a le moins de points est déclaré gagnant et les
    autres joueurs lui donnent la différence entre leurs points et les siens."""
    e = deal(FIVE, stock=[], turned="Ks")
    assert len(e.stock) == 52 - 36
    for _ in range(15):
        pass_turn(e)
        assert not e.over
    pass_turn(e)  # the 16th turn takes the last card of the stock
    r = e.result()
    assert r["scoring"]["ending"] == "stock" and r["scoring"]["winners"] == ["B"]
    assert r["scoring"]["points"] == {"A": 48, "B": 14, "C": 55, "D": 23, "E": 50}
    assert r["delta"] == {"A": -34, "B": 34 + 41 + 9 + 36, "C": -41, "D": -9, "E": -36}
    assert r["shown"]["B"] == FIVE["B"]


def test_stock_exhausted_tie_for_lowest_shares_the_payments():
    """Ruling (source silent): equal lowest counts share what the others pay; the
    odd chip goes to the first of them left of the dealer."""
    hands = {
        "A": ["Kc", "Kd", "2h", "9s", "3c", "Th", "4d"],  # 48
        "B": ["Ah", "4h", "3d", "7d", "7c", "3h", "As"],  # 26
        "C": ["5c", "6d", "7h", "8s", "9c", "4s", "5s"],  # 44
        "D": ["2s", "3s", "Qs", "Qc", "Ks", "4c", "8d"],  # 47
        "E": ["5d", "5h", "Ac", "2c", "Ad", "2d", "Js"],  # 26
    }
    e = deal(hands, stock=[], turned="7s")
    pts = {p: e.hand_points(p) for p in hands}
    assert pts == {"A": 48, "B": 26, "C": 44, "D": 47, "E": 26}
    for _ in range(16):
        pass_turn(e)
    r = e.result()
    assert r["scoring"]["winners"] == ["B", "E"]  # in turn order from the dealer's (E's) left
    assert r["delta"] == {"A": -22, "B": 31, "C": -18, "D": -21, "E": 30}


# ------------------------------------------------------------------ options


def test_joker_option_wild_in_any_meld_and_20_points_in_hand():
    """"d'ajouter un joker aux 52 cartes ; le joker peut remplacer n'importe quelle
    carte dans n'importe quelle combinaison ; si le joker reste dans la main d'un
    joueur alors qu'un autre joueur vient de se débarrasser de toutes ses cartes, il
    compte 20 points"."""
    assert rami.deck_composition({"joker": True}, 3).count("X1") == 1
    assert "X1" not in rami.deck_composition({}, 3)
    hand = ["4s", "X1", "6s", "Kd", "Kh", "9c", "9d"]
    b = ["Ac", "7d", "Kc", "Qs", "5h", "8s", "Td"]
    e = deal({"A": hand, "B": b, "C": C_ALT}, stock=["Ks"], config={"joker": True})
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["4s", "X1", "6s"])
    assert e.table[0].meld.stands_for == (None, "5s", None)
    # With the joker option the joker completes a set as well.
    f = deal({"A": ["Kd", "Kh", "X1", "9c", "9d", "2h", "5c"], "B": b, "C": C7}, stock=["7s"],
             config={"joker": True})
    f.act("A", "draw", source="stock")
    f.act("A", "lay", cards=["Kd", "Kh", "X1"])
    assert f.table[0].meld.kind == "set"
    # A joker left in hand counts 20.
    g = deal({"A": A7, "B": ["X1"] + b[1:], "C": C7}, stock=["5c"], config={"joker": True})
    g.act("A", "draw", source="stock")
    g.act("A", "lay", cards=["2c", "3c", "4c", "5c"])
    g.act("A", "lay", cards=["9d", "9h", "9s"])
    g.act("A", "discard", card="Kd")
    assert g.result()["scoring"]["points"]["B"] == 20 + 50


def test_ace_is_low_by_default():
    """"L'ordre décroissant des cartes est celui de la bataille, l'as venant toutefois
    après le 2, et non avant le roi" — A-2-3 is a run, Q-K-A is not."""
    hand = ["Ah", "2h", "3h", "Qs", "Ks", "As", "5d"]
    e = deal({"A": hand, "B": B_ALT, "C": C_NO_3H}, stock=["Jd"])
    e.act("A", "draw", source="stock")
    with refused("run_consecutive", IllegalAction):
        e.act("A", "lay", cards=["Qs", "Ks", "As"])
    e.act("A", "lay", cards=["Ah", "2h", "3h"])


def test_ace_high_option_q_k_a_and_ace_worth_11():
    """"d'accepter que l'as puisse participer à une séquence avec le 2 ou avec le roi.
    A♠, R♠ et D♠ constituent par exemple une tierce. A la marque, l'as vaut alors
    11 points" (RULES.md: ace = 11 with the option)."""
    hand = ["Qs", "Ks", "As", "Ah", "2h", "3h", "Kd"]
    e = deal({"A": hand, "B": B_ALT, "C": C_NO_3H}, stock=["Jd"], config={"ace_high": True})
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["Qs", "Ks", "As"])
    e.act("A", "lay", cards=["Ah", "2h", "3h"])
    assert e.points("Ac") == 11
    with pytest.raises(IllegalAction):
        e.act("A", "lay", cards=["Kd", "Jd"])
    # Around the corner stays refused with ace high alone.
    f = deal({"A": ["Kh", "Ah", "2h", "9s", "9d", "9c", "5d"], "B": B_ALT, "C": C7}, stock=["Jd"],
             config={"ace_high": True})
    f.act("A", "draw", source="stock")
    with refused("run_consecutive", IllegalAction):
        f.act("A", "lay", cards=["Kh", "Ah", "2h"])
    # The ace in a loser's hand counts 11: B holds A♣.
    g = deal({"A": A7, "B": B7, "C": C7}, stock=["5c"], config={"ace_high": True})
    g.act("A", "draw", source="stock")
    g.act("A", "lay", cards=["2c", "3c", "4c", "5c"])
    g.act("A", "lay", cards=["9d", "9h", "9s"])
    g.act("A", "discard", card="Kd")
    assert g.result()["scoring"]["points"]["B"] == 51 + 10


def test_ace_around_the_corner_option():
    """"d'accepter que l'as puisse participer à une séquence, non seulement avec le 2
    ou avec le roi, mais avec le 2 ET le roi. 2♠, A♠, R♠, D♠ constituent ainsi une
    quarte. A la marque, l'as vaut 11 points"."""
    hand = ["2s", "As", "Ks", "Qs", "Kh", "Ah", "5d"]
    e = deal({"A": hand, "B": B_ALT, "C": C7}, stock=["2h"], config={"ace_around": True})
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["Qs", "Ks", "As", "2s"])
    e.act("A", "lay", cards=["Kh", "Ah", "2h"])
    assert e.points("As") == 11
    plain = deal({"A": hand, "B": B_ALT, "C": C7}, stock=["2h"])
    plain.act("A", "draw", source="stock")
    with pytest.raises(IllegalAction):
        plain.act("A", "lay", cards=["Qs", "Ks", "As", "2s"])


def test_reshuffle_option_rebuilds_the_stock_and_records_it():
    """"comme au Rummy, lorsque le talon est épuisé, de continuer à jouer en retournant
    l'écart et en le posant, faces cachées, sur la table, de façon à constituer un
    nouveau talon" (RULES.md: reshuffle the discards into a new stock)."""
    e = deal(FIVE, stock=[], turned="Ks", config={"reshuffle": True, "reshuffle_limit": 1})
    first_stock = list(reversed(e.stock))
    for _ in range(16):
        pass_turn(e)
    assert not e.over and len(e.reshuffles) == 1
    # Every discard but the last one (still face up) went into the new stock.
    assert Counter(e.reshuffles[0]) == Counter(["Ks"] + first_stock[:15])
    assert e.discards == [first_stock[15]]
    assert list(reversed(e.stock)) == e.reshuffles[0]
    assert every_card(e) == Counter(deck())
    # The limit reached, the next exhausted stock ends the deal by the count.
    for _ in range(16):
        pass_turn(e)
    assert e.over and e.result()["scoring"]["ending"] == "stock"
    rec = e.record()
    assert rec["reshuffles"] == e.reshuffles
    out = rami.replay(rec)
    assert out["finished"] and out["chips"] == e.result()["chips"]
    # A record whose rebuilt stock is not made of the discards is refused.
    bad = dict(rec, reshuffles=[list(reversed(rec["reshuffles"][0]))[1:] + ["2c"]])
    with refused("record_bad_reshuffle", IllegalAction):
        rami.replay(bad)
    with refused("record_no_more_reshuffles", IllegalAction):
        rami.replay(dict(rec, reshuffles=[]))


def test_without_the_reshuffle_option_the_stock_is_never_rebuilt():
    e = deal(FIVE, stock=[], turned="Ks")
    for _ in range(16):
        pass_turn(e)
    assert e.over and e.reshuffles == [] and e.record()["reshuffles"] == []


def test_bad_options_are_refused():
    for config in ({"unit": -1}, {"scoring": "money"}, {"jokers": True}):
        with pytest.raises(RecordError, match="« "):
            rami.new_deal(config, seats(3), 0)


# ------------------------------------------------------------------ à la marque


def _rami_by_a(carry=None, config=None):
    hand = ["2c", "3c", "4c", "9d", "9h", "9s", "9c"]
    e = deal({"A": hand, "B": B7, "C": C7}, stock=["5c"], carry=carry,
             config={"scoring": "marque", **(config or {})})
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["9d", "9h", "9s", "9c"])
    e.act("A", "lay", cards=["2c", "3c", "4c", "5c"])
    return e


def test_a_la_marque_points_go_on_the_sheet_and_are_paid_deal_by_deal():
    """"Si l'on joue à la marque, lorsqu'un joueur s'est débarrassé de toutes ses
    cartes en plusieurs fois, chacun des autres joueurs compte le nombre de points lui
    restant en main et le joueur qui tient la marque inscrit les points correspondants
    dans la colonne du joueur. En fin de partie, c'est le joueur qui a le moins de
    points qui gagne." — and rami doubles "la marque". Ruling (issue 11 §9): each
    deal pays what it changes in the match as the sheet stands."""
    e = _rami_by_a(config={"match_target": 500})
    r = e.result()
    assert r["scoring"]["marks"] == {"B": 102, "C": 80}
    assert r["delta"] == {"A": 182, "B": -102, "C": -80}
    assert r["carry"] == {"scores": {"A": 0, "B": 102, "C": 80}, "deals": 1}
    assert e.view("A")["scores"] == {"A": 0, "B": 102, "C": 80}
    # The next deal starts from the carried sheet.
    f = _rami_by_a(carry=r["carry"], config={"match_target": 500})
    assert f.result()["carry"] == {"scores": {"A": 0, "B": 204, "C": 160}, "deals": 2}
    assert f.result()["delta"] == {"A": 182, "B": -102, "C": -80}  # what this deal adds
    assert f.record()["carry"] == r["carry"]


def test_the_match_ends_at_the_target_and_the_lowest_total_collects():
    """Ruling (docs): the match ends after the deal in which a total reaches
    ``match_target``; the lowest total wins and each other player pays the
    difference × unit — deal by deal: the earlier deals paid the sheet as it
    stood then (C, lowest, had collected 25 from A and 5 from B), this one pays
    the change to the final standing (A collects 82 from B and 55 from C)."""
    carry = {"scores": {"A": 30, "B": 10, "C": 5}, "deals": 3}
    e = _rami_by_a(carry=carry, config={"match_target": 100, "unit": 2})
    r = e.result()
    match = r["scoring"]["match"]
    assert match["over"] and match["scores"] == {"A": 30, "B": 112, "C": 85}
    assert match["winners"] == ["A"]
    assert r["delta"] == {"A": 2 * (137 + 25), "B": -2 * (82 - 5), "C": -2 * (55 + 30)}
    assert r["carry"] is None  # a new match begins


def test_the_match_can_be_a_fixed_number_of_deals():
    carry = {"scores": {"A": 0, "B": 0, "C": 0}, "deals": 1}
    e = _rami_by_a(carry=carry, config={"match_target": 10_000, "match_deals": 2})
    assert e.result()["scoring"]["match"]["over"]
    assert e.result()["delta"] == {"A": 182, "B": -102, "C": -80}


def test_a_bad_carried_sheet_is_refused():
    for carry in ({"scores": {"A": "ten"}, "deals": 1}, {"scores": {"A": 1}, "deals": -1}, {"deals": 2}):
        with pytest.raises(RecordError) as info:
            rami.new_deal({"scoring": "marque"}, seats(3), 0, carry=carry)
        assert info.value.code.startswith("rami_sheet_") and info.value.field.startswith("carry")


def test_stock_exhausted_a_la_marque_marks_the_differences():
    e = deal(FIVE, stock=[], turned="Ks", config={"scoring": "marque", "match_target": 1000})
    for _ in range(16):
        pass_turn(e)
    assert e.result()["scoring"]["marks"] == {"A": 34, "C": 41, "D": 9, "E": 36}
    assert e.result()["carry"]["scores"] == {"A": 34, "B": 0, "C": 41, "D": 9, "E": 36}


# ------------------------------------------------------------------ view, record, replay


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


def test_view_hides_other_hands_and_the_stock():
    """ARCHITECTURE: "never another player's hidden cards, the deck, or the widow"."""
    e = deal({"A": A7, "B": B7, "C": C7}, stock=["5c"])
    seen = set(_strings(e.view("A")))
    assert set(A7) <= seen
    assert not (set(B7) | set(C7) | set(e.stock)) & seen
    assert e.view("A")["stock"] == len(e.stock)
    spectator = set(_strings(e.view(None)))
    assert not (set(A7) | set(B7) | set(C7) | set(e.stock)) & spectator
    assert e.view("A")["legal"] == [{"action": "draw", "sources": ["stock", "discard"]}]
    assert e.view("B")["legal"] == []


def test_record_and_replay_reproduce_the_deal():
    e = deal({"A": A7, "B": B7, "C": C7}, stock=["Qd", "Ks", "Kc", "5c"])
    _lay_first_turn(e)
    partial = rami.replay(e.record())
    assert partial["finished"] is False and partial["to_act"] == ["A"]
    e.act("A", "draw", source="stock")
    e.act("A", "add", meld=0, cards=["5c"])
    e.act("A", "lay", cards=["9d", "9h", "9s"])
    e.act("A", "discard", card="Kd")
    rec = e.record()
    assert rec["game"] == "rami" and rec["format"] == 1 and len(rec["deck"]) == 52
    assert rec["actions"][0] == {"player": "A", "action": "draw", "source": "stock"}
    out = registry.replay(rec)
    assert out["finished"] and out["chips"] == e.result()["chips"]
    broken = dict(rec, actions=rec["actions"][:-1] + [{"player": "A", "action": "discard", "card": "Ah"}])
    with pytest.raises(IllegalAction):
        rami.replay(broken)


def test_timeout_draws_from_the_stock_then_throws_the_highest_card():
    e = deal({"A": ["2c", "3c", "4c", "9d", "9h", "9s", "5d"], "B": B7, "C": C7}, stock=["Kd"])
    assert e.timeout_action("A") == {"action": "draw", "source": "stock"}
    e.act("A", **e.timeout_action("A"))
    assert e.timeout_action("A") == {"action": "discard", "card": "Kd"}
    e.act("A", **e.timeout_action("A"))
    assert e.to_act() == ["B"]


# ------------------------------------------------------------------ properties


def play_randomly(e, r: random.Random, check=None, max_steps: int = 5000) -> int:
    steps = 0
    while not e.over:
        assert steps < max_steps, "the deal does not end"
        p = e.to_act()[0]
        legal = e.legal_actions(p)
        a = r.choice(legal)
        kind = a["action"]
        if kind == "draw":
            e.act(p, "draw", source=r.choice(a["sources"]))
        elif kind == "lay":
            e.act(p, "lay", cards=r.choice(a["melds"]))
        elif kind == "add":
            e.act(p, "add", **r.choice(a["options"]))
        elif kind == "move_joker":
            o = r.choice(a["options"])
            e.act(p, "move_joker", meld=o["meld"], card=o["card"], end=r.choice(o["ends"]))
        else:
            e.act(p, "discard", card=r.choice(a["cards"]))
        steps += 1
        if check:
            check(e)
    return steps


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 5),
    joker=st.booleans(),
    ace=st.sampled_from(["low", "high", "around"]),
    reshuffle=st.booleans(),
    rummy=st.booleans(),
    scoring=st.sampled_from(["jetons", "marque"]),
    chips=st.integers(0, 200),
)
def test_random_legal_play_ends_keeps_every_card_and_conserves_chips(
        seed, n, joker, ace, reshuffle, rummy, scoring, chips):
    config = {"joker": joker, "ace_high": ace == "high", "ace_around": ace == "around",
              "reshuffle": reshuffle, "rummy_deal": rummy, "scoring": scoring,
              "match_target": 60, "unit": 3}
    r = random.Random(seed)
    composition = Counter(rami.deck_composition(config, n))
    e = rami.new_deal(config, seats(n, chips), r.randrange(n), rng=SeededSource(r))

    def every_card_in_one_place(e):
        assert every_card(e) == composition

    play_randomly(e, r, every_card_in_one_place)
    res = e.result()
    assert sum(res["delta"].values()) == 0
    assert all(res["chips"][p] == chips + res["delta"][p] >= 0 for p in res["chips"])
    assert rami.replay(e.record())["chips"] == res["chips"]


def test_tavern_replay_reads_a_rami_record(tmp_path, capsys):
    """HAND_RECORDS.md: "what `tavern replay RECORD.json` reads" — and an inconsistent
    record is refused with a non-zero exit code."""
    import json

    from tavern import cli

    e = deal({"A": A7, "B": B7, "C": C7}, stock=["5c"])
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["2c", "3c", "4c", "5c"])
    e.act("A", "lay", cards=["9d", "9h", "9s"])
    e.act("A", "discard", card="Kd")
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(e.record()))
    assert cli.main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] and out["chips"] == {"A": 1182, "B": 898, "C": 920}
    bad = e.record()
    bad["actions"][1]["cards"] = ["2c", "3c", "9d"]
    path.write_text(json.dumps(bad))
    assert cli.main(["replay", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["code"] == "in_action" and out["params"]["refusal"]["code"] == "meld_set_or_run"
    assert "Ces cartes ne font pas une combinaison" in out["error"]


def snapshot(e):
    return (e.record(), [e.view(p) for p in e.players] + [e.view(None)], every_card(e))


def random_attempt(e, r: random.Random, composition: list[str]) -> tuple[str, str, dict]:
    """A move that may well be illegal: any player, any action, cards held or not."""
    p = r.choice(e.players + ["Z"]) if r.random() < 0.2 else e.to_act()[0]
    hand = e.hands.get(p, [])
    pool = hand + [r.choice(composition)]

    def some(k):
        return r.sample(pool, min(len(pool), k))

    action = r.choice(["draw", "lay", "add", "discard", "move_joker", "knock"])
    args = {
        "draw": lambda: {"source": r.choice(["stock", "discard", "widow"])},
        "lay": lambda: {"cards": some(r.randint(1, 5))},
        "add": lambda: {"meld": r.randint(-1, len(e.table)), "cards": some(r.randint(1, 2))},
        "discard": lambda: {"card": r.choice(pool + ["1z"])},
        "move_joker": lambda: {"meld": r.randint(0, len(e.table)), "card": r.choice(pool),
                               "end": r.choice(["low", "high", "middle"])},
        "knock": lambda: {},
    }[action]()
    return p, action, args


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4))
def test_any_refused_move_leaves_the_state_untouched(seed, n):
    """"an illegal move raises IllegalAction ... and leaves the state untouched"."""
    r = random.Random(seed)
    config = {"joker": True, "ace_around": r.random() < 0.5, "reshuffle": True}
    composition = rami.deck_composition(config, n)
    e = rami.new_deal(config, seats(n), 0, rng=SeededSource(r))
    steps = 0
    while not e.over and steps < 400:
        before = snapshot(e)
        p, action, args = random_attempt(e, r, composition)
        try:
            e.act(p, action, **args)
        except IllegalAction:
            assert snapshot(e) == before, (p, action, args)
        if not e.over:
            play_randomly_once(e, r)
        steps += 1


def play_randomly_once(e, r: random.Random) -> None:
    p = e.to_act()[0]
    a = r.choice(e.legal_actions(p))
    if a["action"] == "draw":
        e.act(p, "draw", source=r.choice(a["sources"]))
    elif a["action"] == "lay":
        e.act(p, "lay", cards=r.choice(a["melds"]))
    elif a["action"] == "add":
        e.act(p, "add", **r.choice(a["options"]))
    else:
        e.act(p, "discard", card=r.choice(a["cards"]))


def test_a_change_of_players_ends_a_match_paid_as_it_stood():
    """Issue 11 §9 ruling: "if a player leaves mid-match the match ends there
    and is settled as it stands" — it was paid deal by deal, so the next deal
    with other players starts a new sheet."""
    carry = {"scores": {"A": 30, "B": 10, "Z": 5}, "deals": 3}  # Z has left, C sits in
    e = _rami_by_a(carry=carry, config={"match_target": 500})
    assert e.result()["carry"] == {"scores": {"A": 0, "B": 102, "C": 80}, "deals": 1}


def test_a_loser_short_of_chips_pays_what_he_has():
    """"Chips never go below zero": the collected chips go to those owed in
    proportion; the deltas still sum to zero."""
    from tavern.games.rami.common import transfer

    delta = transfer({"A": 0, "B": 10, "C": 500}, {"A": 150, "B": -100, "C": -50}, ["A", "B", "C"])
    assert delta == {"A": 60, "B": -10, "C": -50}
    delta = transfer({"A": 0, "B": 3, "C": 0}, {"A": 5, "B": -10, "C": 5}, ["C", "A", "B"])
    assert delta == {"A": 1, "B": -3, "C": 2} and sum(delta.values()) == 0
