"""The Rummoli player: the widow, the poker phase and the sequences.

« habitué » plays the deal out (bots/rummoli_sim.py) on deals of the cards
he has not seen consistent with his view, and takes the move worth most:

* The widow: the dealer changes his hand for it, and a player bids the
  least for it, when the deal played out with the widow (its price paid,
  his hand dead) is worth more than with his hand.
* The poker phase (method 2's betting round): raise with two pair or
  better, call with a pair, check or fold the rest.
* The sequences: the lead worth most played out, every player then leading
  his lowest card; when the view cannot be played out, a run that keeps the
  lead (it stops at the ace, or at a card already played), then one through
  pay cards, then the lowest card. When called, play the longest run
  offered (a shorter one would call him again: he holds the next card).

« débutant » takes the widow when his hand is poor (no pair, no pay card),
leads at random and slips now and then.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.bots.levels import BEGINNER
from tavern.bots.moves import Move, find, random_move, sized
from tavern.bots.rummoli_sim import Table, code, widow_worth
from tavern.games.base import LegalAction
from tavern.games.poker.evaluator import rank

_RANKS = "23456789TJQKA"
_ORDER = {r: i for i, r in enumerate(_RANKS)}


def _pay_cards(view: dict[str, Any]) -> set[str]:
    """The single cards that win a board section still holding chips."""
    out: set[str] = set()
    for s in view.get("pay_sections") or []:
        sid = s.get("id", "")
        if len(sid) == 2 and s.get("chips"):
            out.add(sid)
        elif len(sid) == 4 and s.get("chips"):
            out.update({sid[:2], sid[2:]})
    return out


def _category(hand: list[str]) -> int:
    """The hand's best five-card category (0 high card .. 8 straight flush)."""
    if len(hand) < 5:
        return 0
    best = 0
    if len(hand) <= 7:
        return rank(hand) >> 20
    # More than seven cards: pairs and trips counted directly.
    counts = sorted((sum(1 for c in hand if c[0] == r) for r in {c[0] for c in hand}), reverse=True)
    best = {4: 7, 3: 3}.get(counts[0], 1 if counts[0] == 2 else 0)
    if counts[0] == 3 and len(counts) > 1 and counts[1] >= 2:
        best = 6
    elif counts[0] == 2 and len(counts) > 1 and counts[1] == 2:
        best = 2
    return best


def _poor(view: dict[str, Any], hand: list[str]) -> bool:
    widow = (view.get("widow") or {}).get("cards", 0)
    return _category(hand) == 0 and not (set(hand) & _pay_cards(view)) and widow >= len(hand)


def _run_from(card: str, hand: set[str]) -> list[str]:
    out = [card]
    i = _ORDER[card[0]]
    while i + 1 < 13:
        i += 1
        nxt = "23456789TJQKA"[i] + card[1]
        if nxt not in hand:
            break
        out.append(nxt)
    return out


def rummoli(view: dict[str, Any], legal: list[LegalAction], rng: random.Random, level: str) -> Move:
    hand = list(view["hand"])
    if level == BEGINNER and rng.random() < 0.1:
        return random_move(legal, rng)
    names = {a["action"] for a in legal}
    if level != BEGINNER and names & {"exchange", "bid"} and _can_play_out(view, "dealer", "widow", "board"):
        return _widow(view, legal, rng)
    if "exchange" in names:
        return {"action": "exchange" if _poor(view, hand) else "keep"}
    if "bid" in names or names == {"pass"}:
        bid = find(legal, "bid")
        if bid and _poor(view, hand) and rng.random() < 0.5:
            return sized(bid, bid["min"])
        return {"action": "pass"}
    if names & {"check", "call", "fold", "bet", "raise"}:
        return _bet(legal, hand, level)
    pay = _pay_cards(view)
    held = set(hand)
    if "play" in names:
        runs = [list(a["cards"]) for a in legal if a["action"] == "play"]
        pick = max(runs, key=len) if level != BEGINNER else rng.choice(runs)
        return {"action": "play", "cards": pick}
    leads = [a["card"] for a in legal if a["action"] == "lead"]

    if level == BEGINNER:
        return {"action": "lead", "card": rng.choice(leads)}
    card = played_out_lead(view, leads, rng) or lead_card(leads, held, _played(view), pay)
    return {"action": "lead", "card": card}


