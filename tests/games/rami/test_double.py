"""Double rami / Coon Can (game ``double_rami``): RULES.md § Rami family and
rules/rami.fr.txt ("LE DOUBLE RAMI")."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.refusals import refused

from tavern.cards import SeededSource
from tavern.games import registry
from tavern.games.base import IllegalAction, RecordError
from tavern.games.rami import double

PLAYERS = ["A", "B", "C", "D", "E"]


def stacked(composition, hands, button, turned, stock):
    """A deck order dealing ``hands`` one card at a time from the dealer's left,
    then ``turned`` (the first discard), then ``stock`` on top of the stock."""
    players = list(hands)
    n = len(players)
    order = [players[(button + 1 + i) % n] for i in range(n)]
    out = [hands[p][k] for k in range(len(hands[players[0]])) for p in order]
    out += [turned] + stock
    assert not Counter(out) - Counter(composition), "a stacked card is not in the deck"
    return out + sorted((Counter(composition) - Counter(out)).elements())


def deal(hands, stock, turned="Ts", config=None, chips=1000):
    config = config or {}
    n = len(hands)
    order = stacked(double.deck_composition(config, n), hands, n - 1, turned, stock)
    return double.new_deal(config, [{"player": p, "chips": chips} for p in hands], n - 1, deck=order)


def pass_turn(e):
    p = e.to_act()[0]
    e.act(p, "draw", source="stock")
    e.act(p, "discard", card=e.hands[p][-1])


def every_card(e):
    c = Counter(e.stock) + Counter(e.discards)
    for h in e.hands.values():
        c += Counter(h)
    for tm in e.table:
        c += Counter(tm.meld.cards)
    return c


B10 = ["Ac", "7d", "Kh", "Qs", "5h", "8s", "Td", "2c", "3c", "4c"]
C10 = ["2d", "3h", "4h", "6d", "7h", "8h", "Js", "Jc", "Jd", "5d"]


def test_two_decks_two_jokers_ten_cards_each():
    """"Deux à cinq joueurs utilisent deux jeux de 52 cartes et 2 jokers" — "on
    distribue dix cartes à chacun"."""
    comp = double.deck_composition({}, 5)
    assert len(comp) == 106 and Counter(comp)["7h"] == 2 and {"X1", "X2"} <= set(comp)
    e = double.new_deal({}, [{"player": p, "chips": 10} for p in PLAYERS], 2,
                        rng=SeededSource(random.Random(1)))
    assert all(len(h) == 10 for h in e.hands.values())
    assert len(e.stock) == 106 - 51 and len(e.discards) == 1
    assert Counter(e.deck) == Counter(comp)
    with refused("players_range", IllegalAction):
        double.deck_composition({}, 6)
    assert registry.load("double_rami") is double


def test_ace_with_the_king_or_the_two_not_around_the_corner():
    """"l'as peut faire partie d'une combinaison, soit avec le roi, soit avec le 2"."""
    hand = ["Qh", "Kh", "Ah", "Ad", "2d", "3d", "Ks", "As", "2s", "5c"]
    e = deal({"A": hand, "B": B10, "C": C10}, stock=["9c"])
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["Qh", "Kh", "Ah"])
    e.act("A", "lay", cards=["Ad", "2d", "3d"])
    with refused("run_consecutive", IllegalAction):
        e.act("A", "lay", cards=["Ks", "As", "2s"])


