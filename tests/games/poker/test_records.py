"""Hand records, ``tavern replay`` and ``tavern export-phh`` (HAND_RECORDS.md)."""

from __future__ import annotations

import json
import random

import pytest
from tests.refusals import refused

from tavern.cli import main
from tavern.games.base import IllegalAction
from tavern.games.poker import draw, ramponneau
from tavern.games.poker.phh import to_phh
from tavern.games.poker.records import stacked_deck

BOARD = ["2c", "7d", "9h", "Js", "3s"]


def a_ramponneau_record(percent=5):
    holes = [["Kh", "Kd"], ["Qh", "Qd"], ["Ah", "Ad"]]
    seats = [{"player": "A", "chips": 500}, {"player": "B", "chips": 500}, {"player": "C", "chips": 120}]
    e = ramponneau.new_deal({"small_blind": 5, "big_blind": 10, "rake": {"percent": percent, "cap": 10}},
                            seats, 2, deck=stacked_deck(holes, BOARD))
    for p, a, *amount in [("C", "raise", 30), ("A", "call"), ("B", "call"),
                          ("A", "bet", 20), ("B", "call"), ("C", "raise", 90), ("A", "call"), ("B", "fold")]:
        e.act(p, a, **({"amount": amount[0]} if amount else {}))
    while not e.over:
        e.act(e.to_act()[0], "check")
    return e


def test_every_deal_produces_its_record():
    """HAND_RECORDS.md: shared fields "format", "game", "config", "seats", "button",
    "deck", "reshuffles", "actions"; amounts are the player's total for the round."""
    e = a_ramponneau_record()
    rec = e.record()
    assert set(rec) == {"format", "game", "config", "seats", "button", "deck", "reshuffles", "actions"}
    assert rec["format"] == 1 and rec["game"] == "ramponneau" and rec["button"] == 2
    assert rec["config"] == {"small_blind": 5, "big_blind": 10,
                             "rake": {"percent": 5, "cap": 10, "no_flop_no_drop": True}}
    assert rec["actions"][0] == {"player": "C", "action": "raise", "amount": 30}
    # Blinds are posted by position: not actions.
    assert all(a["action"] != "post" for a in rec["actions"])
    json.dumps(rec)  # JSON-ready


def test_cli_replay_prints_the_result(tmp_path, capsys):
    """HAND_RECORDS.md: "The replay's output is a JSON object with at least chips
    [...], pots (each with amount, eligible, winners) [...] and rake"."""
    e = a_ramponneau_record()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(e.record()))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] is True
    assert out["chips"] == e.result()["chips"] and out["rake"] == e.result()["rake"] == 10
    # C all-in for 120 and called by A; B folded his 50 into the pot.
    assert [(p["amount"], p["eligible"], p["winners"]) for p in out["pots"]] == [(290, ["A", "C"], ["C"])]
    assert out["chips"] == {"A": 380, "B": 450, "C": 280}  # 5 % of 290 capped at 10


def test_cli_replay_refuses_an_inconsistent_record(tmp_path, capsys):
    """HAND_RECORDS.md: "An inconsistent record (an illegal action, a card that is not
    in the deck) is refused with a message naming the rule, and a non-zero exit
    code.\""""
    rec = a_ramponneau_record().record()
    rec["actions"][1] = {"player": "A", "action": "raise", "amount": 40}  # 30 -> 40: short of 50
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["code"] == "in_action" and out["params"]["index"] == 2
    assert out["params"]["refusal"] == {"code": "raise_too_small", "params": {"minimum": 50, "action": "raise"}}
    assert out["error"].startswith("Action 2 (A relancer) : Une relance vaut au moins")
    rec = a_ramponneau_record().record()
    rec["deck"][0] = "Zz"
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path)]) == 1
    assert json.loads(capsys.readouterr().out)["code"] == "not_a_card"


def test_cli_replay_of_a_draw_record(tmp_path, capsys):
    """HAND_RECORDS.md: `draw` records carry the discards of each `draw` action and
    the rebuilt decks in `reshuffles`."""
    from tavern.cards import SeededSource

    e = draw.new_deal({"big_blind": 4}, [{"player": f"P{i}", "chips": 100} for i in range(8)], 0,
                      rng=SeededSource(random.Random(9)))
    while not e.over:
        p = e.to_act()[0]
        legal = {a["action"]: a for a in e.legal_actions(p)}
        if "draw" in legal:
            e.act(p, "draw", discard=legal["draw"]["cards"])  # everybody draws five
        else:
            e.act(p, "check" if "check" in legal else "call" if "call" in legal else "show")
    rec = e.record()
    assert rec["reshuffles"]  # 8 players drawing five each run the stock out
    path = tmp_path / "draw.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["chips"] == e.result()["chips"]


