"""One Rummoli deal as a deterministic state machine.

Phases, in order (RULES.md "Rummoli", rummoli.fr.md):

``exchange``  the dealer may exchange his hand for the widow (``exchange``)
              or not (``keep``);
``auction``   if he keeps his hand the widow is auctioned, going left from the
              dealer: ``bid`` (chips, paid to the dealer) or ``pass``;
``betting``   method 2 only: one betting round into the poker pot;
``rummoli``   the sequences: ``lead`` a card (start or restart) and ``play``
              the called card(s);
``over``      someone went out, or nobody could restart (deadlock).

The poker phase of method 1 needs no decision: the best five cards of every
hand are shown and compared as soon as the widow is settled.
"""

from __future__ import annotations

import copy
from typing import Any

from tavern.cards import CardError, check_deck_order, deck52, shuffle
from tavern.games.base import Event, IllegalAction, LegalAction
from tavern.games.records import hand_record
from tavern.games.rummoli.account import deal_account
from tavern.games.rummoli.board import board_from_carry, pay_what_he_has
from tavern.games.rummoli.config import POKER_POT, RummoliConfig
from tavern.games.rummoli.poker_phase import best_five, split
from tavern.games.rummoli.ramy import RamyPhase
from tavern.games.rummoli.sequence import lead_options, runs_from, sort_hand
from tavern.games.rummoli.widow import WidowPhase
from tavern.games.setup import Carry, Deck, Options, Reshuffles, Rng, Seats, check_seats, parse_config

GAME = "rummoli"
WIDOW = "widow"


def deck_composition(config: dict[str, Any] | None = None, n_players: int = 3) -> list[str]:
    """Rummoli uses one 52-card pack whatever the number of players."""
    return deck52()


#: Three to eight players (RULES.md "Rummoli").
SEATS = (3, 8)


def _check_seats(seats: list[dict[str, Any]], button: int) -> tuple[list[str], dict[str, int]]:
    players, chips = check_seats(seats, button, GAME, SEATS)
    if WIDOW in chips:  # the widow's hand is named so in the deal
        raise IllegalAction("rummoli_widow_name")
    return players, chips


