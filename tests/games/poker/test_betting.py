"""Betting, pots and rake (RULES.md; ramponneau.fr.txt; draw-poker.fr.txt).

Each test quotes the rule it checks. The engine is driven through the public
contract (``new_deal``, ``act``, ``legal_actions``, ``result``).
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.refusals import refused

from tavern.games.base import IllegalAction
from tavern.games.poker import draw, ramponneau
from tavern.games.poker.betting import Rake, build_pots, split
from tavern.games.poker.records import stacked_deck

BOARD = ["2c", "7d", "9h", "Js", "3s"]


def play(engine, moves):
    for move in moves:
        player, action, *amount = move
        if amount:
            engine.act(player, action, amount=amount[0])
        else:
            engine.act(player, action)


def kinds(engine, player):
    return {a["action"]: a for a in engine.legal_actions(player)}


def heads_up_at_the_turn():
    """A and B at the turn, B on the button, 200 in the pot (source example)."""
    # Heads-up the button (B) is index 1, A (big blind) index 0.
    deck = stacked_deck([["Kh", "Kd"], ["Qh", "Qd"]], BOARD)
    e = ramponneau.new_deal({"small_blind": 10, "big_blind": 20},
                            [{"player": "A", "chips": 1000}, {"player": "B", "chips": 1000}], 1, deck=deck)
    play(e, [("B", "call"), ("A", "check"),  # pre-flop: 40
             ("A", "bet", 80), ("B", "call")])  # flop: 200
    assert e.round == 2 and sum(e.b.total) == 200
    return e


def test_raise_of_25_after_a_bet_of_50_is_refused():
    """ramponneau.fr.txt: "si A mise 50, B peut soit passer, soit suivre 50, soit
    relancer en misant un montant supérieur ou égal à 100 (il n'a pas le droit de
    mettre 75, c'est-à-dire relancer de 25)". RULES.md: "75 is refused"."""
    e = heads_up_at_the_turn()
    e.act("A", "bet", amount=50)
    legal = kinds(e, "B")
    assert set(legal) == {"fold", "call", "raise"}
    assert legal["call"]["amount"] == 50
    assert legal["raise"]["min"] == 100 and legal["raise"]["max"] == 900
    before = e.record()
    with refused("raise_too_small", IllegalAction):
        e.act("B", "raise", amount=75)
    assert e.record() == before and e.to_act() == ["B"]  # untouched
    e.act("B", "raise", amount=100)
    assert e.to_act() == ["A"]


def test_fold_to_a_bet_returns_the_uncalled_bet():
    """ramponneau.fr.txt: "Si B passe la partie est terminée, A reprend ses 50 écus
    et gagne tout le pot de 200 écus"."""
    e = heads_up_at_the_turn()
    e.act("A", "bet", amount=50)
    e.act("B", "fold")
    res = e.result()
    assert e.over
    assert res["pots"] == [{"amount": 200, "rake": 0, "eligible": ["A"], "winners": ["A"],
                            "shares": {"A": 200}}]
    assert res["chips"] == {"A": 1100, "B": 900}
    assert res["shown"] == {}  # nobody shows when everyone else folded


def test_call_of_a_raise_pays_the_difference():
    """ramponneau.fr.txt: "Supposons que B relance de 300 [...] A peut suivre,
    c'est-à-dire payer 300-50 = 250 écus [...] on passe à la river"."""
    e = heads_up_at_the_turn()
    e.act("A", "bet", amount=50)
    e.act("B", "raise", amount=300)
    assert kinds(e, "A")["call"]["amount"] == 300
    stack = e.b.stack[0]
    e.act("A", "call")
    assert stack - e.b.stack[0] == 250
    assert e.round == 3 and len(e.board) == 5  # the river


def test_check_check_ends_the_round():
    """ramponneau.fr.txt: "Si A dit parole, B peut également dire parole : la phase
    d'enchère est alors terminée, avec aucun écu supplémentaire dans le pot"."""
    e = heads_up_at_the_turn()
    play(e, [("A", "check"), ("B", "check")])
    assert e.round == 3 and sum(e.b.total) == 200


def test_a_bet_is_at_least_the_big_blind():
    """RULES.md: "No limit. A bet is at least the big blind.\""""
    e = heads_up_at_the_turn()
    assert kinds(e, "A")["bet"]["min"] == 20
    with refused("bet_too_small", IllegalAction):
        e.act("A", "bet", amount=10)


# Seats A B C D, button D; blinds 5/10. Everyone in for 10 pre-flop; on the flop
# B bets 20, C and D call, A raises to 90, B and C call, D folds (30 in all).
SOURCE_EXAMPLE_TO_THE_RIVER = [
    ("C", "call"), ("D", "call"), ("A", "call"), ("B", "check"),
    ("A", "check"), ("B", "bet", 20), ("C", "call"), ("D", "call"), ("A", "raise", 90),
    ("B", "call"), ("C", "call"), ("D", "fold"),
    ("A", "check"), ("B", "check"), ("C", "check"),
]


def test_river_side_pots_of_the_source_example():
    """ramponneau.fr.txt / RULES.md: at the river 330 in the pot (100 from A, B, C
    and 30 from D who folded on the flop); C has 20 left. "A mise 50 et B suive
    [...] C [...] mise son tapis": "Le pot contient donc 390 écus au total [...]
    A, B et C sont tous trois qualifiés"; the side pot "contient donc 2x(50-20) =
    60 écus. Seuls A et B sont qualifiés pour ce pot. Même si C a une meilleure
    main qu'eux, il ne pourra pas le gagner"."""
    # Seats A B C D, button D: index order A (small blind), B (big blind), C, D.
    holes = [["Kh", "Kd"], ["Qh", "Qd"], ["Ah", "Ad"], ["4c", "5c"]]
    seats = [{"player": "A", "chips": 1000}, {"player": "B", "chips": 1000},
             {"player": "C", "chips": 120}, {"player": "D", "chips": 1000}]
    e = ramponneau.new_deal({"small_blind": 5, "big_blind": 10}, seats, 3, deck=stacked_deck(holes, BOARD))
    play(e, SOURCE_EXAMPLE_TO_THE_RIVER)
    assert e.b.total == [100, 100, 100, 30]
    play(e, [("A", "bet", 50), ("B", "call"), ("C", "call")])  # C: all-in for 20
    # Showdown: A (the river bettor) shows kings; B, beaten everywhere, may muck.
    assert e.to_act() == ["B"] and set(kinds(e, "B")) == {"show", "muck"}
    e.act("B", "muck")
    res = e.result()
    assert [(p["amount"], p["eligible"]) for p in res["pots"]] == [(390, ["A", "B", "C"]), (60, ["A", "B"])]
    # C (aces) wins the main pot only; A (kings) beats B for the side pot.
    assert [p["winners"] for p in res["pots"]] == [["C"], ["A"]]
    assert res["chips"] == {"A": 1000 - 150 + 60, "B": 850, "C": 390, "D": 970}


def test_build_pots_makes_one_side_pot_per_all_in_level():
    """ramponneau.fr.txt: "Si plusieurs joueurs se retrouvent à tapis, on crée autant
    de side-pots que nécessaire.\""""
    pots = build_pots([10, 40, 100, 100, 25], [False, False, False, False, True])
    assert pots == [(10 * 4 + 10, [0, 1, 2, 3]), (30 * 3 + 15, [1, 2, 3]), (60 * 2, [2, 3])]
    assert sum(a for a, _ in pots) == 275


def test_short_all_in_does_not_reopen_the_betting():
    """RULES.md: "An all-in for less than a full raise does not reopen the betting
    for players who already acted.\""""
    holes = [["Kh", "Kd"], ["Qh", "Qd"], ["Ah", "Ad"]]
    seats = [{"player": "A", "chips": 1000}, {"player": "B", "chips": 1000}, {"player": "C", "chips": 150}]
    # Button C: A small blind, B big blind, C first to speak pre-flop.
    e = ramponneau.new_deal({"small_blind": 5, "big_blind": 10}, seats, 2, deck=stacked_deck(holes, BOARD))
    play(e, [("C", "call"), ("A", "call"), ("B", "check")])
    # Flop: A bets 100, B calls, C is all-in for 140: a raise of 40, short of 100.
    play(e, [("A", "bet", 100), ("B", "call"), ("C", "raise", 140)])
    assert e.b.bet == [100, 100, 140] and e.b.allin[2]
    assert set(kinds(e, "A")) == {"fold", "call"}  # no raise: he already acted
    with refused("short_all_in_no_reopen", IllegalAction):
        e.act("A", "raise", amount=500)
    e.act("A", "call")
    assert set(kinds(e, "B")) == {"fold", "call"}


def test_short_all_in_leaves_the_raise_open_to_those_yet_to_act():
    """RULES.md: the short all-in only closes the raise to "players who already
    acted"; one who has not acted yet may raise, by at least the last full bet."""
    seats = [{"player": p, "chips": c} for p, c in [("A", 1000), ("B", 140), ("C", 1000), ("D", 1000)]]
    e = ramponneau.new_deal({"small_blind": 5, "big_blind": 10}, seats, 3,
                            deck=stacked_deck([["2h", "3h"], ["4h", "5h"], ["6h", "8h"], ["Th", "Kh"]], BOARD))
    play(e, [("C", "call"), ("D", "call"), ("A", "call"), ("B", "check")])
    play(e, [("A", "bet", 100), ("B", "raise", 130)])  # B: all-in for 130 (raise of 30)
    legal = kinds(e, "C")
    assert legal["raise"]["min"] == 230  # 130 + the last full bet (100)


def test_two_short_all_ins_adding_to_a_full_raise_reopen():
    """Ruling (TDA, pokerkit): short all-ins that add up to a full raise reopen the
    betting, as one full raise would."""
    seats = [{"player": p, "chips": c} for p, c in [("A", 1000), ("B", 160), ("C", 220), ("D", 1000)]]
    e = ramponneau.new_deal({"small_blind": 5, "big_blind": 10}, seats, 3,
                            deck=stacked_deck([["2h", "3h"], ["4h", "5h"], ["6h", "8h"], ["Th", "Kh"]], BOARD))
    play(e, [("C", "call"), ("D", "call"), ("A", "call"), ("B", "check")])
    play(e, [("A", "bet", 100), ("B", "raise", 150), ("C", "raise", 210), ("D", "call")])  # +50, +60
    assert kinds(e, "A")["raise"]["min"] == 310


def test_odd_chip_goes_to_the_first_winner_left_of_the_button():
    """RULES.md: "Odd chips of a split go to the first winner left of the button.\""""
    royal = ["As", "Ks", "Qs", "Js", "Ts"]  # the board plays: everyone ties
    seats = [{"player": p, "chips": 100} for p in "ABC"]
    # Button A: B small blind (index 0), C big blind (index 1), A (index 2).
    e = ramponneau.new_deal({"small_blind": 5, "big_blind": 10}, seats, 0,
                            deck=stacked_deck([["2h", "3h"], ["4h", "5h"], ["6h", "7h"]], royal))
    play(e, [("A", "call"), ("B", "fold"), ("C", "check")] + [("C", "check"), ("A", "check")] * 3)
    pot = e.result()["pots"][0]
    assert pot["amount"] == 25 and pot["winners"] == ["C", "A"]
    assert pot["shares"] == {"C": 13, "A": 12}
    assert split(25, [2, 1]) == {2: 12, 1: 13}


def test_rake_rounded_down_and_capped():
    """RULES.md: "Rake: a percentage set by the owner, taken from every pot (main
    and side pots alike) before it is awarded, rounded down, optionally capped per
    pot.\""""
    assert Rake(5).take(25, first_round_only=False) == 1  # 1.25 -> 1
    assert Rake(5).take(19, first_round_only=False) == 0
    assert Rake("2.5").take(200, first_round_only=False) == 5
    assert Rake(10, cap=3).take(100, first_round_only=False) == 3
    assert Rake("3.75").take(199, first_round_only=False) == 7  # 7.4625 -> 7


@given(st.integers(0, 10**7), st.decimals("0", "100", places=2, allow_nan=False, allow_infinity=False))
def test_rake_is_the_pot_times_the_percent_rounded_down(amount: int, percent: Decimal) -> None:
    """RULES.md: "a percentage set by the owner, taken from every pot ...
    rounded down" — exactly, for any pot and any percent the owner may set
    to the hundredth (the take is computed in integers, never a float)."""
    assert Rake(str(percent)).take(amount, first_round_only=False) == math.floor(amount * Fraction(str(percent)) / 100)


def test_rake_no_flop_no_drop():
    """RULES.md: "Default 'no flop, no drop' in hold'em." No rake on a hand that
    ends before the flop; a hand that sees the flop is raked."""
    seats = [{"player": p, "chips": 100} for p in "AB"]
    cfg = {"small_blind": 5, "big_blind": 10, "rake": {"percent": 10, "cap": None, "no_flop_no_drop": True}}
    e = ramponneau.new_deal(cfg, seats, 0)
    play(e, [("A", "call"), ("B", "raise", 30), ("A", "fold")])
    assert e.result()["rake"] == 0
    e = ramponneau.new_deal(cfg, seats, 0)
    play(e, [("A", "call"), ("B", "check"), ("B", "bet", 30), ("A", "fold")])
    assert e.result()["rake"] == 2  # 10 % of the 20 in the pot; the 30 went back


def test_rake_taken_from_every_pot():
    """RULES.md: rake "taken from every pot (main and side pots alike)", each
    rounded down and capped on its own."""
    holes = [["Kh", "Kd"], ["Qh", "Qd"], ["Ah", "Ad"], ["4c", "5c"]]
    seats = [{"player": "A", "chips": 1000}, {"player": "B", "chips": 1000},
             {"player": "C", "chips": 120}, {"player": "D", "chips": 1000}]
    cfg = {"small_blind": 5, "big_blind": 10, "rake": {"percent": 5, "cap": 15}}
    e = ramponneau.new_deal(cfg, seats, 3, deck=stacked_deck(holes, BOARD))
    play(e, SOURCE_EXAMPLE_TO_THE_RIVER + [("A", "bet", 50), ("B", "call"), ("C", "call"), ("B", "show")])
    res = e.result()
    assert [p["rake"] for p in res["pots"]] == [15, 3]  # 19.5 capped at 15; 3.0
    assert res["rake"] == 18 and res["chips"]["C"] == 375
    assert sum(res["chips"].values()) + res["rake"] == 3120


def test_pot_limit_raise_is_at_most_the_pot_after_calling():
    """draw-poker.fr.txt: "si il y a 10$ dans le pot et que le Joueur 1 joue 5$,
    alors le joueur 2 pourrait appeler à 5$ ou lever jusqu'à 20$ additionnels
    [...] elle pourrait y mettre un maximum de 25$"."""
    seats = [{"player": p, "chips": 500} for p in "ABC"]
    cfg = {"big_blind": 4, "structure": "pot-limit"}
    # Button C: A small blind (2), B big blind (4). C calls, A folds: 10 in the pot.
    e = draw.new_deal(cfg, seats, 2)
    play(e, [("C", "call"), ("A", "fold"), ("B", "check")])
    assert sum(e.b.total) == 10
    for p in "BC":
        e.act(p, "draw", discard=[])
    e.act("B", "bet", amount=5)
    assert kinds(e, "C")["raise"]["max"] == 25
    with refused("pot_limit_exceeded", IllegalAction):
        e.act("C", "raise", amount=26)
    e.act("C", "raise", amount=25)
    # B, facing 20 more with 40 in the pot: at most 25 + (40 + 20) = 85.
    assert kinds(e, "B")["raise"]["max"] == 85


def test_fixed_limit_one_bet_and_three_raises():
    """draw-poker.fr.txt: "à une table de 4$-8$ [...] le premier joueur à parier [...]
    a le choix de plier ou parier 4$. [...] plier, de miser 4$ ou lever 4$ (faisant
    de ce point total de mise 8$) [...] lever 4$ (faisant de ce point total de mise
    12$)"; "un pari et trois levées sont permis à chaque tour". RULES.md: "big bet =
    2x on the later ones"."""
    seats = [{"player": p, "chips": 500} for p in "ABC"]
    e = draw.new_deal({"big_blind": 4, "structure": "fixed-limit"}, seats, 2)
    # The big blind is the round's bet: C may call 4 or raise to exactly 8.
    legal = kinds(e, "C")
    assert legal["raise"]["min"] == legal["raise"]["max"] == 8
    with refused("fixed_limit_amount", IllegalAction):
        e.act("C", "raise", amount=10)
    play(e, [("C", "raise", 8), ("A", "raise", 12), ("B", "raise", 16)])
    assert "raise" not in kinds(e, "C")  # capped: the bet and three raises
    with refused("fixed_limit_capped", IllegalAction):
        e.act("C", "raise", amount=20)
    play(e, [("C", "call"), ("A", "call")])
    for p in "ABC":
        e.act(p, "draw", discard=[])
    assert kinds(e, "A")["bet"] == {"action": "bet", "min": 8, "max": 8}  # the big bet


def test_fold_is_refused_when_check_is_free():
    """A player may check for free; folding then is refused (as pokerkit does), so
    that nobody gives up a hand by a slip; the time-out checks."""
    e = heads_up_at_the_turn()
    with refused("fold_when_check_free", IllegalAction):
        e.act("A", "fold")
    assert e.timeout_action("A") == {"action": "check"}
    e.act("A", "bet", amount=50)
    assert e.timeout_action("B") == {"action": "fold"}


def test_not_your_turn_is_refused_and_changes_nothing():
    """base.py contract: an illegal move raises IllegalAction "leaving the state
    untouched"."""
    e = heads_up_at_the_turn()
    before = (e.record(), e.view(None))
    for player, action, args in [("B", "check", {}), ("A", "call", {}), ("A", "raise", {"amount": 40}),
                                 ("A", "bet", {"amount": 10 ** 6}), ("A", "bet", {"amount": "50"}),
                                 ("Z", "check", {}), ("A", "dance", {})]:
        with pytest.raises(IllegalAction) as info:
            e.act(player, action, **args)
        assert info.value.rule
    assert (e.record(), e.view(None)) == before
