"""Club players for the card games (issue 37 §3): each plays as a decent
human does, written from /work/shared/RULES.md and nothing of bots/.

Rami family (Rami français, Double rami, Remigio) and Gin — the habits any
club player has:

* take the top discard only when it goes into a meld with his cards;
* keep his partial melds: pairs, and two cards of a suit one or two ranks
  apart (a run waiting for its middle or its end);
* discard the highest loose card (outside melds and partial melds);
* remember what the player after him picked up from the discard pile and
  do not feed him: a card of that rank, or of that suit one or two ranks
  away, is thrown last;
* lay his melds and add to them as soon as he may (Rami, Double rami),
  close as soon as he may (Remigio);
* Gin: go gin when he may; knock only with a low count (4 or less) until
  the stock runs low (fewer than 12 cards), then with anything allowed.

Rams: play a hand holding a sure trick (the trump ace or king, a side ace),
else take the widow when offered, else pass when allowed; the dealer takes
the turned trump for his lowest card; lead an ace, else the lowest card;
follow with the cheapest card that takes the trick, else the lowest.

Rummoli: the dealer keeps his hand, nobody bids for the widow; the poker
bet (method 2) calls with a pair or better; lead the lowest card of the
suit where he holds the longest run; play the longest sequence offered.

The meld arithmetic (which cards form melds under the game's rules) is the
rules' own: the engine's solver answers it, as a player's eye would.

Each player is an object made per deal (it remembers that deal only) and
sees what the seat sees at its turns: its view and legal actions.
"""

from __future__ import annotations

import random
from typing import Any

from tavern.games.rami import melds
from tavern.games.rami import remigio as remigio_game
from tavern.games.rami.gin import RULES as GIN_RULES
from tavern.games.rami.meldcore import MeldRules

RULES: dict[str, MeldRules] = {
    "rami": MeldRules(ace_low=True, jokers=True, ace_points=1, joker_points=20),
    "double_rami": MeldRules(ace_low=True, ace_high=True, jokers=True, ace_points=11, joker_points=15),
    "remigio": remigio_game.meld_rules(remigio_game.RemigioConfig.model_validate({})),
    "gin": GIN_RULES,
}
RANKS = "A23456789TJQK"


def _near(a: str, b: str) -> bool:
    """Two cards of a partial meld: a pair, or one suit one or two ranks apart."""
    if a[0] == "X" or b[0] == "X":
        return False
    if a[0] == b[0]:
        return True
    return a[1] == b[1] and abs(RANKS.index(a[0]) - RANKS.index(b[0])) <= 2


