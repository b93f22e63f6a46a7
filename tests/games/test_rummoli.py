"""Rummoli (RULES.md "Rummoli", rules/rummoli.fr.md).

Most tests deal an explicit deck built by :func:`deck_for` from the hands we
want, so that every rule is seen at work in a real deal. The property tests
at the end play random legal deals, many in a row, with the board carried
from one to the next.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.refusals import refused

from tavern import cli
from tavern.cards import SeededSource, deck52
from tavern.catalogue import MESSAGES
from tavern.games import registry, rummoli
from tavern.games.base import IllegalAction

# ------------------------------------------------------------------ helpers


def deck_for(rotation_hands: list[list[str]], widow: list[str]) -> list[str]:
    """The deck order that deals these hands one card at a time: the players
    from the dealer's left (dealer last), then the widow, round after round."""
    hands = [*rotation_hands, widow]
    deck: list[str] = []
    for k in range(max(map(len, hands))):
        for h in hands:
            if k < len(h):
                deck.append(h[k])
    assert sorted(deck) == sorted(deck52()), "the test hands must use the 52 cards once"
    return deck


def seats(chips: int | dict[str, int] = 50, names: str = "ABC") -> list[dict]:
    if isinstance(chips, int):
        chips = {p: chips for p in names}
    return [{"player": p, "chips": chips[p]} for p in names]


def run(deal, script):
    events = []
    for player, action, args in script:
        events += deal.act(player, action, **args)
    return events


def finish_greedily(deal) -> list[dict]:
    """Play the rest of the Rummoli phase: the longest run when a card is
    called, the first lead offered otherwise."""
    events = []
    while not deal.over:
        p = deal.to_act()[0]
        legal = deal.legal_actions(p)
        a = legal[-1] if legal[0]["action"] == "play" else legal[0]
        events += deal.act(p, a["action"], **{k: v for k, v in a.items() if k != "action"})
    return events


def snapshot(deal) -> str:
    return json.dumps(
        [deal.view(None)] + [deal.view(p) for p in deal.players] + [deal.record(), deal.chips, deal.board],
        sort_keys=True,
    )


def card_text(view: dict) -> str:
    """A view as JSON, less the board whose section ids ("Ts", "Qc") look like cards."""
    return json.dumps({k: v for k, v in view.items() if k not in ("board", "pay_sections")})


def h(text: str) -> list[str]:
    return text.split()


# Scenario S1: C deals; rotation A, B, C, widow. A holds a straight flush in
# clubs, B four sevens, C a full house. Every high diamond, heart and spade
# is in the widow.
S1 = {
    "A": h("2c 3c 4c 5c 6c Ac 2d 3d 4d 2h 3h 2s 3s"),
    "B": h("7c 8c 9c 5d 6d 7d 5h 6h 7h 4s 5s 6s 7s"),
    "C": h("Tc Jc Qc Kc 8d 9d 8h 9h 8s 9s Ts Js 4h"),
    "W": h("Td Jd Qd Kd Ad Th Jh Qh Kh Ah Qs Ks As"),
}
S1_DECK = deck_for([S1["A"], S1["B"], S1["C"]], S1["W"])
DEAD_WIDOW = [("C", "keep", {}), ("A", "pass", {}), ("B", "pass", {})]

# Scenario S2 (deadlock): every heart in the widow; A holds the diamonds 2-K.
S2 = {
    "A": h("2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd 2c"),
    "B": h("3c 5c 7c 9c Jc Kc 2s 4s 6s 8s Ts Qs As"),
    "C": h("Ad 4c 6c 8c Tc Qc Ac 3s 5s 7s 9s Js Ks"),
    "W": [r + "h" for r in "23456789TJQKA"],
}
S2_DECK = deck_for([S2["A"], S2["B"], S2["C"]], S2["W"])

# Scenario S3 (a restart passes left): A deals; rotation B, C, A, widow.
S3 = {
    "B": h("7s 8s 9s Ts Js Qs Ks 2h 3h 4h 5h 6h 2c"),
    "C": h("2d 3d 5d 7d 9d Jd Kd 3c 5c 7c 9c Jc Kc"),
    "A": h("4d 6d 8d Td Qd Ad 4c 6c 8c Tc Qc Ac 2s"),
    "W": h("7h As 8h 9h Th Jh Qh Kh Ah 3s 4s 5s 6s"),
}
S3_DECK = deck_for([S3["B"], S3["C"], S3["A"]], S3["W"])


def s1(config=None, chips=50, carry=None):
    return rummoli.new_deal(config or {}, seats(chips), 2, deck=S1_DECK, carry=carry)


# ------------------------------------------------------------ the board


def test_board_of_nine_sections_and_one_ante_each():
    """RULES.md: "a board of 9 sections: the Rummoli pot (centre), the poker
    pot and 7 pay sections ... At each deal every player antes 1 chip on each
    of the 9 sections"."""
    deal = s1()
    assert list(deal.board) == ["rummoli", "poker", "Ts", "Jd", "Qc", "Kh", "As", "KdAd", "789"]
    assert all(v == 3 for v in deal.board.values())
    assert deal.chips == {"A": 41, "B": 41, "C": 41}
    labels = [s["label"] for s in deal.view(None)["pay_sections"]]
    assert labels == ["10♠", "J♦", "Q♣", "K♥", "A♠", "K♦+A♦", "7-8-9"]


