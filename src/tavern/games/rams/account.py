"""The account of a Rams deal for the result panel (issue 42 §10): every chip
that moved, line by line, in the game's own words (catalogue codes), so that
a newcomer sees the dealer's stake, each share of the pot by tricks, each
« rams » paying into the next pot, what a rams général paid, and what stays
in the pot.

``{"before": pot carried in, "lines": [...], "after": pot left for the next
deal}``; each line is ``{"code", "params", "chips": {player: ±n}, "pot": ±n}``
and moves chips between the players and the pot only: ``sum(chips) + pot ==
0`` on every line, the lines' chips add up to each player's ``delta`` and
``before + sum(pot) == after`` (tests/games/test_deal_accounts.py).
"""

from __future__ import annotations

from typing import Any

from tavern.games.rams.stakes import CoupOutcome


def line(code: str, chips: dict[str, int] | None = None, moved: int = 0, **params: Any) -> dict[str, Any]:
    """One line: ``chips`` each player's change, ``moved`` the pot's (``pot`` in the line)."""
    return {"code": code, "params": params, "chips": dict(chips or {}), "pot": moved}


def coup_account(dealer: str, carried: int, stake: int, outcome: CoupOutcome | None,
                 won: dict[str, int], n_tricks: int) -> dict[str, Any]:
    """The account « au coup »: the dealer's stake, then how the deal settled."""
    lines = [line("rams_account_stake", {dealer: -stake}, stake, player=dealer, amount=stake,
                  carried=carried, pot=carried + stake)]
    after = carried + stake
    if outcome is not None:
        lines += _settled(outcome, won, n_tricks)
        after = outcome.next_pot
    lines.append(line("rams_account_next_pot", amount=after))
    return {"before": carried, "lines": lines, "after": after}


def _settled(out: CoupOutcome, won: dict[str, int], n_tricks: int) -> list[dict[str, Any]]:
    if out.taken_by is not None:
        return [line("rams_account_all_passed", {out.taken_by: out.pot}, -out.pot, player=out.taken_by,
                     amount=out.pot)]
    if out.general is not None:
        g = out.general
        code = "rams_account_general_won" if g["success"] else "rams_account_general_lost"
        lines = [line(code, {o: paid, g["announcer"]: -paid}, player=o, announcer=g["announcer"], amount=abs(paid))
                 for o, paid in g["payments"].items()]
        return lines + [line("rams_account_general_pot", amount=out.pot)]
    lines = [line("rams_account_share", {p: share}, -share, player=p, tricks=won.get(p, 0), n_tricks=n_tricks,
                  pot=out.pot, amount=share) for p, share in out.shares.items()]
    if out.remainder:
        lines.append(line("rams_account_remainder", amount=out.remainder))
    lines += [line("rams_account_rams", {p: -paid}, paid, player=p, amount=paid, pot=out.pot)
              for p, paid in out.rams.items()]
    return lines


def partie_account(loser: str | None, paid: dict[str, int]) -> dict[str, Any]:
    """À la partie no pot: chips move only when the partie ends, the loser paying each other."""
    lines = [line("rams_account_partie_lost", {p: amount, loser: -amount}, player=p, loser=loser, amount=amount)
             for p, amount in paid.items() if loser is not None]
    return {"before": 0, "lines": lines, "after": 0}
