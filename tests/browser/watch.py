"""What the browser tests watch across their runs (issue 11).

* Every command the pages send on their table's WebSocket is recorded, by
  game, from Playwright's own ``framesent`` events: the final check
  (``conftest.py``) lists each action a game offers that no browser ever
  sent — "across the runs every action each game offers is used from the
  browser at least once".
* The live table's text (notices, result panels, the journal, buttons, the
  status line) is scanned for English and for raw identifiers of the
  protocol (``move_joker``, ``drawn_from_discard``) each time a test clicks
  an action, takes a screenshot or closes a page — the word list of the
  rendered pages' scan (tests/french_words.py).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from typing import Any

from tests.french_words import english_in

#: game -> action keys sent by the pages, with how many times.
SENT: dict[str, Counter[str]] = defaultdict(Counter)

POKER = {"fold", "check", "call", "bet", "raise", "show", "muck"}
#: What each game offers a player (read off each engine's ``legal_actions``),
#: as :func:`action_key` names what the page sends for it.
OFFERED: dict[str, set[str]] = {
    "ramponneau": POKER,
    "draw": POKER | {"draw", "draw:servi"},                     # changing cards, standing pat
    "rami": {"draw:stock", "draw:discard", "lay", "add", "discard"},
    "double_rami": {"draw:stock", "draw:discard", "lay", "add", "discard", "move_joker"},
    "remigio": {"draw:stock", "draw:discard", "discard", "close"},
    "gin": {"draw:stock", "draw:discard", "discard", "knock", "gin"},
    # With the option "exchange_thrown" the player after a widow taker may take the thrown hand.
    "rams": {"speak:play", "speak:pass", "speak:widow", "speak:thrown", "speak:general", "exchange:keep",
             "exchange:card", "play"},
    "rummoli": {"exchange", "keep", "bid", "pass", "lead", "play", "fold", "check", "call", "bet", "raise"},
}
#: The seat's commands, the same at every game (counted over all of them).
TABLE_COMMANDS = {"sit", "cave", "leave", "sit_out", "sit_in", "post", "auto"}


def action_key(game: str, frame: dict[str, Any]) -> str | None:
    """``draw:discard`` for taking the discard, ``speak:general`` for rams
    général …; a seat command is its ``type``."""
    kind = frame.get("type")
    if kind != "act":
        return str(kind) if kind else None
    action, args = str(frame.get("action")), frame.get("args") or {}
    if action == "draw":
        if "source" in args:
            return f"draw:{args['source']}"
        return "draw" if args.get("discard") else "draw:servi"
    if action == "speak":
        return f"speak:{args.get('choice')}"
    if action == "exchange" and game == "rams":
        return "exchange:card" if args.get("card") else "exchange:keep"
    if action == "gin" and args.get("grand"):
        return "gin:grand"
    return action


def follow(page: Any, game: str) -> None:
    """Record what ``page`` sends on every WebSocket it opens."""
    def on_socket(ws: Any) -> None:
        def sent(payload: str | bytes) -> None:
            try:
                frame = json.loads(payload)
            except ValueError:
                return
            key = action_key(game, frame) if isinstance(frame, dict) else None
            if key:
                SENT[game][key] += 1
        ws.on("framesent", sent)
    page.on("websocket", on_socket)


def never_used() -> dict[str, list[str]]:
    """Each game's offered actions that no page sent, and the seat's commands."""
    out = {game: sorted(want - set(SENT.get(game, ()))) for game, want in OFFERED.items()}
    used_anywhere = {k for c in SENT.values() for k in c}
    out["table"] = sorted(TABLE_COMMANDS - used_anywhere)
    return {k: v for k, v in out.items() if v}


#: A protocol's name leaking into the page: two lowercase words joined by "_".
RAW_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def table_text(page: Any) -> str:
    return str(page.evaluate("() => { const r = document.getElementById('table-live'); return r ? r.innerText : ''; }"))


def check_french(page: Any, who: str) -> None:
    """The table as the player reads it now holds no English, no raw key."""
    text = table_text(page)
    words = english_in(text)
    raw = sorted(set(RAW_KEY.findall(text)))
    assert not words and not raw, f"{who} reads at the table: English {words}, raw names {raw}\n{text}"