class RummoliDeal(WidowPhase, RamyPhase):
    """One deal. Build it with :func:`new_deal`; see the module docstring.

    This class holds the state, the setup, the poker phase and the contract;
    the widow's phases are in :mod:`.widow`, the sequences in :mod:`.ramy`."""

    game = GAME

    def __init__(
        self,
        config: RummoliConfig,
        seats: list[dict[str, Any]],
        button: int,
        deck: list[str],
        carry: dict[str, Any] | None,
    ) -> None:
        self.config = config
        self.players, self.start_chips = _check_seats(seats, button)
        try:
            check_deck_order(deck, deck_composition())
        except CardError as exc:
            raise IllegalAction("deck_order", refusal={"code": exc.code, "params": exc.params}) from None
        self.button = button
        self.dealer = self.players[button]
        self.deck = list(deck)
        self.carry_in = copy.deepcopy(carry)
        self.chips = dict(self.start_chips)
        self.board, self.log = board_from_carry(config, carry)
        self.board_before = sum(self.board.values())  # the deal's account starts from it
        #: what the deal paid to whom, by section (pots of the result)
        self.awards: list[dict[str, Any]] = []
        self.actions: list[dict[str, Any]] = []
        self.hands: dict[str, list[str]] = {p: [] for p in self.players}
        self.widow: list[str] = []
        self.widow_status = "undecided"  # then: "taken" (by widow_holder) or "dead"
        self.widow_holder: str | None = None
        self.dead: list[str] = []  # hidden until the next deal, never shown
        self.played: dict[str, list[str]] = {p: [] for p in self.players}
        self.on_table: set[str] = set()
        self.won_sections: dict[str, str] = {}
        self.shown: dict[str, list[str]] = {}
        self.poker_winners: list[str] = []
        self.outcome: str | None = None  # "out" or "deadlock"
        self.winner: str | None = None
        #: at a deadlock, what each player paid into the Rummoli pot for the
        #: cards he held (the result panel says it: issue 33 §13)
        self.held_paid: list[dict[str, Any]] = []
        # auction
        self.bidders: list[str] = []
        self.passed: set[str] = set()
        self.high_bid = 0
        self.high_bidder: str | None = None
        self.bid_turn: str | None = None
        # the Rummoli phase
        self.called: str | None = None  # the next card of the running sequence
        self.leader: str | None = None  # who must lead (start or restart)
        self.colour_required: str | None = None  # None: any suit (first lead)
        self.last_player: str | None = None
        self.betting: Any = None  # method 2's betting round
        self._ante()
        self._deal()
        self.phase = "exchange"

    # ------------------------------------------------------------------ setup

    def _left_of(self, player: str, k: int = 1) -> str:
        return self.players[(self.players.index(player) + k) % len(self.players)]

    def _from_dealers_left(self) -> list[str]:
        """Every player, starting at the dealer's left, the dealer last."""
        n = len(self.players)
        return [self.players[(self.button + 1 + i) % n] for i in range(n)]

    def _ante(self) -> None:
        # "Au début de chaque nouveau tour, chaque joueur place un jeton sur
        # chacune des neuf sections". Short stacks pay what they have, in board order.
        unit = self.config.unit
        for p in self._from_dealers_left():
            total = 0
            for sid in self.board:
                paid = pay_what_he_has(self.chips, p, unit)
                self.board[sid] += paid
                total += paid
            self.log.append({"event": "ante", "player": p, "amount": total})

    def _deal(self) -> None:
        # "Le donneur distribue toutes les cartes, une par une ... composant
        # une main additionnelle appelée veuve": the widow is the last hand of
        # each round, after the dealer.
        order: list[str] = self._from_dealers_left() + [WIDOW]
        for i, card in enumerate(self.deck):
            who = order[i % len(order)]
            (self.widow if who == WIDOW else self.hands[who]).append(card)
        self.log.append(
            {"event": "deal", "cards": {p: len(self.hands[p]) for p in self.players}, "widow": len(self.widow)}
        )

    # ------------------------------------------------------------- contract

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def to_act(self) -> list[str]:
        if self.phase == "exchange":
            return [self.dealer]
        if self.phase == "auction":
            return [self.bid_turn] if self.bid_turn else []
        if self.phase == "betting":
            betting_turn: list[str] = self.betting.to_act()
            return betting_turn
        if self.phase == "rummoli":
            return [self._holder(self.called)] if self.called else [self.leader]  # type: ignore[list-item]  # the rummoli phase has a holder of the called card
        return []

    def legal_actions(self, player: str) -> list[LegalAction]:
        if player not in self.to_act():
            return []
        if self.phase == "exchange":
            return [{"action": "exchange"}, {"action": "keep"}]
        if self.phase == "auction":
            out: list[LegalAction] = []
            low = self.high_bid + 1
            if self.chips[player] >= low:
                out.append({"action": "bid", "min": low, "max": self.chips[player]})
            out.append({"action": "pass"})
            return out
        if self.phase == "betting":
            offered: list[LegalAction] = self.betting.legal_actions(player)
            return offered
        if self.called:
            return [{"action": "play", "cards": run} for run in runs_from(self.hands[player], self.called)]
        return [{"action": "lead", "card": c} for c in lead_options(self.hands[player], self.colour_required)]

    def timeout_action(self, player: str) -> dict[str, Any]:
        legal = self.legal_actions(player)
        if not legal:
            raise IllegalAction("not_your_turn", player=player)
        if self.phase in ("exchange", "auction"):
            return {"action": "keep" if self.phase == "exchange" else "pass"}
        if self.phase == "betting":
            safe: dict[str, Any] = self.betting.timeout_action(player)
            return safe
        first = legal[0]  # a single card, or the lowest lead
        return {k: v for k, v in first.items()}

    def act(self, player: str, action: str, **args: Any) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("deal_over", player=player, action=action)
        if player not in self.players:
            raise IllegalAction("not_dealt_in", player=player, action=action)
        if player not in self.to_act():
            raise IllegalAction("not_your_turn", player=player, action=action)
        handler = {
            "exchange": self._act_exchange,
            "auction": self._act_auction,
            "betting": self._act_betting,
            "rummoli": self._act_rummoli,
        }[self.phase]
        start = len(self.log)
        try:
            handler(player, action, args)
        except IllegalAction as exc:
            exc.player, exc.action = player, action
            raise
        self.actions.append({"player": player, "action": action, **args})
        return self.log[start:]

    def _whose_turn(self) -> str:
        who = self.to_act()
        return f"it is {who[0]}'s turn" if who else "nobody is to act"

    # ------------------------------------------------------------ the poker

    def _start_poker(self) -> None:
        if self.config.poker_method == 2:
            from tavern.games.rummoli.betting import PokerBetting  # method 2 only

            self.phase = "betting"
            self.betting = PokerBetting(self)
            self.betting.start()
            return
        # Method 1: "les joueurs étalent leur main de poker bien en vue sur la
        # table. Le joueur dont la main a la plus haute valeur remporte tous
        # les jetons de la cagnotte poker."
        self._showdown(self._from_dealers_left())

    def _act_betting(self, player: str, action: str, args: dict[str, Any]) -> None:
        self.betting.act(player, action, args)

    def _showdown(self, contenders: list[str], pots: list[tuple[int, list[str]]] | None = None) -> None:
        """Show the best five of every contender (players in order from the
        dealer's left), award the poker pot(s) and open the Rummoli phase.

        ``pots`` (method 2 with all-ins) are ``(amount, eligible)`` main pot
        first; by default the whole poker pot goes to the best contender. A
        single contender (the last player standing) shows nothing.
        """
        if pots is None:
            pots = [(self.board[POKER_POT], contenders)]
        self.board[POKER_POT] = 0
        values: dict[str, Any] = {}
        if len(contenders) > 1:
            values = {p: best_five(self.hands[p]) for p in contenders}
            for p in contenders:
                self.shown[p] = list(values[p].cards)
                self.log.append({"event": "show", "player": p, "cards": self.shown[p], "hand": values[p].category})
        leader = None
        for amount, eligible in pots:
            if values:
                top = max(values[p] for p in eligible)
                winners = [p for p in eligible if values[p] == top]
            else:
                winners = list(eligible)
            # Ruling: equal hands split; the odd chips go to the first winner
            # left of the dealer.
            for p, share in split(amount, winners).items():
                self.chips[p] += share
                self.log.append({"event": "win", "section": POKER_POT, "player": p, "amount": share})
            self.awards.append({"section": POKER_POT, "amount": amount, "winners": winners})
            if leader is None:
                leader = winners[0]
                self.poker_winners = winners
        assert leader is not None
        self._start_rummoli(leader)

    # ------------------------------------------------------------- outputs

    def seen(self, action: dict[str, Any], player: str | None) -> dict[str, Any]:
        """Every argument of a Rummoli move is public: the widow's exchange,
        the auction and the betting name no card; leads and plays are face
        up."""
        return dict(action)

    def view(self, player: str | None, *, legal: bool = True) -> dict[str, Any]:
        """``legal`` false: without his legal actions (what fair_cards.seen_positions reads)."""
        seen = player if player in self.players else None
        out: dict[str, Any] = {
            "game": GAME,
            "phase": self.phase,
            "dealer": self.dealer,
            "players": [
                {
                    "player": p,
                    "chips": self.chips[p],
                    "cards": len(self.hands[p]),
                    "played": list(self.played[p]),
                    "took_widow": self.widow_holder == p,
                }
                for p in self.players
            ],
            "board": dict(self.board),
            "pay_sections": [
                {"id": s.id, "label": s.label, "chips": self.board[s.id], "won_by": self.won_sections.get(s.id)}
                for s in self.config.pay_sections
            ],
            # The widow and the dead hand: how many cards, never which.
            "widow": {"status": self.widow_status, "cards": len(self.widow), "holder": self.widow_holder},
            "dead_cards": len(self.dead),
            "poker": {"method": self.config.poker_method, "shown": dict(self.shown), "winners": list(self.poker_winners)},
            "to_act": self.to_act(),
        }
        if self.phase == "auction":
            out["auction"] = {"high_bid": self.high_bid, "high_bidder": self.high_bidder, "passed": sorted(self.passed)}
        if self.phase == "betting":
            out["betting"] = self.betting.view()
        if self.phase in ("rummoli", "over"):
            out["sequence"] = {"called": self.called, "leader": self.leader, "colour_required": self.colour_required}
        if self.over:
            out["outcome"], out["winner"] = self.outcome, self.winner
        if seen is not None:
            out["hand"] = sort_hand(self.hands[seen])
            # ``legal``, where every game puts them (docs/protocol.md);
            # ``legal_actions`` is its deprecated name, sent for one more release.
            if legal:
                out["legal"] = out["legal_actions"] = self.legal_actions(seen)
        return out

    def result(self) -> dict[str, Any]:
        if not self.over:
            raise IllegalAction("deal_not_over")
        return {
            "chips": dict(self.chips),
            "delta": {p: self.chips[p] - self.start_chips[p] for p in self.players},
            "rake": 0,
            "pots": copy.deepcopy(self.awards),
            "shown": copy.deepcopy(self.shown),
            "outcome": self.outcome,
            "winner": self.winner,
            "carry": {"board": dict(self.board)},
            "account": deal_account(self.config, self.log, self.board_before, self.board),
            **self._said(),
        }

    def _said(self) -> dict[str, Any]:
        """How the deal ended, for the result panel, as a catalogue code and
        its parameters (tavern.catalogue words it): a deadlock is otherwise
        only a loss in each player's column."""
        if self.outcome != "deadlock":
            return {}
        return {"said": [{"code": "rummoli_deadlock",
                          "params": {"per_card": self.config.unit, "held": copy.deepcopy(self.held_paid)}}]}

    def record(self) -> dict[str, Any]:
        return hand_record(game=GAME, config=self.config.model_dump(mode="json"),
                           seats=[{"player": p, "chips": self.start_chips[p]} for p in self.players],
                           button=self.button, deck=self.deck, actions=self.actions,
                           carry=self.carry_in).dump()


