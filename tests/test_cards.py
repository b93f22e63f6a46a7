"""Cards, decks and the shuffle (RULES.md, conventions for every game)."""

import random
from collections import Counter

import pytest

from tavern import cards


def test_deck_sizes_and_codes():
    # "Card codes: rank 2 3 4 5 6 7 8 9 T J Q K A + suit c d h s ... Jokers are X1, X2"
    assert len(set(cards.deck52())) == 52
    assert len(set(cards.deck32())) == 32
    assert set(cards.deck32()) == {r + s for r in "AKQJT987" for s in "cdhs"}
    d54 = cards.deck54()
    assert len(d54) == 54 and {"X1", "X2"} <= set(d54)
    two = cards.deck(decks=2, jokers=2)
    assert len(two) == 106 and Counter(two)["As"] == 2


def test_check_card_refuses_bad_codes():
    for bad in ["1s", "Ax", "", "X0", "10h", 5]:
        with pytest.raises(cards.CardError):
            cards.check_card(bad)
    assert cards.check_card("Td") == "Td" and cards.check_card("X2") == "X2"


def test_shuffle_is_a_permutation_and_uniform_enough():
    d = cards.deck52()
    s = cards.shuffle(d)
    assert sorted(s) == sorted(d) and s is not d
    # Fisher–Yates on 3 cards: each of the 6 orders about 1/6 of the time.
    rng = cards.SeededSource(random.Random(7))
    counts = Counter(tuple(cards.shuffle("abc", rng)) for _ in range(6000))
    assert len(counts) == 6
    assert all(850 < n < 1150 for n in counts.values())


def test_deck_order_must_be_a_permutation():
    d = cards.deck52()
    cards.check_deck_order(list(reversed(d)), d)
    with pytest.raises(cards.CardError) as info:
        cards.check_deck_order(d[:-1] + ["2c"], d)
    assert info.value.code == "deck_not_permutation"
    assert info.value.params == {"missing": ["As"], "extra": ["2c"]}


def test_stock_deals_in_order():
    st = cards.Stock(["As", "Kd", "2c"])
    assert st.draw(2) == ["As", "Kd"] and len(st) == 1
    with pytest.raises(cards.CardError):
        st.draw(2)
