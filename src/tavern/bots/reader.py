"""Reading the opponents at a poker table (issue 37): what each has done,
from what this seat has been shown — never a hidden card.

A :class:`TableReader` is fed the seat's views, one after another (its own
turns, and the deal's end when the table shows it: the result and the hands
shown at showdown). From the differences between two views it learns what
each opponent did in between: how much he put in before the flop (entered
the pot — VPIP —, raised — PFR), whether he bet or raised after the flop,
whether he folded to a bet of ours, whether he went to showdown and with
what. :class:`Habits` keeps those counts over the deals, with a prior of a
few deals of an ordinary player so that a stranger is not read from one
hand.

:meth:`TableReader.weights` turns it into this deal's *range* for one
opponent: a weight for each of the 1,326 starting hands, the likelihood of
his actions of this deal given that hand — a raise before the flop keeps
the best of his hands by his own raising frequency, a call his entering
hands, a bet after the flop the hands that make a pair or better or a draw
on the board of that street (and his bluffs, as often as he has been seen
to bet with nothing), a call of our bet the same with his calling share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from tavern.bots.equity import DECK, preflop_score
from tavern.games.poker.evaluator import encode, rank7_codes

_CODES = {c: encode(c) for c in DECK}
#: Every starting hand, as pairs of card names (first < second in DECK order).
COMBOS: list[tuple[str, str]] = [(DECK[i], DECK[j]) for i in range(52) for j in range(i + 1, 52)]
PAIR = 1 << 20  # the evaluator's value of the weakest pair (a category is value >> 20)


@lru_cache(maxsize=1)
def percentiles() -> dict[tuple[str, str], float]:
    """Each starting hand's place among all, 0 the best and 1 the worst (by
    :func:`preflop_score`)."""
    order = sorted(COMBOS, key=lambda h: -preflop_score(*h))
    n = len(order)
    return {h: i / n for i, h in enumerate(order)}


@dataclass
class Habits:
    """One opponent's counts over the deals seen, priors included (an
    ordinary player: enters 30 % of his pots, raises 15 %, folds 45 % of the
    time to a bet, bets 35 % of his streets, bluffs 30 % of his bets)."""

    dealt: float = 6.0
    entered: float = 1.8
    raised: float = 0.9
    faced: float = 4.0
    folded: float = 1.8
    streets: float = 6.0
    bets: float = 2.1
    shown_bets: float = 3.0
    shown_bluffs: float = 0.9
    showdowns: float = 0.0
    #: His answers to our bets by situation — ``open`` (before the flop, he
    #: had not raised), ``reraise`` (before the flop, over his own raise),
    #: ``post`` (after the flop) —: [times faced, times folded], priors included.
    answers: dict[str, list[float]] = field(default_factory=lambda: {
        "open": [4.0, 2.4], "reraise": [4.0, 1.6], "post": [4.0, 1.8]})

    def fold_rate(self, kind: str) -> float:
        """How often he folds to our bet in the situation ``kind``."""
        faced, folded = self.answers[kind]
        return folded / faced

    @property
    def vpip(self) -> float:
        return self.entered / self.dealt

    @property
    def pfr(self) -> float:
        return min(self.raised / self.dealt, self.vpip)

    @property
    def fold_to_bet(self) -> float:
        return self.folded / self.faced

    @property
    def aggression(self) -> float:
        return self.bets / self.streets

    @property
    def bluffs(self) -> float:
        return self.shown_bluffs / self.shown_bets


@dataclass
class DealNotes:
    """What one opponent did in the deal in progress, as far as seen."""

    preflop: int = 0  #: chips put in before the flop (the most seen)
    raised: bool = False  #: seen above our chips and the big blind before the flop: he raised
    blind: int = 0  #: his forced blind
    #: By street (1 flop, 2 turn, 3 river): bet or raised / called a bet / folded.
    bet: set[int] = field(default_factory=set)
    #: How many times, by street, he was seen raising over our chips.
    raises: dict[int, int] = field(default_factory=dict)
    called: set[int] = field(default_factory=set)
    folded_at: int | None = None
    last_seen: int = 0  #: his chips committed at the last view
    facing: int | None = None  #: the street where our bet awaits his answer
    facing_kind: str = "post"  #: its situation (:attr:`Habits.answers`)
    start: dict[int, int] = field(default_factory=dict)  #: his total committed at each street's start


def street_of(view: dict[str, Any]) -> int:
    """0 before the flop, 1 flop, 2 turn, 3 river (draw poker: the betting round)."""
    board = view.get("board") or []
    if view.get("game") == "draw":
        return int(view.get("round", 0))
    return {0: 0, 3: 1, 4: 2, 5: 3}.get(len(board), 0)


class TableReader:
    """The opponents' habits and this deal's notes (module's docstring)."""

    def __init__(self) -> None:
        self.habits: dict[str, Habits] = {}
        self.notes: dict[str, DealNotes] = {}
        self._key: tuple[Any, ...] | None = None
        self._boards: dict[int, list[str]] = {}
        self.me: str | None = None
        self.big_blind = 1
        self._my_pre = 0
        self._round = 0  #: the betting round of the last view (draw poker's new deal)
        self._ended = False  #: the last view was a deal's end

    # --- what the seat is shown ------------------------------------------------

    def observe(self, view: dict[str, Any], me: str) -> None:
        """One view of the seat ``me`` (its turn, or the deal's end)."""
        mine = next((p for p in view["players"] if p["player"] == me), None)
        # A new deal: the button, the players or our cards changed — at draw
        # poker our cards change at the draw: there the betting round going
        # back says it.
        draw = view.get("game") == "draw"
        cards = tuple(mine["cards"] or ()) if mine and mine.get("cards") and not draw else ()
        key: tuple[Any, ...] = (view.get("button"), tuple(p["player"] for p in view["players"]), cards)
        fresh = key != self._key or (draw and int(view.get("round", 0)) < self._round)
        self._round = int(view.get("round", 0))
        if fresh and self.notes and "result" not in view:
            self._close(None)
        if not fresh and not self.notes and self._ended:
            return  # the end of a deal already counted, shown again
        if fresh or not self.notes:
            self._open(view, me)
        self._key = key
        self._note(view, me)
        self._ended = "result" in view
        if self._ended:
            self._close(view)

    def _open(self, view: dict[str, Any], me: str) -> None:
        self.me = me
        self._boards = {}
        self.big_blind = view.get("big_blind") or 1
        self._my_pre = 0
        players = view["players"]
        order = _blind_order(view)
        sb, bb = view.get("small_blind") or 0, view.get("big_blind") or 0
        self.notes = {}
        for p in players:
            if p["player"] == me or not p["card_count"]:
                continue
            blind = bb if order.get(p["player"]) == 1 else sb if order.get(p["player"]) == 0 else 0
            self.notes[p["player"]] = DealNotes(blind=blind)
            self.habits.setdefault(p["player"], Habits())

    def _note(self, view: dict[str, Any], me: str) -> None:
        """Long because each opponent's move since the last view is read in
        one pass: his chips in before the flop, his answer to our bet, his
        bet or call on this street, his fold."""
        street = street_of(view)
        self._boards.setdefault(street, list(view.get("board") or []))
        seats = {p["player"]: p for p in view["players"]}
        mine = seats.get(me)
        my_bet = mine["bet"] if mine else 0
        if street == 0 and mine:
            self._my_pre = max(self._my_pre, mine["committed"])
        top = max((p["bet"] for p in view["players"]), default=0)
        for name, note in self.notes.items():
            p = seats.get(name)
            if p is None:
                continue
            start = p["committed"] - p["bet"]
            note.start.setdefault(street, start)
            if street == 0:
                note.preflop = max(note.preflop, p["committed"])
                if p["committed"] > max(self.big_blind, mine["committed"] if mine else 0):
                    note.raised = True
                    if p["committed"] > note.last_seen:
                        note.raises[0] = note.raises.get(0, 0) + 1
            elif 1 not in note.start or street == 1:
                note.preflop = max(note.preflop, note.start.get(1, start))
            note.last_seen = p["committed"]
            if note.facing is not None:
                answer = self.habits[name].answers[note.facing_kind]
                answer[0] += 1
                self.habits[name].faced += 1
                if p["folded"]:
                    note.folded_at = note.facing
                    self.habits[name].folded += 1
                    answer[1] += 1
                note.facing = None
            if p["folded"]:
                note.folded_at = street if note.folded_at is None else note.folded_at
                continue
            if street >= 1 and p["bet"] > my_bet and p["bet"] == top:
                if street not in note.bet or my_bet > 0:
                    note.raises[street] = note.raises.get(street, 0) + 1
                note.bet.add(street)
            elif street >= 1 and 0 < p["bet"] == top:
                note.called.add(street)

    def acted(self, view: dict[str, Any], move: dict[str, Any]) -> None:
        """Our own move: a bet or raise puts each opponent still in before it
        (his answer, read at the next view, counts to his fold-to-a-bet)."""
        if move.get("action") not in ("bet", "raise"):
            return
        street = street_of(view)
        seats = {p["player"]: p for p in view["players"]}
        for name, note in self.notes.items():
            p = seats.get(name)
            if p is not None and not p["folded"] and not p["all_in"]:
                note.facing = street
                note.facing_kind = "post" if street else ("reraise" if note.raised else "open")

    def _close(self, view: dict[str, Any] | None) -> None:
        """The deal's end: its notes go into each opponent's habits."""
        shown: dict[str, list[str]] = (view or {}).get("result", {}).get("shown", {}) if view else {}
        bb = self.big_blind
        for name, note in self.notes.items():
            h = self.habits[name]
            h.dealt += 1
            if note.preflop > note.blind or (note.preflop > bb):
                h.entered += 1
            if note.raised or (note.folded_at is None and note.preflop > bb and self._my_pre <= bb):
                note.raised = True
                h.raised += 1
            played = [s for s in note.start if s >= 1 and (note.folded_at is None or note.folded_at >= s)]
            h.streets += len(played)
            h.bets += len(note.bet)
            cards = shown.get(name)
            if cards:
                h.showdowns += 1
                if note.bet:
                    h.shown_bets += 1
                    board = self._boards.get(max(note.bet), [])
                    if not _has_something(cards, board):
                        h.shown_bluffs += 1
        self.notes = {}

    # --- this deal's range -----------------------------------------------------

    def weights(self, name: str, dead: set[str]) -> list[tuple[tuple[str, str], float]]:
        """This deal's range of ``name``: each starting hand not holding a
        card in ``dead`` (ours and the board), with its weight (module's
        docstring)."""
        h = self.habits.get(name) or Habits()
        note = self.notes.get(name) or DealNotes()
        pct = percentiles()
        raised = note.raised
        out: list[tuple[tuple[str, str], float]] = []
        streets = sorted(note.bet | note.called)
        for hand in COMBOS:
            if hand[0] in dead or hand[1] in dead:
                continue
            p = pct[hand]
            if raised:
                w = _within(p, h.pfr * 0.3 ** max(0, note.raises.get(0, 1) - 1))
            elif note.preflop > note.blind:
                w = _within(p, h.vpip) * (0.5 if p < 0.4 * h.pfr else 1.0)
            else:
                w = 0.5 if p < 0.5 * h.pfr and note.blind else 1.0
            for s in streets:
                if w < 0.02:
                    break
                board = self._boards.get(s)
                if not board:
                    continue
                tier = hand_tier(list(hand), board)
                if note.raises.get(s, 0) >= 2:
                    w *= (0.0, 0.05, 0.25, 1.0)[tier] or min(0.3, h.bluffs * 0.3)
                elif s in note.bet:
                    w *= (0.0, 0.6, 1.0, 1.0)[tier] or min(0.8, max(0.1, h.bluffs))
                else:
                    w *= (0.0, 0.8, 1.0, 0.8)[tier] or min(0.7, max(0.05, 0.7 - h.fold_to_bet))
            if w > 0.005:
                out.append((hand, w))
        return out


def _within(p: float, share: float) -> float:
    """A hand at place ``p`` in a range of the best ``share`` (softly: players
    are not charts)."""
    return 1.0 if p <= share else max(0.01, math.exp(-(p - share) / 0.06))


def hand_tier(hole: list[str], board: list[str]) -> int:
    """0 nothing, 1 a pair or a draw, 2 top pair or an overpair, 3 two pair
    or better with a hole card: how players weigh a hand on a board."""
    if not _has_something(hole, board):
        return 0
    codes = [_CODES[c] for c in hole + board]
    value, alone = rank7_codes(codes), rank7_codes([_CODES[c] for c in board]) if len(board) >= 5 else 0
    on_board = [c[0] for c in board]
    if value >> 20 >= 2 and (len(board) < 5 or value > alone) and \
            (value >> 20 >= 3 or sum(1 for c in hole if c[0] in on_board) == 2 or len(set(on_board)) == len(on_board)):
        return 3
    top = max(_RANK.index(r) for r in on_board)
    if hole[0][0] == hole[1][0] and _RANK.index(hole[0][0]) > top:
        return 2
    if any(_RANK.index(c[0]) == top for c in hole):
        return 2
    return 1


_RANK = "23456789TJQKA"


def _has_something(hole: list[str], board: list[str]) -> bool:
    """A pair or better that uses a hole card, or a draw to a flush or a
    straight with cards to come: what a bet or a call is usually made with."""
    if len(board) < 3:
        return True
    on_board = {c[0] for c in board}
    if hole[0][0] == hole[1][0] or any(c[0] in on_board for c in hole):
        return True
    if len(board) >= 5:  # a straight or a flush with a hole card
        return rank7_codes([_CODES[c] for c in hole + board]) > rank7_codes([_CODES[c] for c in board])
    suits = [c[1] for c in hole + board]
    if any(suits.count(s) >= 4 for s in {hole[0][1], hole[1][1]}):
        return True
    have = {"23456789TJQKA".index(c[0]) for c in hole + board}
    return any(all((v + k) in have for k in range(4)) for v in range(0, 10))


def _blind_order(view: dict[str, Any]) -> dict[str, int]:
    """Who posted the blinds: 0 the small blind, 1 the big (heads-up the
    button is the small blind)."""
    players = [p for p in view["players"] if p["card_count"]]
    if len(players) < 2:
        return {}
    seats = sorted(p["seat"] for p in players)
    button = view.get("button", seats[0])
    after = [s for s in seats if s > button] + [s for s in seats if s <= button]
    by_seat = {p["seat"]: p["player"] for p in players}
    if len(players) == 2:
        sb = button if button in by_seat else after[-1]
        other = next(s for s in seats if s != sb)
        return {by_seat[sb]: 0, by_seat[other]: 1}
    return {by_seat[after[0]]: 0, by_seat[after[1]]: 1}
