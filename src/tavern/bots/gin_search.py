"""« fort » at Gin: each move weighed by playing the deal out in worlds the
seat cannot tell from the real one (determinized play-outs).

A *world* deals the cards the seat has not seen again, consistently with
what it knows: the opponent holds the cards he took from our discards and
has not thrown since (the seat's memory, bots/rami_read.py), the rest of
his hand and the stock are drawn from the unseen cards (bots/gin.py's
:func:`~tavern.bots.gin.unseen`), the stock as long as the view says. The
worlds come from a seed made of the view and the memory alone: the same
view gives the same worlds, hence the same move, whatever the hidden cards
(the reshuffle test, tests/bots/test_policies.py).

In each world every candidate move is played, then the deal is played to
its end by a quick player at both seats (:func:`play_out`: take the discard
when it lowers the deadwood, throw the card leaving the least, knock or go
gin as soon as allowed) and scored as RULES.md scores it — a knock the
difference of deadwood and 1 cocotte, an undercut or a tie the opponent's
difference + 20, a petit gin the opponent's deadwood + 25 and 2 cocottes
(a cocotte 25 points, as the deal-by-deal sheet pays it). The same worlds
for every candidate, so that candidates are compared on the same cards.
A knock now is scored exactly in each world: the engine's own knock
arrangement and the opponent's lay-offs on it (games/rami/gin.py).

The candidates: at the draw, the discard or the stock (searched only when
the discard can meld with a card of the hand; else the stock, as
« habitué »); at the play, a gin at once when allowed, otherwise the knock
(when allowed) and the ``KEEP`` discards « habitué » ranks best
(ranked by :func:`~tavern.bots.gin.ahead_throw`'s look ahead). A
candidate replaces « habitué »'s move only when the worlds clearly prefer
it (:func:`clearly_better`). The budget (200 ms a decision at p99, docs/bots.md)
sets ``WORLDS``.
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from tavern.bots.rami_read import Memory, near
from tavern.games.rami import gin as gin_game
from tavern.games.rami import melds

RULES = gin_game.RULES
COCOTTE = 25
#: Worlds a decision is weighed in, and the discards searched besides the knock.
WORLDS = 24
KEEP = 3
#: A candidate replaces « habitué »'s move only when its paired gain over
#: the worlds is this many standard errors above zero (:func:`clearly_better`).
Z = 2.0


def _points(c: str) -> int:
    return melds.points(c, RULES)


def world_seed(view: dict[str, Any], memory: Memory | None) -> int:
    """A seed from what the seat knows only: its view and its memory."""
    known = (sorted(view.get("hand") or ()), (view.get("discard") or {}).get("top"), view.get("stock"),
             view.get("phase"), view.get("turned"), sorted(memory.buried) if memory else (),
             list(memory.fed) if memory else ())
    return zlib.crc32(repr(known).encode())


def opponent_holds(view: dict[str, Any], memory: Memory | None) -> list[str]:
    """Our discards the opponent took and has not thrown since (a card he
    threw back was on top at one of our turns: buried a second time)."""
    if memory is None:
        return []
    top = (view.get("discard") or {}).get("top")
    return [c for c in dict.fromkeys(memory.fed) if memory.buried.count(c) < 2 and c != top]


def deal_worlds(view: dict[str, Any], unseen: list[str], memory: Memory | None, n: int,
                rng: random.Random) -> list[tuple[list[str], list[str]]]:
    """``n`` worlds: (the opponent's hand, the stock, its top last), dealt
    from ``unseen`` (bots/gin.py's ``unseen``) and what he is known to hold."""
    me = view["to_act"][0] if view.get("to_act") else None
    sizes = [int(p.get("cards") or 0) for p in view.get("players") or [] if p.get("player") != me]
    held = opponent_holds(view, memory)
    pool = [c for c in unseen if c not in held]
    stock_n = min(int(view.get("stock") or 0), len(pool))
    opp_n = sizes[0] if sizes else 10
    draw_n = max(0, min(opp_n - len(held), len(pool) - stock_n))
    out = []
    for _ in range(n):
        cards = rng.sample(pool, draw_n + stock_n)
        out.append((held + cards[:draw_n], cards[draw_n:]))
    return out


def _takes(hand: list[str], top: str, now: int) -> bool:
    after = melds.discard_options(hand + [top], RULES)
    return min((v for c, v in after.items() if c != top), default=now) < now


def _throw(hand: list[str], keep: str | None) -> tuple[str, int]:
    opts = melds.discard_options(hand, RULES)
    return min(((c, v) for c, v in opts.items() if c != keep), key=lambda t: (t[1], -_points(t[0])))


def _knock_score(rest: list[str], deadwood: int, other: list[str]) -> int:
    """A quick knock's worth to the knocker (no lay-offs: play-outs only)."""
    opp = melds.min_deadwood(other, RULES)
    return opp - deadwood + COCOTTE if opp > deadwood else -(deadwood - opp + 20 + COCOTTE)


def _gin_score(other: list[str]) -> int:
    return melds.min_deadwood(other, RULES) + 25 + 2 * COCOTTE


def play_out(hands: list[list[str]], stock: list[str], top: str | None, cur: int, limit: int | None) -> int:
    """The deal played to its end by the quick player at both seats, ``cur``
    to draw; its worth to seat 0 (points and cocottes, before the spade's double)."""
    hands = [list(hands[0]), list(hands[1])]
    stock = list(stock)
    while stock:
        hand = hands[cur]
        taken = None
        if top is not None and _takes(hand, top, melds.min_deadwood(hand, RULES)):
            taken = top
            hand.append(top)
        else:
            hand.append(stock.pop())
        card, dw = _throw(hand, taken)
        hand.remove(card)
        sign = 1 if cur == 0 else -1
        if dw == 0:
            return sign * _gin_score(hands[1 - cur])
        if limit is not None and dw < limit:
            return sign * _knock_score(hand, dw, hands[1 - cur])
        top, cur = card, 1 - cur
    return 0  # the stock is out: a void deal


def knock_worth(rest: list[str], other: list[str], limit: int) -> int:
    """A knock with ``rest`` kept, scored as the engine scores it: its best
    arrangement, the opponent's lay-offs on it (games/rami/gin.py)."""
    arrs = gin_game.knock_arrangements(rest, limit)
    if not arrs:
        return -1000
    arr = arrs[0]
    _lay, opp = gin_game.lay_off(other, list(arr.melds))
    if opp.points > arr.points:
        return opp.points - arr.points + COCOTTE
    return -(arr.points - opp.points + 20 + COCOTTE)


def choose_draw(view: dict[str, Any], unseen: list[str], memory: Memory | None, default: str) -> str:
    """``"discard"`` or ``"stock"``: whichever plays out better (``default``
    on a tie, and when the discard melds with nothing in the hand)."""
    hand = list(view["hand"])
    top = view["discard"]["top"]
    if not any(near(top, c) for c in hand):
        return default
    limit = view.get("knock_limit")
    rng = random.Random(world_seed(view, memory))
    other = "discard" if default == "stock" else "stock"
    gains: list[int] = []
    for opp, stock in deal_worlds(view, unseen, memory, WORLDS, rng):
        if not stock:
            return default
        worth = {}
        for source in (default, other):
            h = hand + [top] if source == "discard" else hand + [stock[-1]]
            rest_stock = stock if source == "discard" else stock[:-1]
            card, dw = _throw(h, top if source == "discard" else None)
            h.remove(card)
            if dw == 0:
                worth[source] = _gin_score(opp)
            elif limit is not None and dw < limit:
                worth[source] = _knock_score(h, dw, opp)
            else:
                worth[source] = play_out([h, opp], rest_stock, card, 1, limit) if rest_stock else 0
        gains.append(worth[other] - worth[default])
    return other if clearly_better(gains) else default


def clearly_better(gains: list[int]) -> bool:
    """Whether the paired gains over the worlds (a candidate's worth less the
    default's, world by world) are above zero by ``Z`` standard errors: a
    play-out is noisy, and « habitué »'s move is kept unless the worlds
    clearly say otherwise."""
    n = len(gains)
    if n < 2:
        return False
    m = sum(gains) / n
    var = sum((g - m) ** 2 for g in gains) / (n - 1)
    return m > 0 and m * m * n > Z * Z * var


def choose_play(view: dict[str, Any], default: tuple[str, str], knock_card: str | None, ranked: list[str],
                unseen: list[str], memory: Memory | None) -> tuple[str, str]:
    """(``"knock"`` or ``"discard"``, the card): the candidate that plays out
    best — the knock throwing ``knock_card`` (when allowed), or one of
    « habitué »'s ``KEEP`` best discards (``ranked``, best first)."""
    hand = list(view["hand"])
    limit = view.get("knock_limit")
    rng = random.Random(world_seed(view, memory))
    cands: list[tuple[str, str]] = [default]
    if knock_card is not None and limit is not None:
        cands.append(("knock", knock_card))
    cands += [("discard", c) for c in ranked[:KEEP]]
    cands = list(dict.fromkeys(cands))
    if len(cands) == 1:
        return default
    worths: list[list[int]] = [[] for _ in cands]
    for opp, stock in deal_worlds(view, unseen, memory, WORLDS, rng):
        for i, (kind, card) in enumerate(cands):
            rest = list(hand)
            rest.remove(card)
            if kind == "knock":
                assert limit is not None
                worths[i].append(knock_worth(rest, opp, limit))
            else:
                worths[i].append(play_out([rest, opp], stock, card, 1, limit) if stock else 0)
    best = max(range(1, len(cands)), key=lambda i: (sum(worths[i]), -i))
    gains = [a - b for a, b in zip(worths[best], worths[0], strict=True)]
    return cands[best] if clearly_better(gains) else default
