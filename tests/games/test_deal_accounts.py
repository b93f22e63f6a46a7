"""Issue 42 §10: « Every result panel accounts for every chip of the deal
(the shown amounts and what stays in a pot sum to zero), in the game's own
words. » At Rams and Rummoli the chips won and lost did not add up: the
dealer's pot, the rams penalty, the chips left on the board were not named.

Each deal's result now carries its ``account`` (games/rams/account.py,
games/rummoli/account.py): lines of chips moved between the players and the
pot, each said by a catalogue sentence. Over random legal deals played in a
row (the pot or the board carried from one to the next) every line moves
chips and pot by zero in all, the lines add up to each player's ``delta``,
and the pot carried in plus the lines' pot is what stays for the next deal.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.test_rams import CONFIGS, _Src, random_action
from tests.games.test_rummoli import _random_action

from tavern.cards import SeededSource
from tavern.catalogue import MESSAGES, french
from tavern.games import rummoli
from tavern.games.registry import load

rams = load("rams")


def check_account(result: dict[str, Any], before: int) -> dict[str, Any]:
    """The account's invariants; returns it."""
    acc = result["account"]
    assert acc["before"] == before
    for line in acc["lines"]:
        assert line["code"] in MESSAGES and "?" not in french(line["code"], line["params"]), line
        assert sum(line["chips"].values()) + line["pot"] == 0, line  # a chip leaves a hand for a pot or a hand
    moved = {p: sum(line["chips"].get(p, 0) for line in acc["lines"]) for p in result["delta"]}
    assert moved == result["delta"]  # every chip a player won or lost is on a line
    assert acc["before"] + sum(line["pot"] for line in acc["lines"]) == acc["after"]
    # The shown amounts and what stays in the pot sum to zero.
    assert sum(result["delta"].values()) + acc["after"] - acc["before"] == 0
    return acc


@settings(max_examples=40, deadline=None)
@given(config=CONFIGS, n=st.integers(3, 8), seed=st.integers(0, 2**32), deals=st.integers(1, 6))
def test_a_rams_deal_accounts_for_every_chip(config, n, seed, deals) -> None:
    """RULES.md, Rams: "the dealer puts 5 units in the pot (one per trick).
    Players who take part share the pot in proportion to their tricks; each
    one who took no trick is "rams" and pays into the next pot as much as
    this pot held. … Remainders of a split stay in the pot." """
    rng = random.Random(seed)
    chips = {"ABCDEFGH"[i]: rng.randint(0, 60) for i in range(n)}
    carry, button = None, rng.randrange(n)
    for _ in range(deals):
        e = rams.new_deal(config, [{"player": p, "chips": c} for p, c in chips.items()], button,
                          rng=_Src(rng), carry=carry)
        while not e.over:
            p, name, args = random_action(e, rng)
            e.act(p, name, **args)
        r = e.result()
        acc = check_account(r, (carry or {}).get("pot", 0))
        assert acc["after"] == r["carry"]["pot"]
        first = acc["lines"][0]  # the dealer's stake is named
        assert first["code"] == "rams_account_stake" and first["params"]["player"] == e.dealer
        rams_lines = {ln["params"]["player"] for ln in acc["lines"] if ln["code"] == "rams_account_rams"}
        assert rams_lines == set(r["pots"][0]["rams"]) if r["pots"] else not rams_lines
        chips, carry, button = r["chips"], r["carry"], (button - 1) % n


def test_the_sources_rams_growth_is_said_line_by_line() -> None:
    """RULES.md, Rams: "(The source's growth with two rams per deal, 20 → 45 →
    95 → 195, must come out.)" A 20-chip pot, dealer's 5 in: 25 shared by
    tricks, two rams paying 25 each: 50 stay for the next deal."""
    from tavern.games.rams.account import coup_account
    from tavern.games.rams.stakes import settle_tricks

    chips = {"A": 100, "B": 100, "C": 100, "D": 100}
    out = settle_tricks(chips, 25, {"A": 3, "B": 2, "C": 0, "D": 0}, 5)
    acc = coup_account("D", 20, 5, out, {"A": 3, "B": 2, "C": 0, "D": 0}, 5)
    said = [french(ln["code"], ln["params"]) for ln in acc["lines"]]
    assert said == [
        "D donne et met 5 jetons au pot, qui en tenait 20 de la donne précédente : le pot de la donne est de 25 jetons.",
        "A fait 3 plis sur 5 : sa part du pot, 15 jetons.",
        "B fait 2 plis sur 5 : sa part du pot, 10 jetons.",
        "C est rams (aucun pli) : il paie au pot suivant autant que le pot tenait, 25 jetons.",
        "D est rams (aucun pli) : il paie au pot suivant autant que le pot tenait, 25 jetons.",
        "Reste au pot pour la donne suivante : 50 jetons.",
    ]
    assert acc["after"] == 50


def test_a_rams_partie_accounts_for_the_losers_payments() -> None:
    """RULES.md, Rams: the chip-elimination game « à la partie »: chips move only
    when it ends — the loser pays each other player — and the account says so."""
    rng = random.Random(11)
    table = [{"player": p, "chips": 100} for p in "ABC"]
    carry, button, paid = None, 0, False
    for _ in range(200):
        e = rams.new_deal({"stakes": "partie"}, table, button, rng=_Src(rng), carry=carry)
        while not e.over:
            p, name, args = random_action(e, rng)
            e.act(p, name, **args)
        r = e.result()
        acc = check_account(r, 0)
        if r.get("loser"):
            paid = True
            assert {ln["code"] for ln in acc["lines"]} == {"rams_account_partie_lost"}
            break
        assert acc["lines"] == []
        carry = r["carry"]
    assert paid, "no partie ended in 200 deals"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64), n=st.integers(3, 8), method=st.sampled_from([1, 2]),
       structure=st.sampled_from(["no-limit", "pot-limit", "fixed-limit"]))
def test_a_rummoli_deal_accounts_for_every_chip(seed, n, method, structure) -> None:
    """RULES.md, Rummoli: "At each deal every player antes 1 chip on each of
    the 9 sections; unwon chips stay and accumulate." — the antes, the widow's
    price to the dealer, the poker pot's bets, each section won, the chips per
    card held, and what stays on the board are each a line."""
    r = random.Random(seed)
    names = [f"P{i}" for i in range(n)]
    chips = {p: r.choice([0, 5, 20, 60]) for p in names}
    carry = None
    config = {"poker_method": method, "betting": {"structure": structure, "bet": r.choice([1, 2, 5])}}
    for k in range(6):
        deal = rummoli.new_deal(config, [{"player": p, "chips": chips[p]} for p in names], k % n,
                                rng=SeededSource(r), carry=carry)
        while not deal.over:
            p, a, args = _random_action(deal, r)
            deal.act(p, a, **args)
        res = deal.result()
        acc = check_account(res, sum((carry or {"board": {}})["board"].values()))
        assert acc["after"] == sum(res["carry"]["board"].values())
        assert acc["lines"][0]["code"] == "rummoli_account_antes"
        assert acc["lines"][-1]["code"] == "rummoli_account_board"
        chips, carry = res["chips"], copy.deepcopy(res["carry"])
