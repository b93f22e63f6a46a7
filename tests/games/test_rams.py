"""The Rams engine (src/tavern/games/rams/), rule by rule, plus property tests.

Quotes are from RULES.md "Rams" and rules/rams.fr.txt.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.refusals import refused

from tavern.cards import deck32
from tavern.cli import main as cli_main
from tavern.games.base import Engine, IllegalAction
from tavern.games.registry import load

rams = load("rams")
ORDER = "789TJQKA"


# --- helpers ------------------------------------------------------------------------------


def seats(n: int, chips: int = 1000) -> list[dict]:
    return [{"player": "ABCDEFGH"[i], "chips": chips} for i in range(n)]


def speaking_order(n: int, button: int) -> list[str]:
    """Rams goes right: from the dealer's right (the previous seat) down, the dealer last."""
    names = "ABCDEFGH"[:n]
    return [names[(button - 1 - i) % n] for i in range(n)]


def build_deck(order: list[str], hands: dict[str, list[str]], widow: list[str] = (), turned: str | None = None) -> list[str]:
    """A deck order dealing ``hands`` (one card at a time going right), then widow, then turned."""
    size = len(hands[order[0]])
    out = [hands[p][i] for i in range(size) for p in order] + list(widow) + ([turned] if turned else [])
    rest = [c for c in deck32() if c not in out]
    return out + rest


def speak_all(engine, choices: dict[str, str]) -> None:
    while engine.phase == "speak":
        p = engine.to_act()[0]
        engine.act(p, "speak", choice=choices.get(p, "play"))


def play_out(engine, policy=None) -> None:
    """Play the tricks: ``policy(player, legal cards)`` or the lowest legal card."""
    while engine.phase == "play":
        p = engine.to_act()[0]
        cards = [a["card"] for a in engine.legal_actions(p)]
        card = policy(p, cards) if policy else min(cards, key=lambda c: ORDER.index(c[0]))
        engine.act(p, "play", card=card)


def random_action(engine, rng: random.Random) -> tuple[str, str, dict]:
    p = engine.to_act()[0]
    a = dict(rng.choice(engine.legal_actions(p)))
    a.pop("blind", None)
    return p, a.pop("action"), a


def brute_force_allowed(hand, trick, trump, led):
    """The obligations straight from the source (same statement as in test_tricks, kept local)."""
    if not trick:
        return set(hand)
    val = lambda c, fd: -1 if fd else ORDER.index(c[0])  # noqa: E731
    best_led = max(val(c, fd) for c, fd in trick if (fd and led == trump) or (not fd and c[1] == led))
    trumps = [val(c, fd) for c, fd in trick if fd or c[1] == trump]
    best_trump = max(trumps) if trumps else None
    obligations = [
        lambda c: c[1] == led,  # fournir
        lambda c: c[1] == led and ORDER.index(c[0]) > best_led,  # forcer
        lambda c: c[1] == trump,  # couper (ou donner de l'atout inférieur)
        lambda c: c[1] == trump and (best_trump is None or ORDER.index(c[0]) > best_trump),  # surcouper
    ]
    allowed = list(hand)
    for ob in obligations:
        if any(ob(c) for c in allowed):
            allowed = [c for c in allowed if ob(c)]
    return set(allowed)


def card_places(engine) -> Counter:
    return Counter(c for cards in engine.locations().values() for c in cards)


# --- the deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n,widow,size,has_widow,turned_in_dealer_hand",
    [
        (3, True, 5, True, False),
        (4, True, 5, True, False),
        (5, True, 5, True, False),
        (6, True, 4, True, False),
        (7, True, 4, True, True),
        (6, False, 5, False, False),
        (7, False, 4, False, False),
        (8, False, 4, False, True),
        (8, True, 4, False, True),  # eight players: the 32 cards are gone, no widow possible
    ],
)
def test_deal_sizes_with_and_without_widow(n, widow, size, has_widow, turned_in_dealer_hand):
    """RULES.md: "With a widow: 3–5 players 5 cards, 6 players 4, 7 players 4 (the turned
    card belongs to the dealer). Without: 6 players 5, 7 players 4, 8 players 4 (the last
    card is turned and belongs to the dealer).\""""
    e = rams.new_deal({"widow": widow}, seats(n), 0, deck=deck32())
    order = speaking_order(n, 0)
    assert all(len(e.hands[p]) == size for p in order)
    assert len(e.widow) == (size if has_widow else 0)
    dealer = order[-1]
    if turned_in_dealer_hand:
        assert e.turned == e.hands[dealer][-1] and e.phase == "speak"
    else:
        assert e.turned not in e.hands[dealer] and e.phase == "exchange"
    assert e.trump == e.turned[1]
    assert card_places(e) == Counter(deck32())


