"""Gin rummy, the source's variant (RULES.md "Gin rummy (this variant)",
rami.fr.txt "LE GIN RUMMY")."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.refusals import refused

from tavern.cards import SeededSource, deck52
from tavern.games.base import IllegalAction
from tavern.games.rami import gin
from tavern.games.rami.melds import classify, min_deadwood

SEATS = [{"player": "A", "chips": 1000}, {"player": "B", "chips": 1000}]


def gin_deck(opp: list[str], dealer: list[str], stock: list[str] = (), turned: str = "9h") -> list[str]:
    """A 104-card order: opponent gets 11 cards, dealer 10, one at a time, the
    opponent first; then the stock; then the deck aside, turned card on top."""
    assert len(opp) == 11 and len(dealer) == 10
    play = [None] * 21
    play[0::2] = opp
    play[1::2] = dealer
    used = set(play) | set(stock)
    assert len(used) == 21 + len(stock)
    play += list(stock) + [c for c in deck52() if c not in used]
    side = [turned] + [c for c in deck52() if c != turned]
    return play + side


# B (the opponent of dealer A) holds 8-set, 4-5-6 of spades, J-Q-K of hearts.
B_MELDS = ["8c", "8d", "8h", "4s", "5s", "6s", "Jh", "Qh", "Kh"]
A_LOOSE = ["8s", "3s", "9c", "Td", "Jc", "5d", "6c", "7d", "Ac", "Qd"]  # 72 after lay-offs


def deal(opp, dealer, turned="9h", stock=(), **config):
    return gin.new_deal(config, SEATS, 0, deck=gin_deck(opp, dealer, stock, turned=turned))


def test_deal_eleven_and_ten_opponent_discards_first():
    """"Au début du coup, le donneur donne onze cartes à son adversaire et dix à
    lui-même. Son adversaire écarte une carte, face visible.\""""
    e = deal(B_MELDS + ["2d", "Kd"], A_LOOSE)
    assert len(e.hands["B"]) == 11 and len(e.hands["A"]) == 10
    assert e.to_act() == ["B"]
    assert e.legal_actions("B")[0] == {"action": "discard", "cards": e.hands["B"]}
    with refused("not_your_turn", IllegalAction):
        e.act("A", "draw", source="stock")
    e.act("B", "discard", card="Kd")
    assert e.to_act() == ["A"] and e.legal_actions("A") == [{"action": "draw", "sources": ["stock", "discard"]}]


def test_knock_scores_difference_after_lay_offs():
    """"il pose sur la table huit ou neuf cartes formant des combinaisons, le
    total des points de la ou des deux cartes restantes étant inférieur à la
    valeur de la carte retournée"; "le gagnant a un brelan de 8 ; le perdant peut
    mettre le quatrième 8 à côté"; "il marque la différence"."""
    e = deal(B_MELDS + ["2d", "Kd"], A_LOOSE, turned="9h")
    assert {"action": "knock", "cards": ["Kd"]} in e.legal_actions("B")
    e.act("B", "knock", card="Kd")
    s = e.result()["scoring"]
    assert s["knocker_points"] == 2
    laid = sorted(c for lo in s["layoffs"] for c in lo["cards"])
    assert laid == ["3s", "8s"]
    assert s["opponent_points"] == 9 + 10 + 10 + 5 + 6 + 7 + 15 + 10 == 72
    assert s["winner"] == "B" and s["points"] == 70 and s["cocottes"] == 1
    carry = e.result()["carry"]
    assert carry["points"]["B"] == [70, 0, 0] and carry["cocottes"]["B"] == 1


def test_knock_limits():
    """"inférieur à la valeur de la carte retournée" and "Si c'est un as ou un 2,
    il faut faire gin pour gagner le coup"."""
    e = deal(B_MELDS + ["9d", "Kd"], A_LOOSE, turned="9h")
    with refused("knock_limit", IllegalAction):
        e.act("B", "knock", card="Kd")  # keeps 9d: 9 is not less than 9
    assert all(a["action"] != "knock" for a in e.legal_actions("B"))
    e = deal(B_MELDS + ["7c", "Kd"], A_LOOSE, turned="9h")
    e.act("B", "knock", card="Kd")  # keeps 7c: 7 < 9
    assert e.result()["scoring"]["knocker_points"] == 7
    for turned in ("Ad", "2c"):
        e = deal(B_MELDS + ["2d", "Kd"], A_LOOSE, turned=turned)
        assert all(a["action"] != "knock" for a in e.legal_actions("B"))
        with refused("only_gin_wins", IllegalAction):
            e.act("B", "knock", card="Kd")


