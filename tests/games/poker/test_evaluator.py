"""The poker hand evaluator against the rules text, exhaustive counts and peers.

Rules quoted from /work/shared/RULES.md ("Ramponneau = no-limit Texas hold'em")
and its French source ramponneau.fr.txt ("L'ordre des combinaisons possibles").
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.refusals import refused

from tavern.cards import SUITS, CardError, deck52
from tavern.games.poker import _reference as ref
from tavern.games.poker import evaluator as ev
from tavern.games.poker.evaluator import CATEGORIES, HandValue, evaluate, rank, rank7

DECK = deck52()


def h(text: str) -> list[str]:
    return text.split()


def cmp(a: int, b: int) -> int:
    return (a > b) - (a < b)


# --------------------------------------------------------------------------
# Categories, low to high
# --------------------------------------------------------------------------

def test_categories_in_the_rules_order() -> None:
    """RULES.md: "Hand ranking, low to high: high card, pair, two pair, three of
    a kind, straight (...), flush, full house, four of a kind, straight flush."
    """
    ladder = [
        ("Kd Js 9h 5c 3d", "high_card"),
        ("2c 2d 5h 7s 9c", "pair"),
        ("2c 2d 3h 3s 4c", "two_pair"),
        ("2c 2d 2h 4s 5c", "three_of_a_kind"),
        ("Ah 2d 3c 4s 5h", "straight"),
        ("2h 3h 4h 5h 7h", "flush"),
        ("2c 2d 2h 3s 3c", "full_house"),
        ("2c 2d 2h 2s 3c", "four_of_a_kind"),
        ("Ah 2h 3h 4h 5h", "straight_flush"),
    ]
    values = [evaluate(h(cards)) for cards, _ in ladder]
    assert [v.category for v in values] == [name for _, name in ladder]
    assert [v.category for v in values] == list(CATEGORIES)
    # Each one, even the weakest of its kind, beats the best of the one below.
    best_below = [
        "Ad Kd Qd Js 9h",  # best high card
        "Ad Ah Kd Qs Jh",  # best pair
        "Ad Ah Kd Ks Qh",  # best two pair
        "Ad Ah As Kd Qh",  # best trips
        "Td Jh Qs Kd Ac",  # best straight
        "Ad Kd Qd Jd 9d",  # best flush
        "Ad Ah As Kd Kh",  # best full house
        "Ad Ah As Ac Kh",  # best quads
    ]
    for weakest, best in zip(values[1:], best_below, strict=False):
        assert weakest > evaluate(h(best))


# --------------------------------------------------------------------------
# Straights and the wheel
# --------------------------------------------------------------------------

def test_the_wheel_is_the_lowest_straight() -> None:
    """ramponneau.fr.txt: "l'as peut apparaitre dans une quinte haute (10 Valet
    Dame Roi As), ou dans une quinte basse (As 2 3 4 5) dans ce dernier cas,
    il s'agit de la quinte la plus faible qui soit (c'est une quinte de
    hauteur 5)". RULES.md: "A-2-3-4-5 is the lowest straight, T-J-Q-K-A the
    highest".
    """
    wheel = evaluate(h("Ah 2d 3c 4s 5h"))
    six_high = evaluate(h("2d 3c 4s 5h 6c"))
    broadway = evaluate(h("Td Jh Qs Kd Ac"))
    king_high = evaluate(h("9d Th Js Qd Kc"))
    assert wheel.category == six_high.category == broadway.category == "straight"
    assert wheel < six_high < king_high < broadway
    # "de hauteur 5": the ace counts as one, listed last.
    assert wheel.ranks == (5, 4, 3, 2, 1)
    assert wheel.cards == ("5h", "4s", "3c", "2d", "Ah")
    # Still a straight: it beats the best three of a kind.
    assert wheel > evaluate(h("Ad Ah As Kd Qh"))
    # Every straight, wheel included, stays below every flush.
    assert broadway < evaluate(h("2h 3h 4h 5h 7h"))


def test_the_wheel_flush_is_the_lowest_straight_flush() -> None:
    """Same ruling for "La quinte flush: C'est une quinte qui est aussi une
    couleur": the steel wheel is the lowest straight flush, the royal the highest.
    """
    steel_wheel = evaluate(h("Ah 2h 3h 4h 5h"))
    assert steel_wheel.category == "straight_flush"
    assert steel_wheel < evaluate(h("2s 3s 4s 5s 6s")) < evaluate(h("Tc Jc Qc Kc Ac"))
    assert steel_wheel > evaluate(h("Ad Ah As Ac Kh"))


def test_the_ace_does_not_turn_the_corner() -> None:
    """The source names only two places for the ace in a straight, high
    (10 Valet Dame Roi As) and low (As 2 3 4 5): Q-K-A-2-3 is no straight.
    """
    assert evaluate(h("Qd Kh As 2c 3d")).category == "high_card"


def test_with_six_in_a_row_the_higher_straight_counts() -> None:
    """"Pour départager deux quintes, on compare leurs hauteurs respectives",
    and of seven cards only five are used: A-2-3-4-5-6 plays the six-high.
    """
    v = evaluate(h("Ah 2d 3c 4s 5h 6c Kd"))
    assert v.category == "straight"
    assert v.ranks == (6, 5, 4, 3, 2)
    assert v == evaluate(h("2d 3c 4s 5h 6c"))


# --------------------------------------------------------------------------
# Kickers and tie-breaks, each as the source states it
# --------------------------------------------------------------------------

def test_pair_kickers_example_from_the_source() -> None:
    """ramponneau.fr.txt, "La paire": "en cas d'égalité (deux paires égales),
    c'est la plus forte des trois cartes restantes qui départage. Si cette
    carte est la même (...) on prend la deuxième plus forte des cartes
    restantes, etc. Ainsi, As As 9 4 2 est plus fort que As As 4 8 2, mais
    moins fort que As As 9 6 2".
    """
    a_a_9_4_2 = evaluate(h("As Ah 9c 4d 2s"))
    a_a_4_8_2 = evaluate(h("Ad Ac 4c 8d 2h"))
    a_a_9_6_2 = evaluate(h("As Ad 9h 6c 2d"))
    assert a_a_4_8_2 < a_a_9_4_2 < a_a_9_6_2
    # The third kicker decides too, and a higher pair beats any kickers.
    assert evaluate(h("As Ah 9c 6d 3s")) > a_a_9_6_2
    assert evaluate(h("Ks Kh 2c 3d 4s")) > evaluate(h("Qs Qh Ac Kd Js"))


def test_high_card_compares_card_after_card() -> None:
    """"La plus faible combinaison : Que dalle (...) c'est la hauteur des cartes
    qui compte. Ici, on a "hauteur dame". Si un autre joueur a également une
    hauteur dame, alors c'est la carte suivante, dans la hiérarchie, qui
    départage (ici, c'est un valet), etc."
    """
    queen_jack = evaluate(h("Qd Jc 7h 5s 3d"))
    queen_ten = evaluate(h("Qs Tc 9h 8s 6d"))
    assert queen_jack > queen_ten
    assert evaluate(h("Qd Jc 7h 5s 4d")) > queen_jack  # down to the fifth card
    assert evaluate(h("Kd 5c 4h 3s 2d")) > evaluate(h("Qs Jc 9h 8s 7d"))


def test_two_pair_high_pair_then_low_pair_then_kicker() -> None:
    """"La double paire (...) on compare d'abord les paires les plus fortes,
    puis les paires les plus faibles, et enfin la carte restante."
    """
    kk_22_3 = evaluate(h("Kd Kc 2h 2s 3d"))
    qq_jj_a = evaluate(h("Qd Qc Jh Js Ad"))
    kk_33_2 = evaluate(h("Kh Ks 3h 3s 2d"))
    kk_33_a = evaluate(h("Kh Ks 3c 3d Ad"))
    assert qq_jj_a < kk_22_3 < kk_33_2 < kk_33_a


def test_three_of_a_kind_then_kickers() -> None:
    """"Le brelan: trois cartes de la même hauteur"; RULES.md: ties broken by the
    standard kickers."""
    assert evaluate(h("8d 8c 8h As 2d")) > evaluate(h("7d 7c 7h As Kd"))
    assert evaluate(h("8d 8c 8h As 3d")) > evaluate(h("8d 8c 8h As 2d"))


def test_flushes_compare_card_by_card() -> None:
    """"Deux couleurs se départagent par la hauteur de leurs cartes respectives."
    """
    assert evaluate(h("Ah Jh 9h 5h 3h")) > evaluate(h("Kd Qd Jd 9d 7d"))
    assert evaluate(h("Ah Jh 9h 5h 3h")) > evaluate(h("As Js 9s 5s 2s"))


def test_full_house_trips_first_then_pair() -> None:
    """"On départage deux full en comparant d'abord le brelan, puis la paire."
    """
    assert evaluate(h("3d 3c 3h 2s 2d")) > evaluate(h("2d 2c 2h As Ad"))
    assert evaluate(h("9d 9c 9h 5s 5d")) > evaluate(h("9d 9c 9h 4s 4d"))


def test_four_of_a_kind_then_kicker() -> None:
    """"Le carré", four cards of one rank; the fifth card breaks the tie (only
    possible with shared cards) — RULES.md: "Ties broken by the standard kickers"."""
    assert evaluate(h("3d 3c 3h 3s 2d")) > evaluate(h("2d 2c 2h 2s Ad"))
    assert evaluate(h("9d 9c 9h 9s Kd 2c 2h")) > evaluate(h("9d 9c 9h 9s Qd Qc Qh"))


# --------------------------------------------------------------------------
# Best five of seven, equal hands split
# --------------------------------------------------------------------------

def test_only_five_of_seven_cards_count() -> None:
    """ramponneau.fr.txt: "même si chaque joueur dispose de sept cartes (2
    cartes privées + les cinq cartes publiques), il ne peut en utiliser que
    cinq pour constituer une combinaison." A third pair or a sixth card above
    the fifth never counts.
    """
    three_pairs = evaluate(h("Ad Ac Kd Kc Qd Qs 2h"))
    two_pairs_queen = evaluate(h("Ah As Kh Ks Qc Jd 3c"))
    assert three_pairs.category == "two_pair"
    assert three_pairs == two_pairs_queen
    # Queen kicker from the third pair beats a jack kicker.
    assert three_pairs > evaluate(h("Ah As Kh Ks Jc Td 3c"))
    # Two sets of three make a full house, the higher set in the three.
    v = evaluate(h("7c 7d 7h 9s 9d 9c 2h"))
    assert v.category == "full_house" and v.ranks == (9, 9, 9, 7, 7)


def test_best_five_of_seven_prefers_the_higher_category() -> None:
    """"de constituer le meilleur jeu de cinq cartes": a flush beats the straight
    in the same seven cards, four of a kind beats the full house."""
    v = evaluate(h("4h 5h 6h 7d 8h Kh 2c"))
    assert v.category == "flush"
    assert v.cards == ("Kh", "8h", "6h", "5h", "4h")
    v = evaluate(h("9d 9c 9h 9s Kd Kc 2h"))
    assert v.category == "four_of_a_kind"
    assert v.cards == ("9d", "9c", "9h", "9s", "Kd")
    v = evaluate(h("4h 5h 6h 7h 8h 9h 9d"))
    assert v.category == "straight_flush"
    assert v.cards == ("9h", "8h", "7h", "6h", "5h")


def test_equal_hands_are_equal_and_split() -> None:
    """RULES.md: "equal hands split the pot"; draw-poker.fr.txt: "Si il y a
    égalité entre deux mains, le logiciel partagera le pot équitablement." Suits
    never break a tie, and when the board plays both players hold it.
    """
    assert evaluate(h("As Kd Qh Jc 9s")) == evaluate(h("Ad Kc Qs Jh 9d"))
    assert evaluate(h("Ts Jd Qh Kc As")) == evaluate(h("Td Js Qc Kh Ad"))
    board = h("Tc Jc Qd Kh Ac")
    alice, bob = evaluate(board + h("2d 3s")), evaluate(board + h("4h 5s"))
    assert alice == bob and alice.category == "straight"
    assert sorted([alice, bob]) == [alice, bob]
    assert len({int(alice), int(bob)}) == 1


def test_cards_are_the_best_five_in_order_of_importance() -> None:
    """`.cards` lists the five cards that make the hand, those that decide
    first: the pair before its kickers, the high pair before the low one."""
    v = evaluate(h("2c Kd 9s Kh 4d 7c Jh"))
    assert v.category == "pair"
    assert v.cards == ("Kd", "Kh", "Jh", "9s", "7c")
    v = evaluate(h("5c 5d Jh Js 3c 3h 2d"))
    assert v.cards == ("Jh", "Js", "5c", "5d", "3c")
    v = evaluate(h("Qs 3c 3d 3h Qd 8c 2s"))
    assert v.category == "full_house" and v.cards == ("3c", "3d", "3h", "Qs", "Qd")


# --------------------------------------------------------------------------
# API: fast path agrees, values are ints, bad input refused
# --------------------------------------------------------------------------

def test_fast_path_gives_the_same_number() -> None:
    """Every entry point gives the very number `evaluate` gives."""
    rng = random.Random(7)
    for _ in range(2000):
        n = rng.choice((5, 6, 7))
        cards = rng.sample(DECK, n)
        value = evaluate(cards)
        codes = ev.encode_all(cards)
        assert rank(cards) == ev.rank_codes(codes) == int(value)
        # rank7 takes the short road for seven cards, but is right for fewer.
        assert rank7(cards) == ev.rank7_codes(codes) == int(value)
        assert rank7(tuple(cards)) == int(value)
        assert ev.category_of(rank(cards)) == value.category
    for few in ("2h 3h 4h 5h 7h", "2h 3h 4h 5h 7h 7c", "Ah 2h 3h 4h 5h Kd"):
        expected = evaluate(h(few))
        assert expected.category in ("flush", "straight_flush")
        assert rank7(h(few)) == ev.rank7_codes(ev.encode_all(h(few))) == expected


def test_hand_value_is_an_ordered_int_with_category_and_cards() -> None:
    v = evaluate(h("Kd Kc 2h 2s 3d"))
    assert isinstance(v, int) and isinstance(v, HandValue)
    assert v.category == "two_pair" and v.ranks == (13, 13, 2, 2, 3)
    assert int(v) == 0x2_DD223
    assert repr(v) == "HandValue(two_pair, Kd Kc 2h 2s 3d)"
    assert str(v) == f"{v}" == json.dumps(v) == str(0x2_DD223)  # stored as a plain number
    same = pickle.loads(pickle.dumps(v))
    assert same == v and same.cards == v.cards and same.category == v.category
    assert copy.deepcopy(v).cards == v.cards
    # It remembers the cards it was made from; .cards is worked out from them.
    seven = h("2c Kd 9s Kh 4d 7c Jh")
    w = evaluate(seven)
    assert w.hand == tuple(seven)
    rebuilt = HandValue(int(w), w.hand)
    assert rebuilt == w and rebuilt.cards == w.cards == ("Kd", "Kh", "Jh", "9s", "7c")
    hands = [evaluate(h(t)) for t in ("Ah Ad 2c 3c 4c", "2h 3h 4h 5h 7h", "Kd Js 9h 5c 3d")]
    assert [x.category for x in sorted(hands)] == ["high_card", "pair", "flush"]
    assert max(hands, key=lambda x: x).category == "flush"


@pytest.mark.parametrize(
    ("cards", "why"),
    [
        ("As Ks Qs Js", "poker_hand_size"),
        ("As Ks Qs Js Ts 9s 8s 7s", "poker_hand_size"),
        ("As Ks Qs Js As", "card_twice_in_hand"),
        ("As Ks Qs Js X1", "joker_in_poker_hand"),
        ("As Ks Qs Js 1s", "not_a_card"),
        ("As Ks Qs Js Tz", "not_a_card"),
    ],
)
def test_bad_hands_are_refused(cards: str, why: str) -> None:
    with refused(why, CardError):
        evaluate(h(cards))


def test_fast_path_refuses_a_hand_that_cannot_exist() -> None:
    """No checks on the fast path, but five aces find no table entry."""
    with pytest.raises(CardError):
        rank7(h("As As As As As Kd Qc"))


# --------------------------------------------------------------------------
# Tables against the slow rules-as-written reference
# --------------------------------------------------------------------------

def test_reference_agrees_on_random_hands() -> None:
    """The table lookup equals the rules written plainly (`_reference.py`)."""
    rng = random.Random(11)
    for _ in range(3000):
        cards = rng.sample(DECK, rng.choice((5, 6, 7)))
        assert rank(cards) == ref.reference(cards), cards


@pytest.mark.slow
def test_every_table_entry_matches_the_reference() -> None:
    """All ~74,000 rank multisets of 5–7 cards: the fast table builder makes
    the same decision as the plain `_reference.best_plain`, and so do the
    flush-suit masks."""
    ev.build_tables()
    for key, value in ev._PLAIN.items():
        counts = {}
        for r in range(13):
            key, digit = divmod(key, 5)
            if digit:
                counts[r + 2] = digit
        assert value == ref.best_plain(counts)
    for mask, value in ev._SUITED.items():
        assert value == ref.best_suited({r + 2 for r in range(13) if mask >> r & 1})
    assert len(ev._PLAIN) == 6175 + 18395 + 49205
    assert len(ev._SUITED) == sum(1 for m in range(8192) if m.bit_count() >= 5)


# --------------------------------------------------------------------------
# Exhaustive five-card counts
# --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def all_five_card_hands() -> tuple[Counter[int], dict[int, tuple[int, ...]]]:
    """Every five-card hand once: how many hands per value, and one of each."""
    codes = ev.encode_all(DECK)
    values = list(map(ev.rank_codes, combinations(codes, 5)))  # C-level loop
    return Counter(values), dict(zip(values, combinations(codes, 5), strict=False))


@pytest.mark.slow
def test_all_five_card_hands_have_the_textbook_counts(all_five_card_hands) -> None:
    """All C(52,5) = 2,598,960 hands: exact category counts, and 7,462 distinct
    values (the number of different five-card poker hands once suits are
    ignored), split per category as the textbook says."""
    by_value, _ = all_five_card_hands
    hands: Counter[str] = Counter()
    distinct: Counter[str] = Counter()
    for value, n in by_value.items():
        hands[ev.category_of(value)] += n
        distinct[ev.category_of(value)] += 1
    assert sum(hands.values()) == 2_598_960
    assert hands == {
        "straight_flush": 40,
        "four_of_a_kind": 624,
        "full_house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "three_of_a_kind": 54_912,
        "two_pair": 123_552,
        "pair": 1_098_240,
        "high_card": 1_302_540,
    }
    assert len(by_value) == 7_462
    assert distinct == {
        "straight_flush": 10,
        "four_of_a_kind": 156,
        "full_house": 156,
        "flush": 1_277,
        "straight": 10,
        "three_of_a_kind": 858,
        "two_pair": 858,
        "pair": 2_860,
        "high_card": 1_277,
    }


@pytest.mark.slow
def test_five_card_order_is_the_same_as_treys_on_all_7462_classes(all_five_card_hands) -> None:
    """One hand per distinct value, sorted by ours: treys must rank them in
    exactly the same strict order (treys counts 1 = best), and `evaluate`
    must give each the same number as the fast path."""
    from treys import Card, Evaluator

    treys = Evaluator()
    _, one_of_each = all_five_card_hands
    ordered = sorted(one_of_each)
    hands = [[ev._CARD_OF_CODE[c] for c in one_of_each[v]] for v in ordered]
    theirs = [treys.evaluate([Card.new(c) for c in cards], []) for cards in hands]
    assert theirs == list(range(7462, 0, -1))
    assert [evaluate(cards) for cards in hands] == ordered


# --------------------------------------------------------------------------
# Seven cards against the peers
# --------------------------------------------------------------------------

_TREYS_CLASS = {
    "Royal Flush": "straight_flush",
    "Straight Flush": "straight_flush",
    "Four of a Kind": "four_of_a_kind",
    "Full House": "full_house",
    "Flush": "flush",
    "Straight": "straight",
    "Three of a Kind": "three_of_a_kind",
    "Two Pair": "two_pair",
    "Pair": "pair",
    "High Card": "high_card",
}


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # eval7's own pyparsing use
def test_100k_seven_card_showdowns_agree_with_treys_and_eval7() -> None:
    """100,000 hold'em showdowns (two players, one board, seeded): ours,
    treys and eval7 give the same winner or the same split every time, and
    ours and treys the same category."""
    import eval7
    from treys import Card, Evaluator

    treys = Evaluator()
    t_card = {c: Card.new(c) for c in DECK}
    e_card = {c: eval7.Card(c) for c in DECK}
    rng = random.Random(20261122)
    outcomes: Counter[int] = Counter()
    for _ in range(100_000):
        dealt = rng.sample(DECK, 9)
        board, a, b = dealt[:5], dealt[5:7], dealt[7:]
        ours_a, ours_b = rank7(a + board), rank7(b + board)
        t_board = [t_card[c] for c in board]
        t_a = treys.evaluate([t_card[c] for c in a], t_board)
        t_b = treys.evaluate([t_card[c] for c in b], t_board)
        e_a = eval7.evaluate([e_card[c] for c in a + board])
        e_b = eval7.evaluate([e_card[c] for c in b + board])
        ours = cmp(ours_a, ours_b)
        assert ours == cmp(t_b, t_a) == cmp(e_a, e_b), (board, a, b)
        expected = _TREYS_CLASS[treys.class_to_string(treys.get_rank_class(t_a))]
        assert ev.category_of(ours_a) == expected, (a + board)
        outcomes[ours] += 1
    # The sample is meaningful: both winners and a fair number of splits.
    assert outcomes[1] > 40_000 and outcomes[-1] > 40_000 and outcomes[0] > 1_000


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------

hands_5_to_7 = st.integers(min_value=5, max_value=7).flatmap(
    lambda n: st.lists(st.sampled_from(DECK), min_size=n, max_size=n, unique=True)
)


@settings(max_examples=300, deadline=None)
@given(cards=hands_5_to_7, suits=st.permutations(SUITS), order=st.randoms(use_true_random=False))
def test_value_is_invariant_under_suit_permutation_and_card_order(
    cards: list[str], suits: list[str], order: random.Random
) -> None:
    """Suits have no rank in poker (no suit ever breaks a tie) and the order in
    which cards are held does not matter."""
    value = evaluate(cards)
    renamed = [c[0] + suits[SUITS.index(c[1])] for c in cards]
    order.shuffle(renamed)
    other = evaluate(renamed)
    assert other == value
    assert other.category == value.category
    # Best five: really five of the hand, and worth the whole hand.
    assert len(set(value.cards)) == 5 and set(value.cards) <= set(cards)
    assert evaluate(list(value.cards)) == value
    assert value == ref.reference(cards)


def test_first_use_from_many_threads_at_once() -> None:
    """The tables are built on first use; threads that all arrive during the
    build must wait for it and get right answers, never a false 'no such hand'."""
    import threading

    rng = random.Random(5)
    hands = [rng.sample(DECK, 7) for _ in range(300)]
    expected = [ref.reference(cards) for cards in hands]
    ev._PLAIN.clear()  # back to the state of a fresh import
    ev._SUITED.clear()
    results: dict[int, list[int]] = {}
    errors: list[BaseException] = []

    def play(i: int) -> None:
        try:
            results[i] = [rank7(cards) for cards in hands]
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(results[i] == expected for i in range(4))
    assert len(ev._PLAIN) == 6175 + 18395 + 49205


@settings(max_examples=300, deadline=None)
@given(cards=st.permutations(DECK).map(lambda deck: deck[:14]), n=st.integers(5, 7))
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # eval7's own pyparsing use
def test_any_two_hands_compare_as_eval7_says(cards: list[str], n: int) -> None:
    """Two disjoint hands of 5, 6 or 7 cards: the better one (or the tie) is
    the same for us and for eval7, the compiled peer."""
    import eval7

    a, b = cards[:n], cards[7 : 7 + n]
    theirs = cmp(eval7.evaluate([eval7.Card(c) for c in a]), eval7.evaluate([eval7.Card(c) for c in b]))
    assert cmp(evaluate(a), evaluate(b)) == theirs
