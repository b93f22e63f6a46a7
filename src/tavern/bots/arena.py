"""Deals played by policies alone, straight on the engines: what the tests
and the bench (bench/bench_bots.py) use to watch the house players play.

The arena asks only the players ``to_act()`` names, hands each one its own
view and legal actions, and applies the move it returns: an illegal move
raises the engine's :class:`tavern.games.base.IllegalAction`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tavern.bots import Policy
from tavern.cards import SeededSource
from tavern.games import registry
from tavern.games.base import Engine

#: A small table's config for each game (the engines' defaults otherwise).
CONFIGS: dict[str, dict[str, Any]] = {
    "ramponneau": {"small_blind": 1, "big_blind": 2},
    "draw": {"big_blind": 4, "structure": "fixed-limit", "draws": 1},
}
#: A usual number of players for each game, within its seat range.
PLAYERS: dict[str, int] = {"ramponneau": 6, "draw": 4, "rami": 3, "double_rami": 3, "remigio": 3, "gin": 2, "rummoli": 4, "rams": 4}

#: Called after each move: ``(engine, player, view, legal, move)``.
Watch = Callable[[Engine, str, dict[str, Any], list[dict[str, Any]], dict[str, Any]], None]


def new_deal(game: str, names: list[str], button: int, seed: int, *, chips: int | dict[str, int] = 1000,
             carry: dict[str, Any] | None = None, config: dict[str, Any] | None = None) -> Engine:
    """A deal of ``game`` dealt from a seeded shuffle."""
    seats = [{"player": p, "chips": chips[p] if isinstance(chips, dict) else chips} for p in names]
    module = registry.load(game)
    cfg = CONFIGS.get(game, {}) if config is None else config
    engine: Engine = module.new_deal(cfg, seats, button, rng=SeededSource(random.Random(seed)), carry=carry)
    return engine


def play(engine: Engine, seats: dict[str, Policy], rng: random.Random, *, watch: Watch | None = None,
         limit: int = 5000) -> Engine:
    """Play ``engine`` to its end, each player by his policy in ``seats``."""
    for _ in range(limit):
        if engine.over:
            return engine
        player = engine.to_act()[0]
        view = engine.view(player)
        legal = engine.legal_actions(player)
        move = seats[player](view, legal, rng)
        engine.act(player, **move)
        if watch is not None:
            watch(engine, player, view, legal, move)
    raise RuntimeError(f"{engine.game}: no end after {limit} moves")


def fair_deal(game: str, seed: int, level: str) -> tuple[Engine, dict[str, Any]]:
    """A deal as a table deals it — shuffled by the fair stream of a seeded
    server seed, its per-card digests committed before the first card —
    played to its end by house players at ``level`` (chips drawn from
    40, 200 and 1,000: all-ins happen). Returns the engine and its record
    with the table's fair block (bench/bench_deal_end.py, the tests of the
    deal's end: fair_cards.seen_positions, stats.deal_figures)."""
    from tavern import fair, fair_cards
    from tavern.bots import policy

    rng = random.Random(seed)
    names = [f"p{i}" for i in range(PLAYERS[game])]
    dealt = fair.DealSeed(rng.randbytes(32))
    client_seeds = [f"{seed}-{n}" for n in names]
    stream = dealt.stream(1, seed + 1, client_seeds)
    seats = [{"player": n, "chips": rng.choice((40, 200, 1000))} for n in names]
    engine: Engine = registry.load(game).new_deal(CONFIGS.get(game, {}), seats, seed % len(names), rng=stream)
    cards = fair_cards.DealCards.of(dealt, 1, seed + 1, stream)
    block = {**dealt.block(1, seed + 1, names, client_seeds, stream), "cards": cards.digests()}
    play(engine, {n: policy(game, level) for n in names}, rng)
    block = {**block, "shuffles": list(stream.shuffles), "cards": cards.digests()}
    return engine, registry.check_record(engine.record()).with_table(fair=block).dump()
