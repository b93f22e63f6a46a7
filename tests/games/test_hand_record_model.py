"""Issue 10 §2: one record model, one builder, one replay. Every game's
engine writes its record through :func:`tavern.games.records.hand_record`, the
table adds its fair block and story to that same model, and
:func:`tavern.games.registry.replay` is the only replay loop (each game gives
only what its replay reports)."""

from __future__ import annotations

import json
import random

import pytest
from tests.games.test_record_strict import CONFIGS

from tavern.cards import SeededSource
from tavern.games import registry
from tavern.games.records import HandRecord
from tavern.games.registry import check_record


def played(game: str, moves: int = 6):
    n = 2 if game == "gin" else 3
    seats = [{"player": p, "chips": 500} for p in ("ana", "bob", "cid")[:n]]
    engine = registry.load(game).new_deal(CONFIGS[game], seats, 0, rng=SeededSource(random.Random(9)))
    for _ in range(moves):  # a few legal moves (each the table's safe move), so the record holds actions
        if engine.over:
            break
        player = engine.to_act()[0]
        move = dict(engine.timeout_action(player))
        engine.act(player, move.pop("action"), **move)
    return engine


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_engine_writes_the_one_model_and_only_the_documented_keys(game):
    engine = played(game)
    record = engine.record()
    model = check_record(json.loads(json.dumps(record)))
    assert isinstance(model, HandRecord)
    # The model writes back exactly what the engine wrote (docs/hand-records.md's keys).
    assert model.dump() == record
    assert set(record) <= {"format", "game", "config", "seats", "button", "deck", "reshuffles",
                           "carry", "actions"}
    assert record["format"] == 1 and record["actions"], "a few moves were recorded"
    # The table's parts ride on the same model and the engine never reads them.
    story = [{"event": "deal", "deal": 1}]
    archived = model.with_table(fair={"scheme": "tavern-fair-1"}, story=story).dump()
    assert archived["fair"] == {"scheme": "tavern-fair-1"} and archived["story"] == story
    assert registry.replay(archived) == registry.replay(record)


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_one_replay_loop_each_game_gives_only_its_account(game):
    module = registry.load(game)
    assert not hasattr(module, "replay"), "the replay loop is registry.replay, for every game"
    assert callable(module.replay_output)
    engine = played(game)
    out = registry.replay(engine.record())
    # A replay of a record cut where the deal stands rebuilds the same deal.
    assert out["finished"] is engine.over
    steps = list(registry.replay_steps(engine.record()))
    assert len(steps) == len(engine.record()["actions"]) + 1 - sum(
        1 for a in engine.record()["actions"] if a["action"] == "post")
    assert steps[-1][0].view(None) == engine.view(None)
