"""The trick-taking core (src/tavern/games/tricks.py), checked against the Rams rules text.

rams.fr.txt: "Lorsque le jeu s'engage, le premier à jouer jette une carte au tapis.
Successivement, les adversaires sont tenus : 1. De fournir à la couleur. 2. De
forcer, si les cartes de leur jeu le permettent. 3. De couper, s'ils ont de
l'atout. 4. De surcouper, en cas de coupe déjà faite par un joueur précédent.
5. Donner de l'atout inférieur sur cette coupe, s'ils en ont dans leur jeu et
n'en ont pas de supérieur. En aucun cas ils ne peuvent, ayant de l'atout et non
de la couleur jouée, se défausser d'une autre couleur."
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavern.cards import deck32
from tavern.games.base import IllegalAction
from tavern.games.tricks import Play, Trick, TrickPlay, TrickRules, legal_cards, why_illegal, winning_play

RULES = TrickRules()
ORDER = "789TJQKA"  # low to high, written out again here on purpose


def brute_force_allowed(hand: list[str], trick: list[tuple[str, bool]], trump: str, led: str | None) -> set[str]:
    """The source's five obligations, stated independently of the engine.

    Each obligation is a property a card may have; a player must satisfy each
    one in turn whenever some card still allowed by the earlier ones does
    ("si les cartes de leur jeu le permettent"). ``trick`` holds (card, face_down)
    pairs; a face-down card led "en disant atout" is a trump below the seven.
    """
    if not trick:
        return set(hand)

    def value(card: str, face_down: bool) -> int:
        return -1 if face_down else ORDER.index(card[0])

    led_values = [value(c, fd) for c, fd in trick if (fd and led == trump) or (not fd and c[1] == led)]
    trump_values = [value(c, fd) for c, fd in trick if fd or c[1] == trump]
    best_led = max(led_values)
    best_trump = max(trump_values) if trump_values else None

    def follows(c: str) -> bool:  # 1. fournir à la couleur
        return c[1] == led

    def forces(c: str) -> bool:  # 2. forcer
        return c[1] == led and ORDER.index(c[0]) > best_led

    def cuts(c: str) -> bool:  # 3. couper (and 5.: a lower trump rather than a discard)
        return c[1] == trump

    def over_cuts(c: str) -> bool:  # 4. surcouper
        return c[1] == trump and (best_trump is None or ORDER.index(c[0]) > best_trump)

    allowed = list(hand)
    for obligation in (follows, forces, cuts, over_cuts):
        if any(obligation(c) for c in allowed):
            allowed = [c for c in allowed if obligation(c)]
    return set(allowed)


@st.composite
def positions(draw):
    cards = draw(st.permutations(deck32()))
    trump = draw(st.sampled_from("cdhs"))
    n_played = draw(st.integers(0, 7))
    hand_size = draw(st.integers(1, 8))
    blind = n_played > 0 and draw(st.booleans())
    played = cards[:n_played]
    hand = cards[n_played : n_played + hand_size]
    return played, hand, trump, blind


def _trick(played: list[str], blind: bool, trump: str) -> Trick:
    trick = Trick(leader="P0", declared_suit=trump if blind else None)
    trick.plays = [Play(f"P{i}", c, blind and i == 0) for i, c in enumerate(played)]
    return trick


@settings(max_examples=600, deadline=None)
@given(positions())
def test_legal_cards_match_the_brute_force_statement(position):
    """Every card the core allows, and only those, obeys the five obligations of the source."""
    played, hand, trump, blind = position
    trick = _trick(played, blind, trump)
    pairs = [(c, blind and i == 0) for i, c in enumerate(played)]
    expected = brute_force_allowed(hand, pairs, trump, trick.led_suit)
    assert set(legal_cards(hand, trick, trump, RULES)) == expected
    assert legal_cards(hand, trick, trump, RULES), "a player always has a legal card"
    for card in hand:
        rule = why_illegal(card, hand, trick, trump, RULES)
        assert (rule is None) == (card in expected)


def _on(played: list[str], trump: str = "h") -> Trick:
    return _trick(played, False, trump)


def test_follow_suit():
    """ "1. De fournir à la couleur." """
    assert why_illegal("As", ["As", "8c"], _on(["7c"]), "h", RULES) == "must_follow_suit"


def test_overtake_if_possible():
    """ "2. De forcer, si les cartes de leur jeu le permettent." """
    hand = ["8c", "Kc"]
    assert why_illegal("8c", hand, _on(["Tc"]), "h", RULES) == "must_overtake"
    assert legal_cards(hand, _on(["Tc"]), "h", RULES) == ["Kc"]
    # Nothing higher: any card of the suit.
    assert legal_cards(["8c", "9c"], _on(["Ac"]), "h", RULES) == ["8c", "9c"]


def test_overtake_when_trump_is_led_is_over_trumping():
    assert why_illegal("7h", ["7h", "Ah"], _on(["Qh"]), "h", RULES) == "must_overtrump"


def test_trump_when_void():
    """ "3. De couper, s'ils ont de l'atout." """
    assert why_illegal("As", ["As", "7h"], _on(["7c"]), "h", RULES) == "must_trump"


def test_over_trump_a_trump_already_played():
    """ "4. De surcouper, en cas de coupe déjà faite par un joueur précédent." """
    hand = ["8h", "Kh", "As"]
    assert why_illegal("8h", hand, _on(["7c", "Qh"]), "h", RULES) == "must_overtrump"
    assert legal_cards(hand, _on(["7c", "Qh"]), "h", RULES) == ["Kh"]


def test_under_trump_rather_than_discard():
    """ "5. Donner de l'atout inférieur sur cette coupe, s'ils en ont dans leur jeu et n'en
    ont pas de supérieur. En aucun cas ils ne peuvent, ayant de l'atout et non de la couleur
    jouée, se défausser d'une autre couleur." """
    hand = ["8h", "As"]
    trick = _on(["7c", "Qh"])
    assert legal_cards(hand, trick, "h", RULES) == ["8h"]
    assert why_illegal("As", hand, trick, "h", RULES) == "must_undertrump"


