"""Rami français (game ``rami``): the deal engine, its options and both stakes.

Rules: ``RULES.md`` § Rami family and ``rules/rami.fr.txt`` ("LE RAMI FRANÇAIS").
Melds are judged by the family's one meld machinery, :mod:`tavern.games.rami.melds`;
this module only knows the turn, the table, the endings and the money.

A turn is ``draw`` (``source``: ``"stock"`` or ``"discard"``), then any number of
``lay`` (``cards``: one new meld) and ``add`` (``meld``: index on the table, which
must be one's own, ``cards``), then ``discard`` (``card``). A player whose hand
becomes empty has gone out (after a discard, or by laying/adding the last
cards); having had nothing on the table when the turn began makes it "rami"
and doubles the score. See ``docs/games/rami-francais.md`` for the rulings.

:class:`RamiEngine` is also the base of Double rami (:mod:`.double`), which
changes the deck, the deal size, the meld rules, adds ``move_joker`` and plays
on from the discard pile when the stock is exhausted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from tavern.cards import CSPRNG, CardError, RandomSource, check_deck_order, deck, shuffle
from tavern.games.base import Event, IllegalAction, LegalAction, RecordError
from tavern.games.rami import melds
from tavern.games.rami.common import (
    DrawDiscardDeal,
    deal_from_left,
    settle,
    take_cards,
    transfer,
)
from tavern.games.rami.common import (
    replay_output as replay_output,  # this game's replay account (SPEC.replay_output)
)
from tavern.games.setup import Carry, Deck, Options, Reshuffles, Rng, Seats, check_count, check_seats, parse_config
from tavern.games.spec import GameSpec

GAME = "rami"
#: Two to five players (RULES.md "Rami français"); Double rami's too.
SEATS = (2, 5)


class RamiConfig(BaseModel):
    """Table options of Rami français. Every option of the source is here."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: Chips per point ("aux jetons": each loser pays points × unit to the winner).
    unit: int = Field(1, ge=0)
    #: "jetons": chips move every deal; "marque": points go on a score sheet kept
    #: over a match (``carry``) and chips move only when the match ends.
    scoring: Literal["jetons", "marque"] = "jetons"
    #: "que l'on peut arrondir à la dizaine supérieure": a payment in points is
    #: rounded up to the next multiple of ten (jetons only).
    round_up_to_ten: bool = False
    #: "comme au Rummy": 10 cards each for two players, 7 for three or four, 6 for five.
    rummy_deal: bool = False
    #: One joker added to the 52 cards: wild in any meld, 20 points in hand.
    joker: bool = False
    #: The ace also follows the king (Q-K-A); the ace is then worth 11.
    ace_high: bool = False
    #: The ace joins the king AND the 2 (K-A-2); the ace is then worth 11.
    ace_around: bool = False
    #: "comme au Rummy": when the stock is exhausted, the discards (all but the
    #: top one) are shuffled into a new stock instead of ending the deal.
    reshuffle: bool = False
    #: Ruling: a deal at an online table must end, so the stock is rebuilt at
    #: most this many times (``None``: without limit, as in the source).
    reshuffle_limit: int | None = Field(3, ge=0)
    #: Ruling: a card taken from the discard pile may not be thrown back in the
    #: same turn (that would be a pass), unless this option allows it.
    may_return_discard: bool = False
    #: "À la marque": the match ends after the deal in which a player's total
    #: reaches this many points (lowest total wins) ...
    match_target: int = Field(100, ge=1)
    #: ... or, if set, after this many deals (whichever comes first).
    match_deals: int | None = Field(None, ge=1)


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: whose it is, the cards, and its marked jokers
    (Double rami: a joker moved once is laid crosswise and never moves again)."""

    owner: str
    meld: melds.Meld
    marked: frozenset[str] = frozenset()

    def public(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "kind": self.meld.kind,
            "cards": list(self.meld.cards),
            "stands_for": list(self.meld.stands_for),
            "marked": sorted(self.marked),
        }


def _ceil_ten(points: int) -> int:
    return -(-points // 10) * 10


class RamiEngine(DrawDiscardDeal):
    """One deal of Rami français (and, subclassed, of Double rami)."""

    game = GAME
    config_model: type[BaseModel] = RamiConfig
    ACTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "draw": ("source",),
        "lay": ("cards",),
        "add": ("meld", "cards"),
        "discard": ("card",),
    }

    # ------------------------------------------------------------------ setup
    def __init__(
        self,
        config: BaseModel,
        seats: list[dict[str, Any]],
        button: int,
        deck_order: list[str],
        *,
        rng: RandomSource | None = None,
        reshuffles: list[list[str]] | None = None,
        carry: dict[str, Any] | None = None,
    ) -> None:
        self._sit(config, seats, button, deck_order)
        self.rng = rng or CSPRNG
        # Given reshuffles (a replay) are used in order and must not run out;
        # otherwise the engine shuffles and records what it built.
        self._given_reshuffles = None if reshuffles is None else [list(r) for r in reshuffles]
        self.carry_in = carry
        self.sheet, self.deals_before = self._read_carry(carry)
        self.rules = self.meld_rules()

        n = len(self.players)
        size = self.hand_size(n)
        self.hands = deal_from_left(self.deck, self.players, button, size)
        self.discards = [self.deck[size * n]]  # the card turned up; bottom first, top last
        self.stock = list(reversed(self.deck[size * n + 1 :]))  # top last
        self.table: list[TableMeld] = []
        self.had_melds_at_turn_start = False
        self.laid_this_turn = False
        self._carry_out: dict[str, Any] | None = None
        self._arrangement_cache: dict[tuple[str, ...], list[list[str]]] = {}

    # Variant hooks (Double rami overrides them).
    def meld_rules(self) -> melds.MeldRules:
        c = self.config
        ace_points = 11 if (c.ace_high or c.ace_around) else 1
        return melds.MeldRules(
            ace_low=True,
            ace_high=c.ace_high or c.ace_around,
            ace_around=c.ace_around,
            jokers=c.joker,
            ace_points=ace_points,
            joker_points=20,
        )

    def hand_size(self, n_players: int) -> int:
        if self.config.rummy_deal:
            return {2: 10, 3: 7, 4: 7, 5: 6}[n_players]
        return 7

    def _read_carry(self, carry: dict[str, Any] | None) -> tuple[dict[str, int], int]:
        """The score sheet carried from the previous deals of the match, and how
        many deals it holds. Only "à la marque" keeps one."""
        if carry is None:
            return {p: 0 for p in self.players}, 0
        if self.config.scoring != "marque":
            raise RecordError("carry", "rami_chips_carry_nothing")
        if not isinstance(carry, dict) or set(carry) - {"scores", "deals"}:
            raise RecordError("carry", "rami_sheet_shape")
        scores = carry.get("scores")
        deals = carry.get("deals", 0)
        if not isinstance(scores, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in scores.values()
        ):
            raise RecordError("carry.scores", "rami_sheet_scores")
        if not isinstance(deals, int) or isinstance(deals, bool) or deals < 0:
            raise RecordError("carry.deals", "rami_sheet_deals")
        if set(scores) != set(self.players):
            # Ruling (issue 11 §9): a change of players ends the match — it
            # was paid deal by deal, as it stood — and a new one begins.
            return {p: 0 for p in self.players}, 0
        return {p: scores[p] for p in self.players}, deals

    # ------------------------------------------------------------- contract
    def points(self, card: str) -> int:
        return melds.points(card, self.rules)

    def hand_points(self, player: str) -> int:
        return sum(self.points(c) for c in self.hands[player])

    def must_discard_other(self) -> bool:
        return super().must_discard_other() and not self.config.may_return_discard

    def legal_plays(self, player: str) -> list[LegalAction]:
        out: list[LegalAction] = []
        layable = self.layable_melds(player)
        if layable:
            out.append({"action": "lay", "melds": layable})
        adds = self.addable(player)
        if adds:
            out.append({"action": "add", "options": adds})
        out.extend(self.extra_legal(player))
        out.append({"action": "discard", "cards": self.discardable(player)})
        return out

    def extra_legal(self, player: str) -> list[LegalAction]:
        return []

    def layable_melds(self, player: str) -> list[list[str]]:
        """Melds the hand can lay now: one best arrangement of the hand (the melds
        that leave the least points in hand), not every combination."""
        key = tuple(sorted(self.hands[player]))
        if key not in self._arrangement_cache:
            arrangement = melds.best_arrangement(list(key), self.rules)
            self._arrangement_cache[key] = [list(m.cards) for m in arrangement.melds]
        return [list(m) for m in self._arrangement_cache[key]]

    def addable(self, player: str) -> list[dict[str, Any]]:
        """Single cards of the hand that extend one of the player's own melds."""
        options = []
        for i, tm in enumerate(self.table):
            if tm.owner != player:
                continue
            for card in dict.fromkeys(self.hands[player]):
                try:
                    melds.extend(tm.meld, [card], self.rules)
                except IllegalAction:
                    continue
                options.append({"meld": i, "cards": [card]})
        return options

    def timeout_play(self, player: str) -> dict[str, Any]:
        """Throw the highest card allowed, so that a sleeping player loses the least."""
        cards = self.discardable(player)
        return {"action": "discard", "card": max(cards, key=self.points)}

    # ------------------------------------------------------------------ act
    def _take_cards(self, player: str, cards: Any) -> list[str]:
        """The cards named, checked to be in the player's hand (not yet removed)."""
        return take_cards(self.hands[player], cards)

    def _remove(self, player: str, cards: Sequence[str]) -> None:
        hand = self.hands[player]
        for c in cards:
            hand.remove(c)

    def _lay(self, player: str, cards: Any) -> list[Event]:
        self._check_play()
        cards = self._take_cards(player, cards)
        meld = melds.classify(cards, self.rules)
        self._remove(player, cards)
        self.table.append(TableMeld(player, meld))
        self.laid_this_turn = True
        events: list[Event] = [
            {"event": "lay", "player": player, "meld": len(self.table) - 1, "cards": list(meld.cards)}
        ]
        return events + self._after_table_play(player)

    def _own_meld(self, player: str, index: Any, doing: str = "add") -> TableMeld:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.table):
            raise IllegalAction("no_such_meld", index=str(index))
        tm = self.table[index]
        if tm.owner != player:
            raise IllegalAction("own_melds_only", action=doing)
        return tm

    def _add(self, player: str, meld: Any, cards: Any) -> list[Event]:
        self._check_play()
        tm = self._own_meld(player, meld)
        cards = self._take_cards(player, cards)
        new = melds.extend(tm.meld, cards, self.rules)
        self._remove(player, cards)
        self.table[meld] = TableMeld(tm.owner, new, tm.marked)
        self.laid_this_turn = True
        events: list[Event] = [
            {"event": "add", "player": player, "meld": meld, "cards": list(new.cards)}
        ]
        return events + self._after_table_play(player)

    def _after_table_play(self, player: str) -> list[Event]:
        # Ways two and three of going out: the last cards went onto the table.
        if not self.hands[player]:
            return self._go_out(player)
        return []

    def after_discard(self, player: str) -> list[Event]:
        if not self.hands[player]:  # way one: the last card went onto the discard pile
            return self._go_out(player)
        return self._next_turn()

    def check_turn_end(self) -> None:
        """Refuse, before anything changes, a discard whose turn end would need a
        rebuilt stock that a replayed record does not hold (or holds wrong)."""
        if self.stock or not self._will_rebuild(len(self.discards)):
            return
        if self._given_reshuffles is not None:
            if len(self.reshuffles) >= len(self._given_reshuffles):
                raise IllegalAction("record_no_more_reshuffles")
            order = self._given_reshuffles[len(self.reshuffles)]
            try:
                # The pile as it is now lies beneath the discard about to be thrown.
                check_deck_order(order, self.discards)
            except CardError as exc:
                raise IllegalAction("record_bad_reshuffle", refusal={"code": exc.code, "params": exc.params}) from None

    def _will_rebuild(self, beneath: int) -> bool:
        """Is the stock rebuilt from ``beneath`` cards under the top discard?"""
        c = self.config
        limit_ok = c.reshuffle_limit is None or len(self.reshuffles) < c.reshuffle_limit
        return c.reshuffle and limit_ok and beneath >= 1

    def turn_began(self) -> None:
        self.laid_this_turn = False
        self.had_melds_at_turn_start = any(tm.owner == self.current for tm in self.table)

    def turn_ended(self) -> list[Event]:
        """The stock is exhausted at the end of a turn: rebuild it or end the deal."""
        if self.stock:
            return []
        if self._will_rebuild(len(self.discards) - 1):
            return self._rebuild_stock()
        return self._finish_by_count()

    def _rebuild_stock(self) -> list[Event]:
        top, beneath = self.discards[-1], self.discards[:-1]
        if self._given_reshuffles is not None:  # checked by check_turn_end
            order = self._given_reshuffles[len(self.reshuffles)]
        else:
            order = shuffle(beneath, self.rng)
        self.reshuffles.append(list(order))
        self.stock = list(reversed(order))
        self.discards = [top]
        return [{"event": "reshuffle", "cards": len(order)}]

    # --------------------------------------------------------------- endings
    def _go_out(self, player: str) -> list[Event]:
        rami = not self.had_melds_at_turn_start
        owed = {p: self.hand_points(p) for p in self.players if p != player}
        factor = 2 if rami else 1
        scoring: dict[str, Any] = {
            "ending": "rami" if rami else "out",
            "winners": [player],
            "points": owed,
            "factor": factor,
        }
        if self.config.scoring == "jetons":
            debts = {p: self._points_to_chips(pts) * factor for p, pts in owed.items()}
            self._settle(debts, [player], scoring)
        else:
            self._mark({p: pts * factor for p, pts in owed.items()}, scoring)
        return self._close(scoring)

    def _finish_by_count(self) -> list[Event]:
        """The stock is exhausted: "le joueur qui a le moins de points est déclaré
        gagnant et les autres joueurs lui donnent la différence"."""
        counts = {p: self.hand_points(p) for p in self.players}
        low = min(counts.values())
        winners = self._in_turn_order([p for p in self.players if counts[p] == low])
        diffs = {p: counts[p] - low for p in self.players if p not in winners}
        scoring: dict[str, Any] = {
            "ending": "stock",
            "winners": winners,
            "points": counts,
            "factor": 1,
        }
        if self.config.scoring == "jetons":
            self._settle({p: self._points_to_chips(d) for p, d in diffs.items()}, winners, scoring)
        else:
            self._mark(diffs, scoring)
        return self._close(scoring)

    def _points_to_chips(self, points: int) -> int:
        if self.config.round_up_to_ten:
            points = _ceil_ten(points)
        unit: int = self.config.unit
        return points * unit

    def _in_turn_order(self, players: list[str]) -> list[str]:
        """Order players from the dealer's left (who gets an odd chip of a split)."""
        n = len(self.players)
        order = [self.players[(self.button + 1 + i) % n] for i in range(n)]
        return [p for p in order if p in players]

    def _settle(self, debts: dict[str, int], winners: list[str], scoring: dict[str, Any]) -> None:
        """Each loser pays what he owes, at most his chips (ruling: nobody goes
        below zero), shared equally by the winners; odd chips go to the first
        winner left of the dealer."""
        chips = {s["player"]: s["chips"] for s in self.seats}
        self._delta, scoring["paid"] = settle(chips, debts, winners)

    def _standing(self, sheet: dict[str, int]) -> dict[str, int]:
        """The match's value as the sheet stands: each player pays (his total −
        the lowest) × unit, the lowest share it (odd chips from the dealer's left)."""
        low = min(sheet[p] for p in self.players)
        winners = self._in_turn_order([p for p in self.players if sheet[p] == low])
        value = {p: -(sheet[p] - low) * self.config.unit for p in self.players if p not in winners}
        share, odd = divmod(-sum(value.values()), len(winners))
        for i, w in enumerate(winners):
            value[w] = share + (1 if i < odd else 0)
        return value

    def _mark(self, marks: dict[str, int], scoring: dict[str, Any]) -> None:
        """À la marque: the points go in each player's column, and — ruling,
        issue 11 §9 — each deal pays what it changes in the match's value as
        the sheet stands (each pays his total − the lowest, × unit, at the
        end): nothing is left to vanish when a player leaves mid-match."""
        before = self._standing(self.sheet)
        for p, pts in marks.items():
            self.sheet[p] = self.sheet.get(p, 0) + pts
        deals = self.deals_before + 1
        c = self.config
        match_over = max(self.sheet.values()) >= c.match_target or (
            c.match_deals is not None and deals >= c.match_deals
        )
        scoring["marks"] = dict(marks)
        scoring["match"] = {"scores": dict(self.sheet), "deals": deals, "over": match_over}
        after = self._standing(self.sheet)
        chips = {s["player"]: s["chips"] for s in self.seats}
        self._delta = transfer(chips, {p: after[p] - before[p] for p in self.players},
                               self._in_turn_order(self.players))
        scoring["paid"] = {p: -d for p, d in self._delta.items() if d < 0}
        if match_over:
            low = min(self.sheet[p] for p in self.players)
            scoring["match"]["winners"] = self._in_turn_order([p for p in self.players if self.sheet[p] == low])
            self._carry_out = None  # the next deal starts a new match
        else:
            self._carry_out = {"scores": dict(self.sheet), "deals": deals}

    def _close(self, scoring: dict[str, Any]) -> list[Event]:
        self.phase = "over"
        self.outcome = scoring
        return [{"event": "end", **scoring}]

    def carry_out(self) -> dict[str, Any] | None:
        return self._carry_out

    def result_extra(self) -> dict[str, Any]:
        return {"table": [tm.public() for tm in self.table]}

    # ------------------------------------------------------------ projection
    def public_view(self) -> dict[str, Any]:
        v: dict[str, Any] = {"table": [tm.public() for tm in self.table], **self.piles()}
        if self.config.scoring == "marque":
            v["scores"] = dict(self.sheet)
        return v