#: deals consistent with the view on which each lead is played out
SAMPLES = 40
#: deals of the unseen cards on which keeping and taking the widow are played out
WIDOW_SAMPLES = 40


def _can_play_out(view: dict[str, Any], *keys: str) -> bool:
    """Whether the view carries what a play-out takes: who is to act, the
    hands' sizes and ``keys`` (an engine's view does; a partial one falls
    back on the simple rules)."""
    return (bool(view.get("to_act")) and all(k in view for k in ("players", *keys))
            and all("cards" in p for p in view["players"]))


def _widow(view: dict[str, Any], legal: list[LegalAction], rng: random.Random) -> Move:
    """Take the widow (the dealer's exchange, or the least bid at the
    auction) when the deal played out with it is worth more, its price
    paid, than with his own hand and the widow dead (bots/rummoli_sim.py:
    the poker pot to the best hand, then the sequences)."""
    table = Table(view, view["to_act"][0])
    names = [p["player"] for p in view["players"]]
    bid = find(legal, "bid")
    price = 0 if bid is None else int(bid["min"])
    keep, take = widow_worth(table, int(view["widow"]["cards"]), int(view["board"].get("poker", 0)),
                             names.index(view["dealer"]), price, WIDOW_SAMPLES, rng)
    if find(legal, "exchange"):
        return {"action": "exchange" if take > keep else "keep"}
    return sized(bid, price) if bid is not None and take > keep else {"action": "pass"}


def played_out_lead(view: dict[str, Any], leads: list[str], rng: random.Random) -> str | None:
    """The lead worth most when the deal is played out on ``SAMPLES`` deals
    of the unseen cards consistent with the view (bots/rummoli_sim.py), the
    same deals for every lead; None when there is no choice or the view
    does not carry what it takes (who is to act, the hands' sizes)."""
    if len(leads) < 2 or not _can_play_out(view):
        return None
    table = Table(view, view["to_act"][0])
    if not table.consistent:
        return None
    worth = dict.fromkeys(leads, 0.0)
    for _ in range(SAMPLES):
        owner = table.deal(rng)
        for c in leads:
            worth[c] += table.play_out(owner[:], code(c), table.me)
    return max(leads, key=lambda c: worth[c])


def _played(view: dict[str, Any]) -> set[str]:
    """Every card played so far this deal (the players' ``played`` lists: public)."""
    return {c for p in view.get("players", []) for c in p.get("played", [])}


def lead_card(leads: list[str], held: set[str], played: set[str], pay: set[str]) -> str:
    """The lead: first a run that keeps the lead — it ends at the ace, or the
    card after it is already played, so the sequence stops with us and we
    lead again (« The sequence stops at the ace or when the next card is
    dead; the last player to play restarts », RULES.md) —, then a run
    through pay cards, then the lowest card: low cards leave a hand only by
    a lead, while sequences climb and play the high ones for us."""
    def worth(card: str) -> tuple[int, int, int, int]:
        run = _run_from(card, held)
        last = _ORDER[run[-1][0]]
        stops = last == 12 or _RANKS[last + 1] + card[1] in played
        return (1 if stops else 0, len(set(run) & pay), -_ORDER[card[0]], len(run))

    return max(leads, key=worth)


def _bet(legal: list[LegalAction], hand: list[str], level: str) -> Move:
    cat = _category(hand)
    up = find(legal, "raise", "bet")
    if up and cat >= (2 if level != BEGINNER else 4):
        return sized(up, up["min"])
    if find(legal, "call") and (cat >= 1 or level == BEGINNER):
        return {"action": "call"}
    return {"action": "check"} if find(legal, "check") else {"action": "fold"}