def test_unwon_chips_stay_and_accumulate_through_the_carry():
    """RULES.md: "unwon chips stay and accumulate"; the source: "Les jetons qui
    n'ont pas été remportés à la fin d'un tour continuent de s'accumuler de
    tour en tour jusqu'à ce qu'ils soient gagnés"."""
    deal = s1()
    run(deal, DEAD_WIDOW)
    finish_greedily(deal)
    res = deal.result()
    carry = res["carry"]
    # J♦, K♥, A♠ and K♦+A♦ are all in the dead widow: nobody could win them.
    assert {k: carry["board"][k] for k in ("Jd", "Kh", "As", "KdAd")} == {"Jd": 3, "Kh": 3, "As": 3, "KdAd": 3}
    nxt = rummoli.new_deal({}, seats(res["chips"]), 0, rng=SeededSource(random.Random(5)), carry=carry)
    assert nxt.board["Jd"] == 6 and nxt.board["poker"] == 3
    assert nxt.record()["carry"] == carry  # the record keeps what the deal started from


def test_owner_may_edit_the_pay_sections():
    """RULES.md: "Standard pay sections (the usual board) ... (the owner may
    edit the list)"."""
    config = {"pay_sections": [{"id": "2c", "label": "2♣", "cards": ["2c"]}, {"id": "56", "ranks": "56"}]}
    deal = s1(config)
    assert list(deal.board) == ["rummoli", "poker", "2c", "56"]
    assert deal.chips["A"] == 50 - 4
    events = run(deal, DEAD_WIDOW + [("A", "lead", {"card": "2c"}), ("A", "play", {"cards": h("3c 4c 5c 6c")})])
    wins = [(e["section"], e["player"]) for e in events if e["event"] == "win"]
    assert ("2c", "A") in wins and ("56", "A") in wins


def test_removed_section_chips_move_to_the_rummoli_pot():
    """Money never appears or disappears (ARCHITECTURE.md): chips carried on a
    section the owner has since removed go to the Rummoli pot."""
    deal = s1({"pay_sections": [{"id": "Ts", "cards": ["Ts"]}]}, carry={"board": {"rummoli": 1, "789": 10}})
    assert deal.board["rummoli"] == 1 + 10 + 3
    assert {"event": "section_removed", "section": "789", "amount": 10, "to": "rummoli"} in deal.log


@pytest.mark.parametrize(
    "config",
    [
        {"pay_sections": [{"id": "x", "cards": ["Ts"], "ranks": "78"}]},
        {"pay_sections": [{"id": "x", "cards": ["X1"]}]},
        {"pay_sections": [{"id": "rummoli", "cards": ["Ts"]}]},
        {"pay_sections": [{"id": "a", "cards": ["Ts"]}, {"id": "a", "cards": ["Js"]}]},
        {"poker_method": 3},
        {"unit": 0},
        {"nonsense": 1},
    ],
)
def test_bad_options_are_refused(config):
    """The owner's options are validated: a pay section is cards or ranks, a
    pot's name is not a section's, two methods of poker, a positive unit."""
    with pytest.raises(IllegalAction) as info:
        rummoli.new_deal(config, seats(), 0)
    # The option is named by its path in the config, the problem by a code the catalogue says in French.
    assert info.value.params["field"].startswith("config.")
    assert info.value.code in MESSAGES and info.value.code not in ("invalid", "value_error"), info.value.code


@pytest.mark.parametrize("n", [2, 9])
def test_three_to_eight_players(n):
    """RULES.md: "3–8 players, 52 cards"."""
    with refused("players_range", IllegalAction):
        rummoli.new_deal({}, seats(10, "ABCDEFGHI"[:n]), 0)


def test_a_short_stack_antes_what_he_has_in_board_order():
    """Ruling (docs/games/rummoli.md): a player who cannot pay pays what he has."""
    deal = s1(chips={"A": 4, "B": 50, "C": 50})
    assert deal.chips["A"] == 0
    assert deal.board["rummoli"] == deal.board["poker"] == deal.board["Ts"] == deal.board["Jd"] == 3
    assert deal.board["Qc"] == 2


# ------------------------------------------------------- dealing, widow


def test_all_cards_dealt_one_at_a_time_to_players_and_widow():
    """RULES.md: "All cards are dealt one at a time to the players and a
    widow; hands may differ in size"."""
    order = rummoli.deck_composition({}, 4)
    deal = rummoli.new_deal({}, seats(20, "ABCD"), 1, deck=order)  # B deals: C, D, A, B, widow
    assert deal.hands["C"][:2] == [order[0], order[5]]
    assert deal.hands["B"][0] == order[3] and deal.widow[0] == order[4]
    assert {p: len(c) for p, c in deal.hands.items()} == {"C": 11, "D": 11, "A": 10, "B": 10}
    assert len(deal.widow) == 10


def test_dealer_may_exchange_his_hand_for_the_widow():
    """RULES.md: "The dealer may exchange his hand for the widow"."""
    deal = s1()
    assert deal.to_act() == ["C"] and deal.legal_actions("C") == [{"action": "exchange"}, {"action": "keep"}]
    deal.act("C", "exchange")
    assert sorted(deal.hands["C"]) == sorted(S1["W"])
    assert sorted(deal.dead) == sorted(S1["C"])
    # C now holds royal flushes: he wins the poker pot and leads.
    assert deal.poker_winners == ["C"] and deal.to_act() == ["C"]
    for p in "ABC":
        text = card_text(deal.view(p))
        assert not any(f'"{c}"' in text for c in S1["C"]), "the dead hand stays hidden"


