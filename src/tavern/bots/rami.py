"""The rami family's players: Rami français, Double rami, Remigio and Gin.

They all weigh a hand the same way: the least deadwood its cards leave once
arranged in melds, computed by the rami solver (``melds.min_deadwood``,
``melds.discard_options``), with the game's own meld rules. From there:

* the draw: take the top discard when it lowers the deadwood the hand
  can reach after its discard and goes into a meld, or when it goes onto
  one of the seat's own laid melds; else the stock;
* the discard: « débutant », the card whose loss leaves the least deadwood,
  the highest such card first (it costs most if the deal ends); « habitué »
  and « fort », the card whose loss leaves the least deadwood a few unseen
  draws ahead (:func:`ahead_throw`: pairs and near-runs with live partners
  kept, dead runs thrown, the next player not fed; Gin's: bots/gin.py) —
  never a joker;
* going out: Gin knocks or goes gin as soon as it may, Remigio closes,
  Rami lays every meld it holds and adds to its own melds (Double rami also
  moves a joker home), which takes it out with its last cards.

The beginner slips: he keeps bad cards (throws a card at random among the
ones outside his melds), misses some chances to go out or to take a good
discard.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.bots import rami_read as read
from tavern.bots.levels import BEGINNER, FORT, REGULAR
from tavern.bots.moves import Move, find, random_move
from tavern.cards import is_joker
from tavern.games.base import LegalAction
from tavern.games.rami import gin as gin_game
from tavern.games.rami import melds
from tavern.games.rami import remigio as remigio_game
from tavern.games.rami.meldcore import MeldRules

#: The meld rules the players assume: each game's defaults (the view does
#: not carry the table's options; a rule they miss only makes them cautious).
RULES: dict[str, MeldRules] = {
    "rami": MeldRules(ace_low=True, jokers=True, ace_points=1, joker_points=20),
    "double_rami": MeldRules(ace_low=True, ace_high=True, jokers=True, ace_points=11, joker_points=15),
    "remigio": remigio_game.meld_rules(remigio_game.RemigioConfig.model_validate({})),
    "gin": gin_game.RULES,
}


_RANK = {r: i for i, r in enumerate("A23456789TJQK")}


def potential(card: str, hand: list[str]) -> int:
    """How close ``card`` is to a meld it is not in yet: the other cards of
    its rank and the cards of its suit one or two ranks away."""
    if is_joker(card):
        return 9
    out = 0
    for c in hand:
        if c == card or is_joker(c):
            continue
        if c[0] == card[0]:
            out += 1
        elif c[1] == card[1] and abs(_RANK[c[0]] - _RANK[card[0]]) <= 2:
            out += 1
    return out


def _throw_value(card: str, left: int, hand: list[str], rules: MeldRules) -> tuple[int, int, int, int]:
    """The key a discard is chosen by: deadwood left, then the card least
    likely to make a meld, then its points (high first); a joker last of all."""
    return (1 if is_joker(card) else 0, left, potential(card, hand), -melds.points(card, rules))


def best_throw(hand: list[str], allowed: list[str], rules: MeldRules) -> str:
    """The discard among ``allowed`` leaving ``hand`` the least deadwood."""
    left = melds.discard_options(hand, rules)
    return min(allowed, key=lambda c: _throw_value(c, left[c], hand, rules))


def _loose(hand: list[str], allowed: list[str], rules: MeldRules) -> list[str]:
    """The allowed cards outside the hand's best melds (the beginner's pick)."""
    arr = melds.best_arrangement(hand, rules)
    dead = [c for c in allowed if c in arr.deadwood]
    return dead or allowed


def draw_source(view: dict[str, Any], legal: LegalAction, rules: MeldRules, level: str, rng: random.Random) -> Move:
    """The stock, or the top discard when it lowers the deadwood the hand can reach."""
    sources = legal["sources"]
    if sources == ["stock"] or "discard" not in sources:
        return {"action": "draw", "source": sources[0]}
    if sources == ["discard"]:
        return {"action": "draw", "source": "discard"}
    top = view["discard"]["top"]
    hand = list(view["hand"])
    now = melds.min_deadwood(hand, rules) if hand else 0
    after = melds.discard_options(hand + [top], rules)
    throw, best = min(((c, v) for c, v in after.items() if c != top), key=lambda t: t[1], default=(None, now))
    gain = now - best
    if level != BEGINNER and view.get("table") and read.extends(top, read.own_melds(view), rules):
        return {"action": "draw", "source": "discard"}  # it goes onto our own meld: a free card
    if level != BEGINNER:
        # Worth showing the opponent what we collect only when the card goes
        # into a meld (or is a joker), or lets us go out at once.
        kept = list(hand)
        if throw is not None:
            kept.remove(throw) if throw in kept else None
        in_meld = top in {c for m in melds.best_arrangement(kept + [top], rules).melds for c in m.cards}
        limit = view.get("knock_limit")
        out_now = limit is not None and best <= limit
        wanted = gain > 0 and (in_meld or out_now or (is_joker(top) and rules.jokers))
    else:
        wanted = gain >= 5 and rng.random() < 0.6
    return {"action": "draw", "source": "discard" if wanted else "stock"}


#: Cards drawn ahead, and how many such draws, when « habitué » (and, more,
#: « fort ») weighs a discard by the deadwood its hand reaches after them.
AHEAD = {REGULAR: 2, FORT: 3}
DRAWS = {REGULAR: 40, FORT: 160}
#: Hands of more cards than this (Double rami's and Remigio's ten) are weighed
#: on ``LONG_SHARE`` of the draws: the solver's cost grows with the hand, and
#: a decision stays within its budget (docs/bots.md, 20 ms at « habitué »).
SHORT_HAND = 8
LONG_SHARE = 0.4
#: Deadwood points a discard that feeds the next player (he took a card it
#: goes with) is charged: thrown only when everything else costs more.
FEED = 6


def ahead_throw(game: str, view: dict[str, Any], hand: list[str], allowed: list[str], rules: MeldRules,
                level: str, memory: read.Memory | None, rng: random.Random) -> str:
    """The discard whose kept cards reach the least deadwood on average with
    ``AHEAD`` unseen cards drawn (the same draws for every candidate), cards
    that feed the next player charged ``FEED``; then the least deadwood now,
    the highest card; a joker never."""
    laid = read.own_melds(view)
    left = melds.discard_options(hand, rules)
    n = DRAWS[level] if len(hand) <= SHORT_HAND else int(DRAWS[level] * LONG_SHARE)
    pool = read.unseen(game, view, memory)
    draws = read.sample_draws(pool, AHEAD[level], n, rng)
    free_cards = read.goes_on(hand + pool, laid, rules)

    def score(c: str) -> tuple[int, float, int, int]:
        kept = list(hand)
        kept.remove(c)
        fed = FEED if memory is not None and memory.feeds(c) else 0
        return (1 if is_joker(c) else 0, read.worth_ahead(kept, draws, free_cards, rules) + fed, left[c],
                -melds.points(c, rules))

    # The same choice on fewer candidates: one of each card (two decks), a
    # joker only when nothing else may go (it would lose on the key's first term).
    candidates = list(dict.fromkeys(c for c in allowed if not is_joker(c))) or allowed
    if len(hand) > SHORT_HAND and any(is_joker(c) for c in hand):
        # A long hand with a joker goes to the solver's general path, ten
        # times slower: only the cards outside its best melds are weighed (a
        # meld is kept on nearly every draw anyway), so that Remigio's p99
        # stays within the 20 ms budget (docs/bots.md, measured the same).
        in_melds = {c for m in melds.best_arrangement(hand, rules).melds for c in m.cards}
        candidates = [c for c in candidates if c not in in_melds] or candidates
    return min(candidates, key=score)


def _discard(view: dict[str, Any], legal: list[LegalAction], rules: MeldRules, level: str, rng: random.Random,
             game: str = "", memory: read.Memory | None = None) -> Move:
    options = find(legal, "discard")
    assert options is not None
    hand = list(view["hand"])
    allowed = list(options["cards"])
    if level == BEGINNER and rng.random() < 0.2:
        return {"action": "discard", "card": rng.choice(_loose(hand, allowed, rules))}
    if level == BEGINNER or not game:
        return {"action": "discard", "card": best_throw(hand, allowed, rules)}
    card = ahead_throw(game, view, hand, allowed, rules, level, memory, rng)
    if memory is not None:
        memory.discarded(card, view)
    return {"action": "discard", "card": card}


def remigio(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str,
            memory: read.Memory | None = None) -> Move:
    rules = RULES["remigio"]
    drawing = find(legal, "draw")
    if drawing:
        return draw_source(view, drawing, rules, level, rng)
    close = find(legal, "close")
    if close and (level != BEGINNER or rng.random() < 0.8):
        # Which card goes: the one whose loss keeps the best multiplier is the
        # engine's to judge; any offered card closes.
        return {"action": "close", "card": close["cards"][0]}
    return _discard(view, legal, rules, level, rng, "remigio", memory)


def _rami(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str, game: str,
          memory: read.Memory | None = None) -> Move:
    rules = RULES[game]
    drawing = find(legal, "draw")
    if drawing:
        return draw_source(view, drawing, rules, level, rng)
    if level == BEGINNER and rng.random() < 0.05:
        return random_move(legal, rng)
    lay = find(legal, "lay")
    if lay:
        biggest: list[str] = max((list(m) for m in lay["melds"]), key=len)
        return {"action": "lay", "cards": biggest}
    joker = find(legal, "move_joker")
    if joker and level != BEGINNER:
        o = joker["options"][0]
        return {"action": "move_joker", "meld": o["meld"], "card": o["card"], "end": o["ends"][0]}
    add = find(legal, "add")
    if add and (level != BEGINNER or rng.random() < 0.7):
        o = add["options"][0]
        return {"action": "add", "meld": o["meld"], "cards": list(o["cards"])}
    return _discard(view, legal, rules, level, rng, game, memory)


def rami(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str,
         memory: read.Memory | None = None) -> Move:
    return _rami(view, legal, rng, level, "rami", memory)


def double_rami(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str,
                memory: read.Memory | None = None) -> Move:
    return _rami(view, legal, rng, level, "double_rami", memory)
