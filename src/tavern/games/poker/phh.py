"""Ramponneau hand records as PHH, the Poker Hand History standard.

PHH (https://phh.readthedocs.io) is TOML: the game's parameters, starting
stacks and one line per action, as pokerkit reads it
(``pokerkit.HandHistory.loads``). Players are ``p1 .. pn`` from the seat left
of the button, the button last; heads-up ``p1`` is the big blind — the same
order the engine uses, so the mapping is direct.

Ramponneau actions map one to one: ``fold`` → ``f``, ``check``/``call`` →
``cc``, ``bet``/``raise`` to a total → ``cbr total`` (PHH amounts are also the
player's total for the street). Board cards are ``d db``; at showdown each
player still in gets ``sm CARDS`` (shown) or ``sm`` (mucked), in showdown
order. Two things of ours PHH cannot say are refused: a post to enter out of
position and a protected (disconnected) player.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from tavern.games.base import IllegalAction, in_action
from tavern.games.poker import ramponneau
from tavern.games.poker.deal import SHOWDOWN


def _toml(value: Any) -> str:
    # TOML and JSON agree on strings, ints, bools and flat arrays.
    return json.dumps(value, ensure_ascii=False)


def _check_writable(record: dict[str, Any]) -> None:
    """PHH says a Ramponneau hand without posted blinds (a late player's post
    has no PHH word): anything else is refused before the replay."""
    if record.get("game") != ramponneau.GAME:
        raise IllegalAction("phh_ramponneau_only")
    poster = posted_blind(record)
    if poster is not None:
        raise IllegalAction("phh_no_post", name=poster)


def posted_blind(record: dict[str, Any]) -> str | None:
    """A player who posted a blind to come in (a seat's ``post`` or a
    ``post`` action), which the hand-history formats cannot write."""
    for s in record.get("seats") or []:
        if isinstance(s, dict) and s.get("post") and not s.get("waiting"):
            return str(s.get("player"))
    for a in record.get("actions") or []:
        if isinstance(a, dict) and a.get("action") == "post":
            return str(a.get("player"))
    return None


def _document(engine: Any, players: list[str], lines: list[str]) -> str:
    """The PHH document of a replayed deal: its stakes and stacks around the
    action ``lines``."""
    cfg = engine.config
    n = len(players)
    blinds = [cfg["small_blind"], cfg["big_blind"]] + [0] * (n - 2)
    start = [engine.seats[k]["chips"] for k in engine.pos]
    end = [engine.b.stack[i] for i in range(n)]
    out = [
        'variant = "NT"',
        "ante_trimming_status = true",
        f"antes = {_toml([int(cfg.get('ante', 0) or 0)] * n)}",
        f"blinds_or_straddles = {_toml(blinds)}",
        f"min_bet = {cfg['big_blind']}",
        f"starting_stacks = {_toml(start)}",
        f"actions = [\n{''.join(f'  {_toml(line)},{chr(10)}' for line in lines)}]",
        f"players = {_toml(players)}",
        f"finishing_stacks = {_toml(end)}",
        f"winnings = {_toml(_winnings(engine, n))}",
    ]
    if engine.rake_taken:
        # PHH has no rake field (pokerkit takes the rake as a function its
        # reader supplies): the file says what the tavern took in a field of
        # its own, the underscore the format asks of them, so that its actions,
        # ``winnings`` and ``finishing_stacks`` agree (docs/records/poker.md).
        out.append(f"_rake = {engine.rake_taken}")
    return "\n".join(out) + "\n"


def _winnings(engine: Any, n: int) -> list[int]:
    """What each player took from the pots, after the rake."""
    won = [0] * n
    for pot in engine.pots:
        for i, chips in pot["shares"].items():
            won[i] += chips
    return won


def to_phh(record: dict[str, Any], *, hidden: Collection[str] = ()) -> str:
    """The PHH text of a Ramponneau hand record (the deal is replayed first,
    so an inconsistent record raises :class:`IllegalAction`). The hole cards
    of the players in ``hidden`` are written unknown (``????``) and their
    hands mucked: a player's export of his own deal names those whose cards
    he never saw."""
    _check_writable(record)
    engine = ramponneau.new_deal(record["config"], record["seats"], record["button"],
                                 deck=record["deck"])
    players = engine.players
    p = {name: f"p{i + 1}" for i, name in enumerate(players)}
    lines = [f"d dh {p[name]} {'????' if name in hidden else ''.join(engine.hole[i])}"
             for i, name in enumerate(players)]
    board = 0

    def deal_board() -> None:
        nonlocal board
        while board < len(engine.board):
            street = 3 if board == 0 else 1
            lines.append(f"d db {''.join(engine.board[board:board + street])}")
            board += street

    deal_board()  # an all-in by the blinds deals the board before anyone speaks
    for k, a in enumerate(record.get("actions", [])):
        who, what = a.get("player"), a.get("action")
        if what == "protect":
            raise IllegalAction("phh_no_protect")
        args = {key: v for key, v in a.items() if key not in ("player", "action")}
        try:
            engine.act(who, what, **args)
        except IllegalAction as exc:
            raise in_action(k, who, what, exc) from None
        if what == "fold":
            lines.append(f"{p[who]} f")
        elif what in ("check", "call"):
            lines.append(f"{p[who]} cc")
        elif what in ("bet", "raise"):
            lines.append(f"{p[who]} cbr {a['amount']}")
        # show / muck are written below, once the showdown is complete
        deal_board()
    while engine.phase == SHOWDOWN:  # cards speak for the decisions not recorded
        engine.act(engine.to_act()[0], "show")
    if not engine.over:
        raise IllegalAction("phh_whole_hand")
    for i in engine.sd_order:
        if i in engine.mucked or players[i] in hidden:
            lines.append(f"p{i + 1} sm")
        else:
            lines.append(f"p{i + 1} sm {''.join(engine.hole[i])}")
    return _document(engine, players, lines)