def test_widow_auction_highest_bid_paid_to_dealer_old_hand_dead():
    """RULES.md: "if he does not, the widow is auctioned (the winning bid goes
    to the dealer, the winner must take it, his old hand is dead and stays
    hidden)"."""
    deal = s1()
    run(deal, [("C", "keep", {}), ("A", "bid", {"amount": 2}), ("B", "bid", {"amount": 3})])
    assert deal.legal_actions("A") == [{"action": "bid", "min": 4, "max": 41}, {"action": "pass"}]
    run(deal, [("A", "bid", {"amount": 5}), ("B", "pass", {})])
    assert deal.widow_holder == "A" and sorted(deal.hands["A"]) == sorted(S1["W"])
    assert sorted(deal.dead) == sorted(S1["A"])
    # A paid 5 to the dealer, then his new royal flushes won the poker pot (3).
    assert deal.chips == {"A": 41 - 5 + 3, "B": 41, "C": 41 + 5}
    others = card_text(deal.view(None)) + card_text(deal.view("B")) + card_text(deal.view("C"))
    assert not any(f'"{c}"' in others for c in S1["A"])
    assert {"event": "widow_sold", "player": "A", "amount": 5, "to": "C"} in deal.log


def test_auction_winner_must_take_the_widow():
    """Source: "La veuve doit être acceptée par celui qui l'a remportée, même
    si elle est moins intéressante que la main qui lui avait été distribuée."
    Once the last rival passes, the widow is the buyer's hand: no choice is
    offered, the deal goes on to the poker."""
    deal = rummoli.new_deal({}, seats(50), 0, deck=S3_DECK)
    run(deal, [("A", "keep", {}), ("B", "bid", {"amount": 1}), ("C", "pass", {})])
    assert sorted(deal.hands["B"]) == sorted(S3["W"]) and sorted(deal.dead) == sorted(S3["B"])
    assert deal.phase == "rummoli" and deal.poker_winners == ["B"]  # the widow holds a royal flush
    assert deal.chips == {"A": 41 + 1, "B": 41 - 1 + 3, "C": 41}


def test_nobody_wants_the_widow_it_is_dead():
    """RULES.md: "Nobody wants it: the widow is dead." Source: "elle est morte
    et reste cachée jusqu'à la prochaine donne"."""
    deal = s1()
    run(deal, DEAD_WIDOW)
    assert deal.widow_status == "dead" and sorted(deal.dead) == sorted(S1["W"])
    assert deal.view(None)["widow"] == {"status": "dead", "cards": 0, "holder": None}
    assert deal.view(None)["dead_cards"] == 13


def test_auction_refusals_leave_the_state_untouched():
    """Source: "Le joueur qui offre la plus grande valeur en jetons remporte
    l'enchère": a bid must beat the last one and be paid from one's chips."""
    deal = s1()
    deal.act("C", "keep")
    deal.act("A", "bid", amount=3)
    before = snapshot(deal)
    for player, action, args, rule in [
        ("B", "bid", {"amount": 3}, "bid_too_small"),
        ("B", "bid", {"amount": 42}, "more_than_stack"),
        ("B", "bid", {"amount": "4"}, "amount_whole_chips"),
        ("A", "pass", {}, "not_your_turn"),
        ("C", "bid", {"amount": 9}, "not_your_turn"),
        ("B", "lead", {"card": "7c"}, "rummoli_auction_actions"),
    ]:
        with refused(rule, IllegalAction):
            deal.act(player, action, **args)
        assert snapshot(deal) == before


# --------------------------------------------------------------- poker


def test_method_1_best_hand_shown_wins_the_poker_pot():
    """RULES.md: "Method 1 (default): hands are shown and the best wins the
    poker pot." """
    deal = s1(carry={"board": {"poker": 7}})
    events = run(deal, DEAD_WIDOW)
    shows = {e["player"]: e["hand"] for e in events if e["event"] == "show"}
    assert shows == {"A": "straight_flush", "B": "four_of_a_kind", "C": "full_house"}
    assert deal.shown["A"] == h("6c 5c 4c 3c 2c")
    assert {"event": "win", "section": "poker", "player": "A", "amount": 10} in events
    assert deal.board["poker"] == 0 and deal.chips["A"] == 41 + 10


def test_method_1_equal_hands_split_odd_chip_to_first_left_of_dealer():
    """Ruling: equal hands split the poker pot, the odd chips to the first
    winner left of the dealer (as RULES.md rules for poker: "Odd chips of a
    split go to the first winner left of the button"); he also leads."""
    a = h("Tc Jc Qc Kc Ac 2c 3c 4c 5c 6c 7c 8c 9c")
    b = h("Ts Js Qs Ks As 2s 3s 4s 5s 6s 7s 8s 9s")
    c = h("2d 4d 6d 8d Td Qd Ad 2h 4h 6h 8h Th Qh")
    w = h("3d 5d 7d 9d Jd Kd 3h 5h 7h 9h Jh Kh Ah")
    deal = rummoli.new_deal({}, seats(50), 2, deck=deck_for([a, b, c], w), carry={"board": {"poker": 2}})
    run(deal, DEAD_WIDOW)
    assert deal.poker_winners == ["A", "B"]
    assert deal.chips["A"] == 41 + 3 and deal.chips["B"] == 41 + 2
    assert deal.to_act() == ["A"]


def _method2(**betting):
    return s1({"poker_method": 2, "betting": betting or {"structure": "no-limit", "bet": 2}})