def test_rami_doubles_and_joker_counts_15_ace_11():
    """"à la marque, le joker vaut 15 points et l'as, 11 points" — and the rules of
    Rami apply: going out all at once ("rami") doubles the score."""
    hand = ["2c", "3c", "4c", "5c", "9d", "9h", "9s", "7h", "8h", "9h"]
    b = ["X1", "Ac", "2d", "3h", "4s", "6d", "7d", "8s", "Td", "Js"]  # 15+11+2+3+4+6+7+8+10+10 = 76
    c = ["X2", "As", "Kd", "Qd", "5d", "5s", "2h", "3s", "4d", "6c"]  # 15+11+10+10+5+5+2+3+4+6 = 71
    e = deal({"A": hand, "B": b, "C": c}, stock=["6h"])
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["2c", "3c", "4c", "5c"])
    e.act("A", "lay", cards=["9d", "9h", "9s"])
    e.act("A", "lay", cards=["6h", "7h", "8h", "9h"])
    r = e.result()
    assert r["scoring"]["ending"] == "rami"
    assert r["scoring"]["points"] == {"B": 76, "C": 71}
    assert r["delta"] == {"A": 2 * (76 + 71), "B": -152, "C": -142}


# ------------------------------------------------------------------ the joker moves once

JOKER_HAND = ["4s", "X1", "6s", "9d", "9h", "9c", "Kd", "Qc", "2h", "3d"]


def _joker_laid(stock):
    e = deal({"A": JOKER_HAND, "B": B10, "C": C10}, stock=["Qd", "Th", "Tc"] + stock)
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["4s", "X1", "6s"])
    e.act("A", "discard", card="Qd")
    pass_turn(e)
    pass_turn(e)
    return e


@pytest.mark.parametrize("end,cards,stands", [
    ("high", ("4s", "5s", "6s", "X1"), (None, None, None, "7s")),
    ("low", ("X1", "4s", "5s", "6s"), ("3s", None, None, None)),
])
def test_the_joker_moves_once_to_either_end_and_is_marked(end, cards, stands):
    """"lorsqu'un joker fait partie d'une combinaison posée sur la table, on peut le
    déplacer une fois et une seule. Exemple : la combinaison suivante est étalée :
    4♠, Joker, 6♠. Le joueur tire le 5♠. Il retire le joker, met le 5♠ à sa place et
    utilise le joker à son gré avant le 4♠ ou après le 6♠. Pour montrer que le joker
    a changé de place une fois, on le dispose perpendiculairement aux autres cartes."""
    e = _joker_laid(["5s", "9s", "8d", "7s" if end == "high" else "3s"])
    assert e.table[0].meld.stands_for == (None, "5s", None)
    e.act("A", "draw", source="stock")  # the 5♠
    legal = {a["action"]: a for a in e.legal_actions("A")}
    assert legal["move_joker"]["options"] == [{"meld": 0, "card": "5s", "ends": ["low", "high"]}]
    e.act("A", "move_joker", meld=0, card="5s", end=end)
    assert e.table[0].meld.cards == cards and e.table[0].meld.stands_for == stands
    assert e.table[0].marked == {"X1"} and e.view("B")["table"][0]["marked"] == ["X1"]
    e.act("A", "discard", card="Kd")
    pass_turn(e)
    pass_turn(e)
    # Now A holds the card the marked joker stands for: it can move no more.
    e.act("A", "draw", source="stock")
    real = stands[-1] or stands[0]
    assert real in e.hands["A"]
    assert all(a["action"] != "move_joker" for a in e.legal_actions("A"))
    with refused("joker_marked", IllegalAction):
        e.act("A", "move_joker", meld=0, card=real, end="low")
    with pytest.raises(IllegalAction):
        e.act("A", "add", meld=0, cards=[real])
    assert e.table[0].meld.cards == cards
    rec = e.record()
    assert {"player": "A", "action": "move_joker", "meld": 0, "card": "5s", "end": end} in rec["actions"]
    assert double.replay(rec)["finished"] is False


