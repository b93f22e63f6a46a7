"""Method 2 of the poker phase: one betting round into the poker pot.

"méthode 2: les joueurs ne montrent pas leur main. Ils misent et enchérissent
comme dans une partie de poker habituelle. Les jetons pariés sont placés dans
la cagnotte poker. Le joueur qui élimine tous les autres, ou qui a la main la
plus forte quand on découvre les mains, remporte tous les jetons de la
cagnotte poker. Les joueurs éliminés ne peuvent pas remporter la cagnotte."

The chips and the rules of betting are the shared engine's
(:mod:`tavern.games.poker.betting`); this adapter only seats the Rummoli
players in it. Rulings:

* no blinds: the poker pot already holds the antes (and what the board
  carried); the first player left of the dealer speaks first; the minimum bet
  is the table's ``betting.bet`` (fixed limit: the bet size);
* the chips already on the poker section are dead money in the main pot;
  all-ins make side pots as at poker (the shared engine's pots);
* a folded player loses only the poker pot: he keeps his cards and plays the
  Rummoli phase like everyone else.
"""

from __future__ import annotations

from typing import Any, Protocol

from tavern.games.base import IllegalAction, LegalAction
from tavern.games.poker.betting import Betting, build_pots
from tavern.games.rummoli.config import POKER_POT, RummoliConfig


class RummoliDeal(Protocol):
    """What the betting round needs of its deal (engine.RummoliDeal), said
    here so that this module does not import the engine that imports it."""

    board: dict[str, int]
    chips: dict[str, int]
    config: RummoliConfig
    log: list[Any]

    def _from_dealers_left(self) -> list[str]: ...

    def _showdown(self, *args: Any, **kwargs: Any) -> Any: ...

ACTIONS = ("fold", "check", "call", "bet", "raise")


class PokerBetting:
    """The betting round of one deal, players indexed from the dealer's left."""

    def __init__(self, deal: RummoliDeal) -> None:
        self.deal = deal
        self.order = deal._from_dealers_left()
        self.index = {p: i for i, p in enumerate(self.order)}
        self.base = deal.board[POKER_POT]  # antes + carried chips: dead money
        opts = deal.config.betting
        self.engine = Betting([deal.chips[p] for p in self.order], opts.structure, opts.bet)

    def start(self) -> None:
        self.engine.start_round(0, self.deal.config.betting.bet)
        self._after_action()

    def to_act(self) -> list[str]:
        a = self.engine.actor
        return [self.order[a]] if a >= 0 else []

    def legal_actions(self, player: str) -> list[LegalAction]:
        return self.engine.legal(self.index[player])

    def timeout_action(self, player: str) -> dict[str, Any]:
        names = [a["action"] for a in self.legal_actions(player)]
        return {"action": "check" if "check" in names else "fold"}

    def act(self, player: str, action: str, args: dict[str, Any]) -> None:
        if action not in ACTIONS:
            raise IllegalAction("rummoli_betting_actions", action=action)
        wants_amount = action in ("bet", "raise")
        if set(args) != ({"amount"} if wants_amount else set()):
            raise IllegalAction("amount_only" if wants_amount else "no_arguments", action=action)
        i = self.index[player]
        self.engine.act(i, action, args.get("amount"))
        # Our own event (the shared engine's return value is not part of its API).
        ev: dict[str, Any] = {"event": action, "player": player}
        if action in ("call", "bet", "raise"):
            ev["amount"] = self.engine.bet[i]  # the player's total for the round
        self.deal.log.append(ev)
        self._after_action()

    def _after_action(self) -> None:
        """Keep the deal's stacks and the poker section in step with the
        betting, and settle the pot once the round is over."""
        e, deal = self.engine, self.deal
        for p, i in self.index.items():
            deal.chips[p] = e.stack[i]
        deal.board[POKER_POT] = self.base + sum(e.total)
        if not e.round_over:
            return
        back = e.end_round()
        if back is not None:
            i, amount = back
            deal.chips[self.order[i]] = e.stack[i]
            deal.log.append({"event": "uncalled", "player": self.order[i], "amount": amount})
        live = [p for p in self.order if not e.folded[self.index[p]]]
        pots = [(amount, [self.order[i] for i in eligible]) for amount, eligible in build_pots(e.total, e.folded)]
        if pots:
            pots[0] = (pots[0][0] + self.base, pots[0][1])
        else:
            pots = [(self.base, live)]
        deal._showdown(live, pots)

    def view(self) -> dict[str, Any]:
        e = self.engine
        return {
            "bets": {p: e.bet[i] for p, i in self.index.items()},
            "folded": [p for p, i in self.index.items() if e.folded[i]],
            "pot": self.deal.board[POKER_POT],
        }