def test_method_2_one_betting_round_best_shown_hand_wins():
    """RULES.md: "Method 2 (option): one betting round into the poker pot; the
    last player standing or the best shown hand wins." Source: "Les joueurs
    éliminés ne peuvent pas remporter la cagnotte, même si leur main s'avère
    plus forte"."""
    deal = _method2()
    run(deal, DEAD_WIDOW)
    assert deal.phase == "betting" and deal.to_act() == ["A"]
    assert deal.view("B")["poker"]["shown"] == {}, "method 2: hands are not shown before the end"
    run(deal, [("A", "check", {}), ("B", "bet", {"amount": 4})])
    assert deal.board["poker"] == 3 + 4 and deal.chips["B"] == 37
    run(deal, [("C", "call", {}), ("A", "fold", {})])
    bets = [e for e in deal.log if e["event"] in ("check", "bet", "call", "fold")]
    assert bets == [
        {"event": "check", "player": "A"},
        {"event": "bet", "player": "B", "amount": 4},
        {"event": "call", "player": "C", "amount": 4},
        {"event": "fold", "player": "A"},
    ]
    # A's straight flush was folded: B's four sevens beat C's full house.
    assert set(deal.shown) == {"B", "C"}
    assert deal.poker_winners == ["B"] and deal.chips["B"] == 37 + 3 + 8
    assert deal.phase == "rummoli" and deal.to_act() == ["B"]
    # The folded player keeps his cards for the Rummoli phase.
    assert len(deal.hands["A"]) == 13
    finish_greedily(deal)
    assert registry.replay(deal.record())["chips"] == deal.result()["chips"]


def test_method_2_last_player_standing_wins_without_showing():
    """RULES.md: "the last player standing ... wins"; uncalled chips go back."""
    deal = _method2()
    run(deal, DEAD_WIDOW + [("A", "bet", {"amount": 10}), ("B", "fold", {}), ("C", "fold", {})])
    assert deal.shown == {} and deal.poker_winners == ["A"]
    assert deal.chips["A"] == 41 + 3
    assert {"event": "uncalled", "player": "A", "amount": 10} in deal.log


def test_method_2_refusals_come_from_the_betting_rules():
    """Source: "Ils misent et enchérissent comme dans une partie de poker
    habituelle": the shared betting rules refuse, the state stays as it was."""
    deal = _method2()
    run(deal, DEAD_WIDOW + [("A", "bet", {"amount": 4})])
    before = snapshot(deal)
    for action, args, rule in [
        ("check", {}, "check_facing_bet"),
        ("raise", {"amount": 5}, "raise_too_small"),
        ("bet", {"amount": 9}, "bet_already_made"),
        ("lead", {"card": "7c"}, "rummoli_betting_actions"),
        ("call", {"amount": 4}, "no_arguments"),
    ]:
        with refused(rule, IllegalAction):
            deal.act("B", action, **args)
        assert snapshot(deal) == before


# ------------------------------------------------------------ the Rummoli


def test_poker_winner_leads_his_lowest_card_of_a_suit():
    """RULES.md: "the poker winner leads his lowest card of any suit"."""
    deal = s1()
    run(deal, DEAD_WIDOW)
    assert deal.to_act() == ["A"]
    assert [a["card"] for a in deal.legal_actions("A")] == h("2c 2d 2h 2s")
    before = snapshot(deal)
    with refused("rummoli_lead_lowest", IllegalAction):
        deal.act("A", "lead", card="3c")
    with refused("card_not_in_hand", IllegalAction):
        deal.act("A", "lead", card="7c")
    with refused("not_your_turn", IllegalAction):
        deal.act("B", "lead", card="4s")
    assert snapshot(deal) == before


def test_sequence_continued_going_left_by_whoever_holds_the_next_card():
    """RULES.md: "and may continue with the next cards of that suit; the
    sequence is continued, going left, by whoever holds the next card"."""
    deal = s1()
    run(deal, DEAD_WIDOW + [("A", "lead", {"card": "2c"})])
    assert deal.to_act() == ["A"]
    assert [a["cards"] for a in deal.legal_actions("A")] == [h("3c"), h("3c 4c"), h("3c 4c 5c"), h("3c 4c 5c 6c")]
    with refused("rummoli_run_starts_with", IllegalAction):
        deal.act("A", "play", cards=["4c"])
    with refused("rummoli_run", IllegalAction):
        deal.act("A", "play", cards=["3c", "5c"])
    deal.act("A", "play", cards=h("3c 4c"))
    assert deal.to_act() == ["A"]
    deal.act("A", "play", cards=h("5c 6c"))
    assert deal.to_act() == ["B"] and deal.legal_actions("A") == []
    deal.act("B", "play", cards=h("7c 8c 9c"))
    assert deal.to_act() == ["C"]


def test_stop_at_the_ace_restart_by_last_player_in_other_colour():
    """RULES.md: "The sequence stops at the ace ...; the last player to play
    restarts with his lowest card in a suit of the other colour
    (hearts/diamonds red, spades/clubs black)"."""
    deal = s1()
    run(deal, DEAD_WIDOW)
    run(deal, [("A", "lead", {"card": "2c"}), ("A", "play", {"cards": h("3c 4c 5c 6c")})])
    run(deal, [("B", "play", {"cards": h("7c 8c 9c")}), ("C", "play", {"cards": h("Tc Jc Qc Kc")})])
    events = deal.act("A", "play", cards=["Ac"])
    assert {"event": "stop", "after": "Ac", "reason": "ace"} in events
    assert deal.to_act() == ["A"] and [a["card"] for a in deal.legal_actions("A")] == ["2d", "2h"]
    before = snapshot(deal)
    with refused("rummoli_other_colour", IllegalAction):
        deal.act("A", "lead", card="2s")
    assert snapshot(deal) == before


def test_stop_when_the_next_card_is_dead():
    """RULES.md: "The sequence stops ... when the next card is dead". Source:
    "lorsque la carte qui devrait être jouée ... est prisonnière de la main morte"."""
    deal = s1()
    run(deal, DEAD_WIDOW + [("A", "lead", {"card": "2s"}), ("A", "play", {"cards": ["3s"]})])
    events = deal.act("B", "play", cards=h("4s 5s 6s 7s"))
    assert deal.to_act() == ["C"]
    events = deal.act("C", "play", cards=h("8s 9s Ts Js"))
    assert {"event": "stop", "after": "Js", "reason": "dead"} in events  # Q♠ is in the dead widow
    assert deal.to_act() == ["C"] and deal.view(None)["sequence"]["colour_required"] == "red"