def test_the_joker_cannot_go_past_the_ace():
    """A run Q♥ K♥ Joker (the joker is the A♥): with the real A♥ in its place the
    joker can only go below the queen — nothing follows the ace."""
    hand = ["Qh", "Kh", "X1", "9d", "9h", "9c", "Kd", "Qc", "2h", "3d"]
    e = deal({"A": hand, "B": B10, "C": C10}, stock=["Qd", "Th", "Tc", "Ah"])
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["Qh", "Kh", "X1"])
    assert e.table[0].meld.stands_for == (None, None, "Ah")
    e.act("A", "discard", card="Qd")
    pass_turn(e)
    pass_turn(e)
    e.act("A", "draw", source="stock")
    legal = {a["action"]: a for a in e.legal_actions("A")}
    assert legal["move_joker"]["options"] == [{"meld": 0, "card": "Ah", "ends": ["low"]}]
    before = e.record()
    with refused("joker_end_blocked", IllegalAction):
        e.act("A", "move_joker", meld=0, card="Ah", end="high")
    assert e.record() == before
    e.act("A", "move_joker", meld=0, card="Ah", end="low")
    assert e.table[0].meld.as_cards() == ("Jh", "Qh", "Kh", "Ah")


def test_joker_moves_only_in_ones_own_run():
    """Ruling: a set has no ends, and one plays only on one's own melds."""
    hand = ["9d", "9h", "X1", "4s", "X2", "6s", "Kd", "Qc", "2h", "3d"]
    e = deal({"A": hand, "B": ["5s"] + B10[1:], "C": C10}, stock=["Qd", "9s"])
    e.act("A", "draw", source="stock")
    e.act("A", "lay", cards=["9d", "9h", "X1"])
    e.act("A", "lay", cards=["4s", "X2", "6s"])
    e.act("A", "discard", card="Qd")
    e.act("B", "draw", source="stock")  # 9♠
    with refused("own_melds_only", IllegalAction):
        e.act("B", "move_joker", meld=1, card="5s", end="high")
    assert all(a["action"] != "move_joker" for a in e.legal_actions("B"))
    e.act("B", "discard", card="9s")
    f = deal({"A": hand, "B": B10, "C": C10}, stock=["9s"])
    f.act("A", "draw", source="stock")
    f.act("A", "lay", cards=["9d", "9h", "X1"])
    with refused("joker_move_run_only", IllegalAction):
        f.act("A", "move_joker", meld=0, card="9s", end="high")
    f.act("A", "lay", cards=["4s", "X2", "6s"])
    with refused("joker_end", IllegalAction):
        f.act("A", "move_joker", meld=1, card="9s", end="middle")


# ------------------------------------------------------------------ stock exhausted


A_DP = ["Ts", "2c", "3d", "5h", "7s", "8d", "9c", "Jh", "Qd", "Kc"]   # 10+2+3+5+7+8+9+10+10+10 = 74
B_DP = ["X1", "X2", "Ac", "2d", "4h", "6s", "8c", "Tc", "Qh", "Ks"]   # 15+15+11+2+4+6+8+10+10+10 = 91
C_DP = ["2h", "3c", "4d", "5c", "6h", "7d", "9s", "Jc", "Qs", "Kh"]   # 2+3+4+5+6+7+9+10+10+10 = 66


def _exhausted(config=None):
    e = deal({"A": A_DP, "B": B_DP, "C": C_DP}, stock=[], turned="4s", config=config)
    assert e.stock[0] == "Ts"  # the last card of the stock is the other 10♠
    for _ in range(106 - 31):
        assert not e.discard_play
        pass_turn(e)
    return e


def test_stock_exhausted_play_goes_on_from_the_discard_pile():
    """"si le talon est épuisé alors qu'aucun des joueurs ne s'est débarrassé de
    toutes ses cartes, le jeu continue, les joueurs piochant dans la pile d'écart avec
    obligation d'écarter une carte différente de celle piochée"."""
    e = _exhausted()
    assert e.discard_play and not e.over and e.view(None)["discard_play"]
    assert e.to_act() == ["A"] and e.discards[-1] == "Ts"
    assert e.legal_actions("A") == [{"action": "draw", "sources": ["discard"]}]
    with refused("stock_exhausted_draw_discard", IllegalAction):
        e.act("A", "draw", source="stock")
    e.act("A", "draw", source="discard")
    assert "Ts" not in e.legal_actions("A")[-1]["cards"]
    before = e.record()
    with refused("discard_another", IllegalAction):
        e.act("A", "discard", card="Ts")  # neither this 10♠ nor A's other one
    assert e.record() == before and e.hands["A"].count("Ts") == 2
    e.act("A", "discard", card="Kc")
    assert e.discards[-1] == "Kc" and e.to_act() == ["B"]