def test_play_goes_right_and_the_dealer_speaks_last():
    """RULES.md: "play turns to the right of the dealer"; "Le premier à jouer, à la droite du
    donneur". Seats are listed going left, so the dealer's right is the previous index."""
    e = rams.new_deal({}, seats(5), 2, deck=deck32())
    assert e.order == ["B", "A", "E", "D", "C"]
    assert e.dealer == "C"
    # The deck is dealt from the dealer's right: B gets the first card.
    assert e.hands["B"][0] == deck32()[0] and e.hands["A"][0] == deck32()[1]


def test_dealer_exchanges_a_card_for_the_turned_card():
    """RULES.md: "The next card is turned for trump; the dealer may exchange one card for it." """
    e = rams.new_deal({}, seats(4), 0, deck=deck32())
    assert e.to_act() == ["A"] and e.phase == "exchange"
    turned = e.turned
    give = e.hands["A"][0]
    assert {"action": "exchange", "card": give} in e.legal_actions("A")
    assert e.legal_actions("B") == []
    with pytest.raises(IllegalAction):
        e.act("B", "exchange")
    with refused("card_not_in_hand", IllegalAction):
        e.act("A", "exchange", card="Ah" if "Ah" not in e.hands["A"] else "7s")
    e.act("A", "exchange", card=give)
    assert turned in e.hands["A"] and give not in e.hands["A"] and e.discard == [give]
    assert e.phase == "speak" and card_places(e) == Counter(deck32())
    # Nobody sees the card the dealer gave away.
    assert f'"{give}"' not in json.dumps(e.view("B")) and f'"{give}"' not in json.dumps(e.view(None))


def test_dealer_may_keep_his_hand():
    e = rams.new_deal({}, seats(3), 1, deck=deck32())
    before = list(e.hands["B"])
    e.act("B", "exchange")
    assert e.hands["B"] == before and e.turned_on_table


# --- speaking ----------------------------------------------------------------------------------


def test_first_deal_is_forced_nobody_may_pass():
    """ "Si le coup n'a comme mise, dans le jeu au coup, que celle du donneur, tous les
    joueurs sont tenus de prendre part à ce coup." """
    e = rams.new_deal({}, seats(4), 0, deck=deck32())
    e.act("A", "exchange")
    assert e.forced and e.pot == 5
    choices = {a["choice"] for a in e.legal_actions("D")}
    assert "pass" not in choices and {"play", "widow"} <= choices
    with refused("rams_forced_deal", IllegalAction):
        e.act("D", "speak", choice="pass")


def test_optional_deal_offers_play_widow_pass():
    """ "Ou il joue avec son jeu, ou il prend la fille en jetant son jeu, ou il passe." """
    e = rams.new_deal({}, seats(4), 0, deck=deck32(), carry={"pot": 10, "forced": False})
    e.act("A", "exchange")
    assert not e.forced and e.pot == 15
    assert [a["choice"] for a in e.legal_actions("D")] == ["play", "widow", "pass"]


def test_taking_the_widow_throws_the_hand_and_views_hide_it():
    """ "il prend la fille en jetant son jeu"; the views never show the widow or dead hands
    (ARCHITECTURE.md: "never another player's hidden cards, the stock, or the widow")."""
    e = rams.new_deal({}, seats(4), 0, deck=deck32(), carry={"pot": 10, "forced": False})
    e.act("A", "exchange")
    widow, own = list(e.widow), list(e.hands["D"])
    e.act("D", "speak", choice="widow")
    assert e.hands["D"] == widow and e.dead["D"] == own and e.widow == []
    assert "widow" not in {a["choice"] for a in e.legal_actions("C")}
    for viewer in ("C", None):
        text = json.dumps(e.view(viewer))
        for card in own + widow + e.stock:
            assert f'"{card}"' not in text
    assert e.view("D")["hand"] == widow
    assert e.view("C")["dead_sizes"] == {"D": 5}
    assert card_places(e) == Counter(deck32())


def test_all_pass_last_speaker_takes_the_pot_and_next_deal_is_forced():
    """ "Si aucun de ces joueurs ne prenait part à l'engagement jusqu'au dernier à parler,
    celui-ci ramasserait les enjeux et le coup suivant serait forcé." """
    e = rams.new_deal({}, seats(4), 0, deck=deck32(), carry={"pot": 30, "forced": False})
    e.act("A", "exchange")
    for p in "DCB":
        e.act(p, "speak", choice="pass")
    assert e.over
    r = e.result()
    assert r["delta"] == {"A": 30, "B": 0, "C": 0, "D": 0}  # paid 5, took 35
    assert r["carry"] == {"pot": 0, "forced": True}
    nxt = rams.new_deal({}, [{"player": p, "chips": c} for p, c in r["chips"].items()], 3, deck=deck32(), carry=r["carry"])
    assert nxt.forced and nxt.pot == 5