def test_pay_cards_and_combinations_win_their_section():
    """RULES.md: "Playing a pay card or combination wins that section."
    Source: "si un joueur joue les 7, 8, et 9 de la même couleur, il remporte
    les jetons posés sur la section correspondante"."""
    deal = s1(carry={"board": {"789": 4}})
    run(deal, DEAD_WIDOW)
    finish_greedily(deal)
    wins = {p["section"]: (p["winners"], p["amount"]) for p in deal.result()["pots"]}
    assert wins["789"] == (["B"], 7) and wins["Qc"] == (["C"], 3) and wins["Ts"] == (["C"], 3)
    # The dealer's exchange puts K♦ and A♦ in one hand: he plays both.
    deal = s1()
    deal.act("C", "exchange")
    finish_greedily(deal)
    wins = {p["section"]: p["winners"] for p in deal.result()["pots"]}
    assert wins["KdAd"] == ["C"] and wins["Jd"] == ["C"] and wins["As"] == ["C"] and wins["Kh"] == ["C"]


def test_combination_split_between_two_players_wins_nothing():
    """RULES.md: "K♦+A♦ both played by one player"; in S2 A plays K♦ and C
    the A♦, so the section stays on the board."""
    deal = rummoli.new_deal({}, seats(50), 2, deck=S2_DECK)
    run(deal, DEAD_WIDOW + [("A", "lead", {"card": "2d"}), ("A", "play", {"cards": h("3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd")})])
    deal.act("C", "play", cards=["Ad"])
    assert "KdAd" not in deal.won_sections and deal.board["KdAd"] == 3
    assert deal.won_sections["789"] == "A"  # 7♦ 8♦ 9♦, all A's


def test_going_out_wins_rummoli_pot_and_a_chip_per_card_held():
    """RULES.md: "The first player out wins the Rummoli pot plus one chip per
    card still held by each other player." """
    deal = s1(carry={"board": {"rummoli": 10}})
    run(deal, DEAD_WIDOW)
    events = finish_greedily(deal)
    res = deal.result()
    assert res["outcome"] == "out" and res["winner"] == "C"
    assert {"event": "win", "section": "rummoli", "player": "C", "amount": 13} in events
    assert {"event": "pays", "player": "A", "to": "C", "cards": 4, "amount": 4} in events
    assert {"event": "pays", "player": "B", "to": "C", "cards": 4, "amount": 4} in events
    assert res["carry"]["board"]["rummoli"] == 0
    assert res["delta"]["C"] == -9 + 3 + 3 + 13 + 8


def test_going_out_a_player_who_cannot_pay_pays_what_he_has():
    """Ruling (docs/games/rummoli.md): a player who cannot pay pays what he has."""
    deal = s1(chips={"A": 9, "B": 50, "C": 50})
    run(deal, DEAD_WIDOW)  # A antes his 9 chips, then wins the poker pot (3)
    events = finish_greedily(deal)
    assert {"event": "pays", "player": "A", "to": "C", "cards": 4, "amount": 3} in events
    assert deal.chips["A"] == 0


def test_deadlock_one_chip_per_card_into_the_rummoli_pot():
    """RULES.md: "If nobody can restart (deadlock), the deal ends and each
    player puts one chip per card held into the Rummoli pot." Source: "si les
    joueurs n'ont plus que de trèfle et de pique, ils ne peuvent changer la
    couleur à rouge"."""
    deal = rummoli.new_deal({}, seats(50), 2, deck=S2_DECK, carry={"board": {"rummoli": 5}})
    run(deal, DEAD_WIDOW + [("A", "lead", {"card": "2d"}), ("A", "play", {"cards": h("3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd")})])
    run(deal, [("C", "play", {"cards": ["Ad"]}), ("C", "lead", {"card": "3s"})])
    finish_greedily(deal)
    res = deal.result()
    assert res["outcome"] == "deadlock" and res["winner"] is None
    held = {p: len(deal.hands[p]) for p in "ABC"}
    assert held == {"A": 1, "B": 7, "C": 6} and all(not any(c[1] in "dh" for c in deal.hands[p]) for p in "ABC")
    assert res["carry"]["board"]["rummoli"] == 5 + 3 + 14
    assert [e["player"] for e in deal.log if e["event"] == "cannot_restart"] == ["B", "C", "A"]


def test_deadlock_result_says_why_and_what_each_paid():
    """Issue 33 §13. RULES.md: "If nobody can restart (deadlock), the deal
    ends and each player puts one chip per card held into the Rummoli pot."
    The result says it (a catalogue code), and the table's public result
    carries the French sentence the result panel shows."""
    deal = rummoli.new_deal({}, seats(50), 2, deck=S2_DECK, carry={"board": {"rummoli": 5}})
    run(deal, DEAD_WIDOW + [("A", "lead", {"card": "2d"}), ("A", "play", {"cards": h("3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd")})])
    run(deal, [("C", "play", {"cards": ["Ad"]}), ("C", "lead", {"card": "3s"})])
    finish_greedily(deal)
    res = deal.result()
    assert res["said"] == [{"code": "rummoli_deadlock", "params": {"per_card": 1, "held": [
        {"player": "A", "cards": 1, "amount": 1}, {"player": "B", "cards": 7, "amount": 7},
        {"player": "C", "cards": 6, "amount": 6}]}}]
    text = _public(res)["said"][0]["text"]
    assert text == ("Donne bloquée : personne ne pouvait relancer la séquence. Chacun met un jeton par carte "
                    "qu'il tient encore dans le pot du Rummoli : A 1 carte (1 jeton), B 7 cartes (7 jetons), "
                    "C 6 cartes (6 jetons)."), text