def test_knock_needs_eight_or_nine_cards_in_melds():
    """"il pose sur la table huit ou neuf cartes formant des combinaisons": three
    small cards left over are no knock, whatever their total."""
    low = ["8c", "8d", "8h", "4s", "5s", "6s", "2c", "2d", "3h", "Kd", "Kc"]
    e = deal(low, A_LOOSE[1:] + ["Ks"], turned="Th")
    with refused("knock_limit", IllegalAction):
        e.act("B", "knock", card="Kd")  # K,2,2,3 left: 4 cards


def test_undercut_and_tie():
    """"si son adversaire a moins de points que lui, c'est l'adversaire qui marque
    la différence ... plus 20 points de pénalité. En cas d'égalité des points,
    l'adversaire marque 20 points de pénalité.\""""
    knocker = ["8c", "8d", "8h", "8s", "4s", "5s", "6s", "7s", "3d", "5c", "Kd"]  # keeps 3 + 5 = 8 < 9
    under = ["9c", "9d", "9s", "Tc", "Jc", "Qc", "2h", "3h", "4h", "2s"]  # 2 left
    e = deal(knocker, under)
    e.act("B", "knock", card="Kd")
    s = e.result()["scoring"]
    assert (s["winner"], s["points"], s["undercut"]) == ("A", 8 - 2 + 20, True)
    tie = ["9c", "9d", "9s", "Tc", "Jc", "Qc", "Kc", "2h", "4d", "2s"]  # 8 left
    e = deal(knocker, tie)
    e.act("B", "knock", card="Kd")
    s = e.result()["scoring"]
    assert (s["winner"], s["points"], s["tie"], s["cocottes"]) == ("A", 20, True, 1)


def test_petit_gin_grand_gin_and_spades():
    """"petit gin ... il marque les points de son adversaire plus 25 points de
    petit gin, et deux cocottes"; "grand gin ... plus 50 points de grand gin, et
    quatre cocottes"; "Lorsque ♠ est la couleur de la carte retournée de l'autre
    jeu, la marque est doublée"; no lay-off against gin."""
    petit = B_MELDS + ["Ah", "Kd"]
    e = deal(petit, A_LOOSE)
    e.act("B", "gin", card="Kd")
    s = e.result()["scoring"]
    assert s["ending"] == "petit gin" and s["opponent_points"] == 8 + 3 + 72 == 83
    assert (s["points"], s["cocottes"]) == (83 + 25, 2)
    e = deal(petit, A_LOOSE, turned="9s")
    e.act("B", "gin", card="Kd")
    s = e.result()["scoring"]
    assert (s["points"], s["cocottes"], s["factor"]) == (2 * 108, 4, 2)
    grand = B_MELDS + ["Ah", "7s"]
    e = deal(grand, A_LOOSE)
    gin_offer = [a for a in e.legal_actions("B") if a["action"] == "gin"]
    assert gin_offer and gin_offer[0]["grand"] is True
    e.act("B", "gin")
    s = e.result()["scoring"]
    assert s["ending"] == "grand gin" and (s["points"], s["cocottes"]) == (83 + 50, 4)
    with refused("gin_needs_all", IllegalAction):
        deal(B_MELDS + ["2d", "Kd"], A_LOOSE).act("B", "gin", card="Kd")


def test_ace_with_two_or_king_worth_fifteen():
    """"L'as peut suivre le 2 comme le roi ... l'as, qui vaut 15"; RULES.md: "Ace
    goes with the 2 or the king (not around the corner) and is worth 15". The
    source's garbled example ("3♥, 2♥, A♥, R♥ et D♥ constituant par exemple une
    quinte") would turn the corner; RULES.md, which is the law, rules it out."""
    assert min_deadwood(["Ah", "2h", "3h"], gin.RULES) == 0
    assert min_deadwood(["Qh", "Kh", "Ah"], gin.RULES) == 0
    assert min_deadwood(["Kh", "Ah", "2h"], gin.RULES) == 10 + 15 + 2
    # the source's quinte: only A-2-3 or Q-K-A of it can meld (best: Q-K-A, 3 + 2 left)
    assert min_deadwood(["3h", "2h", "Ah", "Kh", "Qh"], gin.RULES) == 3 + 2


