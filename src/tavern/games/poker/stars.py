"""Poker hand records as PokerStars hand-history text, the format the common
poker trackers import (docs/hand-records.md "PokerStars text" maps it).

The text is written for one player, the *hero*: his own hole cards (« Dealt
to »), everyone's public actions, and at the showdown only the hands that
were shown to him (``shown``, from his view of the deal). Another player's
hidden cards are never written: the caller decides what was shown through
the hero's view, this module never looks at another player's hole cards
unless his name is in ``shown``.

Amounts follow PokerStars: a bet is its size, a raise says by how much and
to what (« raises 60 to 90 »), a call the chips put in now; the part of a
bet nobody matched is returned (« Uncalled bet (N) returned to X ») where
the engine gives it back, and the pots are paid after the rake, each named
(« main pot », « side pot-1 »). Two things of
ours the text cannot say are refused as PHH refuses them (``stars_no_post``,
``stars_no_protect``): a post to enter out of position and, at draw poker, a
protected (disconnected) player.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from typing import Any
from zoneinfo import ZoneInfo

from tavern.games.base import IllegalAction, in_action
from tavern.games.poker import draw, ramponneau
from tavern.games.poker.deal import SHOWDOWN, PokerDeal
from tavern.games.poker.phh import posted_blind

_STREETS = {3: "FLOP", 4: "TURN", 5: "RIVER"}
_ET = ZoneInfo("America/New_York")  # PokerStars' own clock, the one readers parse
PARIS = ZoneInfo("Europe/Paris")  # the tavern's clock (settings.timezone by default)
#: Where a player folded, as PokerStars' summary says it: hold'em by the
#: board's size, draw poker by the draws made.
_FOLDED_HOLDEM = {0: "before Flop", 3: "on the Flop", 4: "on the Turn", 5: "on the River"}
_FOLDED_DRAW = {0: "before the Draw", 1: "after the Draw", 2: "after the 2nd Draw"}
_CATEGORY = {  # what PokerStars writes after « shows [..] »
    "high_card": "high card", "pair": "a pair", "one_pair": "a pair", "two_pair": "two pair",
    "three_of_a_kind": "three of a kind", "trips": "three of a kind", "straight": "a straight",
    "flush": "a flush", "full_house": "a full house", "four_of_a_kind": "four of a kind",
    "straight_flush": "a straight flush", "royal_flush": "a royal flush",
}


def _cards(cards: list[str]) -> str:
    return " ".join(cards)


def _new_deal(record: dict[str, Any]) -> PokerDeal:
    game = record.get("game")
    if game not in (ramponneau.GAME, draw.GAME):
        raise IllegalAction("stars_poker_only")
    poster = posted_blind(record)
    if poster is not None:
        raise IllegalAction("stars_no_post", name=poster)
    module = ramponneau if game == ramponneau.GAME else draw
    deal: PokerDeal = module.new_deal(record["config"], record["seats"], record["button"], deck=record["deck"],
                                      reshuffles=record.get("reshuffles") or [])
    return deal


def stamp(when: dt.datetime, zone: ZoneInfo) -> str:
    """PokerStars' time: the local time with its zone, then the same moment
    in New York time in brackets (« 2026/12/01 22:06:05 CET [2026/12/01
    16:06:05 ET] »), the hour unpadded as PokerStars writes it; readers take
    the bracketed ET time."""
    local, et = when.astimezone(zone), when.astimezone(_ET)
    return (f"{local:%Y/%m/%d} {local.hour}:{local:%M:%S} {local.tzname()} "
            f"[{et:%Y/%m/%d} {et.hour}:{et:%M:%S} ET]")


def _header(engine: PokerDeal, record: dict[str, Any], number: int, when: str, table: str) -> list[str]:
    cfg = engine.config
    if engine.game == ramponneau.GAME:
        kind = f"Hold'em No Limit ({engine.small_blind}/{engine.big_blind})"
    else:
        structure = {"fixed-limit": "Limit", "pot-limit": "Pot Limit", "no-limit": "No Limit"}[cfg["structure"]]
        name = "5 Card Draw" if cfg.get("draws", 1) == 1 else "5 Card Double Draw"
        kind = f"{name} {structure} ({engine.small_blind}/{engine.big_blind})"
    seats = record["seats"]
    lines = [f"PokerStars Hand #{number}: {kind} - {when}",
             f"Table '{table}' {max(len(seats), 2)}-max Seat #{record['button'] + 1} is the button"]
    for k in sorted(engine.pos):  # seat order, the table's own numbering from 1
        i = engine.pos.index(k)
        lines.append(f"Seat {k + 1}: {engine.players[i]} ({engine.seats[k]['chips']} in chips)")
    return lines


def _blinds(engine: PokerDeal) -> tuple[list[str], list[int]]:
    """The antes and blinds as posted, and what each player put in by them.
    They are written whole, as PokerStars does: when the blinds' all-ins
    closed the first round at once, the engine already gave the unmatched
    part back, and the text returns it as an uncalled bet."""
    n = len(engine.players)
    left = [engine.seats[k]["chips"] for k in engine.pos]
    put = [0] * n
    out = []
    ante = int(engine.config.get("ante", 0) or 0)
    for i in range(n) if ante else ():
        put[i] = min(ante, left[i])
        out.append(f"{engine.players[i]}: posts the ante {put[i]}")
    # Heads-up the button (the last player) posts the small blind.
    small, big = (n - 1, 0) if n == 2 else (0, 1)
    for i, kind, blind in ((small, "small", engine.small_blind), (big, "big", engine.big_blind)):
        amount = min(blind, left[i] - put[i])
        if amount:
            put[i] += amount
            out.append(f"{engine.players[i]}: posts {kind} blind {amount}")
    return out, put


def _returned(engine: Any, before: list[int]) -> list[str]:
    """« Uncalled bet (N) returned to X »: the part of a bet nobody matched,
    which the engine gives back as the betting round closes (his chips in
    the pot fell since ``before``)."""
    return [f"Uncalled bet ({before[j] - now}) returned to {engine.players[j]}"
            for j, now in enumerate(engine.b.total) if now < before[j]]


def _action_lines(engine: Any, a: dict[str, Any], i: int, high: int, before: tuple[int, int],
                  before_hand: list[str], hero: str) -> list[str]:
    """What PokerStars writes of one action, once the engine took it: ``high``
    the bet to match, ``before`` the player's stack and chips in the pot
    before it, ``before_hand`` his cards (a draw shows the hero his new
    cards). What he put in is read from the pot, not from his stack: the
    call that ends the deal is paid the pot at once."""
    who, what = a.get("player"), a.get("action")
    out: list[str] = []
    put = engine.b.total[i] - before[1] if i >= 0 else 0
    allin = " and is all-in" if put > 0 and put == before[0] else ""
    if what == "fold":
        out.append(f"{who}: folds")
    elif what == "check":
        out.append(f"{who}: checks")
    elif what == "call":
        out.append(f"{who}: calls {put}{allin}")
    elif what == "bet":
        out.append(f"{who}: bets {a['amount']}{allin}")
    elif what == "raise":
        out.append(f"{who}: raises {a['amount'] - high} to {a['amount']}{allin}")
    elif what == "draw":
        thrown = list(a.get("discard") or [])
        if not thrown:
            out.append(f"{who}: stands pat")
        elif who == hero:
            kept = [c for c in before_hand if c not in thrown]
            out.append(f"{who}: discards {len(thrown)} card{'s' if len(thrown) > 1 else ''} [{_cards(thrown)}]")
            out.append(f"Dealt to {who} [{_cards(kept)}] [{_cards(engine.hole[i][len(kept):])}]")
        else:
            out.append(f"{who}: discards {len(thrown)} card{'s' if len(thrown) > 1 else ''}")
    return out


def _text_pots(engine: Any) -> list[tuple[str, int, dict[int, int]]]:
    """The pots as PokerStars writes them, main pot first: ``(name, amount,
    {winner: chips collected})``; the amount is the pot before the rake,
    what each collected after it."""
    pots = [(pot["amount"], {w: s for w, s in pot["shares"].items() if s > 0})
            for pot in engine.pots if pot["amount"] > 0]
    if len(pots) == 1:
        return [("pot", pots[0][0], pots[0][1])]
    names = ["main pot"] + (["side pot"] if len(pots) == 2 else [f"side pot-{k}" for k in range(1, len(pots))])
    return [(name, amount, shares) for name, (amount, shares) in zip(names, pots, strict=True)]


def _showdown(engine: Any, me: int, shown: Collection[str]) -> tuple[list[str], set[int]]:
    """The showdown's lines (the hands shown to the hero, the others
    mucked) and the players whose hands the text shows."""
    names = engine.players
    if not engine.sd_order or len([i for i in range(len(names)) if not engine.b.folded[i]]) < 2:
        return [], set()
    out, showing = ["*** SHOW DOWN ***"], set()
    for i in engine.sd_order:
        if i in engine.shown and (names[i] in shown or i == me):
            showing.add(i)
            out.append(f"{names[i]}: shows [{_cards(engine.shown[i])}] ({_category(engine, i)})")
        else:
            out.append(f"{names[i]}: mucks hand")
    return out, showing


def _category(engine: Any, i: int) -> str:
    hand = str((engine.result().get("hands") or {}).get(engine.players[i], "a hand"))
    return _CATEGORY.get(hand, hand.replace("_", " "))


def _seat_tail(engine: Any, i: int, won: int, showing: set[int], folded_on: dict[int, str],
               me: int, showdown: bool) -> str:
    """The end of a player's summary line, in PokerStars' words."""
    if engine.b.folded[i]:
        return f" folded {folded_on.get(i, '')}".rstrip() + (" (didn't bet)" if not engine.b.total[i] else "")
    if not showdown or (won and i not in showing):  # a winner whose hand nobody showed him
        return f" collected ({won})"
    if i in showing:
        how = f"and won ({won})" if won else "and lost"
        return f" showed [{_cards(engine.shown[i])}] {how} with {_category(engine, i)}"
    return f" mucked [{_cards(engine.hole[i])}]" if i == me else " mucked"


def _ending(engine: Any, me: int, shown: Collection[str], folded_on: dict[int, str],
            holdem: bool) -> list[str]:
    """The showdown, who collected what from which pot, and the summary of
    each seat."""
    names = engine.players
    out, showing = _showdown(engine, me, shown)
    showdown = bool(out)
    pots = _text_pots(engine)
    won = dict.fromkeys(range(len(names)), 0)
    for name, _, shares in pots:
        for w, chips in shares.items():
            out.append(f"{names[w]} collected {chips} from {name}")
            won[w] += chips
    out.append("*** SUMMARY ***")
    split = "".join(f" {name[0].upper()}{name[1:]} {amount}." for name, amount, _ in pots) if len(pots) > 1 else ""
    out.append(f"Total pot {sum(amount for _, amount, _ in pots)}{split} | Rake {engine.rake_taken}")
    if holdem and engine.board:
        out.append(f"Board [{_cards(engine.board)}]")
    for k in sorted(engine.pos):
        i = engine.pos.index(k)
        out.append(f"Seat {k + 1}: {names[i]}{_seat_tail(engine, i, won[i], showing, folded_on, me, showdown)}")
    return out


class _Writer:
    """The text of the deal's hole cards and actions, written as the engine
    replays the record: the board or the draws as they come, where each
    player folded (for the summary) and the bets nobody called, returned
    where the engine gives them back: as the round closes."""

    def __init__(self, engine: Any, hero: str, lines: list[str]) -> None:
        self.engine, self.hero, self.lines = engine, hero, lines
        self.holdem = engine.game == ramponneau.GAME
        self.board, self.rounds = 0, engine.round
        self.folded_on: dict[int, str] = {}

    def streets(self) -> None:
        engine, lines = self.engine, self.lines
        if self.holdem:
            while self.board < len(engine.board):
                nxt = 3 if self.board == 0 else self.board + 1
                before = f" [{_cards(engine.board[:self.board])}]" if self.board else ""
                lines.append(f"*** {_STREETS[nxt]} ***{before} [{_cards(engine.board[self.board:nxt])}]")
                self.board = nxt
        elif engine.phase == "draw" and engine.draw_pos == 0 and self.rounds == engine.round:
            lines.append("*** FIRST DRAW ***" if engine.round == 0 else "*** SECOND DRAW ***")
            self.rounds = engine.round + 1  # written once per draw

    def act(self, k: int, a: dict[str, Any]) -> None:
        engine = self.engine
        who, what = a.get("player"), a.get("action")
        if what == "protect":
            raise IllegalAction("stars_no_protect")
        i = engine.index.get(who, -1)
        args = {key: v for key, v in a.items() if key not in ("player", "action")}
        high = max(engine.b.bet) if engine.phase == "bet" else 0
        totals = list(engine.b.total)
        before = (engine.b.stack[i], totals[i]) if i >= 0 else (0, 0)
        before_hand = list(engine.hole[i]) if i >= 0 else []
        where = (_FOLDED_HOLDEM[len(engine.board)] if self.holdem
                 else _FOLDED_DRAW.get(engine.round, "after the Draw"))
        try:
            engine.act(who, what, **args)
        except IllegalAction as exc:
            raise in_action(k, who, what, exc) from None
        if what == "fold":
            self.folded_on[i] = where
        back = totals[i] - engine.b.total[i] if i >= 0 and engine.b.total[i] < totals[i] else 0
        self.lines += _action_lines(engine, a, i, high, (before[0], before[1] - back), before_hand, self.hero)
        self.lines += _returned(engine, totals)
        self.streets()


def to_pokerstars(record: dict[str, Any], *, hero: str, shown: Collection[str], number: int,
                  when: dt.datetime, table: str, zone: ZoneInfo = PARIS) -> str:
    """The PokerStars text of one Ramponneau or draw-poker deal as ``hero``
    saw it: his cards, and at the showdown the hands of the players in
    ``shown`` (those that were shown to him); anyone else's hand is written
    as mucked. ``when`` is the deal's end, written in ``zone`` and in ET.
    The record is replayed, so an inconsistent one raises
    :class:`IllegalAction`."""
    engine = _new_deal(record)
    me = engine.index.get(hero, -1)
    lines = _header(engine, record, number, stamp(when, zone), table)
    posts, posted = _blinds(engine)
    lines += posts
    holdem = engine.game == ramponneau.GAME
    lines.append("*** HOLE CARDS ***" if holdem else "*** DEALING HANDS ***")
    if me >= 0:
        lines.append(f"Dealt to {hero} [{_cards(engine.hole[me])}]")
    lines += _returned(engine, posted)  # the blinds' all-ins closed the first round at once
    writer = _Writer(engine, hero, lines)
    writer.streets()  # an all-in by the blinds deals the board before anyone speaks
    for k, a in enumerate(record.get("actions", [])):
        writer.act(k, a)
    while engine.phase == SHOWDOWN:  # cards speak for the decisions not recorded
        engine.act(engine.to_act()[0], "show")
    if not engine.over:
        raise IllegalAction("stars_whole_hand")
    lines += _ending(engine, me, shown, writer.folded_on, holdem)
    return "\n".join(lines) + "\n"
