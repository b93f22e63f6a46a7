"""What the rami family's engines (Rami français, Double rami, Gin rummy,
Remigio) share: the deck order, the chips-per-point
settlement, what a replay reports, and :class:`DrawDiscardDeal`, the turn every one
of them plays — draw from the stock or the discard pile, then discard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from tavern.cards import CSPRNG, CardError, RandomSource, check_card, check_deck_order, shuffle
from tavern.games.base import Event, IllegalAction, LegalAction
from tavern.games.records import hand_record


def take_cards(hand: Sequence[str], cards: Any) -> list[str]:
    """The cards named, checked to be held (the hand is not changed)."""
    if not isinstance(cards, (list, tuple)) or not cards:
        raise IllegalAction("cards_list")
    try:
        cards = [check_card(c) for c in cards]
    except CardError as exc:
        raise IllegalAction(exc.code, **exc.params) from None
    missing = Counter(cards) - Counter(hand)
    if missing:
        raise IllegalAction("cards_not_in_hand", cards=sorted(missing.elements()))
    return list(cards)


def settle(
    chips: dict[str, int], debts: dict[str, int], winners: list[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """Chips per point: each loser pays what he owes (``points × unit``), but
    never more than his chips (ruling: nobody goes below zero); the winners
    share it equally, odd chips to the first winners listed. Returns
    ``(delta, paid)``; the deltas always sum to zero."""
    delta = {p: 0 for p in chips}
    paid: dict[str, int] = {}
    for loser, owed in debts.items():
        amount = max(0, min(owed, chips[loser]))
        paid[loser] = amount
        delta[loser] -= amount
        share, odd = divmod(amount, len(winners))
        for i, w in enumerate(winners):
            delta[w] += share + (1 if i < odd else 0)
    return delta, paid


def transfer(chips: dict[str, int], wanted: dict[str, int], order: list[str]) -> dict[str, int]:
    """A zero-sum change of chips (``wanted``), nobody going below zero: each
    one who owes pays at most his chips, and what is collected goes to those
    owed in proportion to what they are owed (the odd chips to the first in
    ``order``). Returns the deltas; they always sum to zero."""
    delta = {p: 0 for p in chips}
    collected = 0
    for p, w in wanted.items():
        if w < 0:
            pay = min(-w, chips[p])
            delta[p] = -pay
            collected += pay
    owed = {p: w for p, w in wanted.items() if w > 0}
    total = sum(owed.values())
    if not total:
        return delta
    given = 0
    for p in owed:
        delta[p] = collected * owed[p] // total
        given += delta[p]
    for p in [q for q in order if q in owed][: collected - given]:
        delta[p] += 1
    return delta


def replay_output(engine: Any) -> dict[str, Any]:
    """What a rami-family replay reports (``tavern replay``): the result once
    the deal is over, else the chips at the start and who is to act."""
    if not engine.over:
        return {
            "finished": False,
            "chips": {s["player"]: s["chips"] for s in engine.seats},
            "rake": 0,
            "to_act": engine.to_act(),
        }
    return {"finished": True, **engine.result()}


def deal_from_left(deck_order: Sequence[str], players: list[str], button: int, size: int) -> dict[str, list[str]]:
    """``size`` cards each, dealt one at a time going left from the seat after
    the dealer (the top of the deck is ``deck_order[0]``)."""
    n = len(players)
    hands: dict[str, list[str]] = {p: [] for p in players}
    for i in range(size * n):
        hands[players[(button + 1 + i) % n]].append(deck_order[i])
    return hands


def deck_order_for(composition: list[str], deck_order: list[str] | None, rng: RandomSource | None) -> list[str]:
    """The deal's deck order: a new shuffle of ``composition``, or the given
    order (a replay) checked to be exactly that composition."""
    if deck_order is None:
        return shuffle(composition, rng or CSPRNG)
    try:
        check_deck_order(deck_order, composition)
    except CardError as exc:
        raise IllegalAction("deck_order", refusal={"code": exc.code, "params": exc.params}) from None
    return list(deck_order)


def json_args(args: dict[str, Any]) -> dict[str, Any]:
    """An action's arguments as the record keeps them."""
    # Copies: the record must not change if the caller reuses its list.
    return {k: list(v) if isinstance(v, (list, tuple)) else v for k, v in args.items()}


