"""Ramponneau: no-limit Texas hold'em, 2 to 10 seats (RULES.md).

Two private cards each, then the flop (3), the turn (1) and the river (1),
with a betting round before the flop and after each street; best five of
seven. Blinds by position (heads-up the button posts the small blind, acts
first before the flop and last after it). See ``docs/games/poker.md``.
"""

from __future__ import annotations

from typing import Any

from tavern.cards import deck52
from tavern.games.poker import equity
from tavern.games.poker.betting import NO_LIMIT
from tavern.games.poker.config import RamponneauConfig, validate
from tavern.games.poker.deal import OVER, SHOWDOWN, PokerDeal, check_seats
from tavern.games.poker.evaluator import rank7
from tavern.games.poker.records import replay_output as replay_output  # its replay account (SPEC.replay_output)
from tavern.games.poker.records import replay_setup as replay_setup  # the replayer's setup (SPEC.replay_setup)
from tavern.games.setup import Carry, Deck, Options, Reshuffles, Rng, Seats
from tavern.games.spec import GameSpec, TableTerms

GAME = "ramponneau"
#: The players dealt in (those waiting for the big blind aside).
SEATS = (2, 10)
#: Board cards dealt after each betting round: the flop, the turn, the river.
STREETS = (3, 1, 1)


class Ramponneau(PokerDeal):
    game = GAME
    hole_count = 2
    # allin_board: the board's length when nobody could bet any more before
    # the river (-1: never); _equity: the equity of that moment and of each
    # street dealt after it, computed once (the deal's views share it).
    __slots__ = ("_equity", "allin_board")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.allin_board = -1  # before the blinds: a short blind may close the betting at once
        self._equity: list[dict[str, Any]] | None = None
        super().__init__(*args, **kwargs)

    def _is_last_round(self) -> bool:
        return self.round == 3

    def _after_round(self) -> None:
        b = self.b
        n = len(self.players)
        if self.round < 3 and not b.can_bet_more():
            # Every player still in is all in (but perhaps the one who
            # covered them): the hands are tabled and the board runs out.
            self.allin_board = len(self.board)
        while self.round < 3:
            # The next street, then its betting round if two players can still bet.
            start = 2 * n + len(self.board)
            self.board.extend(self.deck[start:start + STREETS[self.round]])
            self.round += 1
            self._reach_second()
            if b.can_bet_more():
                self._start_betting(first=0)
                return
            self.runout = True
        self._showdown()

    def _rank(self, i: int) -> int:
        return rank7(self.hole[i] + self.board)

    def equity(self) -> list[dict[str, Any]] | None:
        """Once the deal is over after an all-in before the river, each hand's
        share of the pot (in tenths of a percent, ties split) at that moment
        and after each street dealt since, before the river (the board then,
        and ``permille`` by player); else None. Only tabled hands count, and
        only they are known cards (tavern.games.poker.equity): it shows
        nothing the table did not see."""
        if self.phase != OVER or self.allin_board < 0:
            return None
        if self._equity is None:
            live = [i for i in range(len(self.players)) if not self.b.folded[i]]
            if len(live) < 2 or any(i not in self.shown for i in live):
                self._equity = []
            else:
                holes = [self.hole[i] for i in live]
                self._equity = [{
                    "board": self.board[:k],
                    "permille": dict(zip([self.players[i] for i in live], equity.permille(holes, self.board[:k]),
                                         strict=True)),
                } for k in (0, 3, 4) if k >= self.allin_board]
        return self._equity or None

    def forgo_equity(self) -> None:
        """No equity in this deal's views: for a replay that reads them only
        for their cards (fair_cards.seen_positions), which the equity does
        not add to (the board and the tabled hands are in the view anyway),
        and whose computing at every deal end would repeat the table's."""
        self._equity = []

    def _public_view(self) -> dict[str, Any]:
        public = super()._public_view()
        shares = self.equity()
        if shares is not None:
            public["equity"] = shares
        return public



def new_deal(config: Options, seats: Seats, button: int, *, deck: Deck = None, rng: Rng = None,
             reshuffles: Reshuffles = None, carry: Carry = None) -> Ramponneau:
    """Deal a hand of Ramponneau. ``seats``: see :mod:`tavern.games.poker.deal`
    (``waiting`` and ``post`` flags)."""
    cfg, dumped, rake = validate(RamponneauConfig, config, GAME)
    assert isinstance(cfg, RamponneauConfig)
    dealt = check_seats(seats, SEATS, GAME)
    return Ramponneau(
        dumped, seats, button, dealt,
        small_blind=cfg.small_blind, big_blind=cfg.big_blind, structure=NO_LIMIT,
        rake=rake, deck=deck, rng=rng, reshuffles=reshuffles,
    )


def deck_composition(config: dict[str, Any], n_players: int) -> list[str]:
    return deck52()


__all__ = ["SHOWDOWN", "Ramponneau", "deck_composition", "new_deal", "replay_output", "replay_setup"]


def _engine_config(terms: TableTerms) -> dict[str, Any]:
    return {**terms.options, **terms.stakes,
            "rake": {"percent": terms.rake_percent, "cap": terms.rake_cap, "no_flop_no_drop": terms.no_flop_no_drop}}


def _check_stakes(stakes: Any) -> str | None:
    if stakes["small_blind"] > stakes["big_blind"]:
        return "small_blind_above_big_blind"
    return None


SPEC = GameSpec(
    name=GAME, label="Ramponneau", rules="ramponneau", seats=SEATS, deck_kind="deck52",
    stakes=("small_blind", "big_blind"), cave_unit=lambda s: s["big_blind"],
    blinds=True, engine_config=_engine_config, check_stakes=_check_stakes, view="holdem",
    config=RamponneauConfig, new_deal=new_deal, replay_output=replay_output, deck_composition=deck_composition,
    replay_setup=replay_setup, protect=lambda deal, player: deal.protect(player),
)