def test_to_phh_writes_pokerkit_notation():
    """PHH: players p1..pn from the seat left of the button; `cbr` amounts are the
    street totals, as in our records."""
    text = to_phh(a_ramponneau_record().record())
    assert 'variant = "NT"' in text and "blinds_or_straddles = [5, 10, 0]" in text
    assert "starting_stacks = [500, 500, 120]" in text
    assert '"d dh p3 AhAd"' in text and '"p3 cbr 30"' in text and '"d db 2c7d9h"' in text
    assert '"p2 f"' in text and '"p3 sm AhAd"' in text


def test_to_phh_refuses_what_phh_cannot_say():
    """Our records can hold a post to enter and a protected player; PHH cannot."""
    rec = a_ramponneau_record().record()
    with refused("phh_ramponneau_only", IllegalAction):
        to_phh({**rec, "game": "draw"})
    prot = ramponneau.new_deal({"small_blind": 5, "big_blind": 10},
                               [{"player": "A", "chips": 100}, {"player": "B", "chips": 100}], 0)
    prot.protect("B")
    with refused("phh_no_protect", IllegalAction):
        to_phh(prot.record())


def test_cli_export_phh(tmp_path, capsys):
    """`tavern export-phh RECORD.json` prints the PHH text pokerkit reads back."""
    pokerkit = pytest.importorskip("pokerkit")
    e = a_ramponneau_record(percent=0)  # pokerkit knows nothing of the tavern's rake
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(e.record()))
    assert main(["export-phh", str(path)]) == 0
    text = capsys.readouterr().out
    states = list(pokerkit.HandHistory.loads(text))
    state = states[-1]
    # p1..p3 are A, B, C (A is left of the button C).
    assert list(state.stacks) == [e.result()["chips"][p] for p in "ABC"] == [380, 450, 290]


def test_a_post_to_enter_is_recorded_as_a_post_action():
    """HAND_RECORDS.md: "post | amount | a voluntary post to enter (the big blind out
    of turn, missed blinds)"; "blinds [...] due by position [...] are not actions"."""
    seats = [{"player": p, "chips": 300} for p in "ABCDE"]
    seats[3]["post"] = True
    seats[4]["post"] = "both"
    e = ramponneau.new_deal({"small_blind": 5, "big_blind": 10}, seats, 0)
    while not e.over:
        p = e.to_act()[0]
        legal = e.legal_actions(p)
        e.act(p, "check" if legal[0]["action"] == "check" else "call" if legal[0]["action"] == "fold" else "show")
    rec = e.record()
    assert rec["actions"][:2] == [{"player": "D", "action": "post", "amount": 10},
                                  {"player": "E", "action": "post", "amount": 15}]
    assert all("post" not in s for s in rec["seats"])
    assert ramponneau.replay(rec)["chips"] == e.result()["chips"]
    bad = json.loads(json.dumps(rec))
    bad["actions"][0]["amount"] = 7
    with refused("record_post_amount", IllegalAction):
        ramponneau.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["actions"].append({"player": "D", "action": "post", "amount": 10})
    with refused("record_posts_first", IllegalAction):
        ramponneau.replay(bad)


@pytest.mark.parametrize("field, value, rule", [
    ("deck", None, "record_deck_list"),
    ("actions", {"player": "A"}, "record_actions_list"),
    ("reshuffles", [["As"], "Kd"], "record_reshuffles_list"),
    ("button", 7, "bad_button"),
    ("seats", [{"player": "A", "chips": -5}, {"player": "B", "chips": 10}], "seat_chips"),
])
def test_replay_refuses_malformed_records(field, value, rule):
    """HAND_RECORDS.md: an inconsistent record "is refused with a message naming the
    rule" — never replayed with made-up parts (a missing deck is not reshuffled)."""
    rec = a_ramponneau_record().record()
    rec[field] = value
    with refused(rule, IllegalAction):
        ramponneau.replay(rec)