class DrawDiscardDeal:
    """The turn of the rami family: ``draw`` (``source``: ``"stock"`` or
    ``"discard"``), then the game's own plays, then ``discard`` (``card``),
    never the card just taken from the discard pile. Also the action dispatch,
    the record, and the frame of ``view()`` and ``result()``.

    A game subclasses it, sets ``game`` and ``ACTIONS``, calls :meth:`_sit` in
    its ``__init__`` (then deals the hands and the stock), gives
    :meth:`legal_plays` and :meth:`timeout_play` (what follows the draw), and
    overrides the hooks where its rules differ: :meth:`draw_sources` and
    :meth:`no_source_rule` (where a player may draw), :meth:`must_discard_other`,
    :meth:`check_turn_end`, :meth:`after_discard` (going out),
    :meth:`turn_ended` (the stock's end), :meth:`turn_began`,
    :meth:`public_view`, :meth:`result_extra` and :meth:`carry_out`.
    Every handler checks everything first, then changes the deal.
    """

    game: ClassVar[str]
    #: Action name -> the argument names it takes.
    ACTIONS: ClassVar[dict[str, tuple[str, ...]]]
    #: Actions whose arguments may be left out (Gin's grand gin: ``gin`` without ``card``).
    OPTIONAL_ARGS: ClassVar[frozenset[str]] = frozenset()
    #: The refusal of a second draw, naming what the player may do instead.
    ALREADY_DRAWN: ClassVar[str] = "already_drawn"

    config: Any
    seats: list[dict[str, Any]]
    players: list[str]
    button: int
    deck: list[str]
    hands: dict[str, list[str]]
    stock: list[str]  # top last
    discards: list[str]  # bottom first, top last
    turn: int
    phase: Literal["draw", "play", "over"]
    drawn_from_discard: str | None
    actions: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    #: Rebuilt stocks, in order (only Rami français rebuilds one).
    reshuffles: list[list[str]]
    #: The match carried into this deal, as the record keeps it.
    carry_in: dict[str, Any] | None
    _delta: dict[str, int]

    def _sit(self, config: Any, seats: list[dict[str, Any]], button: int, deck_order: list[str]) -> None:
        """The state every deal of the family starts with, before the cards are dealt."""
        self.config = config
        self.seats = [{"player": s["player"], "chips": s["chips"]} for s in seats]
        self.players = [s["player"] for s in seats]
        self.button = button
        self.deck = list(deck_order)
        self.discards = []
        self.turn = (button + 1) % len(self.players)
        self.phase = "draw"
        self.drawn_from_discard = None
        self.actions = []
        self.outcome = None
        self.reshuffles = []
        self.carry_in = None
        self._delta = {p: 0 for p in self.players}

    # ------------------------------------------------------------- contract
    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def current(self) -> str:
        return self.players[self.turn]

    def to_act(self) -> list[str]:
        return [] if self.over else [self.current]

    # ------------------------------------------------------------------ act
    def act(self, player: str, action: str, **args: Any) -> list[Event]:
        if self.over:
            raise IllegalAction("deal_over", player=player, action=action)
        if player not in self.players:
            raise IllegalAction("not_dealt_in", player=player, action=action)
        if action not in self.ACTIONS:
            raise IllegalAction(
                "unknown_action_of", player=player, action=action, actions=list(self.ACTIONS),
            )
        if player != self.current:
            raise IllegalAction("not_your_turn", player=player, action=action)
        allowed = set(self.ACTIONS[action])
        if not set(args) <= allowed or (action not in self.OPTIONAL_ARGS and set(args) != allowed):
            raise IllegalAction("takes_arguments", player=player, action=action, names=sorted(allowed))
        try:
            events: list[Event] = getattr(self, "_" + action)(player, **args)
        except IllegalAction as exc:
            exc.player, exc.action = player, action
            raise
        self.actions.append({"player": player, "action": action, **json_args(args)})
        return events

    # ------------------------------------------------------------- the draw
    def draw_sources(self) -> list[str]:
        """Where the player to act may draw from now."""
        return (["stock"] if self.stock else []) + (["discard"] if self.discards else [])

    def no_source_rule(self, source: str) -> str:
        """Why ``source`` (not in :meth:`draw_sources`) may not be drawn from."""
        return "stock_empty_draw" if source == "stock" else "discard_empty"

    # Every handler checks everything first, then changes the deal.
    def _draw(self, player: str, source: Any) -> list[Event]:
        if self.phase != "draw":
            raise IllegalAction(self.ALREADY_DRAWN)
        if source not in ("stock", "discard"):
            raise IllegalAction("draw_source")
        if source not in self.draw_sources():
            raise IllegalAction(self.no_source_rule(source))
        card = self.stock.pop() if source == "stock" else self.discards.pop()
        self.drawn_from_discard = card if source == "discard" else None
        self.hands[player].append(card)
        self.phase = "play"
        event: Event = {"event": "draw", "player": player, "source": source}
        if source == "discard":
            event["card"] = card  # the discard pile is public
        return [event]

    # ---------------------------------------------------------- the discard
    def must_discard_other(self) -> bool:
        """Is the card just taken from the discard pile forbidden as the discard?
        (Taking it and throwing it back would be a pass.)"""
        return self.drawn_from_discard is not None

    def discardable(self, player: str) -> list[str]:
        distinct = list(dict.fromkeys(self.hands[player]))
        if self.must_discard_other():
            others = [c for c in distinct if c != self.drawn_from_discard]
            # Ruling: with only copies of the drawn card left, it may be thrown
            # (only a Rami français hand can come down to that).
            if others:
                return others
        return distinct

    def _check_play(self) -> None:
        if self.phase != "play":
            raise IllegalAction("draw_first")

    def _card_to_throw(self, player: str, card: Any) -> str:
        """The card a discard (or a discard that ends the deal) throws, checked."""
        self._check_play()
        (taken,) = take_cards(self.hands[player], [card])
        if taken not in self.discardable(player):
            raise IllegalAction("discard_another")
        return taken

    def _throw(self, player: str, card: str) -> None:
        self.hands[player].remove(card)
        self.discards.append(card)

    def _discard(self, player: str, card: Any) -> list[Event]:
        card = self._card_to_throw(player, card)
        if len(self.hands[player]) > 1:  # the discard ends the turn, not the deal
            self.check_turn_end()
        self._throw(player, card)
        events: list[Event] = [{"event": "discard", "player": player, "card": card}]
        return events + self.after_discard(player)

    def check_turn_end(self) -> None:
        """Refuse, before anything changes, a discard whose turn end cannot be played."""

    def after_discard(self, player: str) -> list[Event]:
        return self._next_turn()

    def _next_turn(self) -> list[Event]:
        events = self.turn_ended()
        if self.over:
            return events
        self.turn = (self.turn + 1) % len(self.players)
        self.phase = "draw"
        self.drawn_from_discard = None
        self.turn_began()
        return events + [{"event": "turn", "player": self.current}]

    def turn_ended(self) -> list[Event]:
        """What the end of a turn brings (the stock's end: a void deal, a count,
        a rebuilt stock...); the deal may be over after it."""
        return []

    def turn_began(self) -> None:
        """Reset what a game tracks per turn."""

    # --------------------------------------------------------------- ending
    def carry_out(self) -> dict[str, Any] | None:
        """What the next deal of the match carries (None: a new match)."""
        return None

    def result_extra(self) -> dict[str, Any]:
        """What a game shows at the end besides the hands."""
        return {}

    def result(self) -> dict[str, Any]:
        if not self.over:
            raise IllegalAction("deal_not_over")
        start = {s["player"]: s["chips"] for s in self.seats}
        return {
            "chips": {p: start[p] + self._delta[p] for p in self.players},
            "delta": dict(self._delta),
            "rake": 0,
            "scoring": dict(self.outcome or {}),
            "shown": {p: list(self.hands[p]) for p in self.players},
            **self.result_extra(),
            "carry": self.carry_out(),
        }

    # ------------------------------------------------------------ projection
    def piles(self) -> dict[str, Any]:
        """The discard pile's top and size, the stock's size (never its order)."""
        return {
            "discard": {"top": self.discards[-1] if self.discards else None, "size": len(self.discards)},
            "stock": len(self.stock),
        }

    def public_view(self) -> dict[str, Any]:
        """What everyone sees after the players: by default the piles."""
        return self.piles()

    def legal_actions(self, player: str) -> list[LegalAction]:
        if self.over or player != self.current:
            return []
        if self.phase == "draw":
            return [{"action": "draw", "sources": self.draw_sources()}]
        return self.legal_plays(player)

    def legal_plays(self, player: str) -> list[LegalAction]:
        """What the player to act may do once he has drawn."""
        raise NotImplementedError  # each game knows its own plays

    def timeout_action(self, player: str) -> dict[str, Any]:
        """What a player who lets his time run out does: draw from the first
        source open (the stock when there is one), then the game's own choice."""
        if self.over or player != self.current:
            raise IllegalAction("not_your_turn")
        if self.phase == "draw":
            return {"action": "draw", "source": self.draw_sources()[0]}
        return self.timeout_play(player)

    def timeout_play(self, player: str) -> dict[str, Any]:
        """The timed-out player's play once he has drawn."""
        raise NotImplementedError

    def seen(self, action: dict[str, Any], player: str | None) -> dict[str, Any]:
        """Every argument of a rami move is public: a draw names its pile,
        never the card; discards, melds, lay-offs, a knock or a close are
        put face up."""
        return dict(action)

    def view(self, player: str | None, *, legal: bool = True) -> dict[str, Any]:
        """``legal`` false: without his legal actions (fair_cards.seen_positions
        reads the cards a view holds, and Gin's knock arrangements cost most)."""
        v: dict[str, Any] = {
            "game": self.game,
            "phase": self.phase,
            "dealer": self.players[self.button],
            "to_act": self.to_act(),
            "players": [
                {"player": s["player"], "chips": s["chips"], "cards": len(self.hands[s["player"]])}
                for s in self.seats
            ],
            **self.public_view(),
        }
        if player is not None and player in self.hands:
            v["hand"] = list(self.hands[player])
            if legal:
                v["legal"] = self.legal_actions(player)
            if player == self.current and self.drawn_from_discard is not None:
                v["drawn_from_discard"] = self.drawn_from_discard
        if self.over:
            v["result"] = self.result()
        return v

    def record(self) -> dict[str, Any]:
        return hand_record(game=self.game, config=self.config.model_dump(), seats=self.seats,
                           button=self.button, deck=self.deck, reshuffles=self.reshuffles,
                           actions=self.actions, carry=self.carry_in).dump()