def test_a_deal_gone_out_says_nothing_more():
    deal = s1()
    run(deal, DEAD_WIDOW)
    finish_greedily(deal)
    res = deal.result()
    assert res["outcome"] == "out" and "said" not in res and "said" not in _public(res)


def _public(res):
    from tavern.games.rummoli import SPEC
    from tavern.tables.actor import _public_result

    return _public_result(res, SPEC)


def test_restart_passes_left_and_single_card_rule():
    """RULES.md: "A player with a single card left may play it only if it
    fits." Source: "il ne peut la jouer que si elle est de la bonne couleur
    ou de valeur consécutive; à défaut de quoi il passe son tour." B stops the
    spades with one black card left: he passes, and (ruling) the restart goes
    to the left, to C, who restarts in red."""
    deal = rummoli.new_deal({}, seats(50), 0, deck=S3_DECK)
    run(deal, [("A", "keep", {}), ("B", "pass", {}), ("C", "pass", {})])
    assert deal.poker_winners == ["B"]
    run(deal, [("B", "lead", {"card": "2h"}), ("B", "play", {"cards": h("3h 4h 5h 6h")})])
    assert deal.to_act() == ["B"] and deal.view(None)["sequence"]["colour_required"] == "black"
    run(deal, [("B", "lead", {"card": "7s"})])
    events = deal.act("B", "play", cards=h("8s 9s Ts Js Qs Ks"))
    assert deal.hands["B"] == ["2c"]
    assert {"event": "cannot_restart", "player": "B", "colour": "red"} in events
    assert deal.to_act() == ["C"] and deal.legal_actions("C") == [{"action": "lead", "card": "2d"}]
    with refused("not_your_turn", IllegalAction):
        deal.act("B", "lead", card="2c")


# -------------------------------------------------------- the contract


def test_views_hide_hands_widow_and_dead_hands_at_every_step():
    """ARCHITECTURE.md: "never another player's hidden cards, the stock, the
    widow or the deck order"; RULES.md: the dead hand "stays hidden"."""
    for script in (DEAD_WIDOW, [("C", "exchange", {})], [("C", "keep", {}), ("A", "bid", {"amount": 1}), ("B", "pass", {})]):
        deal = s1()
        steps = list(script)
        while True:
            # The called card is public: it is the one after the last played.
            public = set(deal.on_table) | {c for cs in deal.shown.values() for c in cs} | {deal.called}
            for viewer in [None, "A", "B", "C"]:
                text = card_text(deal.view(viewer))
                mine = set(deal.hands[viewer]) if viewer else set()
                leaked = [c for c in deck52() if f'"{c}"' in text and c not in mine | public]
                assert not leaked, (viewer, leaked)
            if deal.over:
                break
            if steps:
                p, a, args = steps.pop(0)
            else:
                p = deal.to_act()[0]
                la = deal.legal_actions(p)[0]
                a, args = la["action"], {k: v for k, v in la.items() if k != "action"}
            deal.act(p, a, **args)


def test_view_gives_own_hand_and_legal_actions():
    """Source: "disposent toute leur main ... par couleurs: coeur, carreau,
    trèfle et pique, et en ordre croissant du 2 à l'as"."""
    deal = s1()
    v = deal.view("A")
    assert v["hand"] == sorted(S1["A"], key=lambda c: ("hdcs".index(c[1]), "23456789TJQKA".index(c[0])))
    assert v["legal_actions"] == [] and v["to_act"] == ["C"]
    assert "hand" not in deal.view(None)
    assert deal.view("C")["legal_actions"] == [{"action": "exchange"}, {"action": "keep"}]


def test_record_replays_exactly_and_through_the_cli(tmp_path, capsys):
    """HAND_RECORDS.md: "a JSON document from which the engine replays the
    deal exactly"; ``tavern replay`` dispatches by ``record["game"]``."""
    deal = s1(carry={"board": {"rummoli": 4, "KdAd": 2}})
    run(deal, [("C", "keep", {}), ("A", "bid", {"amount": 2}), ("B", "pass", {})])
    finish_greedily(deal)
    rec = deal.record()
    assert rec["game"] == "rummoli" and rec["deck"] == S1_DECK and rec["reshuffles"] == []
    assert rec["actions"][:3] == [
        {"player": "C", "action": "keep"},
        {"player": "A", "action": "bid", "amount": 2},
        {"player": "B", "action": "pass"},
    ]
    out = registry.replay(json.loads(json.dumps(rec)))
    res = deal.result()
    assert out["finished"] and out["chips"] == res["chips"] and out["carry"] == res["carry"]
    assert out["pots"] == res["pots"] and out["rake"] == 0
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    assert cli.main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["chips"] == res["chips"]


def test_partial_and_bad_records():
    """HAND_RECORDS.md: "A record that stops before the deal is over ...
    replays as far as it goes ... An inconsistent record ... is refused with a
    message naming the rule"."""
    deal = s1()
    run(deal, DEAD_WIDOW)
    out = registry.replay(deal.record())
    assert out["finished"] is False and out["to_act"] == ["A"]
    bad = deal.record()
    bad["actions"].append({"player": "A", "action": "lead", "card": "3c"})
    with refused("rummoli_lead_lowest", IllegalAction):
        registry.replay(bad)
    bad = deal.record()
    bad["deck"] = bad["deck"][:-1] + [bad["deck"][0]]
    with refused("deck_order", IllegalAction):
        registry.replay(bad)