def test_the_obligation_holds_even_when_the_table_lets_a_discard_go_back():
    e = _exhausted({"may_return_discard": True})
    e.act("A", "draw", source="discard")
    with refused("discard_another", IllegalAction):
        e.act("A", "discard", card="Ts")


def test_discard_pile_play_ends_after_a_round_without_melds():
    """Ruling (docs): a whole round of discard-pile play in which nobody puts a card
    on the table ends the deal as an exhausted stock does in Rami: "le joueur qui a
    le moins de points est déclaré gagnant et les autres joueurs lui donnent la
    différence"."""
    e = _exhausted()
    for p, card in (("A", "Kc"), ("B", "Ks")):
        e.act(p, "draw", source="discard")
        e.act(p, "discard", card=card)
        assert not e.over
    e.act("C", "draw", source="discard")  # takes B's K♠
    e.act("C", "discard", card="Kh")
    assert e.over
    r = e.result()
    counts = r["scoring"]["points"]
    assert counts == {p: e.hand_points(p) for p in "ABC"}
    assert counts["C"] == 66 - 10 + 10 and counts["A"] == 74 and counts["B"] == 91 - 10 + 10
    assert r["scoring"]["ending"] == "stock" and r["scoring"]["winners"] == ["C"]
    assert r["delta"] == {"A": -(74 - 66), "B": -(91 - 66), "C": 8 + 25}


def test_idle_rounds_option_waits_longer():
    e = _exhausted({"idle_rounds": 2})
    for _ in range(5):
        p = e.to_act()[0]
        e.act(p, "draw", source="discard")
        e.act(p, "discard", card=e.timeout_action(p)["card"])
        assert not e.over
    p = e.to_act()[0]
    e.act(p, **e.timeout_action(p))
    e.act(p, **e.timeout_action(p))
    assert e.over


def test_view_record_and_bad_records():
    e = deal({"A": JOKER_HAND, "B": B10, "C": C10}, stock=["Qd"])
    v = e.view("B")
    assert v["hand"] == B10 and "hand" not in e.view(None)
    assert all(p["cards"] == 10 for p in v["players"]) and v["stock"] == len(e.stock)
    rec = e.record()
    assert rec["game"] == "double_rami" and rec["reshuffles"] == [] and len(rec["deck"]) == 106
    with refused("no_reshuffles", IllegalAction):
        double.new_deal({}, rec["seats"], 2, deck=rec["deck"], reshuffles=[["2c"]])
    with refused("not_this_game_record", IllegalAction):
        double.replay(dict(rec, game="rami"))
    with pytest.raises(RecordError, match="« "):
        double.new_deal({"joker": True}, rec["seats"], 2)


# ------------------------------------------------------------------ properties


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 5),
       scoring=st.sampled_from(["jetons", "marque"]), chips=st.integers(0, 300))
def test_random_legal_play_ends_keeps_every_card_and_conserves_chips(seed, n, scoring, chips):
    r = random.Random(seed)
    config = {"scoring": scoring, "match_target": 80, "unit": 2}
    composition = Counter(double.deck_composition(config, n))
    e = double.new_deal(config, [{"player": p, "chips": chips} for p in PLAYERS[:n]],
                        r.randrange(n), rng=SeededSource(r))
    steps = 0
    while not e.over:
        assert steps < 5000, "the deal does not end"
        p = e.to_act()[0]
        a = r.choice(e.legal_actions(p))
        if a["action"] == "draw":
            e.act(p, "draw", source=r.choice(a["sources"]))
        elif a["action"] == "lay":
            e.act(p, "lay", cards=r.choice(a["melds"]))
        elif a["action"] == "add":
            e.act(p, "add", **r.choice(a["options"]))
        elif a["action"] == "move_joker":
            o = r.choice(a["options"])
            e.act(p, "move_joker", meld=o["meld"], card=o["card"], end=r.choice(o["ends"]))
        else:
            e.act(p, "discard", card=r.choice(a["cards"]))
        steps += 1
        assert every_card(e) == composition
        for tm in e.table:  # a marked joker is still in its meld, never moved twice
            assert tm.marked <= set(tm.meld.cards)
    res = e.result()
    assert sum(res["delta"].values()) == 0
    assert all(res["chips"][p] == chips + res["delta"][p] >= 0 for p in res["chips"])
    assert double.replay(e.record())["chips"] == res["chips"]