def test_cannot_throw_back_the_discard_taken():
    """A card taken from the discard pile is not thrown back at once."""
    e = deal(B_MELDS + ["2d", "Kd"], A_LOOSE)
    e.act("B", "discard", card="Kd")
    e.act("A", "draw", source="discard")
    with refused("discard_another", IllegalAction):
        e.act("A", "discard", card="Kd")
    before = e.view("A")
    with refused("cards_not_in_hand", IllegalAction):
        e.act("A", "discard", card="Ks")
    assert e.view("A") == before  # an illegal move leaves the state untouched


def test_view_hides_the_other_hand_and_the_stock():
    e = deal(B_MELDS + ["2d", "Kd"], A_LOOSE)
    v = e.view("A")
    assert v["hand"] == e.hands["A"]
    assert v["stock"] == 31 and v["turned"] == "9h" and v["knock_limit"] == 9
    shown = json.dumps({k: x for k, x in v.items() if k != "turned"})
    for c in e.hands["B"] + e.stock:
        assert f'"{c}"' not in shown  # neither B's cards nor the stock order
    spectator = json.dumps(e.view(None))
    assert all(f'"{c}"' not in spectator for c in e.hands["A"] + e.hands["B"] if c != "9h")


def test_record_and_replay():
    e = deal(B_MELDS + ["2d", "Kd"], A_LOOSE, stock=["3c"], unit=2, scoring="deal")
    e.act("B", "discard", card="2d")
    e.act("A", "draw", source="discard")
    e.act("A", "discard", card="Ac")
    e.act("B", "draw", source="stock")
    assert e.hands["B"][-1] == "3c"
    e.act("B", "knock", card="Kd")
    rec = e.record()
    assert rec["game"] == "gin" and len(rec["deck"]) == 104 and rec["reshuffles"] == []
    out = gin.replay(rec)
    assert out["finished"] and out["chips"] == e.result()["chips"]
    # deal scoring: the loser pays (points + 25 per cocotte) x unit
    s = e.result()["scoring"]
    assert e.result()["delta"][s["winner"]] == (s["points"] + 25 * s["cocottes"]) * 2


# ---------------------------------------------------------------- the match


# The source's sheet, column by column ("les points des coups ... ajoutés aux
# points acquis au cours des coups précédents").
SHEET = [
    # column 1: André 90 101 229 261, Bernard 41 78
    ("A", 90), ("B", 41), ("A", 11), ("B", 37), ("A", 128), ("A", 32),
    # column 2: André 11 128 160 172, Bernard 17 150 258
    ("A", 11), ("B", 17), ("A", 117), ("B", 133), ("A", 32), ("A", 12), ("B", 108),
    # column 3: André 117 149 161 197 251, Bernard 33 108
    ("A", 117), ("B", 33), ("A", 32), ("B", 75), ("A", 12), ("A", 36), ("A", 54),
]


def test_source_match_sheet():
    """RULES.md: "André 261 + 172 + 251 = 684, 14 cocottes = 350, bonuses 300 →
    1,334; Bernard 78 + 258 + 108 = 444, 12 cocottes = 300, bonus 100 → 844;
    André wins by 490"."""
    sheet = gin.MatchSheet.new(["A", "B"])
    # 13 deals for André, 14 cocottes (one petit gin); 7 for Bernard, 12 cocottes
    coc = {"A": iter([2] + [1] * 12), "B": iter([1, 2, 2, 1, 4, 1, 1])}
    for who, pts in SHEET:
        assert not sheet.over
        sheet.add(who, pts, next(coc[who]))
    assert sheet.over
    assert sheet.points == {"A": [261, 172, 251], "B": [78, 258, 108]}
    assert sheet.first == ["A", "B", "A"]
    totals = [line["total"] for line in sheet.lines if line["player"] == "A"]
    assert totals == [90, 101, 229, 261, 11, 128, 160, 172, 117, 149, 161, 197, 251]
    count = sheet.final_count()
    assert count["A"] == {"columns": 684, "cocottes": 14, "cocotte_points": 350, "bonus": 300, "total": 1334}
    assert count["B"] == {"columns": 444, "cocottes": 12, "cocotte_points": 300, "bonus": 100, "total": 844}
    assert count["A"]["total"] - count["B"]["total"] == 490