def test_forced_widow_no_pass_until_the_widow_is_taken():
    """ "la fille forcée… Si le premier à jouer joue avec son propre jeu, le second se trouve,
    à son tour, dans l'obligation ou de jouer avec son jeu, ou de prendre la fille… Dès qu'un
    joueur a pris la fille, les suivants peuvent jouer ou passer, à volonté." """
    e = rams.new_deal({"forced_widow": True}, seats(5), 0, deck=deck32(), carry={"pot": 10, "forced": False})
    e.act("A", "exchange")
    assert [a["choice"] for a in e.legal_actions("E")] == ["play", "widow"]
    with refused("rams_widow_forced", IllegalAction):
        e.act("E", "speak", choice="pass")
    e.act("E", "speak", choice="play")
    assert [a["choice"] for a in e.legal_actions("D")] == ["play", "widow"]
    e.act("D", "speak", choice="widow")
    assert "pass" in [a["choice"] for a in e.legal_actions("C")]
    e.act("C", "speak", choice="pass")
    e.act("B", "speak", choice="pass")
    e.act("A", "speak", choice="pass")
    assert e.phase == "play" and e.tricks.order == ["E", "D"] and e.tricks.current.leader == "E"


def test_forced_widow_the_dealer_must_play_if_all_played():
    """ "…lorsque tous les joueurs, jusqu'au donneur, jouent avec leur propre jeu, et alors le
    donneur est également dans l'obligation de jouer avec son propre jeu, s'il ne prend pas la fille." """
    e = rams.new_deal({"forced_widow": True}, seats(3), 0, deck=deck32(), carry={"pot": 10, "forced": False})
    e.act("A", "exchange")
    e.act("C", "speak", choice="play")
    e.act("B", "speak", choice="play")
    assert [a["choice"] for a in e.legal_actions("A")] == ["play", "widow", "general"]


def test_exchange_with_the_thrown_hand():
    """ "lorsqu'un joueur prend la fille, le suivant peut échanger son jeu avec celui jeté par ce joueur." """
    e = rams.new_deal({"exchange_thrown": True}, seats(4), 0, deck=deck32())
    e.act("A", "exchange")
    thrown = list(e.hands["D"])
    e.act("D", "speak", choice="widow")
    assert "thrown" in [a["choice"] for a in e.legal_actions("C")]
    mine = list(e.hands["C"])
    e.act("C", "speak", choice="thrown")
    assert e.hands["C"] == thrown and e.dead["C"] == mine and "D" not in e.dead
    assert "thrown" not in [a["choice"] for a in e.legal_actions("B")]
    assert card_places(e) == Counter(deck32())
    # Without the option, nobody is offered the thrown hand.
    f = rams.new_deal({}, seats(4), 0, deck=deck32())
    f.act("A", "exchange")
    f.act("D", "speak", choice="widow")
    with refused("rams_thrown_hand", IllegalAction):
        f.act("C", "speak", choice="thrown")


# --- tricks through the engine ----------------------------------------------------------------


def test_engine_refuses_with_the_rule_and_leaves_state_untouched():
    """RULES.md: "Trick play: follow suit; overtake if you can; if void, trump; over-trump a
    trump already played… The server only offers legal cards." """
    order = speaking_order(3, 0)  # C, B, A
    hands = {"C": ["9c", "Kd", "8s", "9s", "Ts"], "B": ["Ac", "8c", "Js", "Qs", "Ks"], "A": ["9h", "7d", "8d", "9d", "Td"]}
    deck = build_deck(order, hands, widow=["Ad", "Qd", "Jd", "As", "7s"], turned="7h")
    e = rams.new_deal({}, seats(3), 0, deck=deck)
    e.act("A", "exchange")
    speak_all(e, {})
    e.act("C", "play", card="9c")
    with pytest.raises(IllegalAction) as err:
        e.act("B", "play", card="Js")
    assert err.value.code == "must_follow_suit"
    with pytest.raises(IllegalAction) as err:
        e.act("B", "play", card="8c")
    assert err.value.code == "must_overtake"
    assert [a["card"] for a in e.legal_actions("B")] == ["Ac"]
    snapshot = json.dumps(e.view(None), sort_keys=True)
    with pytest.raises(IllegalAction):
        e.act("A", "play", card="9h")  # not his turn
    assert json.dumps(e.view(None), sort_keys=True) == snapshot and len(e.record()["actions"]) == 5
    e.act("B", "play", card="Ac")
    with pytest.raises(IllegalAction) as err:
        e.act("A", "play", card="7d")
    assert err.value.code == "must_trump"
    e.act("A", "play", card="9h")
    assert e.tricks.won["A"] == 1


