"""The poker house players with a memory of the table (issue 37): the
opponent model (tavern.bots.reader) and the player that carries it
(tavern.bots.players).

* legal and in turn over matches of several deals, at « habitué » and
  « fort », heads-up and at a full table, the memory carried across deals;
* the opponent model is built from a spectator's information only: the
  seat's own cards and what the table shows everyone (issue 37: « a new test
  shows an opponent model built from a spectator's information only »);
* the same views give the same moves: a player fed the same views, in the
  same order, with the same seed, decides the same — and that while the
  other players' hidden cards differ.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from tests.bots.test_policies import _same_view_elsewhere

from tavern.bots.arena import new_deal
from tavern.bots.levels import FORT, LEVELS, REGULAR
from tavern.bots.players import HousePlayer, house_player
from tavern.bots.reader import TableReader

NAMES = "ABCDEF"


def _match(game: str, players: dict[str, Any], deals: int, seed: int,
           watch: Any = None) -> dict[str, int]:
    """``deals`` deals at one table (the button moving, chips carried), each
    house player shown its seat's view of every deal's end; every move is
    checked legal by the engine itself (an illegal one raises)."""
    names = list(players)
    chips = {p: 400 for p in names}
    rng = random.Random(seed)
    for k in range(deals):
        engine = new_deal(game, names, k % len(names), seed=seed * 100 + k, chips=chips)
        for _ in range(500):
            if engine.over:
                break
            p = engine.to_act()[0]
            view, legal = engine.view(p), engine.legal_actions(p)
            assert legal, f"{p} asked to move with nothing legal"
            move = players[p](view, legal, rng)
            if watch is not None:
                watch(engine, p, view, move)
            engine.act(p, **move)
        assert engine.over
        for p, player in players.items():
            if isinstance(player, HousePlayer):
                player.seen(engine.view(p), p)
        res = engine.result()
        chips = {p: res["chips"][p] if res["chips"][p] > 0 else 400 for p in names}
    return chips


@pytest.mark.parametrize("level", [REGULAR, FORT])
@pytest.mark.parametrize(("game", "n"), [("ramponneau", 2), ("ramponneau", 6), ("draw", 4)])
def test_house_players_with_a_memory_play_legal_matches(game: str, n: int, level: str) -> None:
    """Six deals, every seat a house player (levels mixed): each move is one
    the engine accepts, each deal ends, and the reader has counted every
    other player's deals."""
    players = {p: house_player(game, level if i % 2 == 0 else LEVELS[i % len(LEVELS)])
               for i, p in enumerate(NAMES[:n])}
    _match(game, players, 6, seed=n + len(level))
    first = players["A"]
    assert first.reader is not None
    for other in NAMES[1:n]:
        assert first.reader.habits[other].dealt == 6.0 + 6  # the prior's six deals, then the six seen


def _spectator(view: dict[str, Any], me: str, mine: list[str]) -> dict[str, Any]:
    """The spectator's view with only the seat's own cards put back."""
    out = copy.deepcopy(view)
    for p in out["players"]:
        if p["player"] == me:
            p["cards"] = list(mine)
    return out


@pytest.mark.parametrize("game", ["ramponneau", "draw"])
def test_the_opponent_model_is_built_from_a_spectators_information(game: str) -> None:
    """A reader fed the seat's views and one fed what a spectator sees
    (``engine.view(None)``) plus the seat's own cards end with the same
    habits and the same ranges: the model holds nothing a spectator at
    that seat could not know. The seat's views do differ from the
    spectator's (its own cards), so the check is not empty."""
    me = "A"
    seat_reader, spectator_reader = TableReader(), TableReader()
    differed = 0

    def watch(engine: Any, p: str, view: dict[str, Any], move: dict[str, Any]) -> None:
        nonlocal differed
        if p != me:
            return
        seen = engine.view(None)
        differed += seen != view
        seat_reader.observe(view, me)
        spectator_reader.observe(_spectator(seen, me, view["players"][_index(view, me)]["cards"]), me)
        seat_reader.acted(view, move)
        spectator_reader.acted(view, move)

    players = {p: house_player(game, REGULAR) for p in NAMES[:3]}
    chips = {p: 400 for p in players}
    for k in range(8):
        engine = new_deal(game, list(players), k % 3, seed=700 + k, chips=chips)
        rng = random.Random(k)
        while not engine.over:
            p = engine.to_act()[0]
            view, legal = engine.view(p), engine.legal_actions(p)
            move = players[p](view, legal, rng)
            watch(engine, p, view, move)
            engine.act(p, **move)
        end, public = engine.view(me), engine.view(None)
        seat_reader.observe(end, me)
        mine = end["players"][_index(end, me)]["cards"] or []
        spectator_reader.observe(_spectator(public, me, mine), me)
        if k == 6:
            dead = set(mine)
            for other in ("B", "C"):
                assert seat_reader.weights(other, dead) == spectator_reader.weights(other, dead)
    assert differed > 0
    assert seat_reader.habits == spectator_reader.habits
    assert any(h.dealt > 6 for h in seat_reader.habits.values())


def _index(view: dict[str, Any], name: str) -> int:
    return next(i for i, p in enumerate(view["players"]) if p["player"] == name)


@pytest.mark.parametrize("level", [REGULAR, FORT])
@pytest.mark.parametrize("game", ["ramponneau", "draw"])
def test_same_views_same_moves_whatever_the_hidden_cards(game: str, level: str) -> None:
    """Two copies of a house player with the same memory, asked on the
    same view with the same seed, decide the same; so does a copy asked on
    the view of another deal that gives this seat the very same view while
    the other players hold other cards (the reshuffle test of issue 29,
    with the memory)."""
    hero = house_player(game, level)
    others = {p: house_player(game, REGULAR) for p in NAMES[1:3]}
    players = {"A": hero, **others}
    _match(game, players, 3, seed=41)  # some memory first
    compared = 0
    for k in range(6):
        engine = new_deal(game, list(players), k % 3, seed=900 + k)
        rng = random.Random(k)
        while not engine.over:
            p = engine.to_act()[0]
            view, legal = engine.view(p), engine.legal_actions(p)
            if p == "A":
                twin = _same_view_elsewhere(engine, p, random.Random(k))
                a, b = copy.deepcopy(hero), copy.deepcopy(hero)
                first = a(view, legal, random.Random(k))
                if twin is not None:
                    assert twin.view(p) == view
                    assert twin.record()["deck"] != engine.record()["deck"]
                    assert b(twin.view(p), twin.legal_actions(p), random.Random(k)) == first
                    compared += 1
            move = players[p](view, legal, rng)
            engine.act(p, **move)
        for p, player in players.items():
            player.seen(engine.view(p), p)
    assert compared >= 1