def test_shutout_bonus():
    """"100 points par colonne où, au cours de la manche, l'adversaire n'a marqué
    aucun point"."""
    sheet = gin.MatchSheet.new(["A", "B"], target=100, ncols=1)
    sheet.add("A", 120, 1)
    count = sheet.final_count()
    # 120 + 25 + 100 (first to the target) + 100 (shutout) + 100 (last column)
    assert count["A"]["total"] == 445 and count["B"]["total"] == 0


def test_match_carries_between_deals_and_pays_at_the_end():
    """The sheet is carried from deal to deal (``result()["carry"]``), shown in
    the view, and the loser of the match pays the difference × unit — deal
    by deal (issue 11 §9): what each deal changes in the count is paid at once."""
    cfg = {"unit": 1, "column_target": 60, "columns": 1}
    carry = None
    for _ in range(2):
        e = gin.new_deal(cfg, SEATS, 0, deck=gin_deck(B_MELDS + ["2d", "Kd"], A_LOOSE), carry=carry)
        assert e.view("A")["sheet"] == (carry or gin.MatchSheet.new(["A", "B"], 60, 1).as_data())
        e.act("B", "knock", card="Kd")
        carry = e.result()["carry"]
        if carry is None:
            break
    r = e.result()
    m = r["scoring"]["match"]
    # one column to 60: B scores 70 in one deal: 70 + 25 + 100 + 100 (shutout) + 100 = 395
    assert m["winner"] == "B" and m["margin"] == 395
    assert r["delta"] == {"A": -395, "B": 395}
    assert carry is None  # the next deal starts a new match


def test_a_match_is_paid_deal_by_deal_and_nothing_vanishes():
    """Issue 11 §9: "today Gin chips move only at the end of a three-column
    match, so when a player leaves mid-match ... the deal's 51 points vanish".
    Every deal pays what it changes in the final count as it stands; the
    payments add up to the match's margin."""
    cfg = {"unit": 2, "column_target": 100, "columns": 2}
    carry, paid, deals = None, {"A": 0, "B": 0}, 0
    while True:
        e = gin.new_deal(cfg, SEATS, 0, deck=gin_deck(B_MELDS + ["2d", "Kd"], A_LOOSE), carry=carry)
        e.act("B", "knock", card="Kd")
        r = e.result()
        deals += 1
        for p, d in r["delta"].items():
            paid[p] += d
        sheet = gin.MatchSheet.from_carry(r["carry"], ["A", "B"], gin.GinConfig(**cfg)) if r["carry"] else None
        if deals == 1:
            # B's 70 points and his cocotte, paid at once: (70 + 25) × 2 — a
            # player leaving now has paid what the sheet says he owes.
            assert r["delta"] == {"A": -190, "B": 190} and r["scoring"]["match_change"]["B"] == 95
            assert sheet is not None and sheet.margin("B", "A") * 2 == paid["B"]
        carry = r["carry"]
        if carry is None:
            break
        assert deals < 10
    margin = r["scoring"]["match"]["margin"]
    assert r["scoring"]["match"]["winner"] == "B"
    assert paid == {"A": -margin * 2, "B": margin * 2}, (paid, margin)


# ---------------------------------------------------------------- properties