def test_forced_trump_lead_and_the_face_down_atout():
    """ "Au coup de rams forcé, quand il n'y a au tapis que la mise du donneur, le premier à
    jouer est obligé de jouer atout. S'il n'en a pas, il joue une carte cachée, le revers en
    dessus, en disant atout, et tous les joueurs sont tenus de fournir atout sur cette carte." """
    order = speaking_order(3, 0)
    hands = {"C": ["7c", "Kd", "8s", "9s", "Qh"], "B": ["Ac", "8c", "Js", "Qs", "Ks"], "A": ["9h", "7d", "8d", "9d", "Td"]}
    deck = build_deck(order, hands, widow=["Ad", "Qd", "Jd", "As", "7s"], turned="7h")
    e = rams.new_deal({"forced_trump_lead": True}, seats(3), 0, deck=deck)
    e.act("A", "exchange")
    speak_all(e, {})
    assert [a["card"] for a in e.legal_actions("C")] == ["Qh"]
    with refused("rams_forced_lead_trump", IllegalAction):
        e.act("C", "play", card="7c")
    # The same deal where the leader has no trump: he leads face down.
    hands["C"][4], hands["B"][4] = "Ks", "Qh"
    deck = build_deck(order, hands, widow=["Ad", "Qd", "Jd", "As", "7s"], turned="7h")
    e = rams.new_deal({"forced_trump_lead": True}, seats(3), 0, deck=deck)
    e.act("A", "exchange")
    speak_all(e, {})
    offered = e.legal_actions("C")
    assert all(a.get("blind") for a in offered) and len(offered) == 5
    e.act("C", "play", card="Kd")
    assert e.view("B")["tricks"][0]["cards"][0]["card"] is None  # face down for the others
    assert e.view("C")["tricks"][0]["cards"][0]["card"] == "Kd"
    assert [a["card"] for a in e.legal_actions("B")] == ["Qh"]  # must give trump on it
    e.act("B", "play", card="Qh")
    assert [a["card"] for a in e.legal_actions("A")] == ["9h"]  # his only trump, lower: still trump
    e.act("A", "play", card="9h")
    assert e.tricks.won["B"] == 1


def test_trump_by_first_card_no_turned_card_no_exchange():
    """ "on constitue l'atout à la première carte jouée à tous les coups, même facultatifs." """
    e = rams.new_deal({"trump_by_first_card": True}, seats(4), 0, deck=deck32())
    assert e.phase == "speak" and e.turned is None and e.trump is None
    speak_all(e, {})
    leader = e.to_act()[0]
    card = e.legal_actions(leader)[0]["card"]
    e.act(leader, "play", card=card)
    assert e.view(None)["trump"] == card[1]
    assert card_places(e) == Counter(deck32())


# --- rams général --------------------------------------------------------------------------------


def _general_deck(order):
    # C holds the five top trumps and will make every trick.
    hands = {"C": ["Ah", "Kh", "Qh", "Jh", "Th"], "B": ["Ac", "8c", "Js", "Qs", "Ks"], "A": ["As", "7d", "8d", "9d", "Td"]}
    return build_deck(order, hands, widow=["Ad", "Qd", "Jd", "9s", "7s"], turned="7h")


def test_general_not_before_the_widow_is_taken():
    """ "On ne doit pas demander le rams général avant la fille prise." """
    e = rams.new_deal({}, seats(3), 0, deck=_general_deck(speaking_order(3, 0)))
    e.act("A", "exchange")
    with refused("rams_general_before_widow", IllegalAction):
        e.act("C", "speak", choice="general")


def test_general_success_everyone_pays_the_pot_which_stays():
    """ "Si le demandeur fait le rams général, chacun lui paie une somme égale à celle totale
    qui se trouve à la masse… Cette masse reste sur la table pour le coup suivant." And
    "Si un joueur avait pris la fille, il devrait la remettre sur le tapis et reprendre son jeu."
    "le demandeur du rams général joue le premier." """
    order = speaking_order(4, 0)  # D C B A
    hands = {
        "D": ["8c", "9c", "Tc", "Jc", "Qc"],
        "C": ["Ah", "Kh", "Qh", "Jh", "Th"],
        "B": ["Ac", "7c", "Js", "Qs", "Ks"],
        "A": ["As", "7d", "8d", "9d", "Td"],
    }
    deck = build_deck(order, hands, widow=["Ad", "Qd", "Jd", "9s", "7s"], turned="7h")
    e = rams.new_deal({}, seats(4), 0, deck=deck, carry={"pot": 15, "forced": False})
    e.act("A", "exchange")
    e.act("D", "speak", choice="widow")
    e.act("C", "speak", choice="general")
    assert e.phase == "play" and e.hands["D"] == hands["D"] and len(e.widow) == 5
    assert e.tricks.order == order and e.to_act() == ["C"]
    play_out(e)
    r = e.result()
    assert r["tricks"]["C"] == 5
    assert r["delta"] == {"A": -20 - 5, "B": -20, "C": 60, "D": -20}
    assert r["carry"] == {"pot": 20, "forced": False}


