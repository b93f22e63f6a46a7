"""Rummoli's sequences played out to the end of the deal, fast, on cards the
player imagines (bots/rummoli.py): what a lead is worth.

Only what the seat sees goes in (its view): its hand, the cards played and
by whom, the cards each player showed at the poker (method 1 shows every
hand's best five: they are still in that hand unless played), how many
cards each player and the dead hand hold, the board. From these the
unseen cards are dealt at random among the other hands and the dead cards
(a *deal consistent with the view*), and the sequences are played out to
the end (someone out or a deadlock), every other player leading his lowest
card (the simple players' lead, and most of what a table does), the seat
itself a run that keeps the lead when it has one.

Cards are integers here, ``suit * 13 + rank`` (suits ``c d h s``, ranks 2 to
ace): the next card of a sequence is the next integer, inside a suit.

A card is known dead when the card below it has been played and it has
not: « whoever holds the next card must play it » (RULES.md, Rummoli), so
a live next card would have been played at once.
"""

from __future__ import annotations

import random
from typing import Any

_SUITS = "cdhs"
_RANKS = "23456789TJQKA"
#: suits of each colour: red (diamonds, hearts) and black (clubs, spades)
_RED = (1, 2)
_BLACK = (0, 3)
DEAD = -1
PLAYED = -2
#: the seat's own restarts in a play-out: a run that keeps the lead (True), or
#: its lowest card like the others (bench/bench_rummoli.py measures both)
KEEP_LEAD = True
#: a pay section still to win: its chips and its ways (sets of cards one player plays)
Section = tuple[int, tuple[tuple[int, ...], ...]]


def code(card: str) -> int:
    return _SUITS.index(card[1]) * 13 + _RANKS.index(card[0])


