"""Single decisions of « habitué » where a rule of the game makes one move
better than another (the figures are the bench's: bench/bench_simple_bots.py)."""

from __future__ import annotations

import random
from typing import Any

from tavern.bots import decide


def _rummoli_lead(hand: list[str], leads: list[str], played: list[str] = ()) -> str:  # type: ignore[assignment]
    view: dict[str, Any] = {"game": "rummoli", "phase": "rummoli", "hand": hand, "pay_sections": [],
                            "players": [{"player": "A", "played": []}, {"player": "B", "played": list(played)}]}
    legal = [{"action": "lead", "card": c} for c in leads]
    move = decide("rummoli", "habitué", view, legal, random.Random(1))
    assert move["action"] == "lead"
    return str(move["card"])


def test_rummoli_leads_a_run_that_stops_at_the_ace() -> None:
    """« The sequence stops at the ace or when the next card is dead; the
    last player to play restarts » (RULES.md, Rummoli): K-A of spades
    comes back to him; the longer 3-4-5 of hearts would hand the lead to
    whoever holds the 6."""
    assert _rummoli_lead(["3h", "4h", "5h", "Ks", "As"], ["3h", "Ks"]) == "Ks"


def test_rummoli_leads_a_run_whose_next_card_is_already_played() -> None:
    """The 6 of clubs is gone: the 5 of clubs stops with him, he leads again
    (rather than 2-3-4 of diamonds, longer but handing the lead on)."""
    assert _rummoli_lead(["5c", "2d", "3d", "4d"], ["5c", "2d"], played=["6c"]) == "5c"


def test_rummoli_otherwise_gets_rid_of_his_lowest_card() -> None:
    """No run keeps the lead: the lowest card goes (sequences climb, a low
    card leaves the hand only by a lead), not the longer run 9-10 of spades."""
    assert _rummoli_lead(["3h", "9s", "Ts", "Kd"], ["3h", "9s"]) == "3h"


def _rummoli_table(hands: dict[str, list[str]], colour: str | None = None) -> dict[str, Any]:
    """A full view for seat A to lead, the other hands known from their
    poker showing (method 1 shows every hand's best five), the rest dead."""
    players = [{"player": p, "chips": 900, "cards": len(h), "played": [], "took_widow": False}
               for p, h in hands.items()]
    return {"game": "rummoli", "phase": "rummoli", "hand": hands["A"], "players": players, "to_act": ["A"],
            "board": {"rummoli": 4, "poker": 0}, "pay_sections": [], "dead_cards": 10,
            "poker": {"method": 1, "shown": {p: h for p, h in hands.items() if p != "A"}, "winners": ["A"]},
            "sequence": {"called": None, "leader": "A", "colour_required": colour}}


def test_rummoli_leads_what_lets_him_go_out_first() -> None:
    """« The first player out wins the Rummoli pot plus one chip per card
    still held by each other player »; « the last player to play restarts
    with his lowest card in a suit of the other colour » (RULES.md,
    Rummoli). Every other hand is known: leading the 3 of hearts hands the
    lead to B (4♥), who restarts black for C, and C goes out with 2-3 of
    spades; the 9 of spades stops at once (the 10 is dead), he restarts
    red with the 3 of hearts and is out. The lowest card (the rule before)
    loses the deal."""
    hands = {"A": ["3h", "9s"], "B": ["4h", "Jd"], "C": ["2s", "3s"], "D": ["5d", "6d"]}
    view = _rummoli_table(hands)
    legal = [{"action": "lead", "card": c} for c in ("3h", "9s")]
    for seed in range(3):
        assert decide("rummoli", "habitué", view, legal, random.Random(seed)) == {"action": "lead", "card": "9s"}


def _rummoli_widow(hand: list[str], me: str) -> dict[str, Any]:
    """A view at the widow, D dealing to four: 11, 11, 10, 10 and a widow of 10."""
    sections = ("Ts", "Jd", "Qc", "Kh", "As", "KdAd", "789")
    players = [{"player": p, "chips": 990, "cards": n, "played": [], "took_widow": False}
               for p, n in (("A", 11), ("B", 11), ("C", 10), ("D", 10))]
    return {"game": "rummoli", "phase": "exchange" if me == "D" else "auction", "dealer": "D", "hand": hand,
            "players": players, "to_act": [me], "board": {"rummoli": 4, "poker": 4, **dict.fromkeys(sections, 4)},
            "pay_sections": [{"id": s, "label": s, "chips": 4, "won_by": None} for s in sections],
            "widow": {"status": "undecided", "cards": 10, "holder": None}, "dead_cards": 0,
            "poker": {"method": 1, "shown": {}, "winners": []}}


