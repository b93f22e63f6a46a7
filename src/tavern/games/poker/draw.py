"""Draw poker: five-card draw, high; single or double draw; fixed limit, pot
limit or no limit; 2 to 8 seats (RULES.md, draw-poker.fr.txt).

Single draw: betting, draw, betting, showdown. Double draw: betting, draw,
betting, draw, betting, showdown. The big blind is the small bet, the small
blind half of it rounded down; fixed limit bets the small bet in the first
round and twice it (the big bet) later. In the first round nobody may check
but the big blind (his option): everybody else faces the big blind's bet.

The draw goes left from the button; each active player (all-in ones too)
throws 0 to 5 cards and gets as many from the stock. When the stock runs out,
the folded cards and the discards are shuffled into a new stock — all except
the current drawer's own discards, so nobody gets his own cards back. The new
stock is recorded in ``reshuffles``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tavern.cards import CardError, deck52, shuffle
from tavern.games.base import Event, IllegalAction
from tavern.games.poker.config import DrawConfig, validate
from tavern.games.poker.deal import DRAW, PokerDeal, check_seats
from tavern.games.poker.evaluator import rank
from tavern.games.poker.records import replay_output as replay_output  # its replay account (SPEC.replay_output)
from tavern.games.poker.records import replay_setup as replay_setup  # the replayer's setup (SPEC.replay_setup)
from tavern.games.setup import Carry, Deck, Options, Reshuffles, Rng, Seats
from tavern.games.spec import GameSpec, TableTerms

GAME = "draw"
#: The players dealt in (those waiting for the big blind aside).
SEATS = (2, 8)
HAND = 5


class DrawPoker(PokerDeal):
    game = GAME
    hole_count = HAND
    __slots__ = ("big_bet", "draws", "used")
    big_bet: int
    draws: int
    used: int  #: reshuffles of the record used so far

    def _unit(self) -> int:
        # Fixed limit: the small bet in the first round, the big bet after.
        return self.big_blind if self.round == 0 else self.big_bet

    def _is_last_round(self) -> bool:
        return self.round == self.draws

    def _on_fold(self, i: int) -> None:
        self.muck.extend(self.hole[i])

    def _after_round(self) -> None:
        if self.round < self.draws:
            self._start_draw()
        else:
            self._showdown()

    def _start_draw(self) -> None:
        self.phase = DRAW
        self._reach_second()
        self.drawers = [i for i in range(len(self.players)) if not self.b.folded[i]]
        self.draw_pos = 0
        self._skip_protected()

    def _skip_protected(self) -> None:
        # A protected player is asked nothing: he stands pat.
        while self.phase == DRAW and self.protected[self.drawers[self.draw_pos]]:
            self._draw_done(self.drawers[self.draw_pos], 0)

    def _draw_done(self, i: int, count: int) -> None:
        self.drawn[i] = count
        self.draw_pos += 1
        if self.draw_pos < len(self.drawers):
            return
        self.round += 1
        if self.b.can_bet_more():
            self._start_betting(first=0)
            return
        self.runout = True  # no more betting: the hands will be tabled
        if self.round < self.draws:
            self._start_draw()
        else:
            self._showdown()

    def _take(self, k: int, keep_out: list[str]) -> tuple[list[str], bool]:
        """``k`` cards from the stock; rebuild it from the muck if it runs out
        (``keep_out``, the drawer's own discards, stay out of it)."""
        stock = self.stock
        assert stock is not None
        got = stock[:k]
        del stock[:k]
        if len(got) == k:
            return got, False
        muck = self.muck
        if self.used < len(self.reshuffles):
            new = list(self.reshuffles[self.used])
            if Counter(new) != Counter(muck):
                raise CardError("bad_reshuffle", index=self.used, size=len(muck))
        elif self._replaying:
            raise CardError("reshuffle_missing")
        else:
            new = shuffle(muck, self.rng)
            self.reshuffles.append(list(new))
        self.used += 1
        self.muck = []
        rest = k - len(got)
        if rest > len(new):
            raise CardError("stock_empty")
        got.extend(new[:rest])
        self.stock = new[rest:]
        return got, True

    def _act_draw(self, i: int, player: str, action: str, args: dict[str, Any],
                  *, record: bool = True) -> list[Event]:
        if i != self.drawers[self.draw_pos]:
            raise IllegalAction("not_your_turn", player=player, action=action)
        if action != "draw":
            raise IllegalAction("draw_now", player=player, action=action)
        discard = args.get("discard", [])
        if set(args) - {"discard"}:
            raise IllegalAction("draw_args", player=player, action=action)
        hand = self.hole[i]
        if not isinstance(discard, list) or any(c not in hand for c in discard):
            raise IllegalAction("throw_own_cards", player=player, action=action)
        if len(set(discard)) != len(discard):
            raise IllegalAction("throw_once", player=player, action=action)
        k = len(discard)
        # Check the reshuffle before changing anything (it may be refused).
        saved = (list(self.stock or []), list(self.muck), self.used, len(self.reshuffles))
        try:
            new, reshuffled = self._take(k, discard)
        except CardError:
            self.stock, self.muck, self.used = saved[0], saved[1], saved[2]
            del self.reshuffles[saved[3]:]
            raise
        kept = [c for c in hand if c not in discard]
        self.hole[i] = kept + new
        self.muck.extend(discard)
        if record:
            self.actions.append((player, "draw", list(discard)))
        ev: Event = {"event": "draw", "player": player, "count": k}
        if reshuffled:
            ev["reshuffle"] = True
        self._draw_done(i, k)
        self._skip_protected()
        events = [ev]
        if self.phase != DRAW:
            events.append(self._flow_event())
        return events

    def _rank(self, i: int) -> int:
        return rank(self.hole[i])



def new_deal(config: Options, seats: Seats, button: int, *, deck: Deck = None, rng: Rng = None,
             reshuffles: Reshuffles = None, carry: Carry = None) -> DrawPoker:
    """Deal a hand of draw poker. ``seats``: see :mod:`tavern.games.poker.deal`."""
    cfg, dumped, rake = validate(DrawConfig, config, GAME)
    assert isinstance(cfg, DrawConfig) and cfg.small_blind is not None
    dealt = check_seats(seats, SEATS, GAME)
    engine = DrawPoker.__new__(DrawPoker)
    engine.draws = cfg.draws
    engine.used = 0
    engine.big_bet = 2 * cfg.big_blind
    PokerDeal.__init__(
        engine, dumped, seats, button, dealt,
        small_blind=cfg.small_blind, big_blind=cfg.big_blind, structure=cfg.structure,
        rake=rake, deck=deck, rng=rng, reshuffles=reshuffles,
    )
    return engine


def deck_composition(config: dict[str, Any], n_players: int) -> list[str]:
    return deck52()


#: The owner's structures (RULES.md "Structures"), "" meaning fixed limit.
STRUCTURES = ("", "fixed-limit", "pot-limit", "no-limit")


def _engine_config(terms: TableTerms) -> dict[str, Any]:
    # Blinds: "big blind = the small bet; small blind = half of it".
    config: dict[str, Any] = {**terms.options, **terms.stakes}
    config["big_blind"] = terms.stakes.get("small_bet", terms.stakes.get("big_blind"))
    config.pop("small_bet", None)
    if terms.variant:
        config.setdefault("structure", terms.variant)
    config["rake"] = {"percent": terms.rake_percent, "cap": terms.rake_cap, "no_flop_no_drop": False}
    return config


SPEC = GameSpec(
    name=GAME, label="Draw Poker", rules="draw-poker", seats=SEATS, deck_kind="deck52",
    stakes=("small_bet",), cave_unit=lambda s: s["small_bet"], variants=STRUCTURES,
    blinds=True, disconnect_protection=True, engine_config=_engine_config, view="draw_poker", config=DrawConfig,
    new_deal=new_deal, replay_output=replay_output, deck_composition=deck_composition,
    replay_setup=replay_setup, protect=lambda deal, player: deal.protect(player),
)