def card_of(c: int) -> str:
    return _RANKS[c % 13] + _SUITS[c // 13]


def _other_colour(c: int) -> tuple[int, int]:
    return _BLACK if c // 13 in _RED else _RED


def sections_of(view: dict[str, Any]) -> list[Section]:
    """The pay sections still to win, as ``(chips, ways)``: each way is a set
    of cards one player must play (a card, a pair, 7-8-9 in any suit). The
    view names a section by its id only; the standard ids say their cards
    (``Ts``, ``KdAd``) or ranks (``789``); any other id is left out."""
    out: list[Section] = []
    for s in view.get("pay_sections") or []:
        sid, chips = str(s.get("id", "")), int(s.get("chips") or 0)
        if s.get("won_by") or not chips:
            continue
        pairs = [sid[i:i + 2] for i in range(0, len(sid), 2)]
        if len(sid) % 2 == 0 and all(len(p) == 2 and p[0] in _RANKS and p[1] in _SUITS for p in pairs):
            out.append((chips, (tuple(code(p) for p in pairs),)))
        elif sid and all(r in _RANKS for r in sid):
            out.append((chips, tuple(tuple(k * 13 + _RANKS.index(r) for r in sid) for k in range(4))))
    return out


class Table:
    """The seat's knowledge of the deal, ready to be dealt and played out."""

    def __init__(self, view: dict[str, Any], me: str) -> None:
        players = view["players"]
        self.names = [p["player"] for p in players]
        self.me = self.names.index(me)
        self.n = len(players)
        self.counts = [int(p["cards"]) for p in players]
        self.unit = 1
        self.pot = int((view.get("board") or {}).get("rummoli", 0))
        self.sections = sections_of(view)
        #: for each card, the (section, way) it may complete: one look-up a card played
        self.by_card: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(52)]
        for j, (_, ways) in enumerate(self.sections):
            for way in ways:
                for c in way:
                    self.by_card[c].append((j, way))
        self.played_by = [DEAD] * 52
        for i, p in enumerate(players):
            for c in p.get("played", []):
                self.played_by[code(c)] = i
        owner = [DEAD] * 52
        for c in range(52):
            if self.played_by[c] != DEAD:
                owner[c] = PLAYED
        for c in view["hand"]:
            owner[code(c)] = self.me
        shown = (view.get("poker") or {}).get("shown") or {}
        known = [0] * self.n
        for i, name in enumerate(self.names):
            if i == self.me:
                continue
            for c in shown.get(name, []):
                k = code(c)
                if owner[k] == DEAD:
                    owner[k] = i
                    known[i] += 1
        known_dead = 0
        unseen = []
        for c in range(52):
            if owner[c] != DEAD:
                continue
            if c % 13 and owner[c - 1] == PLAYED:
                known_dead += 1  # the card below it was played and it was not called
            else:
                unseen.append(c)
        self.owner = owner
        self.unseen = unseen
        self.need = [0 if i == self.me else max(0, self.counts[i] - known[i]) for i in range(self.n)]
        self.consistent = sum(self.need) <= len(unseen)

    def deal(self, rng: random.Random) -> list[int]:
        """One deal of the unseen cards consistent with the view: each other
        hand gets the number of cards it lacks, the rest are dead."""
        owner = self.owner[:]
        pool = self.unseen[:]
        rng.shuffle(pool)
        k = 0
        for i, need in enumerate(self.need):
            for c in pool[k:k + need]:
                owner[c] = i
            k += need
        return owner

    def play_out(self, owner: list[int], first: int, leader: int, counts: list[int] | None = None) -> float:
        """Play the deal to its end from ``leader`` leading ``first`` (``owner``
        is played on: pass a copy); the seat's edge: its chips won less the
        others' mean. ``counts``: the hands' sizes, when not the view's."""
        n, me = self.n, self.me
        counts = (counts or self.counts)[:]
        gain = [0.0] * n
        played_by = self.played_by[:]
        won = [False] * len(self.sections)
        card, who = first, leader
        while True:
            # the run: the card, then whoever holds the next one, and so on
            while True:
                owner[card] = PLAYED
                played_by[card] = who
                counts[who] -= 1
                for j, way in self.by_card[card]:
                    if not won[j] and all(played_by[x] == who for x in way):
                        won[j] = True
                        gain[who] += self.sections[j][0]
                if counts[who] == 0:
                    rest = sum(counts) * self.unit
                    for i in range(n):
                        gain[i] -= counts[i] * self.unit
                    gain[who] += self.pot + rest
                    return gain[me] - (sum(gain) - gain[me]) / (n - 1)
                if card % 13 == 12 or owner[card + 1] < 0:
                    break
                card += 1
                who = owner[card]
            # the stop: the last player restarts in the other colour, else the next one left
            suits = _other_colour(card)
            for k in range(n):
                p = (who + k) % n
                low = _keeps_lead(owner, p, suits) if p == me and KEEP_LEAD else _lowest(owner, p, suits)
                if low is not None:
                    card, who = low, p
                    break
            else:
                for i in range(n):
                    gain[i] -= counts[i] * self.unit
                return gain[me] - (sum(gain) - gain[me]) / (n - 1)


def _keeps_lead(owner: list[int], p: int, suits: tuple[int, ...]) -> int | None:
    """The seat's own restarts in a play-out: a run of its own that stops
    with it (at the ace or a card nobody holds), so it leads again, else its
    lowest card. Measured against its lowest card (``KEEP_LEAD``), the same
    deals against greedy: +0.33 chips a deal of edge (docs/bots.md)."""
    low = None
    for s in suits:
        base = s * 13
        for c in range(base, base + 13):
            if owner[c] == p:
                end = c
                while end % 13 != 12 and owner[end + 1] == p:
                    end += 1
                if end % 13 == 12 or owner[end + 1] < 0:
                    return c
                if low is None or c % 13 < low % 13:
                    low = c
                break
    return low


def _lowest(owner: list[int], p: int, suits: tuple[int, ...]) -> int | None:
    """The lowest card ``p`` may lead in ``suits`` (lowest rank, then suit order)."""
    best = None
    for s in suits:
        base = s * 13
        for c in range(base, base + 13):
            if owner[c] == p:
                if best is None or c % 13 < best % 13:
                    best = c
                break
    return best


# ---------------------------------------------------------------- the widow