def test_general_brings_back_those_who_passed():
    """ "Tous les joueurs, même ceux qui auraient déjà déclaré passer, doivent prendre part au
    coup… tous les joueurs n'ont qu'à reprendre chacun son jeu et n'ont plus à parler." """
    order = speaking_order(4, 0)  # D C B A
    e = rams.new_deal({}, seats(4), 0, deck=deck32(), carry={"pot": 15, "forced": False})
    e.act("A", "exchange")
    own = list(e.hands["D"])
    e.act("D", "speak", choice="pass")
    e.act("C", "speak", choice="widow")
    e.act("B", "speak", choice="general")
    assert e.phase == "play" and e.tricks.order == order
    assert e.hands["D"] == own and e.dead == {} and len(e.widow) == 5
    assert e.to_act() == ["B"] and e.view(None)["speeches"]["B"] == "general"
    assert card_places(e) == Counter(deck32())


def test_general_failure_announcer_pays_each_player():
    """ "S'il ne le fait pas, il paie à chaque joueur une somme égale à la masse du tapis." """
    order = speaking_order(3, 0)
    e = rams.new_deal({}, seats(3), 0, deck=_general_deck(order), carry={"pot": 10, "forced": False})
    e.act("A", "exchange")
    e.act("C", "speak", choice="widow")
    e.act("B", "speak", choice="general")  # B cannot beat C's trumps
    assert e.to_act() == ["B"]
    play_out(e)
    r = e.result()
    assert r["tricks"]["B"] < 5
    assert r["delta"] == {"A": 15 - 5, "B": -30, "C": 15}
    assert r["carry"] == {"pot": 15, "forced": False}


# --- stakes au coup -------------------------------------------------------------------------------


def test_pot_shared_by_tricks_and_rams_pay_the_pot():
    """RULES.md: "Players who take part share the pot in proportion to their tricks; each one
    who took no trick is "rams" and pays into the next pot as much as this pot held…
    Remainders of a split stay in the pot." """
    order = speaking_order(3, 0)  # C B A
    hands = {"C": ["Ah", "Kh", "Qh", "Jh", "7c"], "B": ["Ac", "8d", "9d", "Td", "Jd"], "A": ["7s", "8s", "9s", "Ts", "Js"]}
    deck = build_deck(order, hands, widow=["Qs", "Ks", "As", "Qd", "Kd"], turned="9h")
    e = rams.new_deal({}, seats(3), 0, deck=deck, carry={"pot": 8, "forced": False})
    e.act("A", "exchange")
    speak_all(e, {})
    play_out(e)
    r = e.result()
    assert r["tricks"] == {"C": 4, "B": 1, "A": 0}
    # pot 13: C gets 13*4//5 = 10, B 13//5 = 2, 1 stays; A is rams and pays 13.
    assert r["pots"][0]["shares"] == {"C": 10, "B": 2} and r["pots"][0]["remainder"] == 1
    assert r["delta"] == {"C": 10, "B": 2, "A": -5 - 13}
    assert r["carry"] == {"pot": 14, "forced": False}


def _sweep_deal(n_seats, button):
    """The first speaker holds the five top hearts (trump) and takes every trick."""
    order = speaking_order(n_seats, button)
    others = [c for c in deck32() if c[1] != "h"]
    hands = {order[0]: ["Ah", "Kh", "Qh", "Jh", "Th"]}
    for k, p in enumerate(order[1:]):
        hands[p] = others[5 * k : 5 * k + 5]
    widow = others[5 * (n_seats - 1) : 5 * (n_seats - 1) + 3] + ["8h", "7h"]
    deck = build_deck(order, hands, widow=widow, turned="9h")
    return order, deck


