"""Settling a Rams deal: "au coup" (a pot shared by tricks) and "à la partie" (tokens).

Every payment is capped at what the payer has (table stakes): chips never go
negative and never appear or disappear — the sum of the players' chips plus the
pot is the same before and after every deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavern.games.base import IllegalAction, RecordError

#: tokens a player receives when he takes part and makes no trick ("reçoit cinq jetons nouveaux").
RAMS_TOKENS = 5
#: "le trente et un": exactly this many tokens is a way out of the partie.
TRENTE_ET_UN = 31


def pay(chips: dict[str, int], payer: str, payee: str | None, amount: int) -> int:
    """Move up to ``amount`` from ``payer`` to ``payee`` (``None``: the pot); returns what moved."""
    moved = min(amount, chips[payer])
    chips[payer] -= moved
    if payee is not None:
        chips[payee] += moved
    return moved


# --- au coup -------------------------------------------------------------------------


def coup_carry(carry: dict[str, Any] | None) -> tuple[int, bool]:
    """The pot carried in and whether this deal is forced. No carry: a first deal, forced."""
    if carry is None:
        return 0, True
    if not isinstance(carry, dict) or set(carry) - {"pot", "forced"}:
        raise RecordError("carry", "rams_carry_shape")
    pot = carry.get("pot", 0)
    forced = carry.get("forced", pot == 0)
    if not isinstance(pot, int) or isinstance(pot, bool) or pot < 0:
        raise RecordError("carry.pot", "chips_whole")
    if not isinstance(forced, bool):
        raise RecordError("carry.forced", "bool_type")
    return pot, forced


@dataclass
class CoupOutcome:
    pot: int
    shares: dict[str, int] = field(default_factory=dict)
    remainder: int = 0
    rams: dict[str, int] = field(default_factory=dict)
    general: dict[str, Any] | None = None
    taken_by: str | None = None
    next_pot: int = 0
    next_forced: bool = True

    def as_pot(self) -> dict[str, Any]:
        out: dict[str, Any] = {"amount": self.pot, "shares": self.shares, "remainder": self.remainder, "rams": self.rams}
        if self.taken_by is not None:
            out["taken_by"] = self.taken_by
        if self.general is not None:
            out["general"] = self.general
        return out


def settle_all_pass(chips: dict[str, int], pot: int, last: str) -> CoupOutcome:
    """"Si aucun de ces joueurs ne prenait part… jusqu'au dernier à parler, celui-ci
    ramasserait les enjeux et le coup suivant serait forcé.\""""
    chips[last] += pot
    return CoupOutcome(pot=pot, taken_by=last, next_pot=0, next_forced=True)


def settle_tricks(chips: dict[str, int], pot: int, won: dict[str, int], n_tricks: int) -> CoupOutcome:
    """Share the pot by tricks; each participant without a trick is rams and pays the pot.

    Remainders of the split stay in the pot. The next deal is forced when nobody
    was rams: its pot then holds only the next dealer's stake (and at most the
    crumbs of a split, which our ruling does not count as a stake).
    """
    out = CoupOutcome(pot=pot)
    for p, t in won.items():
        if t:
            out.shares[p] = pot * t // n_tricks
            chips[p] += out.shares[p]
    out.remainder = pot - sum(out.shares.values())
    for p, t in won.items():
        if not t:
            out.rams[p] = pay(chips, p, None, pot)
    out.next_pot = out.remainder + sum(out.rams.values())
    out.next_forced = not out.rams
    return out


def settle_general(chips: dict[str, int], pot: int, announcer: str, others: list[str], success: bool) -> CoupOutcome:
    """"Si le demandeur fait le rams général, chacun lui paie une somme égale à celle
    totale qui se trouve à la masse… S'il ne le fait pas, il paie à chaque joueur une
    somme égale à la masse du tapis. En aucun cas, on ne touche à la masse.\""""
    payments: dict[str, int] = {}
    for o in others:
        payments[o] = -pay(chips, o, announcer, pot) if success else pay(chips, announcer, o, pot)
    general = {"announcer": announcer, "success": success, "payments": payments}
    # The pot stays and the next dealer adds to it, so it holds more than his stake.
    return CoupOutcome(pot=pot, general=general, next_pot=pot, next_forced=False)


# --- à la partie ----------------------------------------------------------------------


def partie_carry(carry: dict[str, Any] | None, players: list[str], start_tokens: int) -> dict[str, Any]:
    """A fresh or continued partie: ``tokens`` per player, ``out`` (in order), ``failed_general``."""
    if carry is None:
        return {"tokens": {p: start_tokens for p in players}, "out": [], "failed_general": [], "over": False, "loser": None}
    if not isinstance(carry, dict) or not isinstance(carry.get("tokens"), dict):
        raise RecordError("carry.tokens", "rams_partie_carry")
    if carry.get("over"):
        raise IllegalAction("partie_over")
    state: dict[str, Any] = {
        "tokens": dict(carry["tokens"]),
        "out": list(carry.get("out", [])),
        "failed_general": list(carry.get("failed_general", [])),
        "over": False,
        "loser": None,
    }
    for p in players:
        # Ruling: a player seated during a partie joins it with the starting tokens.
        state["tokens"].setdefault(p, start_tokens)
    return state


def settle_partie(
    state: dict[str, Any],
    won: dict[str, int],
    *,
    general: str | None,
    n_tricks: int,
    trente_et_un: bool,
) -> list[str]:
    """Update tokens after a deal; returns the players who went out, in order.

    "Chaque fois que l'on fait une levée, on enlève un de ces jetons… chaque joueur
    qui, prenant part à ce coup, ne fait pas de levée, reçoit cinq jetons nouveaux."
    Ruling: a failed rams général counts for its announcer as a deal without a
    trick (five tokens), as the source's "trente et un" example assumes.
    """
    tokens = state["tokens"]
    for p, t in won.items():
        failed = general == p and t < n_tricks
        if failed:
            if p not in state["failed_general"]:
                state["failed_general"].append(p)
            tokens[p] += RAMS_TOKENS
        elif t:
            tokens[p] = max(0, tokens[p] - t)
        else:
            tokens[p] += RAMS_TOKENS
    gone = []
    for p in won:
        if tokens[p] == 0:
            gone.append(p)
        elif trente_et_un and tokens[p] == TRENTE_ET_UN and p not in state["failed_general"]:
            # "Pour sortir, il ne doit pas demander de rams général non réussi."
            gone.append(p)
    state["out"].extend(gone)
    return gone


def partie_finish(state: dict[str, Any], chips: dict[str, int], stake: int) -> None:
    """Once one player is left he has lost ("celui-ci ait perdu la partie") and pays each other.

    ``chips`` holds the players seated now: one who left the table no longer holds the partie up.
    """
    left = [p for p in chips if p not in state["out"]]
    if len(left) > 1:
        return
    state["over"] = True
    if left:
        loser = left[0]
        state["loser"] = loser
        for p in chips:
            if p != loser:
                pay(chips, loser, p, stake)
