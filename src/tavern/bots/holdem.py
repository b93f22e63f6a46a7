"""Ramponneau at « habitué » and « fort » (issue 37): a range-versus-range
decision on the evaluator.

Each opponent still in holds a hand from his *range* — the weights
:meth:`tavern.bots.reader.TableReader.weights` gives each starting hand from
what he has done this deal and his habits. :func:`simulate` plays ``trials``
worlds: each opponent's hand drawn from his range, the board completed at
random; it keeps, per world, our hand's final value, each opponent's, and
how strong each opponent's hand is *now* (its place in his own range: the
hands a bet folds are his weakest). :func:`choose` then prices every move on
those same worlds, one street ahead:

* fold: 0 (what is in the pot is gone either way);
* check: our share of the pot, a little less out of position (a bet may
  still push us off our share);
* call: our share of the pot once called, less the call;
* bet or raise to ``T``: each opponent folds his weakest hands — as many as
  his fold-to-a-bet habit, more against a bigger bet —, the others call;
  the pot when all fold, else our share against the callers less our chips.

The best-priced move is played. « fort » plays more worlds, prices more
sizes and weighs the river's showdown exactly; « habitué » fewer worlds.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass
from typing import Any

from tavern.bots.equity import DECK
from tavern.bots.levels import FORT, REGULAR
from tavern.bots.moves import Move, find
from tavern.bots.reader import TableReader, percentiles
from tavern.games.base import LegalAction
from tavern.games.poker.evaluator import encode, rank7_codes

_CODES = {c: encode(c) for c in DECK}


@dataclass
class Worlds:
    """The simulated worlds of one decision (module's docstring)."""

    names: list[str]
    mine: list[int]  #: our final value, world by world
    theirs: list[list[int]]  #: each opponent's final value, world by world
    place: list[list[float]]  #: each opponent's strength now within his range, 0 weakest .. 1 strongest

    def share(self, t: int, callers: list[int]) -> float:
        """Our share of the pot in world ``t`` against the ``callers``."""
        me = self.mine[t]
        ties = 0
        for j in callers:
            v = self.theirs[j][t]
            if v > me:
                return 0.0
            ties += v == me
        return 1.0 / (1 + ties)


def _strength_now(hand: tuple[str, str], board: list[str]) -> float:
    if not board:
        return 1.0 - percentiles()[hand]
    return float(rank7_codes([_CODES[hand[0]], _CODES[hand[1]], *(_CODES[c] for c in board)]))


def simulate(hole: list[str], board: list[str], ranges: dict[str, list[tuple[tuple[str, str], float]]],
             rng: random.Random, trials: int) -> Worlds:
    """Long because it is the hot loop of a decision: each world draws every
    opponent's hand from his weights (a clash with a card already drawn
    draws again), completes the board from the cards left, and evaluates
    every hand once."""
    names = list(ranges)
    cum: list[list[float]] = []
    hands: list[list[tuple[str, str]]] = []
    for n in names:
        acc, total = [], 0.0
        for _, w in ranges[n]:
            total += w
            acc.append(total)
        cum.append(acc)
        hands.append([h for h, _ in ranges[n]])
    known = set(hole) | set(board)
    rest = [c for c in DECK if c not in known]
    mine_codes = [_CODES[c] for c in hole]
    board_codes = [_CODES[c] for c in board]
    need = 5 - len(board)
    now_cache: dict[tuple[str, str], float] = {}
    worlds = Worlds(names, [], [[] for _ in names], [[] for _ in names])
    strengths: list[list[float]] = [[] for _ in names]
    rnd = rng.random
    for _ in range(trials):
        used: set[str] = set()
        drawn: list[tuple[str, str]] = []
        for j in range(len(names)):
            acc, hs = cum[j], hands[j]
            for _try in range(20):
                h = hs[min(len(hs) - 1, bisect.bisect_left(acc, rnd() * acc[-1]))]
                if h[0] not in used and h[1] not in used:
                    break
            used.update(h)
            drawn.append(h)
        extra: list[int] = []
        while len(extra) < need:
            c = rest[int(rnd() * len(rest))]
            if c not in used:
                used.add(c)
                extra.append(_CODES[c])
        table = board_codes + extra
        worlds.mine.append(rank7_codes(mine_codes + table))
        for j, h in enumerate(drawn):
            worlds.theirs[j].append(rank7_codes([_CODES[h[0]], _CODES[h[1]], *table]))
            s = now_cache.get(h)
            if s is None:
                s = now_cache[h] = _strength_now(h, board)
            strengths[j].append(s)
    for j in range(len(names)):
        order = sorted(strengths[j])
        count = max(1, len(order))
        worlds.place[j] = [bisect.bisect_left(order, x) / count for x in strengths[j]]
    return worlds


def _call_share(reader: TableReader, name: str, street: int, bet: int, pot: int, their_bet: int) -> float:
    """The share of his range an opponent continues with against a bet of
    ``bet`` more into ``pot`` (module's docstring)."""
    h = reader.habits.get(name)
    if h is None:
        from tavern.bots.reader import Habits

        h = Habits()
    price = max(0, bet - their_bet)
    if price <= 0:
        return 1.0
    need = price / (pot + 2 * price)
    # Players call a small bet more often than a big one, but less than the
    # pot odds alone say: the learnt rate counts for most.
    scale: float = min(1.3, (0.286 / max(need, 0.05)) ** 0.35)
    note = reader.notes.get(name)
    raises = note.raises.get(street, 0) if note else 0
    if street == 0:
        kind = "reraise" if note is not None and note.raised else "open"
    else:
        kind = "post"
    base = 1.0 - h.fold_rate(kind) + (0.15 * raises if street else 0.0)
    return max(0.03, min(0.98, base * scale))


def price_moves(view: dict[str, Any], legal: list[LegalAction], worlds: Worlds, reader: TableReader,
                sizes: list[float]) -> list[tuple[float, Move]]:
    """Long because it prices each kind of move in turn (module's docstring);
    each is one pass over the same worlds."""
    me = next(p for p in view["players"] if p["player"] == view["to_act"])
    seats = {p["player"]: p for p in view["players"]}
    pot, n = view["pot"], len(worlds.mine)
    street = len(view.get("board") or []) and {3: 1, 4: 2, 5: 3}[len(view["board"])]
    everyone = list(range(len(worlds.names)))
    allin = [j for j in everyone if seats[worlds.names[j]]["all_in"]]
    out: list[tuple[float, Move]] = []
    call, check = find(legal, "call"), find(legal, "check")
    up = find(legal, "raise", "bet")
    to_call = (call["amount"] - me["bet"]) if call else 0
    later = _speaks_after(view)
    realize = 1.0 if street == 3 or not later else 0.85
    showdown = sum(worlds.share(t, everyone) for t in range(n)) / n if n else 1.0
    if check:
        out.append((showdown * pot * realize, {"action": "check"}))
    else:
        out.append((0.0, {"action": "fold"}))
    if call:
        out.append((showdown * (pot + to_call) * (1.0 if street == 3 else 0.95) - to_call, {"action": "call"}))
    if up:
        top = me["bet"] + to_call
        # Sizes a player uses: fractions of the pot (a minimum bet of one
        # chip into a big pot says nothing and wins nothing), all in when the
        # stack is short of the pot.
        targets = {top + int(f * (pot + to_call)) for f in sizes}
        if up["max"] - me["bet"] <= 1.5 * (pot + to_call):
            targets.add(up["max"])
        if street == 0:
            bb = view.get("big_blind") or 1
            targets = {3 * bb if top <= bb else 3 * top}
        targets = {min(up["max"], max(up["min"], t)) for t in targets}
        for target in sorted(t for t in targets if up["min"] <= t <= up["max"]):
            d = target - me["bet"]
            shares = {j: _call_share(reader, worlds.names[j], street, target, pot, seats[worlds.names[j]]["bet"])
                      for j in everyone}
            total = 0.0
            for t in range(n):
                callers = [j for j in everyone if j in allin or worlds.place[j][t] >= 1.0 - shares[j]]
                if not callers:
                    total += pot
                    continue
                final = pot + d + sum(min(target, seats[worlds.names[j]]["bet"] + seats[worlds.names[j]]["chips"])
                                      - seats[worlds.names[j]]["bet"] for j in callers)
                total += worlds.share(t, callers) * final * (1.0 if street == 3 else 0.97) - d
            out.append((total / n, {"action": up["action"], "amount": target}))
    return out


def _speaks_after(view: dict[str, Any]) -> bool:
    """Whether a player still in speaks after us on this street (position)."""
    players = view["players"]
    seats = sorted(p["seat"] for p in players)
    button = view["button"]
    me = next(p for p in players if p["player"] == view["to_act"])["seat"]
    order = sorted(seats, key=lambda s: (s - button - 1) % (max(seats) + 1))
    if not view.get("board"):
        return True  # before the flop the blinds speak last; treat it as out of position
    idx = order.index(me)
    return any(p["seat"] in order[idx + 1:] and not p["folded"] and not p["all_in"] for p in players)


LEVEL_TRIALS = {REGULAR: 220, FORT: 1400}
LEVEL_SIZES = {REGULAR: [0.5, 0.75], FORT: [0.33, 0.5, 0.75, 1.0, 1.5]}


def decide(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str,
           reader: TableReader) -> Move:
    """One decision at ``level`` with what ``reader`` knows (module's docstring)."""
    me = next(p for p in view["players"] if p["player"] == view["to_act"])
    hole, board = list(me["cards"]), list(view.get("board") or [])
    dead = set(hole) | set(board)
    live = [p["player"] for p in view["players"]
            if p["player"] != me["player"] and not p["folded"] and p["card_count"]]
    ranges = {n: reader.weights(n, dead) for n in live}
    worlds = simulate(hole, board, ranges, rng, max(60, LEVEL_TRIALS[level] // max(1, len(live)) * 2))
    priced = price_moves(view, legal, worlds, reader, LEVEL_SIZES[level])
    best = max(v for v, _ in priced)
    # Among moves worth nearly the best, the cheaper one (no chips spent for nothing).
    for value, move in priced:
        if value >= best - 0.01 * max(1, view["pot"]):
            return move
    return priced[0][1]