def _play_deal(rng: random.Random, seats, button, carry=None, config=None):
    """A legal player: mostly knocks or gins when offered, else the engine's own
    timeout move or a random legal move. Checks that every card is in exactly
    one place after every action."""
    e = gin.new_deal(config or {"unit": 3}, seats, button, rng=SeededSource(rng), carry=carry)
    playing = Counter(e.deck[:52])
    steps = 0
    while not e.over:
        p = e.to_act()[0]
        la = {a["action"]: a for a in e.legal_actions(p)}
        if "gin" in la and rng.random() < 0.9:
            g = la["gin"]
            e.act(p, "gin") if g["grand"] and not g["cards"] else e.act(p, "gin", card=rng.choice(g["cards"]))
        elif "knock" in la and rng.random() < 0.8:
            e.act(p, "knock", card=rng.choice(la["knock"]["cards"]))
        elif rng.random() < 0.6:
            move = e.timeout_action(p)
            assert any(a["action"] == move["action"] for a in la.values())
            e.act(p, **move)
        elif "draw" in la:
            e.act(p, "draw", source=rng.choice(la["draw"]["sources"]))
        else:
            e.act(p, "discard", card=rng.choice(la["discard"]["cards"]))
        where = Counter(e.hands["A"]) + Counter(e.hands["B"]) + Counter(e.stock) + Counter(e.discards)
        assert where == playing  # every card in exactly one place
        steps += 1
        assert steps < 200
    return e


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.sampled_from(["match", "deal"]))
def test_random_play_ends_and_conserves(seed, scoring):
    """Random legal play always ends, deal after deal of a match; every card is
    in one place; chips are conserved and never negative; records replay."""
    rng = random.Random(seed)
    seats = [{"player": "A", "chips": 5000}, {"player": "B", "chips": 5000}]
    config = {"unit": 3, "scoring": scoring, "column_target": 40, "columns": 2}
    carry = None
    match_paid = {"A": 0, "B": 0}  # what this match has moved so far, deal by deal
    for n in range(12):
        e = _play_deal(rng, seats, n % 2, carry, config)
        r = e.result()
        assert sum(r["delta"].values()) == 0
        assert all(v >= 0 for v in r["chips"].values())
        assert gin.replay(e.record())["chips"] == r["chips"]
        for p, d in r["delta"].items():
            match_paid[p] += d
        if scoring == "match" and e.sheet.over:
            # The deals' payments add up to the match's margin (5,000 chips
            # each: nobody runs short of what he owes).
            m = r["scoring"]["match"]
            if "winner" in m:
                assert match_paid[m["winner"]] == m["margin"] * 3, (match_paid, m)
            else:
                assert match_paid == {"A": 0, "B": 0}
            match_paid = {"A": 0, "B": 0}
        json.dumps([e.view("A"), e.view("B"), e.view(None), e.record()])  # all JSON-ready
        seats = [{"player": p, "chips": r["chips"][p]} for p in ("A", "B")]
        carry = json.loads(json.dumps(r["carry"]))  # the table may store it as JSON
    assert sum(s["chips"] for s in seats) == 10000


def test_lay_offs_chain_on_a_run_and_keep_own_melds():
    """"en cherchant à mettre ses cartes restantes sur les combinaisons du
    gagnant": 9♥ then 10♥ go on 6-7-8♥; a card of the loser's own meld is
    laid off only when that lowers his count."""
    knocker = [classify(["6h", "7h", "8h"], gin.RULES), classify(["Kc", "Kd", "Ks"], gin.RULES)]
    hand = ["9h", "Th", "2c", "3c", "4c", "Kh", "5d", "9s", "Jd", "Qd"]
    layoffs, rest = gin.lay_off(hand, knocker)
    laid = {lo["meld"]: sorted(lo["cards"]) for lo in layoffs}
    assert laid == {0: ["9h", "Th"], 1: ["Kh"]}
    assert [m.cards for m in rest.melds] == [("2c", "3c", "4c")]
    assert rest.points == 5 + 9 + 10 + 10


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_legal_actions_say_exactly_what_is_accepted(seed):
    """``legal_actions`` "says exactly what that player may do now": every card
    offered for a discard, a knock or a gin is accepted, every other refused
    (tried on copies of the deal)."""
    import copy

    rng = random.Random(seed)
    tried = Counter()
    for n in range(4):
        e = gin.new_deal({}, SEATS, n % 2, rng=SeededSource(rng))
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
                for action in ("discard", "knock", "gin"):
                    allowed = offered.get(action, {}).get("cards", [])
                    for c in dict.fromkeys(e.hands[p]):
                        try:
                            copy.deepcopy(e).act(p, action, card=c)
                            assert c in allowed, (action, c)
                            tried[action] += 1
                        except IllegalAction:
                            assert c not in allowed, (action, c)
                grand = offered.get("gin", {}).get("grand", False)
                try:
                    copy.deepcopy(e).act(p, "gin")
                    assert grand
                except IllegalAction:
                    assert not grand
            _step(e, rng)
    assert tried["discard"] and tried["knock"] + tried["gin"], tried