def poker_score(hand: list[int]) -> int:
    """The best five cards of a hand of 5 to 13 (cards as integers), as a
    number that orders hands as the poker phase does: the category first
    (straight flush 8 .. high card 0), then the ranks that decide within it
    (the top ones only: exact enough to choose, far cheaper than the
    evaluator's best of every five-card subset)."""
    counts = [0] * 13
    by_suit: list[int] = [0, 0, 0, 0]
    for c in hand:
        counts[c % 13] += 1
        by_suit[c // 13] |= 1 << (c % 13)
    best = -1
    for mask in by_suit:
        if bin(mask).count("1") >= 5:
            top = _straight(mask)
            best = max(best, (8 << 20) + top if top >= 0 else (5 << 20) + _top_ranks(mask, 5))
    if best >= 8 << 20:
        return best
    groups = sorted(((k, r) for r, k in enumerate(counts) if k), reverse=True)
    (k1, r1), (k2, r2) = groups[0], groups[1] if len(groups) > 1 else (0, 0)
    if k1 == 4:
        return (7 << 20) + r1
    if k1 == 3 and k2 >= 2:
        return (6 << 20) + r1 * 13 + r2
    if best >= 0:
        return best
    top = _straight(sum(1 << r for r in range(13) if counts[r]))
    if top >= 0:
        return (4 << 20) + top
    if k1 == 3:
        return (3 << 20) + r1
    if k1 == 2 and k2 == 2:
        return (2 << 20) + r1 * 13 + r2
    if k1 == 2:
        return (1 << 20) + r1
    return _top_ranks(sum(1 << r for r in range(13) if counts[r]), 5)


def _straight(mask: int) -> int:
    """The top rank of the best straight in a rank mask (the ace also low), or -1."""
    low = mask << 1 | mask >> 12 & 1  # bit r + 1 for rank r, bit 0 for the ace played low
    for top in range(13, 3, -1):
        if low >> (top - 4) & 0b11111 == 0b11111:
            return top - 1
    return -1


def _top_ranks(mask: int, k: int) -> int:
    """The ``k`` highest ranks of a mask, as one number (the highest first)."""
    out, got = 0, 0
    for r in range(12, -1, -1):
        if mask >> r & 1:
            out, got = out * 13 + r, got + 1
            if got == k:
                break
    return out


def widow_worth(table: Table, widow: int, poker: int, dealer: int, price: int,
                samples: int, rng: random.Random) -> tuple[float, float]:
    """The seat's edge over the deal if the widow stays dead and if it takes
    it for ``price`` chips (paid to the dealer; 0 for the dealer himself),
    on ``samples`` deals of the unseen cards among the other hands and the
    widow (``widow`` cards): the poker pot (``poker`` chips) to the best
    hand, then the sequences played out from its lowest card."""
    n, me = table.n, table.me
    mine = [c for c in range(52) if table.owner[c] == me]
    pool = [c for c in range(52) if table.owner[c] == DEAD]
    sizes = [0 if i == me else table.counts[i] for i in range(n)]
    order = [(dealer + 1 + k) % n for k in range(n)]  # ties go to the first from the dealer's left
    cost = -price - (price / (n - 1) if dealer != me else 0)
    keep = take = 0.0
    for _ in range(samples):
        rng.shuffle(pool)
        hands: list[list[int]] = []
        k = 0
        for i in range(n):
            hands.append(mine if i == me else pool[k:k + sizes[i]])
            k += 0 if i == me else sizes[i]
        drawn = pool[k:k + widow]
        keep += _deal_worth(table, hands, order, poker)
        hands[me] = drawn
        take += _deal_worth(table, hands, order, poker) + cost
    return keep / samples, take / samples


def _deal_worth(table: Table, hands: list[list[int]], order: list[int], poker: int) -> float:
    """The seat's edge over a deal whose hands are all known: the poker pot, then the sequences."""
    n, me = table.n, table.me
    scores = [poker_score(h) for h in hands]
    top = max(scores)
    leader = next(p for p in order if scores[p] == top)
    edge = poker if leader == me else -poker / (n - 1)
    owner = [DEAD] * 52
    for i, h in enumerate(hands):
        for c in h:
            owner[c] = i
    first = _lowest(owner, leader, (0, 1, 2, 3))
    assert first is not None  # every hand holds cards at the start
    return edge + table.play_out(owner, first, leader, [len(h) for h in hands])
