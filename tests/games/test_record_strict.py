"""Issue 10 §4: every record and config field is validated strictly — no
``true`` taken for a number, no unknown key, a malformed carry refused — and
``tavern replay`` answers a clear error naming the field with exit code 2,
never a traceback, for every game."""

from __future__ import annotations

import copy
import json
import random

import pytest

from tavern.cards import SeededSource
from tavern.cli import main as cli
from tavern.games import registry
from tavern.games.base import RecordError

CONFIGS = {
    "ramponneau": {"small_blind": 1, "big_blind": 2}, "draw": {"big_blind": 2}, "rami": {},
    "double_rami": {}, "remigio": {}, "gin": {}, "rummoli": {}, "rams": {},
}


def fresh_record(game: str) -> dict:
    n = 2 if game == "gin" else 3
    seats = [{"player": p, "chips": 500} for p in ("ana", "bob", "cid")[:n]]
    engine = registry.load(game).new_deal(CONFIGS[game], seats, 0, rng=SeededSource(random.Random(4)))
    return json.loads(json.dumps(engine.record()))


def first_number_key(config: dict) -> str:
    return next(k for k, v in config.items() if isinstance(v, int) and not isinstance(v, bool))


def mutations(game: str):
    rec = fresh_record(game)
    number = first_number_key(rec["config"])
    yield "config.bogus", lambda r: r["config"].update(bogus=1)
    yield f"config.{number}", lambda r: r["config"].update({number: True})
    yield "surprise", lambda r: r.update(surprise=1)
    yield "seats.0.chips", lambda r: r["seats"][0].update(chips=True)
    yield "seats.1.nickname", lambda r: r["seats"][1].update(nickname="x")
    yield "button", lambda r: r.update(button=True)
    yield "format", lambda r: r.update(format=True)
    yield "carry", lambda r: r.update(carry=[1, 2])
    yield "carry", lambda r: r.update(carry="x")
    yield "actions", lambda r: r.update(actions="x")
    yield "actions.0.player", lambda r: r.update(actions=[{"player": 3, "action": "x"}])
    yield "deck", lambda r: r.update(deck="x")
    yield "game", lambda r: r.update(game="chess")


CASES = [(g, field, change) for g in CONFIGS for field, change in mutations(g)]


@pytest.mark.parametrize("game,field,change", CASES, ids=[f"{g}-{f}-{i}" for i, (g, f, _) in enumerate(CASES)])
def test_a_malformed_record_is_refused_naming_the_field(game, field, change, tmp_path, capsys) -> None:
    record = fresh_record(game)
    assert registry.replay(copy.deepcopy(record)) is not None  # the untouched record replays
    change(record)
    with pytest.raises(RecordError) as refused:
        registry.replay(record)
    assert refused.value.field == field
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert cli(["replay", str(path)]) == 2
    out = json.loads(capsys.readouterr().out)  # one JSON line, no traceback
    # The field by its path for the command line, and said in French (its form label when it has one).
    assert out["field"] == field and out["params"]["field"] == field and out["error"].startswith("« ")


@pytest.mark.parametrize("game,carry,field", [
    ("rams", {"pot": "x"}, "carry.pot"), ("rams", {"pot": 5, "forced": 1}, "carry.forced"),
    ("rams", {"bogus": 1}, "carry"), ("rummoli", {"board": 5}, "carry.board"),
    ("rummoli", {"board": {"Ts": -1}}, "carry.board.Ts"), ("rami", {"scores": {}}, "carry"),
    ("remigio", {"x": 1}, "carry"), ("double_rami", {"scores": {"ana": 3}}, "carry"),
])
def test_a_carry_the_game_cannot_hold_is_refused(game, carry, field) -> None:
    """A carry is what the previous deal handed on; a shape no deal makes is
    a malformed record (a table playing rami for chips carries nothing)."""
    record = fresh_record(game)
    record["carry"] = carry
    with pytest.raises(RecordError) as refused:
        registry.replay(record)
    assert refused.value.field == field, str(refused.value)


def gin_record_with_carry(carry) -> dict:
    record = fresh_record("gin")
    record["carry"] = carry
    return record


def running_sheet() -> dict:
    return {"players": ["ana", "bob"], "target": 250, "ncols": 3, "column": 1,
            "points": {"ana": [251, 40, 0], "bob": [120, 0, 0]}, "cocottes": {"ana": 5, "bob": 2},
            "first": ["ana", None, None], "lines": [], "deals": 9}


@pytest.mark.parametrize("field,change", [
    ("carry.column", lambda c: c.update(column=7)),                      # the case
    ("carry.points.ana.1", lambda c: c["points"]["ana"].__setitem__(1, -5)),
    ("carry.cocottes.bob", lambda c: c["cocottes"].update(bob=True)),
    ("carry.ncols", lambda c: c.update(ncols=4)),
    ("carry.points.bob", lambda c: c["points"].update(bob=[1, 2])),
    ("carry.first", lambda c: c.update(first=["zoe", None, None])),
    ("carry.secret", lambda c: c.update(secret=1)),
])
def test_a_gin_match_sheet_is_checked(field, change) -> None:
    """RULES.md (Gin): "three columns played one after the other, each until a
    player reaches 250": a carried sheet has three columns of points, never
    negative, and is in one of them."""
    sheet = running_sheet()
    assert registry.replay(gin_record_with_carry(copy.deepcopy(sheet)))  # the sound sheet goes on
    change(sheet)
    with pytest.raises(RecordError) as refused:
        registry.replay(gin_record_with_carry(sheet))
    assert refused.value.field == field, str(refused.value)


@pytest.mark.parametrize("game", list(CONFIGS))
def test_every_game_counts_the_refused_action_from_one(game, tmp_path, capsys) -> None:
    """docs/hand-records.md: a replay's refusal names the action counted from
    1 in the record's ``actions`` list, in every game."""
    n = 2 if game == "gin" else 3
    seats = [{"player": p, "chips": 500} for p in ("ana", "bob", "cid")[:n]]
    engine = registry.load(game).new_deal(CONFIGS[game], seats, 0, rng=SeededSource(random.Random(4)))
    first = engine.to_act()[0]
    legal = engine.legal_actions(first)[0]
    record = json.loads(json.dumps(engine.record()))
    good = {k: v for k, v in legal.items() if k == "action"}
    try:  # a first action the engine takes without arguments, when there is one
        registry.replay({**record, "actions": [{"player": first, **good}]})
        record["actions"] = [{"player": first, **good}, {"player": first, "action": "dance"}]
        expected = "Action 2 "
    except Exception:
        record["actions"] = [{"player": first, "action": "dance"}]
        expected = "Action 1 "
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert cli(["replay", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    error = out["error"]
    assert error.startswith(expected + f"({first} dance"), error
    assert out["code"] == "in_action" and out["params"]["index"] == int(expected.split()[1])


@pytest.mark.parametrize("content,code", [
    (b"\xe9t\xe9", "record_not_utf8"), (b"", "record_empty"), (b"{not json", "record_not_json"),
])
def test_replay_says_why_a_file_is_no_record(content, code, tmp_path, capsys) -> None:
    """Issue 33: the file that is no record (not UTF-8, empty, not JSON) is
    named in one French JSON line with its code, exit 2, as `tavern verify` does."""
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert cli(["replay", str(path)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["code"] == code and out["error"].startswith(f"Le fichier « {path} » ")