def test_result_only_when_over_and_actions_after_refused():
    """Source: "Le jeu se poursuit jusqu'à ce qu'un joueur n'ait plus aucune
    carte en main": then the deal is over and nothing more is played."""
    deal = s1()
    with refused("deal_not_over", IllegalAction):
        deal.result()
    run(deal, DEAD_WIDOW)
    finish_greedily(deal)
    with refused("deal_over", IllegalAction):
        deal.act("A", "lead", card="2d")
    assert deal.to_act() == [] and deal.legal_actions("A") == []


def test_timeout_actions_are_the_safe_moves():
    """The engine contract: keep the hand, pass the auction, play the called
    card alone or the lowest lead offered."""
    deal = s1()
    assert deal.timeout_action("C") == {"action": "keep"}
    deal.act("C", "keep")
    assert deal.timeout_action("A") == {"action": "pass"}
    run(deal, [("A", "pass", {}), ("B", "pass", {})])
    assert deal.timeout_action("A") == {"action": "lead", "card": "2c"}
    deal.act("A", "lead", card="2c")
    assert deal.timeout_action("A") == {"action": "play", "cards": ["3c"]}
    with pytest.raises(IllegalAction):
        deal.timeout_action("B")


# ----------------------------------------------------- closing the table


def test_close_table_highest_cut_takes_the_board():
    """RULES.md: "leftover chips go to the highest card cut or to the best
    ordinary poker hand". Ruling: players tied for the highest cut again."""
    carry = {"board": {"rummoli": 17, "poker": 0, "Ts": 0, "Jd": 3, "Qc": 3, "Kh": 3, "As": 3, "KdAd": 3, "789": 0}}
    order = ["Ks", "Kd", "5c", "2h", "Ah"] + [c for c in deck52() if c not in ("Ks", "Kd", "5c", "2h", "Ah")]
    out = rummoli.close_table(carry, ["A", "B", "C"], "cut", deck=order)
    assert out["awards"] == {"A": 0, "B": 32, "C": 0} and out["winners"] == ["B"]
    assert out["cards"] == [{"A": "Ks", "B": "Kd", "C": "5c"}, {"A": "2h", "B": "Ah"}]
    assert sum(out["board"].values()) == 0


def test_close_table_best_poker_hand_takes_the_board_ties_share():
    """Source: "on donne une main de poker ordinaire (5 cartes) à chaque
    joueur; la plus forte remporte les jetons"."""
    a = h("As Ks Qs Js Ts")
    b = h("Ah Kh Qh Jh Th")
    c = h("2c 3d 5h 7s 9c")
    order = [x for trio in zip(a, b, c, strict=False) for x in trio]
    order += [x for x in deck52() if x not in order]
    out = rummoli.close_table({"board": {"rummoli": 7}}, ["A", "B", "C"], "poker", deck=order)
    assert out["awards"] == {"A": 4, "B": 3, "C": 0}
    assert out["cards"] == [{"A": a, "B": b, "C": c}]
    with refused("rummoli_leftover_method", IllegalAction):
        rummoli.close_table({"board": {}}, ["A"], "dice")


# ------------------------------------------------------- property tests


def _random_action(deal, r: random.Random) -> tuple[str, str, dict]:
    p = deal.to_act()[0]
    if r.random() < 0.1:
        t = deal.timeout_action(p)
        return p, t["action"], {k: v for k, v in t.items() if k != "action"}
    a = r.choice(deal.legal_actions(p))
    args = {k: v for k, v in a.items() if k not in ("action", "min", "max")}
    if a["action"] == "call":
        args = {}
    if "min" in a:
        args["amount"] = r.randint(a["min"], min(a["max"], a["min"] + r.choice([0, 3, 50])))
    return p, a["action"], args


def _cards_in_one_place(deal) -> None:
    places = [*deal.hands.values(), deal.widow, deal.dead, *deal.played.values()]
    every = [c for place in places for c in place]
    assert sorted(every) == sorted(deck52())


