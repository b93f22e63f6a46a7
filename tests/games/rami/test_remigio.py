"""Remigio (RULES.md "Remigio", rami.fr.txt "REMIGIO")."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.refusals import refused

from tavern.cards import SeededSource
from tavern.games.base import IllegalAction
from tavern.games.rami import remigio
from tavern.games.rami.melds import points

RULES = remigio.meld_rules(remigio.RemigioConfig())
# "une séquence de trois cartes, un brelan, un roi, un valet, un 7 et un 6"
A_33 = ["3s", "4s", "5s", "9c", "9d", "9s", "Kc", "Jd", "7c", "6c"]


def seats(n: int, chips: int = 1000) -> list[dict]:
    return [{"player": chr(ord("A") + i), "chips": chips} for i in range(n)]


def remigio_deck(hands: dict[str, list[str]], players: list[str], stock=(), button: int = 0, decks: int = 1):
    """Deal one at a time from the dealer's left; then the stock (top first)."""
    n = len(players)
    order = []
    for i in range(10 * n):
        order.append(hands[players[(button + 1 + i) % n]][i // n])
    order += list(stock)
    rest = Counter(remigio.composition(n, decks == 2)) - Counter(order)
    return order + sorted(rest.elements())


def test_the_source_hand_worth_33():
    """"un joueur possède une séquence de trois cartes, un brelan, un roi, un
    valet, un 7 et un 6. Il marque 33 points.\""""
    arr = remigio.left_over(A_33, RULES)
    assert arr.points == 33 and sorted(arr.deadwood) == ["6c", "7c", "Jd", "Kc"]


def close_deal(b_hand, stock_top="Ks", **config):
    players = ["A", "B"]
    deck = remigio_deck({"A": A_33, "B": b_hand}, players, [stock_top])
    e = remigio.new_deal(config, seats(2), 0, deck=deck)
    assert e.to_act() == ["B"]
    e.act("B", "draw", source="stock")
    return e


def test_close_with_combinations_doubles():
    """"Le jeu se termine lorsqu'un joueur possède 10 cartes formant des
    combinaisons"; "multipliée par : 2 pour un ensemble de combinaisons sans joker"."""
    e = close_deal(["2c", "3c", "4c", "5c", "5d", "6d", "7d", "Qs", "Qh", "Qd"], unit=3)
    assert {"action": "close", "cards": ["Ks"]} in e.legal_actions("B")
    e.act("B", "close", card="Ks")
    r = e.result()
    s = r["scoring"]
    assert (s["combination"], s["factor"], s["points"]) == ("combinations", 2, {"A": 33})
    assert r["delta"] == {"A": -33 * 2 * 3, "B": 33 * 2 * 3}
    assert sorted(s["hands"]["A"]["left_over"]) == ["6c", "7c", "Jd", "Kc"]


def test_close_with_a_joker_counts_once():
    """RULES.md: "×1 otherwise (combinations using a joker)"."""
    e = close_deal(["2c", "3c", "4c", "X1", "5d", "6d", "7d", "Qs", "Qh", "Qd"])
    e.act("B", "close", card="Ks")
    assert e.result()["scoring"]["factor"] == 1 and e.result()["delta"]["B"] == 33


@pytest.mark.parametrize(
    "hand, kind, factor",
    [
        (["2h", "3h", "4h", "6h", "7h", "8h", "Th", "Jh", "Qh", "Ah"], "couleur", 4),
        (["2h", "3h", "X1", "6h", "7h", "8h", "Th", "Jh", "Qh", "Ah"], "couleur", 3),
        (["2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh"], "escalera", 6),
        (["2h", "3h", "4h", "X2", "6h", "7h", "8h", "9h", "Th", "Jh"], "escalera", 5),
        (["5h", "6h", "7h", "8h", "9h", "Th", "Jh", "Qh", "Kh", "Ah"], "escalera", 6),
    ],
)
def test_couleur_and_escalera_multipliers(hand, kind, factor):
    """"3 pour une couleur avec joker; 4 pour une couleur sans joker; 5 pour une
    séquence royale avec joker; 6 pour une séquence royale sans joker"; the
    couleur is "les 10 cartes du joueur sont de la même couleur"."""
    e = close_deal(hand)
    e.act("B", "close", card="Ks")
    s = e.result()["scoring"]
    assert (s["combination"], s["factor"]) == (kind, factor)
    assert e.result()["delta"]["B"] == 33 * factor


def test_close_refused_with_loose_cards():
    e = close_deal(["2c", "3c", "4c", "5c", "5d", "6d", "8d", "Qs", "Qh", "Qd"])
    assert all(a["action"] != "close" for a in e.legal_actions("B"))
    with refused("close_needs_all", IllegalAction):
        e.act("B", "close", card="Ks")
    assert len(e.hands["B"]) == 11 and e.phase == "play"  # untouched


def test_nothing_is_laid():
    """"les joueurs ne peuvent poser des combinaisons isolées sur la table"."""
    e = close_deal(["2c", "3c", "4c", "5c", "5d", "6d", "8d", "Qs", "Qh", "Qd"])
    assert {a["action"] for a in e.legal_actions("B")} <= {"discard", "close"}
    with refused("unknown_action_of", IllegalAction):
        e.act("B", "lay", cards=["Qs", "Qh", "Qd"])


def test_decks_by_number_of_players():
    """"De deux à cinq joueurs utilisent un jeu de 54 cartes"; "trois jeux de
    cartes pour six à huit joueurs, et quatre jeux pour neuf à douze joueurs.
    Deux à cinq joueurs peuvent également jouer ... avec deux jeux de 54 cartes"."""
    assert len(remigio.deck_composition({}, 5)) == 54
    assert len(remigio.deck_composition({"two_decks": True}, 3)) == 108
    assert len(remigio.deck_composition({}, 6)) == 162 and len(remigio.deck_composition({}, 8)) == 162
    comp = remigio.deck_composition({}, 12)
    assert len(comp) == 216 and sum(1 for c in comp if c[0] == "X") == 8
    with pytest.raises(IllegalAction):
        remigio.deck_composition({}, 13)
    assert points("X1", RULES) == 20  # "chaque joker valant 20 points"


def test_forced_pick_up_after_the_stock():
    """"Le talon ne comportant que quatre cartes, après épuisement du talon, le
    jeu continue par prise obligatoire de la première carte visible de l'écart"."""
    rng = random.Random(7)
    e = remigio.new_deal({}, seats(5), 0, rng=SeededSource(rng))
    assert e.view("B")["stock"] == 4
    for _ in range(4):
        p = e.to_act()[0]
        e.act(p, "draw", source="stock")
        e.act(p, "discard", card=e.hands[p][-1])
    p = e.to_act()[0]
    assert e.legal_actions(p) == [{"action": "draw", "sources": ["discard"]}]
    with refused("stock_exhausted_take_discard", IllegalAction):
        e.act(p, "draw", source="stock")
    top = e.discards[-1]
    e.act(p, "draw", source="discard")
    with refused("discard_another", IllegalAction):
        e.act(p, "discard", card=top)


def test_view_hides_hands_and_stock():
    e = close_deal(["2c", "3c", "4c", "5c", "5d", "6d", "8d", "Qs", "Qh", "Qd"])
    v = e.view("A")
    assert v["hand"] == A_33 and v["stock"] == len(e.stock)
    text = str({k: x for k, x in v.items()})
    assert all(f"'{c}'" not in text for c in e.hands["B"] + e.stock if c not in A_33)


def _play(seed: int, n: int):
    rng = random.Random(seed)
    e = remigio.new_deal({"unit": 2, "rounds_after_stock": 2}, seats(n, 50), seed % n, rng=SeededSource(rng))
    allc = Counter(e.deck)
    while not e.over:
        p = e.to_act()[0]
        legal = e.legal_actions(p)
        if rng.random() < 0.5:  # the engine's own timeout move (closes when it can)
            move = e.timeout_action(p)
            assert any(a["action"] == move["action"] for a in legal)
            e.act(p, **move)
            continue
        a = rng.choice(legal)
        if a["action"] == "draw":
            e.act(p, "draw", source=rng.choice(a["sources"]))
        else:
            e.act(p, a["action"], card=rng.choice(a["cards"]))
        held = sum((Counter(h) for h in e.hands.values()), Counter())
        assert held + Counter(e.stock) + Counter(e.discards) == allc  # every card in one place
    return e


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(2, 6))
def test_random_play_ends_and_conserves(seed, n):
    """Random legal play always ends; chips are conserved; the record replays."""
    e = _play(seed, n)
    r = e.result()
    assert sum(r["delta"].values()) == 0 and all(v >= 0 for v in r["chips"].values())
    assert remigio.replay(e.record())["chips"] == r["chips"]


def test_tavern_replay_dispatches_remigio_records():
    """``tavern replay`` reads a remigio record; an unfinished one says so."""
    from tavern.games import registry

    e = close_deal(["2c", "3c", "4c", "5c", "5d", "6d", "7d", "Qs", "Qh", "Qd"])
    out = registry.replay(e.record())
    assert out["finished"] is False and out["to_act"] == ["B"]
    e.act("B", "close", card="Ks")
    out = registry.replay(e.record())
    assert out["finished"] and out["chips"] == e.result()["chips"]


@pytest.mark.parametrize("seed, n", [(1, 2), (2, 4)])
def test_legal_actions_say_exactly_what_is_accepted(seed, n):
    """Every card offered for a discard or a close is accepted, every other
    refused; so are the draw sources (tried on copies of the deal)."""
    import copy

    rng = random.Random(seed)
    e = remigio.new_deal({"rounds_after_stock": 1}, seats(n), 0, rng=SeededSource(rng))
    tried = Counter()
    while not e.over:
        p = e.to_act()[0]
        offered = {a["action"]: a for a in e.legal_actions(p)}
        if "draw" in offered:
            for src in ("stock", "discard"):
                ok = src in offered["draw"]["sources"]
                try:
                    copy.deepcopy(e).act(p, "draw", source=src)
                    assert ok
                except IllegalAction:
                    assert not ok
        else:
            for action in ("discard", "close"):
                allowed = offered.get(action, {}).get("cards", [])
                for c in dict.fromkeys(e.hands[p]):
                    try:
                        copy.deepcopy(e).act(p, action, card=c)
                        assert c in allowed, (action, c)
                        tried[action] += 1
                    except IllegalAction:
                        assert c not in allowed, (action, c)
        e.act(p, **e.timeout_action(p))
    assert tried["discard"]