#: a pair of 2s and nothing else: no run, no straight, no flush, no pay card
SCATTERED = ["2c", "2d", "3h", "4s", "6c", "7d", "8h", "Th", "Jc", "Qd"]
STRONG = ["Ac", "Ad", "Ah", "As", "Kc", "Kd", "Ks", "Ts", "Js", "Qs"]


def test_rummoli_dealer_exchanges_a_scattered_hand_for_the_widow() -> None:
    """« The dealer may exchange his hand for the widow » (RULES.md,
    Rummoli). Scattered low cards each need a lead of their own to leave
    the hand and a pair of 2s wins no poker pot: he takes the widow (the
    rule before kept any hand with a pair). Four aces and a spade run to
    the ace he keeps."""
    exchange = [{"action": "exchange"}, {"action": "keep"}]
    for seed in range(3):
        rng = random.Random(seed)
        assert decide("rummoli", "habitué", _rummoli_widow(SCATTERED, "D"), exchange, rng) == {"action": "exchange"}
        assert decide("rummoli", "habitué", _rummoli_widow(STRONG, "D"), exchange, rng) == {"action": "keep"}


def test_rummoli_bids_the_least_for_the_widow_with_a_scattered_hand() -> None:
    """« if he does not, the widow is auctioned (the winning bid goes to the
    dealer, the winner must take it, his old hand is dead » (RULES.md,
    Rummoli): one chip for ten fresh cards is worth it with the scattered
    hand (the rule before passed with a pair), not with the strong one."""
    legal = [{"action": "bid", "min": 1, "max": 990}, {"action": "pass"}]
    for seed in range(3):
        rng = random.Random(seed)
        assert decide("rummoli", "habitué", _rummoli_widow(SCATTERED + ["Ks"], "A"), legal, rng) == {
            "action": "bid", "amount": 1}
        assert decide("rummoli", "habitué", _rummoli_widow(STRONG + ["2h"], "A"), legal, rng) == {"action": "pass"}


def test_rummoli_widow_falls_back_on_the_simple_rule_with_a_partial_view() -> None:
    """A view without the hands' sizes, the dealer or the board cannot be
    played out: no error, the simple rule (a poor hand, no pair nor pay
    card, takes the widow; a pair keeps)."""
    view: dict[str, Any] = {"game": "rummoli", "phase": "exchange", "hand": SCATTERED[1:] + ["Ks"],
                            "widow": {"cards": 10}, "to_act": ["D"]}
    exchange = [{"action": "exchange"}, {"action": "keep"}]
    assert decide("rummoli", "habitué", view, exchange, random.Random(1)) == {"action": "exchange"}
    assert decide("rummoli", "habitué", {**view, "hand": SCATTERED}, exchange, random.Random(1)) == {"action": "keep"}


def _gin_discard(hand: list[str], allowed: list[str], pile: list[str]) -> str:
    view = {"game": "gin", "phase": "play", "hand": hand, "knock_limit": 7, "stock": 20,
            "discard": {"top": pile[-1] if pile else None, "size": len(pile), "pile": pile}}
    move = decide("gin", "habitué", view, [{"action": "discard", "cards": allowed}], random.Random(3))
    assert move["action"] == "discard"
    return str(move["card"])


MELDS = ["As", "2s", "3s", "4h", "4d", "4c"]


def test_gin_never_breaks_a_meld_when_a_card_is_deadwood() -> None:
    """« knocking: 8 or 9 cards in melds and the 1 or 2 other cards
    totalling less than the turned card's value » (RULES.md, Gin): a card
    of a meld thrown is a meld to rebuild: a loose king goes."""
    hand = MELDS + ["7c", "8c", "9c", "Kd", "Kh"]
    for seed in range(5):
        view = {"hand": hand, "knock_limit": 7, "discard": {"top": None, "size": 0}}
        move = decide("gin", "habitué", view, [{"action": "discard", "cards": hand}], random.Random(seed))
        assert move["card"] in ("Kd", "Kh")


def test_gin_throws_the_loose_card_whose_partners_are_gone() -> None:
    """Four loose cards worth 10: 9-10 of hearts wait for the 8 or the jack
    of hearts, both unseen; Q-K of diamonds wait for the jack or the ace of
    diamonds or another queen or king — all in the discard pile. He keeps
    the live pair and throws from the dead one (the count alone cannot tell
    them apart: the ten of hearts, offered first, is worth as much)."""
    hand = MELDS + ["9h", "Th", "Qd", "Kd", "5c"]
    pile = ["Jd", "Ad", "Qs", "Qc", "Qh", "Ks", "Kc", "Kh"]
    assert _gin_discard(hand, ["Th", "Qd", "Kd", "9h", "5c"] + MELDS, pile) in ("Qd", "Kd")
