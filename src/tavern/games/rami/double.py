"""Double rami, or Coon Can (game ``double_rami``).

Rules: ``RULES.md`` § Rami family and ``rules/rami.fr.txt`` ("LE DOUBLE RAMI"):
played by the rules of Rami français (:mod:`.francais`, whose engine this one
extends) with these differences:

- two 52-card decks and 2 jokers (106 cards), 10 cards each;
- a joker inside a laid meld may be moved once: the player puts the real card
  in its place and moves the joker to either end of that meld
  (``move_joker`` with ``meld``, ``card``, ``end``: ``"low"`` or ``"high"``);
  a moved joker is marked ("disposé perpendiculairement") and never moves again;
- when the stock is exhausted play goes on from the discard pile, and the card
  discarded must differ from the card just drawn;
- the ace goes with the king or with the 2, not around the corner; joker 15
  points, ace 11.

Rulings (the source is silent; see ``docs/games/rami-francais.md``): a joker is
moved only in one's own run (a set has no ends; one adds only to one's own
melds); discard-pile play ends like an exhausted stock in Rami français
(lowest count wins) once a whole round — ``idle_rounds`` rounds — passes with
no card put on the table, so that a deal always ends.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from tavern.cards import deck
from tavern.games.base import Event, IllegalAction, LegalAction
from tavern.games.rami import melds
from tavern.games.rami.common import replay_output as replay_output  # this game's replay account (SPEC.replay_output)
from tavern.games.rami.francais import SEATS, RamiEngine, TableMeld, build
from tavern.games.setup import Carry, Deck, Options, Reshuffles, Rng, Seats, check_count, parse_config
from tavern.games.spec import GameSpec

GAME = "double_rami"


class DoubleRamiConfig(BaseModel):
    """Table options of Double rami (the stakes are those of Rami français)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    unit: int = Field(1, ge=0)
    scoring: Literal["jetons", "marque"] = "jetons"
    round_up_to_ten: bool = False
    may_return_discard: bool = False
    match_target: int = Field(100, ge=1)
    match_deals: int | None = Field(None, ge=1)
    #: Discard-pile play ends (lowest count wins) after this many whole rounds
    #: in which nobody put a card on the table.
    idle_rounds: int = Field(1, ge=1)