def test_pot_growth_of_the_source_20_45_95_195():
    """ "si la fille forcée créait deux rams par coup, ce qui serait tout ordinaire avec 5
    joueurs, on aurait, au bout de 5 coups : au deuxième, 20, y compris la mise du deuxième
    donneur. Au troisième, 45. Au quatrième, 95. Au cinquième, 195."

    The first deal (forced, the dealer's 5 only) has three rams here, which gives the
    source's 20 (with two it would be 15); then two rams per deal."""
    table = seats(5)
    # Deal 1: E (first speaker) makes four tricks, D one, C, B and A are rams.
    order = speaking_order(5, 0)
    hands = {
        "E": ["Ah", "Kh", "Qh", "Jh", "7c"],
        "D": ["Ac", "8d", "9d", "Td", "Jd"],
        "C": ["7s", "8s", "9s", "Ts", "Js"],
        "B": ["Qs", "Ks", "As", "Qd", "Kd"],
        "A": ["7d", "Ad", "9c", "Tc", "Jc"],
    }
    deck = build_deck(order, hands, widow=["Th", "8h", "7h", "Qc", "Kc"], turned="9h")
    e = rams.new_deal({}, table, 0, deck=deck)
    e.act("A", "exchange")
    speak_all(e, {})
    play_out(e)
    assert e.result()["tricks"] == {"E": 4, "D": 1, "C": 0, "B": 0, "A": 0}
    carry = e.result()["carry"]
    chips = e.result()["chips"]
    pots = []
    button = 0
    for _ in range(4):
        button = (button - 1) % 5  # the deal passes to the right
        order, deck = _sweep_deal(5, button)
        e = rams.new_deal({}, [{"player": p, "chips": c} for p, c in chips.items()], button, deck=deck, carry=carry)
        pots.append(e.pot)
        e.act(order[-1], "exchange")
        speak_all(e, {order[3]: "pass", order[4]: "pass"})
        play_out(e)
        r = e.result()
        assert sorted(r["pots"][0]["rams"]) == sorted(order[1:3])
        carry, chips = r["carry"], r["chips"]
    assert pots == [20, 45, 95, 195]
    assert sum(chips.values()) + carry["pot"] == 5 * 1000


def test_dealer_stake_is_one_unit_per_trick_times_unit():
    """RULES.md: "the dealer puts 5 units in the pot (one per trick)"."""
    e = rams.new_deal({"unit": 10}, seats(4), 0, deck=deck32())
    assert e.pot == 50 and e.chips["A"] == 950
    e8 = rams.new_deal({}, seats(8), 0, deck=deck32())
    assert e8.pot == 4  # four cards, four tricks
    fixed = rams.new_deal({"dealer_stake": 5}, seats(8), 0, deck=deck32())
    assert fixed.pot == 5


# --- à la partie -----------------------------------------------------------------------------------


def test_partie_tokens_one_off_per_trick_five_for_rams():
    """ "Chaque fois que l'on fait une levée, on enlève un de ces jetons… chaque joueur qui,
    prenant part à ce coup, ne fait pas de levée, reçoit cinq jetons nouveaux." """
    order = speaking_order(3, 0)
    hands = {"C": ["Ah", "Kh", "Qh", "Jh", "7c"], "B": ["Ac", "8d", "9d", "Td", "Jd"], "A": ["7s", "8s", "9s", "Ts", "Js"]}
    deck = build_deck(order, hands, widow=["Qs", "Ks", "As", "Qd", "Kd"], turned="9h")
    e = rams.new_deal({"stakes": "partie"}, seats(3), 0, deck=deck)
    assert e.pot == 0
    e.act("A", "exchange")
    assert "pass" in [a["choice"] for a in e.legal_actions("C")]  # "prenant part à ce coup": a choice
    speak_all(e, {})
    play_out(e)
    r = e.result()
    assert r["tokens"] == {"C": 1, "B": 4, "A": 10}
    assert r["delta"] == {"A": 0, "B": 0, "C": 0}


def test_partie_out_at_zero_and_the_last_one_loses():
    """ "lorsqu'il n'y a plus de jetons, on est sorti de la partie, qui continue avec le reste
    des joueurs… jusqu'à ce que l'avant-dernier joueur, ayant gagné le dernier, celui-ci ait
    perdu la partie." """
    order = speaking_order(3, 0)
    hands = {"C": ["Ah", "Kh", "Qh", "Jh", "7c"], "B": ["Ac", "8d", "9d", "Td", "Jd"], "A": ["7s", "8s", "9s", "Ts", "Js"]}
    deck = build_deck(order, hands, widow=["Qs", "Ks", "As", "Qd", "Kd"], turned="9h")
    carry = {"tokens": {"A": 7, "B": 1, "C": 4}, "out": [], "failed_general": []}
    e = rams.new_deal({"stakes": "partie", "partie_stake": 10}, seats(3), 0, deck=deck, carry=carry)
    e.act("A", "exchange")
    speak_all(e, {})
    play_out(e)
    r = e.result()
    assert r["tokens"] == {"A": 12, "B": 0, "C": 0}
    assert r["carry"]["out"] == ["C", "B"] and r["loser"] == "A"
    assert r["delta"] == {"A": -20, "B": 10, "C": 10}
    with refused("partie_over", IllegalAction):
        rams.new_deal({"stakes": "partie"}, seats(3), 0, deck=deck32(), carry=r["carry"])


