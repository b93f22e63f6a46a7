"""The rami family's meld machinery (RULES.md "Rami family", rami.fr.txt)."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from tests.refusals import refused

from tavern.cards import deck
from tavern.games.base import IllegalAction
from tavern.games.rami.melds import (
    Meld,
    MeldRules,
    best_arrangement,
    best_discard,
    classify,
    discard_options,
    extend,
    is_meld,
    min_deadwood,
    points,
)

RAMI = MeldRules()
JOKER = MeldRules(jokers=True)
HIGH = MeldRules(ace_high=True, ace_points=11)
AROUND = MeldRules(ace_around=True, ace_points=11)
DOUBLE = MeldRules(ace_high=True, jokers=True, ace_points=11, joker_points=15)


def test_set_or_run_not_both():
    """rami.fr.txt: "Une même carte ne peut participer à deux combinaisons
    différentes. (8♥, 8♦, 8♣, 9♣, 10♣ constituent un brelan ou une tierce, mais
    pas les deux)"."""
    with refused("meld_set_or_run", IllegalAction):
        classify(["8h", "8d", "8c", "9c", "Tc"], RAMI)
    assert classify(["8h", "8d", "8c"], RAMI).kind == "set"
    assert classify(["8c", "9c", "Tc"], RAMI).kind == "run"
    arr = best_arrangement(["8h", "8d", "8c", "9c", "Tc"], RAMI)
    # one meld only: either the set (deadwood 9+10) or the run (deadwood 8+8)
    assert len(arr.melds) == 1 and arr.points == 16
    assert arr.melds[0].kind == "run" and sorted(arr.deadwood) == ["8d", "8h"]


def test_source_meld_examples():
    """rami.fr.txt: "7♣ 8♣ 9♣ constituent une tierce ; 10♦ V♦ D♦ R♦ constituent
    une quarte"; brelans (three Jacks) and carrés (four identical cards)."""
    assert classify(["7c", "8c", "9c"], RAMI) == Meld("run", ("7c", "8c", "9c"), (None,) * 3)
    assert classify(["Td", "Jd", "Qd", "Kd"], RAMI).kind == "run"
    assert classify(["Jc", "Jd", "Jh"], RAMI).kind == "set"
    assert classify(["Jc", "Jd", "Jh", "Js"], RAMI).kind == "set"


def test_adding_to_a_run_on_the_table():
    """rami.fr.txt: "un joueur a posé 7♣, 8♣, 9♣ sur la table au tour précédent ;
    il tire le 10♣ ; il peut le poser à la suite du 9♣"."""
    laid = classify(["7c", "8c", "9c"], RAMI)
    assert extend(laid, ["Tc"], RAMI).cards == ("7c", "8c", "9c", "Tc")
    assert extend(laid, ["6c"], RAMI).cards == ("6c", "7c", "8c", "9c")
    with pytest.raises(IllegalAction):
        extend(laid, ["Jc"], RAMI)


def test_run_errors_are_worded_for_players():
    """RULES.md: "runs (3 or more consecutive cards of one suit)"."""
    with refused("run_consecutive", IllegalAction):
        classify(["7c", "8c", "Tc"], RAMI)
    with refused("meld_three_cards", IllegalAction):
        classify(["7c", "8c"], RAMI)
    with refused("set_suits", IllegalAction):
        classify(["8c", "8c", "8d"], RAMI)


def test_ace_options():
    """RULES.md: "Ace is low (A-2-3)"; options "ace high as well (Q-K-A, ace = 11);
    ace around the corner (K-A-2, ace = 11)"; rami.fr.txt: "2♠, A♠, R♠, D♠
    constituent ainsi une quarte"."""
    assert is_meld(["Ah", "2h", "3h"], RAMI)
    assert not is_meld(["Qh", "Kh", "Ah"], RAMI)
    assert is_meld(["Qh", "Kh", "Ah"], HIGH) and is_meld(["Ah", "2h", "3h"], HIGH)
    assert not is_meld(["Kh", "Ah", "2h"], HIGH)
    m = classify(["Qs", "Ks", "As", "2s"], AROUND)
    assert m.cards == ("Qs", "Ks", "As", "2s")
    assert points("As", AROUND) == 11 and points("As", RAMI) == 1
    # no ace twice in one run, even with ace high: A-2-…-K-A is not a run
    full = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    assert is_meld([r + "c" for r in full], HIGH)
    assert not is_meld([r + "c" for r in full] + ["X1"], MeldRules(ace_high=True, jokers=True))


