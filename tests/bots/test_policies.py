"""The house players (issue 29): every game, both levels.

* legal and in turn over whole deals played by the policies alone;
* no hidden information: the same seat view and seed give the same move
  whatever the other hands and the stock hold (another deal with the
  unseen cards moved around gives the seat the very same view);
* deterministic: the same view and seed, the same move.
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest
from tests.refusals import refused

from tavern.bots import LEVELS, decide, policy
from tavern.bots.arena import PLAYERS, new_deal, play
from tavern.games import registry

GAMES = list(registry.GAMES)
NAMES = "ABCDEFGH"


def _play_checked(game: str, level: str, n: int, button: int, seed: int) -> list[str]:
    """One deal, every seat a house player at ``level``, each asked only
    when the engine waits for him and only with something legal to do; the
    players who moved, in order."""
    names = list(NAMES[:n])
    engine = new_deal(game, names, button, seed=seed)
    moved: list[str] = []

    def seat(name: str) -> Any:
        pol = policy(game, level)

        def decide_one(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
            assert name in engine.to_act(), f"{name} asked out of turn"
            assert legal, f"{name} asked to move with nothing legal"
            moved.append(name)
            return pol(view, legal, rng)

        return decide_one

    play(engine, {p: seat(p) for p in names}, random.Random(seed))
    assert engine.over
    return moved


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game", GAMES)
def test_whole_deals_every_move_legal_and_in_turn(game: str, level: str) -> None:
    """Three deals at the usual table and one at the smallest, every seat a
    house player: each move is accepted by the engine (an illegal one raises),
    made by the player the engine waits for, and the deal ends."""
    lo = registry.spec(game).seats[0]
    for k, n in enumerate([PLAYERS[game]] * 3 + [lo]):
        assert _play_checked(game, level, n, k % n, 100 + k)


CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|X\d)$")


def _cards_in(value: Any) -> set[str]:
    """Every card code a JSON value shows (the cards this seat has seen)."""
    found: set[str] = set()
    if isinstance(value, str) and CARD.match(value):
        found.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            found |= _cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= _cards_in(v)
    return found


def _same_view_elsewhere(engine: Any, player: str, rng: random.Random) -> Any | None:
    """Another state of the same deal giving ``player`` the same view: the
    deck with the cards he has not seen shuffled among their places, the
    record's actions replayed on it. None when the replay refuses (an
    unseen card was played meanwhile) or the view changed."""
    record = engine.record()
    view = engine.view(player)
    seen = _cards_in(view)
    # Gin's deck is two decks one after the other, each checked whole: its
    # unseen cards move within the playing deck (the first 52).
    for span in (len(record["deck"]), 52):
        deck = list(record["deck"])
        places = [i for i, c in enumerate(deck) if c not in seen and i < span]
        moved = [deck[i] for i in places]
        rng.shuffle(moved)
        for i, c in zip(places, moved, strict=True):
            deck[i] = c
        if deck == record["deck"]:
            continue
        other = None
        try:
            for step in registry.replay_steps({**record, "deck": deck}):
                other = step[0]
        except Exception:
            continue
        if other is not None and other.view(player) == view and other.legal_actions(player) == engine.legal_actions(player):
            return other
    return None


@pytest.mark.parametrize("game", GAMES)
def test_hidden_cards_and_stock_never_change_a_decision(game: str) -> None:
    """« It never reads the engine's state: changing the other players' hidden
    cards and the stock never changes a decision for the same view and seed »
    (issue 29). At decisions along a deal, a second deal with the unseen cards
    moved gives the seat the same view: the decision is the same, while the
    other players' hands did change."""
    rng = random.Random(7)
    checked = 0
    for k in range(4):
        n = PLAYERS[game]
        names = list(NAMES[:n])
        engine = new_deal(game, names, k % n, seed=300 + k)
        seats = {p: policy(game, LEVELS[k % 2]) for p in names}
        steps = 0
        while not engine.over and steps < 400:
            player = engine.to_act()[0]
            view, legal = engine.view(player), engine.legal_actions(player)
            if steps % 3 == 0:
                other = _same_view_elsewhere(engine, player, rng)
                if other is not None:
                    hidden_changed = any(other.view(p) != engine.view(p) for p in names if p != player) or \
                        json.dumps(other.record()["deck"]) != json.dumps(engine.record()["deck"])
                    assert hidden_changed
                    for level in LEVELS:
                        a = decide(game, level, other.view(player), other.legal_actions(player), random.Random(steps))
                        b = decide(game, level, view, legal, random.Random(steps))
                        assert a == b, (game, level, view)
                    checked += 1
            engine.act(player, **seats[player](view, legal, rng))
            steps += 1
    assert checked >= 3, f"{game}: only {checked} decisions compared"