class RamiClub:
    """A club player of the rami family (see the module's docstring)."""

    def __init__(self, game: str) -> None:
        self.game, self.rules = game, RULES[game]
        self.fed: list[str] = []  # cards the next player picked up from my discards
        self.last: tuple[str, int] | None = None  # my last discard and the pile's size after it

    def __call__(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        acts = {a["action"]: a for a in legal}
        hand = list(view["hand"])
        if "draw" in acts:
            return self.draw(view, acts["draw"]["sources"], hand)
        if "gin" in acts:
            g = acts["gin"]
            return {"action": "gin"} if g.get("grand") else {"action": "gin", "card": g["cards"][0]}
        if "close" in acts:
            return {"action": "close", "card": acts["close"]["cards"][0]}
        if "lay" in acts:
            return {"action": "lay", "cards": list(max(acts["lay"]["melds"], key=len))}
        if "move_joker" in acts:
            o = acts["move_joker"]["options"][0]
            return {"action": "move_joker", "meld": o["meld"], "card": o["card"], "end": o["ends"][0]}
        if "add" in acts:
            o = acts["add"]["options"][0]
            return {"action": "add", "meld": o["meld"], "cards": list(o["cards"])}
        if "knock" in acts and self.knocks(view, hand):
            return {"action": "knock", "card": self.throw(hand, acts["knock"]["cards"])}
        card = self.throw(hand, acts["discard"]["cards"])
        self.last = (card, view["discard"]["size"] + 1)
        return {"action": "discard", "card": card}

    def draw(self, view: dict[str, Any], sources: list[str], hand: list[str]) -> dict[str, Any]:
        top, size = view["discard"]["top"], view["discard"]["size"]
        if self.last is not None and size <= self.last[1] + len(view.get("players", [])) - 2:
            self.fed.append(self.last[0])  # the pile did not grow by one a player: someone took my card
        self.last = None
        if "discard" not in sources or "stock" not in sources:
            return {"action": "draw", "source": sources[0]}
        into_meld = top is not None and any(top in m.cards for m in melds.best_arrangement(hand + [top], self.rules).melds)
        return {"action": "draw", "source": "discard" if into_meld else "stock"}

    def knocks(self, view: dict[str, Any], hand: list[str]) -> bool:
        """Knock (already allowed) with 4 or less, or with anything once the stock runs low."""
        return min(melds.discard_options(hand, self.rules).values()) <= 4 or view.get("stock", 99) < 12

    def throw(self, hand: list[str], allowed: list[str]) -> str:
        """The highest loose card, cards feeding the next player last, a joker never."""
        dead = list(melds.best_arrangement(hand, self.rules).deadwood)
        loose = [c for c in dead if not any(_near(c, d) for d in dead if d is not c and d != c)]

        def key(c: str) -> tuple[int, int, int, int]:
            feeds = any(_near(c, f) for f in self.fed)
            return (c[0] == "X", feeds, c not in loose, c not in dead, -melds.points(c, self.rules))

        return min(allowed, key=key)


class GinClub(RamiClub):
    def __init__(self) -> None:
        super().__init__("gin")


def rams_club(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Rams as a decent human plays it (see the module's docstring)."""
    order = "789TJQKA"
    hand, trump = list(view["hand"]), view.get("trump")
    if view["phase"] == "exchange":
        low = min(hand, key=lambda c: (c[1] == trump, order.index(c[0])))
        return {"action": "exchange", "card": low} if view.get("turned") and low[1] != trump else {"action": "exchange"}
    if view["phase"] == "speak":
        choices = [a["choice"] for a in legal if a["action"] == "speak"]
        sure = any((c[1] == trump and c[0] in "AK") or c[0] == "A" for c in hand)
        for choice in (["play"] if sure else []) + ["widow", "pass", "play"]:
            if choice in choices:
                return {"action": "speak", "choice": choice}
        return dict(legal[0])
    cards = [a["card"] for a in legal if a["action"] == "play"]
    if not cards:
        return dict(legal[0])
    tricks = view.get("tricks") or []
    table = [p["card"] for p in tricks[-1]["cards"]] if tricks and len(tricks[-1]["cards"]) < len(view["order"]) else []

    def power(c: str) -> int:
        return order.index(c[0]) + (20 if c[1] == trump else 10 if table and c[1] == table[0][1] else 0)

    low = min(cards, key=power)
    if not table:
        aces = [c for c in cards if c[0] == "A"]
        return {"action": "play", "card": aces[0] if aces else low}
    best = max(power(c) for c in table)
    winners = [c for c in cards if power(c) > best]
    return {"action": "play", "card": min(winners, key=power) if winners else low}


def rummoli_club(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Rummoli as a decent human plays it (see the module's docstring)."""
    names = {a["action"] for a in legal}
    hand = list(view["hand"])
    if "exchange" in names:
        return {"action": "keep"}
    if "bid" in names or names == {"pass"}:
        return {"action": "pass"}
    if names & {"check", "call", "fold", "bet", "raise"}:
        paired = len({c[0] for c in hand}) < len(hand)
        if "check" in names:
            return {"action": "check"}
        return {"action": "call"} if paired and "call" in names else {"action": "fold"}
    if "play" in names:
        return {"action": "play", "cards": max((list(a["cards"]) for a in legal if a["action"] == "play"), key=len)}
    order = "23456789TJQKA"
    leads = [a["card"] for a in legal if a["action"] == "lead"]

    def run(c: str) -> int:
        n = 1
        while order.index(c[0]) + n < 13 and order[order.index(c[0]) + n] + c[1] in hand:
            n += 1
        return n

    return {"action": "lead", "card": max(leads, key=lambda c: (run(c), -order.index(c[0])))}


def club(game: str) -> Any:
    """A fresh club player of ``game`` for one deal."""
    if game in ("rami", "double_rami", "remigio"):
        return RamiClub(game)
    if game == "gin":
        return GinClub()
    return {"rams": rams_club, "rummoli": rummoli_club}[game]