def test_card_points():
    """RULES.md: "figures 10, number cards face value, ace 1 unless a rule below
    says otherwise, joker 20"."""
    assert [points(c, RAMI) for c in ["Ks", "Qs", "Js", "Ts", "7d", "Ah"]] == [10, 10, 10, 10, 7, 1]
    assert points("X1", JOKER) == 20 and points("X2", DOUBLE) == 15
    gin = MeldRules(ace_high=True, ace_points=15)
    assert points("Ac", gin) == 15
    custom = MeldRules(card_points=lambda c: 3)
    assert points("Kc", custom) == 3


def test_jokers_remember_what_they_stand_for():
    """RULES.md Double rami: "A joker inside a laid meld may be moved exactly
    once: the player puts the real card in its place" — so a joker must know
    its place; rami.fr.txt: "4♥, Joker, 6♥"."""
    m = classify(["4h", "X1", "6h"], DOUBLE)
    assert m.kind == "run" and m.stands_for == (None, "5h", None)
    assert m.as_cards() == ("4h", "5h", "6h")
    s = classify(["8h", "8d", "X2"], DOUBLE)
    assert s.kind == "set" and s.stands_for[2][0] == "8" and s.stands_for[2][1] in "cs"
    # extended at the top, the joker keeps its place
    m2 = extend(m, ["7h"], DOUBLE)
    assert m2.cards == ("4h", "X1", "6h", "7h") and m2.stands_for[1] == "5h"
    m3 = extend(m2, ["3h"], DOUBLE)
    assert m3.cards[0] == "3h" and m3.stands_for == (None, None, "5h", None, None)
    with refused("run_not_extended", IllegalAction):
        extend(m, ["9h"], DOUBLE)
    with refused("run_wrong_suit", IllegalAction):
        extend(m, ["7c"], DOUBLE)


def test_extend_set_and_lay_off():
    """rami.fr.txt (Gin): "le gagnant a un brelan de 8 ; le perdant peut mettre
    le quatrième 8 à côté"."""
    s = classify(["8c", "8d", "8h"], RAMI)
    assert extend(s, ["8s"], RAMI).cards == ("8c", "8d", "8h", "8s")
    with pytest.raises(IllegalAction):
        extend(s, ["9s"], RAMI)
    with pytest.raises(IllegalAction):
        extend(extend(s, ["8s"], RAMI), ["8s"], MeldRules())


def test_two_decks_duplicates_and_two_sets_of_one_rank():
    """RULES.md Double rami: "two 52-card decks + 2 jokers" — duplicate cards;
    a card belongs to one meld only."""
    hand = ["8c", "8d", "8h", "8c", "8d", "8s", "5h", "6h", "7h", "Kd"]
    arr = best_arrangement(hand, DOUBLE)
    assert arr.points == 10 and arr.deadwood == ["Kd"]
    assert sorted(m.kind for m in arr.melds) == ["run", "set", "set"]
    used = sorted(c for m in arr.melds for c in m.cards) + arr.deadwood
    assert sorted(used) == sorted(hand)


def test_best_discard_for_eleven_cards():
    """RULES.md Gin: "petit gin: all 10 cards in melds after discarding"."""
    hand = ["Ac", "2c", "3c", "7d", "7h", "7s", "Js", "Qs", "Ks", "9h", "Td"]
    card, arr = best_discard(hand, MeldRules(ace_high=True, ace_points=15))
    assert card == "Td" and arr.points == 9 and arr.deadwood == ["9h"]


# ---------------------------------------------------------------- brute force