class DoubleRamiEngine(RamiEngine):
    game = GAME
    config_model = DoubleRamiConfig
    ACTIONS: ClassVar[dict[str, tuple[str, ...]]] = {**RamiEngine.ACTIONS, "move_joker": ("meld", "card", "end")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The stock is exhausted: players draw from the discard pile only.
        self.discard_play = False
        self.idle_turns = 0

    def meld_rules(self) -> melds.MeldRules:
        # "l'as peut faire partie d'une combinaison, soit avec le roi, soit avec le 2"
        # "à la marque, le joker vaut 15 points et l'as, 11 points"
        return melds.MeldRules(
            ace_low=True, ace_high=True, ace_around=False, jokers=True,
            ace_points=11, joker_points=15,
        )

    def hand_size(self, n_players: int) -> int:
        return 10  # "on distribue dix cartes à chacun"

    # ------------------------------------------------ discard-pile play
    def draw_sources(self) -> list[str]:
        if self.discard_play:
            return ["discard"] if self.discards else []
        return super().draw_sources()

    def no_source_rule(self, source: str) -> str:
        if self.discard_play and source == "stock":
            return "stock_exhausted_draw_discard"
        return super().no_source_rule(source)

    def must_discard_other(self) -> bool:
        # "avec obligation d'écarter une carte différente de celle piochée"
        if self.discard_play and self.drawn_from_discard is not None:
            return True
        return super().must_discard_other()

    def check_turn_end(self) -> None:
        return None  # the stock is never rebuilt: nothing to check

    def turn_ended(self) -> list[Event]:
        if self.discard_play:
            self.idle_turns = 0 if self.laid_this_turn else self.idle_turns + 1
            if self.idle_turns >= self.config.idle_rounds * len(self.players):
                return self._finish_by_count()
            return []
        if not self.stock:
            self.discard_play = True
            return [{"event": "discard_play"}]
        return []

    # ------------------------------------------------ moving a joker
    def _joker_at(self, tm: TableMeld, card: str) -> int:
        """The position of a joker of ``tm`` standing for ``card`` that may move."""
        if tm.meld.kind != "run":
            raise IllegalAction("joker_move_run_only")
        found = [i for i, s in enumerate(tm.meld.stands_for) if s == card]
        if not found:
            raise IllegalAction("no_joker_for", card=str(card))
        free = [i for i in found if tm.meld.cards[i] not in tm.marked]
        if not free:
            raise IllegalAction("joker_marked")
        return free[0]

    def _moved(self, tm: TableMeld, pos: int, card: str, end: str) -> melds.Meld:
        """The run with ``card`` in the joker's place and the joker at ``end``."""
        joker = tm.meld.cards[pos]
        cards = list(tm.meld.cards)
        cards[pos] = card
        cards = [joker] + cards if end == "low" else cards + [joker]
        try:
            new = melds.classify(cards, self.rules, kind="run")
        except IllegalAction:
            new = None
        if new is None or list(new.cards) != cards:
            raise IllegalAction("joker_end_blocked", end=end)
        return new

    def _move_joker(self, player: str, meld: Any, card: Any, end: Any) -> list[Event]:
        self._check_play()
        tm = self._own_meld(player, meld, "move_joker")
        (card,) = self._take_cards(player, [card])
        if melds.is_joker(card):
            raise IllegalAction("joker_put_real_card")
        if end not in ("low", "high"):
            raise IllegalAction("joker_end")
        pos = self._joker_at(tm, card)
        new = self._moved(tm, pos, card, end)
        joker = tm.meld.cards[pos]
        self.hands[player].remove(card)
        self.table[meld] = TableMeld(tm.owner, new, tm.marked | {joker})
        self.laid_this_turn = True
        events: list[Event] = [
            {"event": "move_joker", "player": player, "meld": meld, "joker": joker,
             "card": card, "end": end, "cards": list(new.cards)}
        ]
        return events + self._after_table_play(player)

    def extra_legal(self, player: str) -> list[LegalAction]:
        options = []
        hand = set(self.hands[player])
        for i, tm in enumerate(self.table):
            if tm.owner != player or tm.meld.kind != "run":
                continue
            for pos, stands in enumerate(tm.meld.stands_for):
                if stands is None or stands not in hand or tm.meld.cards[pos] in tm.marked:
                    continue
                ends = []
                for end in ("low", "high"):
                    try:
                        self._moved(tm, pos, stands, end)
                    except IllegalAction:
                        continue
                    ends.append(end)
                if ends:
                    options.append({"meld": i, "card": stands, "ends": ends})
        return [{"action": "move_joker", "options": options}] if options else []

    def view(self, player: str | None, *, legal: bool = True) -> dict[str, Any]:
        v = super().view(player, legal=legal)
        v["discard_play"] = self.discard_play
        return v


# ------------------------------------------------------------ module contract
def deck_composition(config: dict[str, Any], n_players: int) -> list[str]:
    parse_config(DoubleRamiConfig, config)
    check_count(n_players, GAME, SEATS)
    return deck(decks=2, jokers=2)


def new_deal(config: Options, seats: Seats, button: int, *, deck: Deck = None, rng: Rng = None,
             reshuffles: Reshuffles = None, carry: Carry = None) -> DoubleRamiEngine:
    """A new deal of Double rami (see :func:`tavern.games.rami.francais.new_deal`)."""
    cfg = parse_config(DoubleRamiConfig, config)
    if reshuffles:
        raise IllegalAction("no_reshuffles", game="double_rami")
    composition = deck_composition(cfg.model_dump(), len(seats))
    engine = build(DoubleRamiEngine, composition, cfg, seats, button, deck, rng, None, carry)
    return engine  # type: ignore[return-value]  # build() makes the class it is given


SPEC = GameSpec(
    name=GAME, label="Double rami", rules="double-rami", seats=SEATS, deck_kind="deck52",
    stakes=("unit",), cave_unit=lambda s: 10 * s["unit"], decks=lambda n, options: 2, view="rami",
    config=DoubleRamiConfig, new_deal=new_deal, replay_output=replay_output, deck_composition=deck_composition, result_story=("scoring",),
)