def _snapshot(e):
    return (e.record(), [e.view(p) for p in e.players] + [e.view(None)], every_card(e))


def _legal_move(e, r):
    p = e.to_act()[0]
    a = r.choice(e.legal_actions(p))
    if a["action"] == "draw":
        e.act(p, "draw", source=r.choice(a["sources"]))
    elif a["action"] == "lay":
        e.act(p, "lay", cards=r.choice(a["melds"]))
    elif a["action"] == "add":
        e.act(p, "add", **r.choice(a["options"]))
    elif a["action"] == "move_joker":
        o = r.choice(a["options"])
        e.act(p, "move_joker", meld=o["meld"], card=o["card"], end=r.choice(o["ends"]))
    else:
        e.act(p, "discard", card=r.choice(a["cards"]))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_any_refused_move_leaves_the_state_untouched(seed):
    """"an illegal move raises IllegalAction ... and leaves the state untouched" —
    moving jokers included."""
    r = random.Random(seed)
    comp = double.deck_composition({}, 3)
    e = double.new_deal({}, [{"player": p, "chips": 50} for p in "ABC"], 0, rng=SeededSource(r))
    for _ in range(300):
        if e.over:
            break
        p = e.to_act()[0]
        pool = e.hands[p] + [r.choice(comp)]
        joker_runs = [i for i, tm in enumerate(e.table) if tm.meld.kind == "run" and tm.meld.jokers]
        attempts = [
            ("move_joker", {"meld": r.choice(joker_runs + [0, 5]), "card": r.choice(pool),
                            "end": r.choice(["low", "high", "up"])}),
            ("add", {"meld": r.randint(0, len(e.table)), "cards": r.sample(pool, min(2, len(pool)))}),
            ("discard", {"card": r.choice(pool)}),
            ("draw", {"source": r.choice(["stock", "discard"])}),
            ("lay", {"cards": r.sample(pool, min(len(pool), r.randint(2, 4)))}),
        ]
        action, args = r.choice(attempts)
        before = _snapshot(e)
        try:
            e.act(p, action, **args)
        except IllegalAction:
            assert _snapshot(e) == before, (p, action, args)
        if not e.over:
            _legal_move(e, r)


@pytest.mark.parametrize("seed", [3, 7])
def test_every_offered_action_is_accepted(seed):
    """legal_actions "says exactly what that player may do now": each lay, add,
    move_joker and discard it lists is accepted (tried on a copy of the deal)."""
    import copy

    r = random.Random(seed)
    e = double.new_deal({}, [{"player": p, "chips": 50} for p in "AB"], 0, rng=SeededSource(r))
    tried = Counter()
    while not e.over:
        p = e.to_act()[0]
        for a in e.legal_actions(p):
            calls = {
                "draw": lambda a: [{"source": s} for s in a["sources"]],
                "lay": lambda a: [{"cards": m} for m in a["melds"]],
                "add": lambda a: a["options"],
                "move_joker": lambda a: [{"meld": o["meld"], "card": o["card"], "end": end}
                                         for o in a["options"] for end in o["ends"]],
                "discard": lambda a: [{"card": c} for c in a["cards"]],
            }[a["action"]](a)
            for args in calls:
                copy.deepcopy(e).act(p, a["action"], **args)
                tried[a["action"]] += 1
        _legal_move(e, r)
    assert tried["lay"] and tried["discard"] and tried["draw"]