@pytest.mark.parametrize("game", GAMES)
def test_same_view_and_seed_same_move(game: str) -> None:
    """Determinism: a view (even a copy of it) and a seed give one move, asked twice."""
    n = PLAYERS[game]
    names = list(NAMES[:n])
    engine = new_deal(game, names, 0, seed=11)
    rng = random.Random(3)
    for step in range(60):
        if engine.over:
            break
        player = engine.to_act()[0]
        view, legal = engine.view(player), engine.legal_actions(player)
        for level in LEVELS:
            first = decide(game, level, view, legal, random.Random(step))
            again = decide(game, level, copy.deepcopy(view), copy.deepcopy(legal), random.Random(step))
            assert first == again
        engine.act(player, **decide(game, "habitué", view, legal, rng))


def test_unknown_level_or_game_is_refused_in_french() -> None:
    with refused("bot_level", level="expert"):
        policy("rams", "expert")
    with refused("unknown_game", game="belote"):
        policy("belote", "habitué")


@pytest.mark.parametrize("game", GAMES)
def test_the_bench_players_play_legal_deals(game: str) -> None:
    """The random and greedy players the bench measures against (and, at
    poker, always-call and raise/call/fold) only make legal moves too."""
    from tavern.bots.simple import always_call, greedy_player, raise_call_fold, random_player

    others = [random_player, greedy_player(game)] + ([always_call, raise_call_fold] if game in ("ramponneau", "draw") else [])
    n = PLAYERS[game]
    names = list(NAMES[:n])
    for k, other in enumerate(others):
        engine = new_deal(game, names, k % n, seed=500 + k)
        seats = {p: (other if i else policy(game, "habitué")) for i, p in enumerate(names)}
        play(engine, seats, random.Random(k))
        assert engine.over


def test_gin_takes_the_discard_only_into_a_meld() -> None:
    """« habitué » takes the top discard when it goes into a meld, not a
    lone low card that only lowers his count (it would show his hand)."""
    hand = ["5h", "6h", "Qc", "Qd", "2s", "9c", "Kd", "Jc", "4d", "8s"]
    legal = [{"action": "draw", "sources": ["stock", "discard"]}]
    into_meld = {"hand": hand, "discard": {"top": "7h", "size": 3}, "knock_limit": 10, "stock": 20}
    lone = {**into_meld, "discard": {"top": "3c", "size": 3}}
    assert decide("gin", "habitué", into_meld, legal, random.Random(1)) == {"action": "draw", "source": "discard"}
    assert decide("gin", "habitué", lone, legal, random.Random(1)) == {"action": "draw", "source": "stock"}


def test_holdem_folds_trash_to_a_big_bet_and_raises_aces() -> None:
    """Pot odds: 7-2 offsuit facing an all-in folds; aces raise."""
    def seat(name: str, n: int, chips: int, bet: int, folded: bool, cards: list[str] | None) -> dict[str, Any]:
        return {"player": name, "seat": n, "chips": chips, "bet": bet, "committed": bet, "folded": folded,
                "all_in": chips == 0, "cards": cards, "card_count": 0 if folded else 2}

    def view(cards: list[str]) -> dict[str, Any]:
        return {"game": "ramponneau", "phase": "bet", "round": 0, "button": 0, "board": [], "pot": 403, "to_act": "A",
                "big_blind": 2, "small_blind": 1,
                "players": [seat("A", 0, 400, 0, False, cards), seat("B", 1, 0, 400, False, None), seat("C", 2, 398, 2, True, None)]}
    legal = [{"action": "fold"}, {"action": "call", "amount": 400}]
    assert decide("ramponneau", "habitué", view(["7h", "2c"]), legal, random.Random(1)) == {"action": "fold"}
    assert decide("ramponneau", "habitué", view(["Ah", "Ac"]), legal, random.Random(1)) == {"action": "call"}