def test_partie_players_out_get_no_cards():
    carry = {"tokens": {"A": 3, "B": 0, "C": 4, "D": 2}, "out": ["B"], "failed_general": []}
    e = rams.new_deal({"stakes": "partie"}, seats(4), 0, deck=deck32(), carry=carry)
    assert e.order == ["D", "C", "A"] and "B" not in e.hands


def test_trente_et_un_exit_exactly_31_and_not_after_a_failed_general():
    """ "Lorsqu'un joueur arrive à prendre devant lui 31 fiches… il sort à son tour. Mais il
    faut qu'il prenne exactement 31 jetons, pas un de plus. Pour sortir, il ne doit pas
    demander de rams général non réussi." """
    order = speaking_order(3, 0)
    hands = {"C": ["Ah", "Kh", "Qh", "Jh", "7c"], "B": ["Ac", "8d", "9d", "Td", "Jd"], "A": ["7s", "8s", "9s", "Ts", "Js"]}
    deck = build_deck(order, hands, widow=["Qs", "Ks", "As", "Qd", "Kd"], turned="9h")
    cfg = {"stakes": "partie", "trente_et_un": True}
    carry = {"tokens": {"A": 26, "B": 5, "C": 5}, "out": [], "failed_general": []}
    e = rams.new_deal(cfg, seats(3), 0, deck=deck, carry=carry)
    e.act("A", "exchange")
    speak_all(e, {})
    play_out(e)
    assert e.result()["tokens"]["A"] == 31 and e.result()["carry"]["out"] == ["A"]
    carry["failed_general"] = ["A"]
    e = rams.new_deal(cfg, seats(3), 0, deck=deck, carry=carry)
    e.act("A", "exchange")
    speak_all(e, {})
    play_out(e)
    assert e.result()["tokens"]["A"] == 31 and e.result()["carry"]["out"] == []
    carry = {"tokens": {"A": 27, "B": 5, "C": 5}, "out": [], "failed_general": []}
    e = rams.new_deal(cfg, seats(3), 0, deck=deck, carry=carry)
    e.act("A", "exchange")
    speak_all(e, {})
    play_out(e)
    assert e.result()["tokens"]["A"] == 32 and e.result()["carry"]["out"] == []


# --- records, replay, contract ----------------------------------------------------------------------


def test_engine_contract_and_replay_through_the_cli(tmp_path, capsys):
    e = rams.new_deal({}, seats(4), 1, rng=_Src(random.Random(7)), carry={"pot": 12, "forced": False})
    assert isinstance(e, Engine)
    rng = random.Random(3)
    while not e.over:
        p, name, args = random_action(e, rng)
        e.act(p, name, **args)
    rec = e.record()
    assert rec["game"] == "rams" and rec["carry"] == {"pot": 12, "forced": False}
    out = rams.replay(json.loads(json.dumps(rec)))
    assert out["finished"] and out["chips"] == e.result()["chips"] and out["carry"] == e.result()["carry"]
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(rec))
    assert cli_main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["chips"] == e.result()["chips"]
    # A record with an illegal action is refused with the rule.
    bad = dict(rec, actions=rec["actions"][:1] + [{"player": "Z", "action": "speak", "choice": "play"}])
    with refused("not_your_turn", IllegalAction):
        rams.replay(bad)
    # A record cut short replays as far as it goes.
    part = rams.replay(dict(rec, actions=rec["actions"][:2]))
    assert part["finished"] is False


def test_bad_input_is_refused():
    with refused("players_range", IllegalAction):
        rams.new_deal({}, seats(2), 0, deck=deck32())
    with refused("literal_error", IllegalAction, field="config.stakes"):
        rams.new_deal({"stakes": "nope"}, seats(3), 0)
    with pytest.raises(IllegalAction, match="carry"):
        rams.new_deal({}, seats(3), 0, carry={"pot": -1})
    e = rams.new_deal({}, seats(3), 0, deck=deck32())
    with refused("wrong_phase", IllegalAction):
        e.act("A", "play", card="7c")
    with refused("takes_no", IllegalAction):
        e.act("A", "exchange", amount=3)
    e.act("A", "exchange")
    with refused("rams_speech_unknown", IllegalAction):
        e.act("C", "speak", choice="fold")
    assert rams.deck_composition({}, 5) == deck32()


# --- properties -------------------------------------------------------------------------------------

CONFIGS = st.fixed_dictionaries(
    {},
    optional={
        "widow": st.booleans(),
        "forced_widow": st.booleans(),
        "forced_trump_lead": st.booleans(),
        "trump_by_first_card": st.booleans(),
        "exchange_thrown": st.booleans(),
        "unit": st.integers(1, 3),
    },
)