def _single_card_rule(deal, player: str, action: str, args: dict) -> None:
    """ "A player with a single card left may play it only if it fits." """
    if len(deal.hands[player]) != 1 or action not in ("lead", "play"):
        return
    card = args.get("card") or args["cards"][0]
    if action == "play":
        assert card == deal.called
    else:
        assert deal.colour_required is not None
        assert (card[1] in "dh") == (deal.colour_required == "red")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64),
    n=st.integers(3, 8),
    method=st.sampled_from([1, 2]),
    structure=st.sampled_from(["no-limit", "pot-limit", "fixed-limit"]),
)
def test_random_legal_play_ends_cards_in_one_place_chips_conserved(seed, n, method, structure):
    """Property: random legal deals always end; every card is in exactly one
    place at every step; across many consecutive deals, stacks + board stay
    constant, board carried over included; records replay exactly."""
    r = random.Random(seed)  # the deals' shuffles and the players' choices
    names = [f"P{i}" for i in range(n)]
    start = {p: r.choice([0, 5, 20, 60]) for p in names}
    total = sum(start.values())
    chips, carry = start, None
    config = {"poker_method": method, "betting": {"structure": structure, "bet": r.choice([1, 2, 5])}}
    for k in range(12):
        deal = rummoli.new_deal(config, [{"player": p, "chips": chips[p]} for p in names], k % n,
                                rng=SeededSource(r), carry=carry)
        steps = 0
        while not deal.over:
            _cards_in_one_place(deal)
            assert sum(deal.chips.values()) + sum(deal.board.values()) == total
            p, a, args = _random_action(deal, r)
            _single_card_rule(deal, p, a, args)
            deal.act(p, a, **args)
            steps += 1
            assert steps < 3000, "a deal must end"
        _cards_in_one_place(deal)
        res = deal.result()
        assert all(v >= 0 for v in res["chips"].values())
        assert sum(res["chips"].values()) + sum(res["carry"]["board"].values()) == total
        assert sum(res["delta"].values()) == -(sum(res["carry"]["board"].values()) - sum((carry or {"board": {}})["board"].values()))
        if k % 4 == 0:
            assert registry.replay(json.loads(json.dumps(deal.record())))["chips"] == res["chips"]
        chips, carry = res["chips"], copy.deepcopy(res["carry"])
    out = rummoli.close_table(carry, names, r.choice(["cut", "poker"]), rng=SeededSource(r))
    assert sum(chips.values()) + sum(out["awards"].values()) == total


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**64))
def test_illegal_actions_never_change_the_state(seed):
    """ "an illegal move raises IllegalAction ... and leaves the state untouched" """
    r = random.Random(seed)
    deal = rummoli.new_deal({"poker_method": r.choice([1, 2])}, seats(30, "ABCD"), r.randrange(4), rng=SeededSource(r))
    junk = [
        ("lead", {"card": r.choice(deck52())}),
        ("play", {"cards": [r.choice(deck52())]}),
        ("play", {"cards": "7h"}),
        ("bid", {"amount": r.randint(-5, 100)}),
        ("raise", {"amount": r.randint(0, 100)}),
        ("exchange", {}),
        ("keep", {"extra": 1}),
        ("fold", {}),
        ("dance", {}),
    ]
    while not deal.over:
        for _ in range(3):
            p = r.choice(deal.players)
            action, args = r.choice(junk)
            legal = deal.legal_actions(p)
            exact = [{k: v for k, v in a.items() if k not in ("min", "max")} for a in legal]
            if {"action": action, **args} in exact or (
                action not in ("lead", "play") and action in {a["action"] for a in legal}
            ):
                continue  # possibly legal: not junk for this player now
            before = snapshot(deal)
            with pytest.raises(IllegalAction) as info:
                deal.act(p, action, **args)
            assert info.value.rule and info.value.player == p
            assert snapshot(deal) == before
        p, a, args = _random_action(deal, r)
        deal.act(p, a, **args)


def test_next_card_already_played_stops_and_a_suit_past_its_ace_can_be_led_again():
    """Ruling: a next card already on the table stops the sequence like a dead
    one. Source: "Si c'est un as qui interrompt la séquence, et qu'un joueur
    détient encore des cartes de la couleur de l'as, ce joueur pourra, lorsque
    son tour viendra, repasser à la couleur en question"."""
    deal = s1()
    run(deal, DEAD_WIDOW + [("A", "lead", {"card": "2s"}), ("A", "play", {"cards": ["3s"]})])
    run(deal, [("B", "play", {"cards": h("4s 5s 6s 7s")}), ("C", "play", {"cards": h("8s 9s Ts Js")})])
    run(deal, [("C", "lead", {"card": "8d"}), ("C", "play", {"cards": ["9d"]})])  # T♦ dead
    run(deal, [("C", "lead", {"card": "Tc"}), ("C", "play", {"cards": h("Jc Qc Kc")}), ("A", "play", {"cards": ["Ac"]})])
    run(deal, [("A", "lead", {"card": "2d"}), ("A", "play", {"cards": h("3d 4d")})])
    events = deal.act("B", "play", cards=h("5d 6d 7d"))
    assert {"event": "stop", "after": "7d", "reason": "played"} in events  # C played 8♦
    # Clubs stopped at their ace, yet B may now lead his lowest club.
    assert deal.legal_actions("B") == [{"action": "lead", "card": "7c"}]
    events = run(deal, [("B", "lead", {"card": "7c"}), ("B", "play", {"cards": h("8c 9c")})])
    assert {"event": "win", "section": "789", "player": "B", "amount": 3} in events
    assert {"event": "stop", "after": "9c", "reason": "played"} in events


def test_deal_follows_the_engine_contract():
    """base.py: a game module offers new_deal, replay and deck_composition and
    its deals are Engines; Rummoli uses one 52-card pack."""
    from tavern.games.base import Engine

    deal = s1()
    assert isinstance(deal, Engine) and deal.game == "rummoli"
    assert registry.load("rummoli") is rummoli
    assert sorted(rummoli.deck_composition({}, 5)) == sorted(deck52())


@pytest.mark.slow
@pytest.mark.parametrize("method", [1, 2])
def test_a_long_evening_at_one_table(method):
    """A table's whole life: 150 deals in a row, the deal passing left ("La
    donne passe à gauche"), the board carried, then the table closes ("Tous
    les jetons restant en jeux sont alors attribués à un joueur"): every chip
    ends in a stack, none appeared or vanished."""
    r = random.Random(1000 + method)
    names = ["Ana", "Ben", "Cyr", "Dan", "Eve"]
    chips = {p: 100 for p in names}
    carry = None
    config = {"poker_method": method, "unit": 2, "betting": {"structure": "pot-limit", "bet": 2}}
    outcomes = set()
    for k in range(150):
        deal = rummoli.new_deal(config, [{"player": p, "chips": chips[p]} for p in names], k % 5,
                                rng=SeededSource(r), carry=carry)
        while not deal.over:
            p, a, args = _random_action(deal, r)
            deal.act(p, a, **args)
        res = deal.result()
        outcomes.add(res["outcome"])
        assert registry.replay(json.loads(json.dumps(deal.record())))["carry"] == res["carry"]
        chips, carry = res["chips"], res["carry"]
        assert sum(chips.values()) + sum(carry["board"].values()) == 500
    assert "out" in outcomes  # someone went out at least once in 150 deals
    out = rummoli.close_table(carry, names, "poker", rng=SeededSource(r))
    final = {p: chips[p] + out["awards"][p] for p in names}
    assert sum(final.values()) == 500 and sum(out["board"].values()) == 0