def new_deal(config: Options, seats: Seats, button: int, *, deck: Deck = None, rng: Rng = None,
             reshuffles: Reshuffles = None, carry: Carry = None) -> RummoliDeal:
    """Ante, deal every card one at a time to the players and the widow, and
    wait for the dealer's decision about the widow."""
    cfg = parse_config(RummoliConfig, config)
    if reshuffles:
        raise IllegalAction("no_reshuffles", game="rummoli")
    order = list(deck) if deck is not None else shuffle(deck_composition(), rng)
    return RummoliDeal(cfg, seats, button, order, carry)


def replay_output(deal: RummoliDeal) -> dict[str, Any]:
    """What a Rummoli replay reports (``tavern replay``, registry.replay)."""
    out: dict[str, Any] = {
        "finished": deal.over,
        "chips": dict(deal.chips),
        "delta": {p: deal.chips[p] - deal.start_chips[p] for p in deal.players},
        "pots": copy.deepcopy(deal.awards),
        "rake": 0,
        "board": dict(deal.board),
        "shown": copy.deepcopy(deal.shown),
    }
    if deal.over:
        out["outcome"], out["winner"] = deal.outcome, deal.winner
        out["carry"] = deal.result()["carry"]
    else:
        out["to_act"] = deal.to_act()
    return out
