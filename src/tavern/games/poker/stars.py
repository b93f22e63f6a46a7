"""Poker hand records as PokerStars hand-history text, the format the common
poker trackers import (docs/hand-records.md "PokerStars text" maps it).

The text is written for one player, the *hero*: his own hole cards (« Dealt
to »), everyone's public actions, and at the showdown only the hands that
were shown to him (``shown``, from his view of the deal). Another player's
hidden cards are never written: the caller decides what was shown through
the hero's view, this module never looks at another player's hole cards
unless his name is in ``shown``.

Amounts follow PokerStars: a bet is its size, a raise says by how much and
to what (« raises 60 to 90 »), a call the chips put in now. Two things of
ours the text cannot say are refused as PHH refuses them (``stars_no_post``,
``stars_no_protect``): a post to enter out of position and, at draw poker, a
protected (disconnected) player.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from typing import Any

from tavern.games.base import IllegalAction, in_action
from tavern.games.poker import draw, ramponneau
from tavern.games.poker.deal import SHOWDOWN, PokerDeal
from tavern.games.poker.phh import posted_blind

_STREETS = {3: "FLOP", 4: "TURN", 5: "RIVER"}
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


def _header(engine: PokerDeal, record: dict[str, Any], number: int, when: dt.datetime, table: str) -> list[str]:
    cfg = engine.config
    stamp = when.astimezone(dt.UTC).strftime("%Y/%m/%d %H:%M:%S") + " UTC"
    if engine.game == ramponneau.GAME:
        kind = f"Hold'em No Limit ({engine.small_blind}/{engine.big_blind})"
    else:
        structure = {"fixed-limit": "Limit", "pot-limit": "Pot Limit", "no-limit": "No Limit"}[cfg["structure"]]
        name = "5 Card Draw" if cfg.get("draws", 1) == 1 else "5 Card Double Draw"
        kind = f"{name} {structure} ({engine.small_blind}/{engine.big_blind})"
    seats = record["seats"]
    lines = [f"PokerStars Hand #{number}: {kind} - {stamp}",
             f"Table '{table}' {max(len(seats), 2)}-max Seat #{record['button'] + 1} is the button"]
    for k in sorted(engine.pos):  # seat order, the table's own numbering from 1
        i = engine.pos.index(k)
        lines.append(f"Seat {k + 1}: {engine.players[i]} ({engine.seats[k]['chips']} in chips)")
    return lines


def _blinds(engine: PokerDeal) -> list[str]:
    n = len(engine.players)
    # Heads-up the button (the last player) posts the small blind.
    small, big = (n - 1, 0) if n == 2 else (0, 1)
    out = []
    for i, kind in ((small, "small"), (big, "big")):
        # What he put in so far (the blinds' all-in may have closed the round already).
        if engine.b.total[i]:
            out.append(f"{engine.players[i]}: posts {kind} blind {engine.b.total[i]}")
    return out


def _action_lines(engine: Any, a: dict[str, Any], i: int, high: int, before_stack: int,
                  before_hand: list[str], hero: str) -> list[str]:
    """What PokerStars writes of one action, once the engine took it: ``high``
    the bet to match, ``before_stack`` and ``before_hand`` the player's stack
    and cards before it (a draw shows the hero his new cards)."""
    who, what = a.get("player"), a.get("action")
    out: list[str] = []
    allin = " and is all-in" if i >= 0 and engine.b.stack[i] == 0 and before_stack > 0 else ""
    if what == "fold":
        out.append(f"{who}: folds")
    elif what == "check":
        out.append(f"{who}: checks")
    elif what == "call":
        out.append(f"{who}: calls {before_stack - engine.b.stack[i]}{allin}")
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


def _showdown_and_summary(engine: Any, me: int, shown: Collection[str], start: list[int],
                          holdem: bool) -> list[str]:
    """The showdown (the hands shown to the hero, the others mucked), who
    collected what, and the summary of each seat."""
    names = engine.players
    out: list[str] = []
    result = engine.result()
    if engine.sd_order and len([i for i in range(len(names)) if not engine.b.folded[i]]) > 1:
        out.append("*** SHOW DOWN ***")
        hands = result.get("hands") or {}
        for i in engine.sd_order:
            name = names[i]
            if i in engine.shown and (name in shown or i == me):
                what_ = _CATEGORY.get(str(hands.get(name)), str(hands.get(name, "a hand")).replace("_", " "))
                out.append(f"{name}: shows [{_cards(engine.shown[i])}] ({what_})")
            else:
                out.append(f"{name}: mucks hand")
    end = [engine.b.stack[i] for i in range(len(names))]
    won = {i: end[i] - start[i] + engine.b.total[i] for i in range(len(names))}
    for i, amount in won.items():
        if amount > 0:
            out.append(f"{names[i]} collected {amount} from pot")
    out.append("*** SUMMARY ***")
    out.append(f"Total pot {sum(engine.b.total)} | Rake {engine.rake_taken}")
    if holdem and engine.board:
        out.append(f"Board [{_cards(engine.board)}]")
    for k in sorted(engine.pos):
        i = engine.pos.index(k)
        tail = f" collected ({won[i]})" if won[i] > 0 else (" folded" if engine.b.folded[i] else " lost")
        out.append(f"Seat {k + 1}: {names[i]}{tail}")
    return out


def to_pokerstars(record: dict[str, Any], *, hero: str, shown: Collection[str], number: int,
                  when: dt.datetime, table: str) -> str:
    """The PokerStars text of one Ramponneau or draw-poker deal as ``hero``
    saw it: his cards, and at the showdown the hands of the players in
    ``shown`` (those that were shown to him); anyone else's hand is written
    as mucked. The record is replayed, so an inconsistent one raises
    :class:`IllegalAction`."""
    engine = _new_deal(record)
    me = engine.index.get(hero, -1)
    start = [engine.seats[k]["chips"] for k in engine.pos]  # before the blinds
    lines = _header(engine, record, number, when, table)
    lines += _blinds(engine)
    holdem = engine.game == ramponneau.GAME
    lines.append("*** HOLE CARDS ***" if holdem else "*** DEALING HANDS ***")
    if me >= 0:
        lines.append(f"Dealt to {hero} [{_cards(engine.hole[me])}]")
    board = 0
    rounds = engine.round

    def streets() -> None:
        nonlocal board, rounds
        if holdem:
            while board < len(engine.board):
                nxt = 3 if board == 0 else board + 1
                before = f" [{_cards(engine.board[:board])}]" if board else ""
                lines.append(f"*** {_STREETS[nxt]} ***{before} [{_cards(engine.board[board:nxt])}]")
                board = nxt
        elif engine.phase == "draw" and engine.draw_pos == 0 and rounds == engine.round:
            lines.append("*** FIRST DRAW ***" if engine.round == 0 else "*** SECOND DRAW ***")
            rounds = engine.round + 1  # written once per draw

    streets()  # an all-in by the blinds deals the board before anyone speaks
    for k, a in enumerate(record.get("actions", [])):
        who, what = a.get("player"), a.get("action")
        if what == "protect":
            raise IllegalAction("stars_no_protect")
        i = engine.index.get(who, -1)
        args = {key: v for key, v in a.items() if key not in ("player", "action")}
        high = max(engine.b.bet) if engine.phase == "bet" else 0
        before_stack = engine.b.stack[i] if i >= 0 else 0
        before_hand = list(engine.hole[i]) if i >= 0 else []
        try:
            engine.act(who, what, **args)
        except IllegalAction as exc:
            raise in_action(k, who, what, exc) from None
        lines += _action_lines(engine, a, i, high, before_stack, before_hand, hero)
        streets()
    while engine.phase == SHOWDOWN:  # cards speak for the decisions not recorded
        engine.act(engine.to_act()[0], "show")
    if not engine.over:
        raise IllegalAction("stars_whole_hand")
    lines += _showdown_and_summary(engine, me, shown, start, holdem)
    return "\n".join(lines) + "\n"
