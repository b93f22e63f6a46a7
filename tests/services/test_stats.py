"""Issue 31 §1: each player's figures per game, from the archived record and
result, added as the deal settles."""

from __future__ import annotations

import json
from pathlib import Path

from tavern.services.stats import deal_figures

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "records" / "examples"


def _example(game: str) -> tuple[dict, dict]:
    from tavern.games import registry

    record = json.loads((EXAMPLES / f"{game}.json").read_text())
    *_, (engine, _) = registry.replay_steps(record)
    return record, engine.result()


def test_poker_figures_from_the_first_betting_round_and_the_showdown() -> None:
    record, result = _example("ramponneau")
    # The example: ana (button) calls the big blind, bruno completes his small
    # blind, chloe checks her option; everybody checks down; ana wins with a flush.
    fig = deal_figures("ramponneau", record, result)
    assert (fig["ana"].vpip, fig["bruno"].vpip, fig["chloe"].vpip) == (1, 1, 0)  # the big blind's check is not by choice
    assert fig["ana"].pfr == fig["bruno"].pfr == fig["chloe"].pfr == 0
    assert all(fig[p].showdowns == 1 for p in ("ana", "bruno", "chloe"))
    assert (fig["ana"].showdowns_won, fig["bruno"].showdowns_won) == (1, 0)
    assert (fig["ana"].won, fig["ana"].chips_won, fig["ana"].biggest_pot) == (1, 4, 6)  # took the pot of 6
    assert (fig["bruno"].won, fig["bruno"].chips_lost, fig["bruno"].biggest_pot) == (0, 2, 0)


def test_a_raise_before_the_flop_is_pfr_and_a_fold_is_no_showdown() -> None:
    from tavern.cards import SeededSource
    from tavern.games.poker import ramponneau

    engine = ramponneau.new_deal({"small_blind": 5, "big_blind": 10},
                                 [{"player": p, "chips": 1000} for p in ("ana", "bob", "cid")], 0,
                                 rng=SeededSource(__import__("random").Random(7)))
    engine.act("ana", "raise", amount=30)  # button, first to speak three-handed
    engine.act("bob", "fold")
    engine.act("cid", "fold")
    fig = deal_figures("ramponneau", engine.record(), engine.result())
    assert (fig["ana"].vpip, fig["ana"].pfr, fig["ana"].showdowns) == (1, 1, 0)
    assert (fig["bob"].vpip, fig["cid"].vpip, fig["cid"].showdowns) == (0, 0, 0)
    assert fig["ana"].won == 1 and fig["bob"].chips_lost == 5 and fig["cid"].chips_lost == 10


def test_matches_won_and_rams_made_come_from_the_result() -> None:
    record = {"game": "gin", "seats": [{"player": "ana", "chips": 9}, {"player": "bob", "chips": 9}]}
    result = {"delta": {"ana": 3, "bob": -3}, "scoring": {"match": {"winner": "bob", "margin": 12}}}
    fig = deal_figures("gin", record, result)
    assert (fig["ana"].matches_won, fig["bob"].matches_won) == (0, 1)
    rams = {"game": "rams", "seats": [{"player": p, "chips": 9} for p in ("ana", "bob", "cid")]}
    made = {"delta": {"ana": 8, "bob": -4, "cid": -4},
            "pots": [{"amount": 0, "shares": {}, "general": {"announcer": "ana", "success": True, "payments": {}}}]}
    assert [deal_figures("rams", rams, made)[p].rams_made for p in ("ana", "bob", "cid")] == [1, 0, 0]
    made["pots"][0]["general"]["success"] = False
    assert deal_figures("rams", rams, made)["ana"].rams_made == 0


def test_a_rams_dealer_who_loses_his_stake_still_took_his_shares_of_the_pot() -> None:
    """Issue 42 §11; docs/statistics.md: biggest pot is "the most he took from
    the pots of one deal". RULES.md (Rams): "the dealer puts 5 units in the
    pot (one per trick). Players who take part share the pot in proportion to
    their tricks; each one who took no trick is "rams" and pays into the next
    pot as much as this pot held." Settled by the engine's own stakes."""
    from tavern.games.rams import stakes

    chips = {"ana": 50, "bob": 50, "cid": 50}
    start = dict(chips)
    pot = stakes.pay(chips, "ana", None, 5)  # ana deals: her stake is the pot (a forced deal)
    outcome = stakes.settle_tricks(chips, pot, {"ana": 4, "bob": 1, "cid": 0}, 5)
    result = {"delta": {p: chips[p] - start[p] for p in chips}, "pots": [outcome.as_pot()]}
    assert result["delta"] == {"ana": -1, "bob": 1, "cid": -5}  # ana took 4 back of her 5
    rams = {"game": "rams", "seats": [{"player": p, "chips": 50} for p in chips]}
    fig = deal_figures("rams", rams, result)
    assert [fig[p].biggest_pot for p in ("ana", "bob", "cid")] == [4, 1, 0]
    assert (fig["ana"].won, fig["ana"].chips_lost) == (0, 1)  # she lost the deal all the same
    # Everybody passed to the last speaker: he takes the whole pot.
    chips = dict(start)
    pot = 20 + stakes.pay(chips, "ana", None, 5)
    taken = stakes.settle_all_pass(chips, pot, "cid")
    fig = deal_figures("rams", rams, {"delta": {"ana": -5, "bob": 0, "cid": 25}, "pots": [taken.as_pot()]})
    assert [fig[p].biggest_pot for p in ("ana", "bob", "cid")] == [0, 0, 25]


def test_rummoli_sections_and_a_split_poker_pot_count_as_taken() -> None:
    """Rummoli's pots name their winners: a section won whole, the poker pot
    split as the engine splits it ("the odd chips go to the first winner")."""
    record = {"game": "rummoli", "seats": [{"player": p, "chips": 50} for p in ("ana", "bob", "cid")]}
    result = {"delta": {"ana": -2, "bob": 6, "cid": -4},
              "pots": [{"section": "poker", "amount": 5, "winners": ["ana", "bob"]},
                       {"section": "10s", "amount": 3, "winners": ["bob"]}]}
    fig = deal_figures("rummoli", record, result)
    assert [fig[p].biggest_pot for p in ("ana", "bob", "cid")] == [3, 5, 0]
