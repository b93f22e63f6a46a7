"""The deal's end as it was before issue 41 (commit b1282c6), kept verbatim
to be measured against (bench/bench_deal_end.py) and held equal to
(tests/test_deal_end_fast.py): the seen positions from the whole views,
legal actions included, read by a recursive walk; the salts by
``hmac.new``; VPIP and PFR from a replay of the deal."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any

from tavern.fair_cards import CARDS_SCHEME, DealCards, _Placed, _placed, shuffles_of
from tavern.games import registry
from tavern.games.base import IllegalAction


def _walk(value: Any, unique: dict[str, tuple[int, int]], into: set[tuple[int, int]]) -> None:
    if isinstance(value, _Placed):
        into.add(value.at)
    elif isinstance(value, str):
        at = unique.get(value)
        if at is not None:
            into.add(at)
    elif isinstance(value, dict):
        for v in value.values():
            _walk(v, unique, into)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _walk(v, unique, into)


def seen_positions(record: dict[str, Any]) -> dict[str, list[tuple[int, int]]]:
    parts = shuffles_of(record)
    firsts = len(parts) - len(record.get("reshuffles") or [])
    where: dict[str, list[tuple[int, int]]] = {}
    for k, cards in enumerate(parts, start=1):
        for i, c in enumerate(cards):
            where.setdefault(c, []).append((k, i))
    unique = {c: ats[0] for c, ats in where.items() if len(ats) == 1}

    def mark(deal: dict[str, Any]) -> dict[str, Any]:
        deck = [_placed(c, (k, i)) for k, cards in enumerate(parts[:firsts], start=1) for i, c in enumerate(cards)]
        again = [[_placed(c, (firsts + n, i)) for i, c in enumerate(r)] for n, r in enumerate(parts[firsts:], start=1)]
        return {**deal, "deck": deck, "reshuffles": again}

    players = [s["player"] for s in record["seats"]]
    seen: dict[str, set[tuple[int, int]]] = {p: set() for p in players}
    for engine, _ in registry.replay_steps(record, mark=mark):
        forgo = getattr(engine, "forgo_equity", None)
        if forgo is not None:
            forgo()
        for p in players:
            _walk(engine.view(p), unique, seen[p])
    return {p: sorted(s) for p, s in seen.items()}


def poker_first_round(record: dict[str, Any]) -> tuple[dict[str, int], dict[str, int], set[str]] | None:
    """VPIP, PFR and the folded, by the replay ``stats._poker`` ran (None: a record it cannot replay)."""
    vpip: dict[str, int] = {}
    pfr: dict[str, int] = {}
    folded: set[str] = set()
    first = True
    try:
        for engine, action in registry.replay_steps(record):
            if action is not None:
                who, what = str(action.get("player")), action.get("action")
                if what == "fold":
                    folded.add(who)
                if first and what in ("call", "bet", "raise"):
                    vpip[who] = 1
                    pfr[who] = max(pfr.get(who, 0), int(what != "call"))
            first = not engine.reached_second
    except (IllegalAction, KeyError, TypeError, ValueError):
        return None
    return vpip, pfr, folded


def salt(server_seed: bytes, table: int, deal: int, shuffle: int, position: int) -> str:
    msg = f"salt|{CARDS_SCHEME}|{int(table)}|{int(deal)}|{int(shuffle)}|{int(position)}".encode()
    return hmac.new(server_seed, msg, hashlib.sha256).hexdigest()


def reveal(cards: DealCards, positions: Iterable[tuple[int, int]]) -> dict[str, Any]:
    """``DealCards.reveal`` with the salts as they were computed (``hmac.new``)."""
    cards.digests()
    return {"cards_scheme": CARDS_SCHEME, "leaves": [list(ls) for ls in cards.leaves],
            "openings": [{"shuffle": k, "position": i, "card": str(cards._outputs[k - 1][i]),
                          "salt": salt(cards._seed, cards.table, cards.deal, k, i)}
                         for k, i in sorted(set(positions))]}