# ------------------------------------------------------------ module contract
def rami_deck(config: RamiConfig) -> list[str]:
    return deck(jokers=1 if config.joker else 0)


def deck_composition(config: dict[str, Any], n_players: int) -> list[str]:
    cfg = parse_config(RamiConfig, config)
    check_count(n_players, GAME, SEATS)
    return rami_deck(cfg)


def build(
    engine_cls: type[RamiEngine],
    composition: list[str],
    cfg: BaseModel,
    seats: list[dict[str, Any]],
    button: int,
    deck_order: list[str] | None,
    rng: RandomSource | None,
    reshuffles: list[list[str]] | None,
    carry: dict[str, Any] | None,
) -> RamiEngine:
    """Check the seats and the deck order (or shuffle one), then deal."""
    check_seats(seats, button, engine_cls.game, SEATS)
    if deck_order is None:
        deck_order = shuffle(composition, rng)
    else:
        check_deck_order(deck_order, composition)
    return engine_cls(cfg, seats, button, list(deck_order), rng=rng, reshuffles=reshuffles, carry=carry)


def new_deal(config: Options, seats: Seats, button: int, *, deck: Deck = None, rng: Rng = None,
             reshuffles: Reshuffles = None, carry: Carry = None) -> RamiEngine:
    """A new deal of Rami français (see the module docstring and ``base.py``)."""
    cfg = parse_config(RamiConfig, config)
    return build(RamiEngine, rami_deck(cfg), cfg, seats, button, deck, rng, reshuffles, carry)


SPEC = GameSpec(
    name=GAME, label="Rami", rules="rami", seats=SEATS, deck_kind="deck52",
    stakes=("unit",), cave_unit=lambda s: 10 * s["unit"], view="rami", config=RamiConfig,
    new_deal=new_deal, replay_output=replay_output, deck_composition=deck_composition, result_story=("scoring",),
)