def test_discard_with_neither_suit_nor_trump():
    """RULES.md: "discard another suit only with neither suit nor trump"."""
    assert legal_cards(["As", "8d"], _on(["7c", "Qh"]), "h", RULES) == ["As", "8d"]


def test_rules_flags_switch_obligations_off():
    """The core is shared: a game without under-trumping or overtaking says so in TrickRules."""
    loose = TrickRules(must_undertrump=False)
    assert legal_cards(["8h", "As"], _on(["7c", "Qh"]), "h", loose) == ["8h", "As"]
    no_force = TrickRules(must_overtake=False)
    assert legal_cards(["8c", "Kc"], _on(["Tc"]), "h", no_force) == ["8c", "Kc"]
    belote_like = TrickRules(overtake_when_trumped=False)
    assert legal_cards(["8c", "Kc"], _on(["Tc", "7h"]), "h", belote_like) == ["8c", "Kc"]
    assert legal_cards(["8c", "Kc"], _on(["Tc", "7h"]), "h", RULES) == ["Kc"]


def test_winner_is_highest_trump_else_highest_of_suit_led():
    trick = _on(["Tc", "Ac", "As"])
    assert winning_play(trick, "h", RULES).card == "Ac"
    trick = _on(["Tc", "Ac", "7h", "8h"])
    assert winning_play(trick, "h", RULES).card == "8h"


def test_face_down_trump_lead_is_the_lowest_trump():
    """ "il joue une carte cachée, le revers en dessus, en disant atout, et tous les joueurs
    sont tenus de fournir atout sur cette carte." """
    trick = _trick(["Ac"], True, "h")
    assert trick.led_suit == "h"
    assert legal_cards(["7h", "As"], trick, "h", RULES) == ["7h"]
    trick.plays.append(Play("P1", "7h"))
    assert winning_play(trick, "h", RULES).player == "P1"
    # Nobody has a trump: the face-down card holds the trick.
    alone = _trick(["Ac"], True, "h")
    alone.plays.append(Play("P1", "As"))
    assert winning_play(alone, "h", RULES).player == "P0"


def test_trick_play_winner_leads_and_illegal_leaves_state_untouched():
    hands = {"A": ["Ac", "7d"], "B": ["Kc", "8d"], "C": ["7h", "9d"]}
    tp = TrickPlay(["A", "B", "C"], hands, "h", "A")
    tp.play("A", "Ac")
    with pytest.raises(IllegalAction) as err:
        tp.play("B", "8d")
    assert err.value.code == "must_follow_suit"
    with pytest.raises(IllegalAction) as err:
        tp.play("C", "9d")
    assert err.value.code == "not_your_turn"
    assert tp.hands["B"] == ["Kc", "8d"] and len(tp.current.plays) == 1
    tp.play("B", "Kc")
    with pytest.raises(IllegalAction) as err:
        tp.play("C", "9d")
    assert err.value.code == "must_trump"
    events = tp.play("C", "7h")
    assert events[-1] == {"event": "trick", "winner": "C", "cards": ["Ac", "Kc", "7h"], "number": 1}
    assert tp.to_play() == "C" and tp.current.leader == "C"
    tp.play("C", "9d"), tp.play("A", "7d"), tp.play("B", "8d")
    assert tp.over and tp.won == {"A": 0, "B": 0, "C": 2}


def test_trump_set_by_first_card():
    """ "Dans certaines parties, on constitue l'atout à la première carte jouée." """
    tp = TrickPlay(["A", "B"], {"A": ["9s", "Ac"], "B": ["Kc", "7s"]}, None, "A")
    tp.play("A", "9s")
    assert tp.trump == "s"
    assert tp.legal("B") == ["7s"]
    tp.play("B", "7s")
    assert tp.won["A"] == 1
    tp.play("A", "Ac")
    with pytest.raises(IllegalAction):
        tp.play("B", "7s")  # B has no card left but Kc
    tp.play("B", "Kc")
    assert tp.over
