"""A trick-taking core: trick state, leader, obligations, trick winner.

Rams is its first user; any later trick game should be configuration of
:class:`TrickRules` plus its own deal, speaking and scoring.

Words used here:

* the *led suit* is the suit of the first card of a trick (or a suit declared
  by the leader, as with the Rams "atout" led face down);
* to *follow* is to play the led suit; to *overtake* ("forcer") is to follow
  with a card higher than every card of the led suit already in the trick;
* to *trump* ("couper") is to play a trump when void in the led suit; to
  *over-trump* ("surcouper") is to beat every trump already in the trick; to
  *under-trump* is to play a lower trump when one cannot over-trump.

The obligations are applied in the order of the Rams source ("1. De fournir à
la couleur. 2. De forcer… 3. De couper… 4. De surcouper… 5. Donner de l'atout
inférieur…"), each one only among the cards that satisfy the previous ones.
Each flag of :class:`TrickRules` switches one of them off for games that do
not have it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tavern.cards import PIQUET_RANKS, rank, suit
from tavern.games.base import Event, IllegalAction

#: The rank a card played face down as "atout" counts for: below every real
#: trump, so that any trump played on it beats it.
BLIND_RANK = -1


@dataclass(frozen=True)
class TrickRules:
    """Which obligations a trick game enforces (all of them by default, as at Rams)."""

    must_follow: bool = True
    #: follow with a higher card of the led suit when one can ("forcer").
    must_overtake: bool = True
    #: also overtake in the led suit when the trick is already trumped (the Rams
    #: source states the obligation without that exception; belote-like games drop it).
    overtake_when_trumped: bool = True
    must_trump: bool = True
    must_overtrump: bool = True
    #: void in the led suit and unable to over-trump: still play a lower trump
    #: rather than discard ("En aucun cas ils ne peuvent, ayant de l'atout… se défausser").
    must_undertrump: bool = True
    #: ranks from lowest to highest.
    ranks: str = PIQUET_RANKS

    def strength(self, card: str) -> int:
        return self.ranks.index(rank(card))


@dataclass(frozen=True)
class Play:
    player: str
    card: str
    #: played face down as a trump ("en disant atout"): counts as the lowest trump.
    blind: bool = False


@dataclass
class Trick:
    """One trick in progress or complete."""

    leader: str
    plays: list[Play] = field(default_factory=list)
    #: set when the leader declares the suit instead of showing it (a blind lead).
    declared_suit: str | None = None

    @property
    def led_suit(self) -> str | None:
        if self.declared_suit is not None:
            return self.declared_suit
        return suit(self.plays[0].card) if self.plays else None

    def cards(self) -> list[str]:
        return [p.card for p in self.plays]


def _is_trump(play: Play, trump: str | None) -> bool:
    return play.blind or (trump is not None and suit(play.card) == trump)


def _key(play: Play, trump: str | None, led: str | None, rules: TrickRules) -> tuple[int, int]:
    """How strongly a card holds the trick: (2 trump | 1 led suit | 0 discard, rank)."""
    if play.blind:
        return (2, BLIND_RANK)
    if trump is not None and suit(play.card) == trump:
        return (2, rules.strength(play.card))
    if suit(play.card) == led:
        return (1, rules.strength(play.card))
    return (0, 0)


def winning_play(trick: Trick, trump: str | None, rules: TrickRules) -> Play:
    """The play holding the trick: the highest trump, else the highest card of the led suit."""
    led = trick.led_suit
    return max(trick.plays, key=lambda p: _key(p, trump, led, rules))


def _best_in_suit(trick: Trick, wanted: str, trump: str | None, rules: TrickRules) -> int | None:
    """Highest rank of ``wanted`` already in the trick (a blind trump counts as lowest)."""
    best: int | None = None
    for p in trick.plays:
        if p.blind and wanted == trump:
            value = BLIND_RANK
        elif not p.blind and suit(p.card) == wanted:
            value = rules.strength(p.card)
        else:
            continue
        best = value if best is None else max(best, value)
    return best


def legal_cards(hand: list[str], trick: Trick, trump: str | None, rules: TrickRules) -> list[str]:
    """The cards of ``hand`` that may be played on ``trick`` (in hand order)."""
    return [c for c in hand if why_illegal(c, hand, trick, trump, rules) is None]


def why_illegal(card: str, hand: list[str], trick: Trick, trump: str | None, rules: TrickRules) -> str | None:
    """``None`` if ``card`` may be played, else the obligation it breaks (a
    refusal code of tavern.catalogue)."""
    if card not in hand:
        return "card_not_in_hand"
    led = trick.led_suit
    if led is None:
        return None  # the leader plays what he likes (games add lead rules on top)
    following = [c for c in hand if suit(c) == led]
    if following:
        if not rules.must_follow:
            return None
        if suit(card) != led:
            return "must_follow_suit"
        return _overtake_rule(card, following, trick, trump, rules)
    trumps = [c for c in hand if trump is not None and suit(c) == trump]
    if not trumps or not rules.must_trump:
        return None  # void in the led suit and in trumps: discard anything
    assert trump is not None
    best_trump = _best_in_suit(trick, trump, trump, rules)
    card_is_trump = suit(card) == trump
    if best_trump is None:
        return None if card_is_trump else "must_trump"
    over = [c for c in trumps if rules.strength(c) > best_trump]
    if over and rules.must_overtrump:
        return None if card_is_trump and rules.strength(card) > best_trump else "must_overtrump"
    if over or rules.must_undertrump:
        return None if card_is_trump else "must_undertrump"
    return None


def _overtake_rule(card: str, following: list[str], trick: Trick, trump: str | None, rules: TrickRules) -> str | None:
    """The card follows suit; must it be higher than the led-suit cards already down?"""
    led = trick.led_suit
    assert led is not None
    if not rules.must_overtake:
        return None
    trumped = trump is not None and led != trump and _best_in_suit(trick, trump, trump, rules) is not None
    if trumped and not rules.overtake_when_trumped:
        return None
    best = _best_in_suit(trick, led, trump, rules)
    if best is None:
        return None
    higher = [c for c in following if rules.strength(c) > best]
    if higher and rules.strength(card) <= best:
        return "must_overtrump" if led == trump else "must_overtake"
    return None


class TrickPlay:
    """The card play of one deal: who is to play, the tricks, who won them.

    ``order`` lists the players taking part in playing order (Rams: going
    right); ``leader`` leads the first trick and each trick's winner leads the
    next. ``trump`` may be ``None`` until set (trump by the first card played).
    """

    def __init__(
        self,
        order: list[str],
        hands: dict[str, list[str]],
        trump: str | None,
        leader: str,
        rules: TrickRules | None = None,
    ) -> None:
        if leader not in order:
            raise ValueError(f"the leader {leader!r} does not take part")
        if len({len(hands[p]) for p in order}) != 1:
            raise ValueError("every player starts the card play with as many cards")
        self.order = list(order)
        self.hands = {p: list(hands[p]) for p in order}
        self.trump = trump
        self.rules = rules or TrickRules()
        self.tricks: list[Trick] = [Trick(leader=leader)]
        self.won: dict[str, int] = {p: 0 for p in order}
        self.n_tricks = len(self.hands[leader])

    @property
    def current(self) -> Trick:
        return self.tricks[-1]

    @property
    def over(self) -> bool:
        return len(self.tricks) == self.n_tricks and len(self.current.plays) == len(self.order)

    def to_play(self) -> str | None:
        if self.over:
            return None
        trick = self.current
        start = self.order.index(trick.leader)
        return self.order[(start + len(trick.plays)) % len(self.order)]

    def legal(self, player: str) -> list[str]:
        if player != self.to_play():
            return []
        return legal_cards(self.hands[player], self.current, self.trump, self.rules)

    def check(self, player: str, card: str) -> None:
        """Raise :class:`IllegalAction` if ``player`` may not play ``card`` now."""
        if player != self.to_play():
            raise IllegalAction("not_your_turn", player=player, action="play")
        rule = why_illegal(card, self.hands[player], self.current, self.trump, self.rules)
        if rule is not None:
            raise IllegalAction(rule, player=player, action="play", card=card)

    def play(self, player: str, card: str, *, blind: bool = False) -> list[Event]:
        """Play a card (checked first); returns the events, ``trick`` when one completes."""
        self.check(player, card)
        trick = self.current
        if blind:
            if trick.plays:
                raise IllegalAction("blind_lead_leader_only", player=player, action="play")
            if self.trump is None:
                raise IllegalAction("blind_lead_no_trump", player=player, action="play")
            trick.declared_suit = self.trump
        if self.trump is None:
            # "on constitue l'atout à la première carte jouée": the first card names trump.
            self.trump = suit(card)
        self.hands[player].remove(card)
        trick.plays.append(Play(player, card, blind))
        events: list[Event] = [{"event": "card", "player": player, "card": None if blind else card, "blind": blind}]
        if len(trick.plays) == len(self.order):
            winner = winning_play(trick, self.trump, self.rules).player
            self.won[winner] += 1
            # A card led face down stays face down for the table.
            shown = [None if p.blind else p.card for p in trick.plays]
            events.append({"event": "trick", "winner": winner, "cards": shown, "number": len(self.tricks)})
            if len(self.tricks) < self.n_tricks:
                self.tricks.append(Trick(leader=winner))
        return events

    def played_cards(self) -> list[str]:
        return [p.card for t in self.tricks for p in t.plays]