def _step(e, rng):
    """One move of the property player above (knocks and gins when it can)."""
    p = e.to_act()[0]
    la = {a["action"]: a for a in e.legal_actions(p)}
    if "gin" in la:
        g = la["gin"]
        e.act(p, "gin") if g["grand"] else e.act(p, "gin", card=g["cards"][0])
    elif "knock" in la:
        e.act(p, "knock", card=la["knock"]["cards"][0])
    else:
        e.act(p, **e.timeout_action(p))


def test_three_small_cards_are_no_knock():
    """"huit ou neuf cartes formant des combinaisons": 7 cards in melds and 2 + 3
    + 4 = 9 left over is no knock, even under a 10."""
    hand = ["8c", "8d", "8h", "Js", "Qs", "Ks", "As", "2c", "3d", "4h"]
    assert min_deadwood(hand, gin.RULES) == 9
    assert gin.knock_arrangement(hand, 10) is None
    e = deal(hand + ["Kd"], A_LOOSE[1:] + ["9s"], turned="Th")
    assert all(a["action"] != "knock" for a in e.legal_actions("B"))
    with refused("knock_limit", IllegalAction):
        e.act("B", "knock", card="Kd")


# The knocker's 7s fits the set of sevens or the spade run: the same
# deadwood (2c 3d = 5) either way, but a run from the 7s lets the opponent
# lay off his 5s and 6s, the set of four sevens does not.
KNOCKER = ["7c", "7d", "7h", "7s", "8s", "9s", "Ts", "Js", "2c", "3d", "Kd"]
LOSER = ["6s", "5s", "Qd", "Kc", "Jh", "9c", "Td", "4h", "2h", "Ac"]  # no meld: 81 points


def test_equal_knocks_differ_in_lay_offs() -> None:
    cards = [c for c in KNOCKER if c != "Kd"]
    shapes = {tuple(sorted(len(m.cards) for m in a.melds)) for a in gin.knock_arrangements(cards, 9)}
    assert shapes == {(3, 5), (4, 4)}
    assert all(a.points == 5 for a in gin.knock_arrangements(cards, 9))


def test_the_knocker_shows_what_is_best_for_him_by_default() -> None:
    """RULES.md (Gin): "8 or 9 cards in melds ... the opponent then lays off on
    the knocker's melds ... the knocker scores the difference of deadwood".
    Which melds he shows is his: left to the table, the least deadwood, then
    the melds that leave the opponent the most points."""
    e = deal(KNOCKER, LOSER)
    e.act("B", "knock", card="Kd")
    s = e.result()["scoring"]
    assert sorted(map(sorted, s["melds"])) == [["7c", "7d", "7h", "7s"], ["8s", "9s", "Js", "Ts"]]
    assert s["layoffs"] == [] and s["opponent_points"] == 81
    assert s["points"] == 81 - 5
    # The record keeps the melds shown: the replay shows the same.
    record = e.record()
    assert record["actions"][-1]["melds"] == s["melds"]
    assert gin.replay(json.loads(json.dumps(record)))["scoring"]["opponent_points"] == 81


def test_the_knocker_may_choose_his_melds() -> None:
    e = deal(KNOCKER, LOSER)
    e.act("B", "knock", card="Kd", melds=[["7c", "7d", "7h"], ["7s", "8s", "9s", "Ts", "Js"]])
    s = e.result()["scoring"]
    assert s["layoffs"] and sorted(c for x in s["layoffs"] for c in x["cards"]) == ["5s", "6s"]
    assert s["opponent_points"] == 81 - 11 and s["points"] == 70 - 5
    assert gin.replay(e.record())["scoring"]["points"] == 65


@pytest.mark.parametrize("shown,why", [
    ([["7c", "7d", "7h"], ["8s", "9s", "Ts"]], "knock_limit"),       # 7s Js 2c 3d left
    ([["7c", "7d", "Kd"]], "knock_card_not_kept"),               # the discard
    ([["7c", "7d", "7h"], ["7c", "8s", "9s"]], "knock_card_not_kept"),               # a card twice
    ([["7c", "8s", "2c"]], "meld_set_or_run"),                                           # not a meld
    ("7c 7d 7h", "knock_melds_shape"),
])
def test_a_bad_choice_of_melds_is_refused_and_changes_nothing(shown, why) -> None:
    e = deal(KNOCKER, LOSER)
    before = json.dumps(e.view("B"))
    with refused(why, IllegalAction):
        e.act("B", "knock", card="Kd", melds=shown)
    assert json.dumps(e.view("B")) == before and not e.over
