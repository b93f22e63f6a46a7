"""Antes at a contest's later levels: "a blind structure (levels of small
blind / big blind / ante / minutes)". Each player dealt in puts the ante in
the pot before the blinds (dead money); a short stack antes what he has."""

from __future__ import annotations

from tavern.games import registry
from tavern.games.poker import ramponneau


def test_antes_go_in_before_the_blinds_and_replay() -> None:
    seats = [{"player": "a", "chips": 100}, {"player": "b", "chips": 3}, {"player": "c", "chips": 100}]
    deal = ramponneau.new_deal({"small_blind": 10, "big_blind": 20, "ante": 5}, seats, 0)
    # b antes his 3 chips and is all-in: his small blind is nothing more.
    assert deal.b.total == [3, 25, 5]  # b (all-in), c: ante + big blind, a (button): ante
    while not deal.over:
        p = deal.to_act()[0]
        deal.act(p, deal.timeout_action(p)["action"])
    result = deal.result()
    assert sum(result["chips"].values()) == 203
    assert registry.replay(deal.record())["chips"] == result["chips"]


def test_no_ante_keeps_cash_table_records_unchanged() -> None:
    deal = ramponneau.new_deal({"small_blind": 1, "big_blind": 2}, [{"player": "a", "chips": 50},
                                                                    {"player": "b", "chips": 50}], 0)
    assert "ante" not in deal.record()["config"]
