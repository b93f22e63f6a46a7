"""The duplicate format (issue 37): every deal played again with the seats
rotated, so that each player holds each hand — most of the cards' luck
cancels, and a few thousand deals say what a hundred thousand would not.

A *lineup* is one factory per seat, ``make() -> player``; a player is a
policy (``player(view, legal, rng) -> move``) and may also have ``seen(view)``:
it is then shown, at each deal's end, its seat's view of the finished deal
and its seat's name (``seen(view, name)``)
(what a house seat is shown at a table: tables/driving.py), which a player
with a memory of its opponents learns from. A player lives for a whole
*match* (many deals): its memory of the others carries from deal to deal
as at a real table.

A *block* is ``session`` deals (each from its own card seed, the button
moving, chips and ``carry`` carried from one to the next, as a table does)
played ``n`` times, the lineup shifted one seat each time: seat ``s`` is
played by ``lineup[(s + r) % n]`` in rotation ``r``. A block's result for a
lineup index is its mean chips won per deal over every rotation; blocks are
independent, so the interval is the normal one over blocks.

Parallel-safe and light: ``jobs`` worker processes (default 1 — the
machine is shared) each play a slice of the blocks with their own players;
nothing is written anywhere; a run is reproducible from its seed (the same
blocks whatever ``jobs``).

Used by bench/bench_poker.py and bench/bench_bots.py.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavern.bots.arena import new_deal

Player = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], dict[str, Any]]
Factory = Callable[[], Player]


@dataclass
class Outcome:
    """What a match says of one lineup index: its chips won per deal, block by block."""

    per_block: list[float] = field(default_factory=list)
    #: CPU seconds of each decision, when the lineup's player was timed.
    times: list[float] = field(default_factory=list)

    def interval(self, z: float = 1.96) -> tuple[float, float, float]:
        """The mean chips won per deal and its 95 % interval (normal, over blocks)."""
        xs = self.per_block
        n = len(xs)
        m = sum(xs) / n if n else 0.0
        var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
        half = z * math.sqrt(var / n) if n else 0.0
        return m, m - half, m + half


@dataclass(frozen=True)
class Match:
    """A duplicate match: which game, who sits, how many blocks."""

    game: str
    lineup: Sequence[Factory]
    blocks: int
    seed: int
    session: int = 1
    chips: int = 1000
    config: dict[str, Any] | None = None
    #: Lineup indexes whose decisions are timed (CPU time).
    timed: tuple[int, ...] = ()
    #: The chips reset at each deal (poker's usual bench: every hand 200 bb deep).
    reset_chips: bool = False
    #: Each player keeps one name through the rotations (``P<lineup index>``),
    #: as at a real table: a player who remembers the others by name then
    #: never mixes two of them (without it, seat ``s`` is ``P<s>`` whoever plays it).
    stable_names: bool = False


class _Timed:
    def __init__(self, inner: Player, into: list[float]) -> None:
        self.inner, self.into = inner, into
        seen = getattr(inner, "seen", None)
        if seen is not None:
            self.seen = seen

    def __call__(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        t = time.process_time()
        move = self.inner(view, legal, rng)
        self.into.append(time.process_time() - t)
        return move


def play_block(match: Match, players: list[Player], block: int) -> list[float]:
    """One block (module's docstring): each lineup index's mean chips won per deal."""
    n = len(players)
    names = [f"P{i}" for i in range(n)]  # seat names: P0 is seat 0, whoever plays it
    rng = random.Random(match.seed * 1_000_003 + block)
    seeds = [rng.randrange(1 << 30) for _ in range(match.session)]
    won = [0.0] * n
    for r in range(n):
        if match.stable_names:
            names = [f"P{(s + r) % n}" for s in range(n)]  # in seat order
        who = {names[s]: (s + r) % n for s in range(n)}  # seat name -> lineup index
        chips = {p: match.chips for p in names}
        carry = None
        play_rng = random.Random(seeds[0] ^ (r + 1))
        for k, seed in enumerate(seeds):
            engine = new_deal(match.game, names, k % n, seed=seed, chips=chips, carry=carry, config=match.config)
            _play(engine, {p: players[who[p]] for p in names}, play_rng)
            res = engine.result()
            for p in names:
                won[who[p]] += res["delta"][p]
            chips = {p: match.chips for p in names} if match.reset_chips else {p: res["chips"][p] for p in names}
            carry = res.get("carry")
            if min(chips.values()) <= 0:
                chips = {p: match.chips for p in names}
                carry = None
    return [w / (n * match.session) for w in won]


def _play(engine: Any, seats: dict[str, Player], rng: random.Random, limit: int = 5000) -> None:
    for _ in range(limit):
        if engine.over:
            for p, player in seats.items():
                seen = getattr(player, "seen", None)
                if seen is not None:
                    seen(engine.view(p), p)  # the seat's name: a player moves seats from rotation to rotation
            return
        p = engine.to_act()[0]
        move = seats[p](engine.view(p), engine.legal_actions(p), rng)
        engine.act(p, **move)
    raise RuntimeError(f"{engine.game}: no end after {limit} moves")


def _slice(match: Match, part: int, parts: int) -> tuple[list[list[float]], list[list[float]]]:
    times: list[list[float]] = [[] for _ in match.lineup]
    players: list[Player] = []
    for i, make in enumerate(match.lineup):
        p = make()
        players.append(_Timed(p, times[i]) if i in match.timed else p)
    results = [play_block(match, players, b) for b in range(part, match.blocks, parts)]
    return results, times


_CURRENT: Match | None = None  # the match a forked worker plays (factories need not pickle)


def _worker(args: tuple[int, int]) -> tuple[list[list[float]], list[list[float]]]:
    assert _CURRENT is not None
    return _slice(_CURRENT, *args)


def run(match: Match, jobs: int = 1) -> list[Outcome]:
    """Play ``match``: one :class:`Outcome` per lineup index."""
    global _CURRENT
    if jobs <= 1:
        parts = [_slice(match, 0, 1)]
    else:
        _CURRENT = match
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_worker, [(j, jobs) for j in range(jobs)])
        _CURRENT = None
    out = [Outcome() for _ in match.lineup]
    for results, times in parts:
        for block in results:
            for i, x in enumerate(block):
                out[i].per_block.append(x)
        for i, ts in enumerate(times):
            out[i].times.extend(ts)
    return out


def report(label: str, outcome: Outcome, scale: float = 1.0, unit: str = "chips/deal") -> str:
    """One line: the mean, its 95 % interval and the interval's width (``scale``: e.g. 100 / big blind for bb/100)."""
    m, lo, hi = (scale * v for v in outcome.interval())
    return f"{label} {m:+9.2f} {unit} [{lo:+9.2f}, {hi:+9.2f}] width {hi - lo:7.2f} ({len(outcome.per_block)} blocks)"
