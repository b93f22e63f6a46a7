"""Gin's player: the rami family's deadwood count, three draws ahead.

A deal of gin is a race: the first hand down to the knock limit wins it
(against OpenSpiel's simple player, our knocks won every time and 93 % of
its knocks won too: an undercut is rare, docs/bots.md). So « habitué »
throws the card that leaves the hand closest to going down *after the
draws to come*, not only now: for each card he may throw, the mean of the
least deadwood his ten other cards hold with three more cards drawn among
the ones he has not seen (the same random draws for every candidate, so
that they are compared on the same cards; three did best of one, two and
three on the bench's seed, level with two on another, docs/bots.md). A loose card whose partners
are still live is kept, one whose partners are gone to the discard pile
(or held as a set he cannot reach) is thrown, and a card of one of his
melds stays: losing it costs the meld on every draw. Among equal means,
the card that leaves the least deadwood now, then the highest.

The unseen cards are every card of the deck but his hand and what the view
shows of the discard pile: our engine's view shows its top card only
(``discard.top``); a view may also carry the whole pile (``discard.pile``)
and the cards the opponent took from it (``opponent_took``), which are not
in the stock either — the bench's adapter into OpenSpiel's gin passes both,
as OpenSpiel shows them to its players.

The draw and « débutant » are the family's (bots/rami.py): the top discard
when it goes into a meld or lets him go down. The knock: at once, unless
some of the unseen cards (``WAIT_P`` of them) would give gin at the next
draw and the stock still holds more than ``LATE`` cards — then he plays on
for gin (the opponent's count + 25 and two cocottes against a knock's
difference and one). What the opponent took from his discards (the seat's
memory, bots/rami_read.py) is not fed back to him.

« fort » (bots/gin_search.py) starts from « habitué »'s move and plays the
deal out, in worlds dealt again from what his seat knows, against the
knock, the discard or the stock and « habitué »'s three best discards; he
changes move only where the play-outs clearly say so.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.bots import gin_search
from tavern.bots.levels import BEGINNER, FORT
from tavern.bots.moves import Move, find
from tavern.bots.rami import FEED, RULES, _discard, best_throw, draw_source
from tavern.bots.rami_read import Memory
from tavern.games.base import LegalAction
from tavern.games.rami import melds
from tavern.games.rami.meldcore import MeldRules

#: The deck play draws from (our gin turns its knock card from a second deck, apart).
DECK = [r + s for s in "scdh" for r in "A23456789TJQK"]
#: Unseen cards drawn ahead of each candidate discard, and how many such
#: draws: about 5 ms a discard (min_deadwood of thirteen cards is a few
#: microseconds).
AHEAD = 3
DRAWS = 80
#: « fort » without its search (``search=False``): the same look ahead on
#: more draws (less noise in the choice; measured level with « habitué »).
FORT_DRAWS = 240
#: Knock timing: with this share of the unseen cards or more giving gin at
#: the next draw, and more than ``LATE`` cards in the stock, he plays on for
#: gin (worth the opponent's count + 25 and two cocottes, a knock one) rather
#: than knock; the measure is in docs/bots.md.
WAIT_P = 0.04
LATE = 6


def unseen(view: dict[str, Any], hand: list[str], memory: Memory | None = None) -> list[str]:
    """The cards the seat has not seen: those in the stock or in the
    opponent's hand, where a drawn card comes from (``memory``: the
    discards seen at earlier turns, buried since)."""
    discard = view.get("discard") or {}
    pile = discard.get("pile") or ([discard["top"]] if discard.get("top") else [])
    seen = set(hand) | set(pile) | set(view.get("opponent_took") or ()) | set(memory.buried if memory else ())
    return [c for c in DECK if c not in seen]


def ahead_throw(view: dict[str, Any], hand: list[str], allowed: list[str], rules: MeldRules,
                rng: random.Random, memory: Memory | None = None, draws_n: int = DRAWS) -> str:
    """The discard among ``allowed`` whose ten remaining cards, with
    ``AHEAD`` unseen cards drawn, hold the least deadwood on average (a card
    that goes with one the opponent took from us charged ``FEED`` a draw)."""
    return ranked_throws(view, hand, allowed, rules, rng, memory, draws_n)[0]


def ranked_throws(view: dict[str, Any], hand: list[str], allowed: list[str], rules: MeldRules,
                  rng: random.Random, memory: Memory | None = None, draws_n: int = DRAWS) -> list[str]:
    """The distinct cards of ``allowed``, best discard first (:func:`ahead_throw`'s order)."""
    allowed = list(dict.fromkeys(allowed))
    left = melds.discard_options(hand, rules)
    pool = unseen(view, hand, memory)
    if len(pool) < AHEAD:
        best = best_throw(hand, allowed, rules)
        return [best] + [c for c in allowed if c != best]
    draws = [rng.sample(pool, AHEAD) for _ in range(draws_n)]

    def score(c: str) -> tuple[int, int, int]:
        kept = [x for x in hand if x != c]
        fed = FEED * len(draws) if memory is not None and memory.feeds(c) else 0
        return sum(melds.min_deadwood(kept + d, rules) for d in draws) + fed, left[c], -melds.points(c, rules)

    return sorted(allowed, key=score)


def gin_outs(view: dict[str, Any], hand: list[str], card: str, rules: MeldRules,
             memory: Memory | None = None) -> float:
    """The share of the cards this seat has not seen that would give gin at
    the next draw, ``card`` thrown now: the count of the hand's outs."""
    kept = [c for c in hand if c != card]
    pool = unseen(view, hand, memory)
    if not pool:
        return 0.0
    outs = sum(1 for u in pool if min(melds.discard_options(kept + [u], rules).values()) == 0)
    return outs / len(pool)


def plays_for_gin(view: dict[str, Any], hand: list[str], card: str, rules: MeldRules,
                  memory: Memory | None = None) -> bool:
    """Whether to play on for gin rather than knock (``WAIT_P``, ``LATE``)."""
    if int(view.get("stock") or 0) <= LATE:
        return False
    return gin_outs(view, hand, card, rules, memory) >= WAIT_P


def gin(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str,
        memory: Memory | None = None) -> Move:
    return gin_with(RULES["gin"], view, legal, rng, level, memory)


def _fort_play(view: dict[str, Any], knock: LegalAction | None, options: LegalAction | None, rules: MeldRules,
               rng: random.Random, memory: Memory | None) -> Move:
    """« fort »'s knock or discard: « habitué »'s best discards and the knock
    played out in worlds dealt again (bots/gin_search.py)."""
    assert options is not None
    hand = list(view["hand"])
    ranked = ranked_throws(view, hand, list(options["cards"]), rules, rng, memory, DRAWS)
    knock_card = best_throw(hand, list(knock["cards"]), rules) if knock else None
    # « habitué »'s move, kept unless the play-outs clearly beat it.
    default = ("knock", knock_card) if knock_card and not plays_for_gin(view, hand, knock_card, rules, memory) \
        else ("discard", ranked[0])
    kind, card = gin_search.choose_play(view, default, knock_card, ranked, unseen(view, hand, memory), memory)
    if kind == "discard" and memory is not None:
        memory.discarded(card, view)
    return {"action": kind, "card": card}


def gin_with(rules: MeldRules, view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str,
             memory: Memory | None = None, search: bool = True) -> Move:
    """Gin under ``rules`` (ours, or another house's gin: the bench plays
    OpenSpiel's, ace low only and worth 1). « fort » searches
    (bots/gin_search.py) with our rules only (``search``: False for
    another house's gin, and for the test that shows the search matters)."""
    searching = level == FORT and search and rules == RULES["gin"]  # the play-outs play our gin
    drawing = find(legal, "draw")
    if drawing:
        move = draw_source(view, drawing, rules, level, rng)
        if searching and len(drawing["sources"]) == 2:
            pool = unseen(view, list(view["hand"]), memory)
            move = {"action": "draw", "source": gin_search.choose_draw(view, pool, memory, move["source"])}
        return move
    won = find(legal, "gin")
    if won:
        return {"action": "gin"} if won.get("grand") else {"action": "gin", "card": won["cards"][0]}
    knock = find(legal, "knock")
    if searching:
        return _fort_play(view, knock, find(legal, "discard"), rules, rng, memory)
    # « habitué » knocks unless he has outs to gin and the stock is not
    # low (measured against club players, docs/bots.md: gin pays two cocottes
    # and 25, and a club player seldom knocks early); the beginner misses some knocks.
    if knock and (level != BEGINNER or rng.random() < 0.6):
        hand = list(view["hand"])
        card = best_throw(hand, list(knock["cards"]), rules)
        if level == BEGINNER or not plays_for_gin(view, hand, card, rules, memory):
            return {"action": "knock", "card": card}
    if level != BEGINNER:
        options = find(legal, "discard")
        assert options is not None
        card = ahead_throw(view, list(view["hand"]), list(options["cards"]), rules, rng, memory,
                           FORT_DRAWS if level == FORT else DRAWS)
        if memory is not None:
            memory.discarded(card, view)
        return {"action": "discard", "card": card}
    return _discard(view, legal, rules, level, rng)