def check_position(e) -> None:
    """Every card in exactly one place, and the cards offered are exactly the legal ones."""
    assert card_places(e) == Counter(deck32())
    for viewer in [*e.order, None]:
        seen = set(re.findall(r'"([789TJQKA][cdhs])"', json.dumps(e.view(viewer))))
        public = {e.turned} if e.turned else set()
        if e.tricks:
            public |= {pl.card for t in e.tricks.tricks for pl in t.plays if not pl.blind or pl.player == viewer}
        mine = set(e.hands.get(viewer, [])) if viewer else set()
        assert seen <= public | mine, f"{viewer} sees {seen - public - mine}"
    snapshot = json.dumps([e.view(None), e.record()], sort_keys=True)
    if e.phase == "speak":
        p = e.to_act()[0]
        offered = {a["choice"] for a in e.legal_actions(p)}
        for choice in {"play", "widow", "thrown", "pass", "general"} - offered:
            with pytest.raises(IllegalAction):
                e.act(p, "speak", choice=choice)
        assert json.dumps([e.view(None), e.record()], sort_keys=True) == snapshot
    if e.phase != "play":
        return
    p = e.to_act()[0]
    offered = {a["card"] for a in e.legal_actions(p)}
    trick = e.tricks.current
    pairs = [(pl.card, pl.blind) for pl in trick.plays]
    expected = brute_force_allowed(e.hands[p], pairs, e.tricks.trump, trick.led_suit)
    if e.must_lead_trump(p):
        trumps = {c for c in e.hands[p] if c[1] == e.tricks.trump}
        expected = trumps or set(e.hands[p])  # "obligé de jouer atout"; else face down
    assert offered == expected
    for c in set(e.hands[p]) - offered:
        with pytest.raises(IllegalAction):
            e.act(p, "play", card=c)
    assert json.dumps([e.view(None), e.record()], sort_keys=True) == snapshot


@settings(max_examples=60, deadline=None)
@given(config=CONFIGS, n=st.integers(3, 8), seed=st.integers(0, 2**32), deals=st.integers(1, 6))
def test_random_legal_play_ends_cards_conserved_chips_conserved(config, n, seed, deals):
    """Random legal play always ends; every card is always in exactly one place; the chips
    plus the pot carried from deal to deal never change."""
    rng = random.Random(seed)
    chips = {s["player"]: rng.randint(0, 60) for s in seats(n)}
    total = sum(chips.values())
    carry = None
    button = rng.randrange(n)
    for _ in range(deals):
        e = rams.new_deal(config, [{"player": p, "chips": c} for p, c in chips.items()], button, rng=_Src(rng), carry=carry)
        assert sum(e.chips.values()) + e.pot == total
        steps = 0
        while not e.over:
            check_position(e)
            if rng.random() < 0.5:
                p, name, args = e.to_act()[0], *(lambda d: (d.pop("action"), d))(e.timeout_action(e.to_act()[0]))
            else:
                p, name, args = random_action(e, rng)
            e.act(p, name, **args)
            steps += 1
            assert steps < 60
        r = e.result()
        assert sum(r["chips"].values()) + r["carry"]["pot"] == total
        assert all(v >= 0 for v in r["chips"].values())
        assert rams.replay(e.record())["chips"] == r["chips"]
        chips, carry = r["chips"], r["carry"]
        button = (button - 1) % n


class _Src:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def randbelow(self, k: int) -> int:
        return self.rng.randrange(k)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 6), seed=st.integers(0, 2**32), trente=st.booleans())
def test_partie_bookkeeping_over_many_deals(n, seed, trente):
    """À la partie: tokens never go negative, players out get no more cards, chips only
    move when the partie ends (the loser pays each other player), and are conserved."""
    rng = random.Random(seed)
    table = seats(n, 100)
    carry = None
    button = 0
    for _ in range(40):
        e = rams.new_deal({"stakes": "partie", "trente_et_un": trente}, table, button, rng=_Src(rng), carry=carry)
        out_before = set(carry["out"]) if carry else set()
        assert not out_before & set(e.hands)
        while not e.over:
            check_position(e)
            p, name, args = random_action(e, rng)
            e.act(p, name, **args)
        r = e.result()
        carry = r["carry"]
        assert sum(r["chips"].values()) == 100 * n
        assert all(t >= 0 for t in carry["tokens"].values())
        assert all(carry["tokens"][p] in (0, 31) for p in carry["out"])
        if carry["over"]:
            assert r["delta"][carry["loser"]] == -10 * (n - 1) if carry["loser"] else True
            break
        assert all(v == 0 for v in r["delta"].values())
        button = (button - 1) % n
