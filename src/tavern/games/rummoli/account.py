"""The account of a Rummoli deal for the result panel (issue 42 §10): every
chip that moved between the players and the board, line by line, in the
game's own words (catalogue codes) — the antes, the widow sold to the
dealer, the bets into the poker pot, each section won, the chips paid for
the cards left in hand or put into the Rummoli pot at a deadlock — and what
stays on the board for the next deal.

Read from the deal's log (engine ``log``): ``{"before": chips on the board
when the deal began, "lines": [...], "after": chips left on it}``; each line
is ``{"code", "params", "chips": {player: ±n}, "pot": ±n}`` with ``sum(chips)
+ pot == 0``; the lines' chips add up to each player's ``delta`` and ``before
+ sum(pot) == after`` (tests/games/test_deal_accounts.py).
"""

from __future__ import annotations

from typing import Any

from tavern.games.rummoli.config import POKER_POT, RUMMOLI_POT, RummoliConfig

#: The round's bet events: ``amount`` is the player's total for the round.
BETS = ("call", "bet", "raise")


def line(code: str, chips: dict[str, int], moved: int = 0, **params: Any) -> dict[str, Any]:
    """One line: ``chips`` each player's change, ``moved`` the board's (``pot`` in the line)."""
    return {"code": code, "params": params, "chips": chips, "pot": moved}


def section(config: RummoliConfig, sid: str) -> dict[str, str]:
    """A section for the catalogue to name (its ``section`` formatter): the
    two pots by id, a pay section by its board label."""
    label = "" if sid in (POKER_POT, RUMMOLI_POT) else next((s.label for s in config.pay_sections if s.id == sid), sid)
    return {"id": sid, "label": label or sid}


def deal_account(config: RummoliConfig, log: list[dict[str, Any]], before: int,
                 board: dict[str, int]) -> dict[str, Any]:
    antes = {e["player"]: -e["amount"] for e in log if e.get("event") == "ante"}
    lines = [line("rummoli_account_antes", antes, -sum(antes.values()), unit=config.unit,
                  sections=len(board), amount=-sum(antes.values()))]
    bets: dict[str, int] = {}
    for e in log:
        kind = e.get("event")
        if kind == "widow_sold":
            lines.append(line("rummoli_account_widow", {e["player"]: -e["amount"], e["to"]: e["amount"]},
                              player=e["player"], amount=e["amount"], dealer=e["to"]))
        elif kind in BETS:
            bets[e["player"]] = e["amount"]
        elif kind == "uncalled":
            bets[e["player"]] -= e["amount"]
        elif kind == "win":
            lines += _bets(bets)  # the bets went in before the poker pot was won
            lines.append(line("rummoli_account_won", {e["player"]: e["amount"]}, -e["amount"],
                              section=section(config, e["section"]), player=e["player"], amount=e["amount"]))
        elif kind == "pays" and e["to"] == RUMMOLI_POT:
            lines.append(line("rummoli_account_deadlock", {e["player"]: -e["amount"]}, e["amount"],
                              player=e["player"], amount=e["amount"], n_cards=e["cards"]))
        elif kind == "pays":
            lines.append(line("rummoli_account_cards", {e["player"]: -e["amount"], e["to"]: e["amount"]},
                              player=e["player"], amount=e["amount"], winner=e["to"], n_cards=e["cards"]))
    lines += _bets(bets)
    after = sum(board.values())
    held = [{**section(config, sid), "chips": n} for sid, n in board.items() if n]
    lines.append(line("rummoli_account_board", {}, amount=after, left=held))
    return {"before": before, "lines": lines, "after": after}


def _bets(bets: dict[str, int]) -> list[dict[str, Any]]:
    """The bets into the poker pot, said once (then forgotten)."""
    out = [line("rummoli_account_bet", {p: -n}, n, player=p, amount=n) for p, n in bets.items() if n]
    bets.clear()
    return out