def brute(hand: list[str], rules: MeldRules) -> int:
    """Reference: try every meld (via classify) containing the first card."""

    @cache
    def go(rest: tuple[str, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = points(first, rules) + go(others)
        wild = rules.jokers and first[0] == "X"
        # only cards that can share a meld with `first`: same rank, same suit, jokers
        idx = [
            i
            for i, c in enumerate(others)
            if wild or (rules.jokers and c[0] == "X") or c[0] == first[0] or c[1:] == first[1:]
        ]
        for size in range(1, len(idx) + 1):
            from itertools import combinations

            for combo in combinations(idx, size):
                cards = [first] + [others[i] for i in combo]
                if is_meld(cards, rules):
                    left = tuple(c for i, c in enumerate(others) if i not in combo)
                    best = min(best, go(left))
        return best

    return go(tuple(sorted(hand)))


RULE_SETS = [RAMI, JOKER, HIGH, AROUND, DOUBLE, MeldRules(ace_around=True, jokers=True)]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_best_arrangement_matches_brute_force(rules):
    """The best arrangement minimises deadwood over every partition into melds."""
    rng = random.Random(hash(rules) & 0xFFFF)
    pack = deck(decks=2, jokers=2 if rules.jokers else 0)
    for _ in range(300):
        n = rng.randint(7, 11)
        hand = rng.sample(pack, n)
        arr = best_arrangement(hand, rules)
        assert arr.points == brute(hand, rules) == min_deadwood(hand, rules), hand
        # the arrangement is a partition of the hand into legal melds + deadwood
        assert sorted([c for m in arr.melds for c in m.cards] + arr.deadwood) == sorted(hand)
        for m in arr.melds:
            assert classify(list(m.cards), rules, m.kind).kind == m.kind
        assert sum(points(c, rules) for c in arr.deadwood) == arr.points


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS)
def test_best_arrangement_matches_brute_force_many(rules):
    """As above, on 2,000 more hands per rule set (two decks, jokers when wild)."""
    rng = random.Random(1000 + (hash(rules) & 0xFFFF))
    pack = deck(decks=2, jokers=2 if rules.jokers else 0)
    for _ in range(2000):
        hand = rng.sample(pack, rng.randint(7, 11))
        assert best_arrangement(hand, rules).points == brute(hand, rules), hand


# ---------------------------------------------------------------- OpenSpiel

pyspiel = pytest.importorskip("pyspiel")
#: OpenSpiel numbers a card suit * 13 + rank, suits s c d h, ranks A..K; ace 1,
#: figures 10 — our default rami counting, ace low only, no joker.
_OS_SUITS = "scdh"


def _os_int(card: str) -> int:
    return _OS_SUITS.index(card[1]) * 13 + "A23456789TJQK".index(card[0])


def _agree_with_openspiel(n_hands: int, seed: int) -> None:
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    rng = random.Random(seed)
    pack = deck()
    for i in range(n_hands):
        size = 10 if i % 2 == 0 else 11
        hand = rng.sample(pack, size)
        theirs = utils.min_deadwood([_os_int(c) for c in hand])
        if size == 10:
            ours = min_deadwood(hand, RAMI)
            assert best_arrangement(hand, RAMI).points == ours
        else:
            # with 11 cards OpenSpiel counts the best hand after a discard
            ours = min(discard_options(hand, RAMI).values())
            assert best_discard(hand, RAMI)[1].points == ours
        assert ours == theirs, hand


def test_min_deadwood_agrees_with_openspiel():
    """OpenSpiel's compiled ``min_deadwood`` and ours agree (1,000 hands)."""
    _agree_with_openspiel(1000, 2026)


@pytest.mark.slow
def test_min_deadwood_agrees_with_openspiel_20000_hands():
    """10,000 random 10-card and 10,000 11-card single-deck hands."""
    _agree_with_openspiel(20000, 42)


# ---------------------------------------------------------------- properties

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PACK2 = deck(decks=2, jokers=4)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(range(len(_PACK2))), min_size=7, max_size=11, unique=True),
    st.sampled_from(RULE_SETS),
    st.randoms(use_true_random=False),
)
def test_arrangement_is_a_partition_and_order_free(idx, rules, rnd):
    """Each card in one meld only (rami.fr.txt: "Une même carte ne peut participer
    à deux combinaisons différentes"), or in the deadwood; the order in which the
    hand is held changes nothing."""
    hand = [_PACK2[i] for i in idx]
    arr = best_arrangement(hand, rules)
    assert Counter([c for m in arr.melds for c in m.cards] + arr.deadwood) == Counter(hand)
    for m in arr.melds:
        assert is_meld(list(m.cards), rules)
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert min_deadwood(shuffled, rules) == arr.points
    assert arr.points <= sum(points(c, rules) for c in hand)


def test_rules_copy_cheaply_and_pickle_without_the_solver_memo():
    """Engines are deep-copied (tries on a copy) and pickled: the solver's memo
    kept on a rules object must not travel with it."""
    import copy
    import pickle

    rules = MeldRules(ace_high=True)
    assert best_arrangement(["Ah", "Kh", "Qh", "2c"], rules).points == 2
    assert copy.deepcopy(rules) is rules and copy.copy(rules) is rules
    data = pickle.dumps(rules)
    assert len(data) < 1000
    again = pickle.loads(data)
    assert again == rules and hash(again) == hash(rules)
    assert best_arrangement(["Ah", "Kh", "Qh", "2c"], again).points == 2
