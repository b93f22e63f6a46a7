"""The poker players: Ramponneau (no-limit hold'em) and draw poker.

Both decide a betting move the same way (:func:`bet_move`): the hand's
equity against the players still in (Monte Carlo on our evaluator, the
opponents' cards from a range that narrows when they bet or raised), the
price of calling (pot odds), and the position (how many still speak after
us). Draw poker adds the draw (:func:`draw_discard`) and computes its
equity on the hand it will keep.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.bots import holdem as holdem_read
from tavern.bots.equity import Range, any_two, equity, preflop_score, top
from tavern.bots.levels import BEGINNER, REGULAR
from tavern.bots.moves import Move, find, random_move, sized
from tavern.bots.reader import TableReader
from tavern.games.base import LegalAction
from tavern.games.poker.evaluator import rank

_VALUE = {r: i + 2 for i, r in enumerate("23456789TJQKA")}


def _me(view: dict[str, Any]) -> dict[str, Any]:
    mine: dict[str, Any] = next(p for p in view["players"] if p["player"] == view["to_act"])
    return mine


def _others_in(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in view["players"] if p["player"] != view["to_act"] and not p["folded"] and p["card_count"]]


def _after_me(view: dict[str, Any]) -> int:
    """How many players still in speak after us in this round (position):
    the seats after ours, the button last after the flop."""
    players = view["players"]
    seats = [p["seat"] for p in players]
    me = _me(view)["seat"]
    button = view["button"]
    # Seats in speaking order after the flop: left of the button first, the button last.
    later = sorted(seats, key=lambda s: (s - button - 1) % (max(seats) + 1))
    idx = later.index(me)
    return sum(1 for p in players if p["seat"] in later[idx + 1:] and not p["folded"] and not p["all_in"])


def _ranges(view: dict[str, Any], level: str) -> list[Range]:
    """The opponents' ranges: a player who put in more than the big blind
    this deal is held to the better hands (« habitué » only; the beginner
    reads nobody)."""
    if level == BEGINNER:
        return [any_two for _ in _others_in(view)]
    bb = view.get("big_blind") or 1
    out: list[Range] = []
    for p in _others_in(view):
        put = p["committed"]
        # Loosely: the table's players bet with worse hands than the book's.
        out.append(top(0.35) if put > 8 * bb else top(0.6) if put > bb else any_two)
    return out


def bet_move(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str, eq: float) -> Move:
    """A betting move from the equity ``eq`` of the hand against the others.

    « habitué »: raise for value when the equity is well above a fair share
    of the pot (bigger in position), call when it beats the pot odds, bluff
    now and then in position when nobody bet, fold the rest. « débutant »:
    ignores the price — calls whenever his hand looks playable, raises only
    the very best hands, and slips (a random legal move) once in a while.
    """
    call = find(legal, "call")
    check = find(legal, "check")
    aggressive = find(legal, "raise", "bet")
    me = _me(view)
    to_call = (call["amount"] - me["bet"]) if call else 0
    pot = view["pot"]
    n_in = 1 + len(_others_in(view))
    fair = 1.0 / n_in
    bb = view.get("big_blind") or 1
    if level == BEGINNER:
        if rng.random() < 0.12:
            return random_move(legal, rng)
        if aggressive and eq > 0.8:
            return sized(aggressive, aggressive["min"])
        if call and eq > 0.25 * fair * 2:  # any hand that looks playable, whatever the price
            return {"action": "call"}
        return {"action": "check"} if check else {"action": "fold"}
    late = _after_me(view) == 0
    odds = to_call / (pot + to_call) if to_call else 0.0
    edge = eq - fair
    if aggressive and (edge > 0.13 or (late and edge > 0.09)):
        # Value: about two thirds of the pot, more with a huge edge.
        frac = 0.66 if edge < 0.35 else 1.0
        target = (me["bet"] + to_call) + int(frac * (pot + to_call))
        if aggressive["action"] == "raise":
            target = max(target, aggressive["min"])
        return sized(aggressive, max(target, bb))
    if not to_call:
        if aggressive and late and rng.random() < 0.15:  # a bluff in position, checked to us
            return sized(aggressive, max(bb, int(0.5 * pot)))
        return {"action": "check"} if check else {"action": "fold"}
    if call and eq >= odds + 0.03:
        return {"action": "call"}
    return {"action": "check"} if check else {"action": "fold"}


def _showdown(legal: list[LegalAction]) -> Move | None:
    show = find(legal, "show")
    return {"action": "show"} if show else None


def _trials(level: str, opponents: int) -> int:
    """Fewer trials against more players: each trial evaluates every hand,
    and a decision keeps within its time budget (docs/bots.md)."""
    return max(60, (160 if level == BEGINNER else 500) // (opponents + 1))


def holdem(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str,
           reader: TableReader | None = None) -> Move:
    """A hold'em move. « habitué » and « fort » read the opponents
    (bots/holdem.py) with ``reader``'s memory of the earlier deals, or, as
    a pure policy, from this view alone."""
    done = _showdown(legal)
    if done:
        return done
    if level != BEGINNER:
        if reader is None:
            reader = TableReader()
            reader.observe(view, view["to_act"])
        return holdem_read.decide(view, legal, rng, level, reader)
    hole = _me(view)["cards"]
    ranges = _ranges(view, level)
    if level == BEGINNER:
        # Judges his cards alone: a rough strength, no simulation before the flop.
        if view["board"]:
            eq = equity(hole, view["board"], len(ranges), rng, _trials(level, len(ranges)), ranges)
        else:
            eq = 0.3 + 0.6 * preflop_score(*hole)
    else:
        eq = equity(hole, view["board"], len(ranges), rng, _trials(level, len(ranges)), ranges)
    return bet_move(view, legal, rng, level, eq)


# ---------------------------------------------------------------- the draw


def draw_discard(hand: list[str], level: str, rng: random.Random) -> list[str]:
    """Which cards to throw, the way players learn it: stand pat on a straight
    or better, keep trips, two pair, a pair, four to a flush or an open
    straight, else the two highest cards. The beginner keeps a kicker with
    his pair and sometimes draws to an inside straight."""
    ranks = [c[0] for c in hand]
    counts = {r: ranks.count(r) for r in ranks}
    value = rank(hand) >> 20  # the category: 0 high card .. 8 straight flush
    if value >= 4:  # straight, flush, full, four, straight flush
        return [c for c in hand if counts[c[0]] == 1] if value == 7 else []
    groups = [c for c in hand if counts[c[0]] >= 2]
    if groups:
        keep = set(groups)
        if level == BEGINNER and len(groups) == 2 and rng.random() < 0.5:
            keep.add(max((c for c in hand if c not in keep), key=lambda c: _VALUE[c[0]]))
        return [c for c in hand if c not in keep]
    for suit in "cdhs":
        same = [c for c in hand if c[1] == suit]
        if len(same) == 4:
            return [c for c in hand if c[1] != suit]
    for lo in range(1, 11):  # four to a straight (the ace counts high and low)
        window = range(lo, lo + 5)
        kept: list[str] = []
        seen: set[int] = set()
        for c in hand:
            v = _VALUE[c[0]]
            for vv in (v, 1) if v == 14 else (v,):
                if vv in window and vv not in seen:
                    seen.add(vv)
                    kept.append(c)
                    break
        if len(kept) == 4 and (level == BEGINNER or max(seen) - min(seen) == 3):
            return [c for c in hand if c not in kept]
    best = sorted(hand, key=lambda c: -_VALUE[c[0]])[:2]
    return [c for c in hand if c not in best]


def draw_equity(keep: list[str], opponents: int, rng: random.Random, trials: int) -> float:
    """Equity of the five cards ``keep`` will become (the missing ones drawn
    from the unseen cards) against ``opponents`` players who were dealt five
    random cards and drew to them the way :func:`draw_discard` does — the
    hands a showdown meets are drawn hands."""
    from tavern.bots.equity import DECK

    rest = [c for c in DECK if c not in keep]
    need = 5 - len(keep)
    won = 0.0
    for _ in range(trials):
        sample = rng.sample(rest, need + 10 * opponents)
        mine = rank(list(keep) + sample[:need])
        best = -1
        for k in range(opponents):
            at = need + 10 * k
            dealt = sample[at: at + 5]
            thrown = draw_discard(dealt, REGULAR, rng)
            kept = [c for c in dealt if c not in thrown] + sample[at + 5: at + 5 + len(thrown)]
            best = max(best, rank(kept))
        won += 1.0 if mine > best else (0.5 if mine == best else 0.0)
    return won / trials


def read_draw_equity(keep: list[str], view: dict[str, Any], reader: TableReader, rng: random.Random,
                     trials: int, attempts: int = 200) -> tuple[float, float]:
    """:func:`draw_equity` against hands that fit what each opponent did
    (issue 37): a player who drew ``k`` cards holds a hand the usual draw
    throws ``k`` from; one who raised before the draw holds an opening hand
    (a pair of jacks or better, or two pair and up), one who bet after it
    a made hand (two pair or better) — or a bluff, as often as his habits
    say. Each opponent's hands are drawn from candidates dealt once per
    decision (those that fit; all of them if none does), a trial picking one
    that clashes with no card already out.

    Returns the equity and the equity *when called*: against the best
    hands only, as many as the opponents call a bet with (their habit)."""
    from tavern.bots.equity import DECK

    others = [p["player"] for p in _others_in(view)]
    rest = [c for c in DECK if c not in keep]
    need = 5 - len(keep)
    fitting = {name: _fitting(name, view, reader, rest, rng, attempts) for name in others}
    seen: list[tuple[int, float]] = []
    for _ in range(trials):
        used = set(keep)
        best = -1
        for name in others:
            hands = fitting[name]
            for _try in range(8):
                kept, value = hands[int(rng.random() * len(hands))]
                if not used.intersection(kept):
                    break
            used.update(kept)
            best = max(best, value)
        mine = rank(list(keep) + rng.sample([c for c in rest if c not in used], need)) if need else rank(list(keep))
        seen.append((best, 1.0 if mine > best else (0.5 if mine == best else 0.0)))
    calls = min((1.0 - h.fold_rate("post") for n in others if (h := reader.habits.get(n)) is not None), default=0.55)
    called = sorted(seen, reverse=True)[: max(1, int(len(seen) * max(0.1, calls)))]
    return sum(w for _, w in seen) / max(1, len(seen)), sum(w for _, w in called) / len(called)


def _fitting(name: str, view: dict[str, Any], reader: TableReader, rest: list[str], rng: random.Random,
             attempts: int) -> list[tuple[list[str], int]]:
    """Hands ``name`` may hold after the draw that fit what he did
    (:func:`read_draw_equity`), with their values: up to ``attempts``
    deals of five cards and his draw, kept when they fit."""
    note, habits = reader.notes.get(name), reader.habits.get(name)
    bluff = habits.bluffs if habits else 0.3
    drawn = (view.get("drawn") or {}).get(name)
    after = view["round"] >= 1
    fits: list[tuple[list[str], int]] = []
    every: list[tuple[list[str], int]] = []
    for _ in range(attempts):
        sample = rng.sample(rest, 10)
        dealt = sample[:5]
        thrown = draw_discard(dealt, REGULAR, rng)
        kept = [c for c in dealt if c not in thrown] + sample[5: 5 + len(thrown)]
        value = rank(kept)
        every.append((kept, value))
        if after and drawn is not None and drawn != len(thrown):
            continue
        if note is not None and note.raised and rng.random() > bluff and not _opens(dealt):
            continue
        if note is not None and any(st >= 1 for st in note.bet) and rng.random() > bluff and value >> 20 < 2:
            continue
        fits.append((kept, value))
        if len(fits) >= 60:
            break
    return fits or every


def draw_bet(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str,
             eq: float, eq_called: float) -> Move:
    """A betting move at draw poker (fixed limit). Before the draw as
    :func:`bet_move`; after it, bet or raise only a hand that wins more
    often than not against the hands that call it (``eq_called``), call
    when the equity beats the price, fold the rest."""
    if view["round"] == 0:
        return bet_move(view, legal, rng, level, eq)
    call, check = find(legal, "call"), find(legal, "check")
    up = find(legal, "raise", "bet")
    to_call = (call["amount"] - _me(view)["bet"]) if call else 0
    odds = to_call / (view["pot"] + to_call) if to_call else 0.0
    if up and eq_called >= (0.55 if not to_call else 0.6):
        return sized(up, up["min"])
    if to_call:
        return {"action": "call"} if call and eq >= odds + 0.02 else {"action": "fold"}
    return {"action": "check"} if check else {"action": "fold"}


def _opens(hand: list[str]) -> bool:
    """A hand players open on: a pair of jacks or better."""
    value = rank(hand)
    return value >> 20 >= 2 or (value >> 20 == 1 and (value >> 16) & 0xF >= _VALUE["J"])


def draw_poker(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str,
               reader: TableReader | None = None) -> Move:
    done = _showdown(legal)
    if done:
        return done
    hand = list(_me(view)["cards"])
    drawing = find(legal, "draw")
    if drawing:
        if level == BEGINNER and rng.random() < 0.1:
            return random_move(legal, rng)
        throw = draw_discard(hand, level, rng)[: drawing.get("max", 5)]
        return {"action": "draw", "discard": throw}
    others = len(_others_in(view))
    # Before the (first) draw the hand is judged by what it will keep; after, as it stands.
    before = view["round"] == 0
    keep = [c for c in hand if c not in draw_discard(hand, level, rng)] if before else hand
    if level == BEGINNER:
        eq = draw_equity(keep, others, rng, 40)
    else:
        if reader is None:
            reader = TableReader()
            reader.observe(view, view["to_act"])
        eq, eq_called = read_draw_equity(keep, view, reader, rng, 90 if level == REGULAR else 400,
                                         200 if level == REGULAR else 800)
        return draw_bet(view, legal, rng, level, eq, eq_called)
    return bet_move(view, legal, rng, level, eq)

