"""The widow ("la veuve"): the dealer's exchange, the auction, the dead widow.

"Le donneur peut échanger sa main contre la veuve. Si le donneur ne veut pas
de la veuve, celle-ci peut être mise aux enchères. Tous les joueurs peuvent
consulter leur main avant d'enchérir. Le joueur qui offre la plus grande
valeur en jetons remporte l'enchère; la mise va au donneur."

Rulings: the auction goes left from the dealer's left, the dealer does not
bid; a bid beats the highest bid (at least 1 chip) and is at most the
bidder's chips; a player who passes is out of the auction; the high bidder is
not asked again until somebody outbids him.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavern.games.base import Event, IllegalAction


class WidowPhase:
    """Mixin of :class:`~tavern.games.rummoli.engine.RummoliDeal`: the
    ``exchange`` and ``auction`` phases. The state lives on the deal."""

    dealer: str
    phase: str
    chips: dict[str, int]
    hands: dict[str, list[str]]
    widow: list[str]
    dead: list[str]
    widow_status: str
    widow_holder: str | None
    bidders: list[str]
    passed: set[str]
    high_bid: int
    high_bidder: str | None
    bid_turn: str | None
    log: list[Event]

    if TYPE_CHECKING:  # provided by the deal
        def _from_dealers_left(self) -> list[str]: ...
        def _start_poker(self) -> None: ...

    def _act_exchange(self, player: str, action: str, args: dict) -> None:
        if action not in ("exchange", "keep") or args:
            raise IllegalAction("rummoli_exchange_or_keep")
        if action == "exchange":
            # "Le donneur peut échanger sa main contre la veuve."
            self.log.append({"event": "widow_taken", "player": player, "by": "exchange"})
            self._take_widow(player)
            return
        # "Si le donneur ne veut pas de la veuve, celle-ci peut être mise aux enchères."
        self.bidders = [p for p in self._from_dealers_left() if p != self.dealer]
        self.phase = "auction"
        self.bid_turn = self.bidders[0]
        self.log.append({"event": "auction_opens"})

    def _act_auction(self, player: str, action: str, args: dict) -> None:
        if action == "pass":
            if args:
                raise IllegalAction("no_arguments", action="pass")
            self.passed.add(player)
            self.log.append({"event": "pass", "player": player})
        elif action == "bid":
            amount = args.get("amount")
            if set(args) != {"amount"} or not isinstance(amount, int) or isinstance(amount, bool):
                raise IllegalAction("amount_whole_chips", action="bid")
            if amount <= self.high_bid:
                raise IllegalAction("bid_too_small", high=self.high_bid, minimum=self.high_bid + 1)
            if amount > self.chips[player]:
                raise IllegalAction("more_than_stack", available=self.chips[player])
            self.high_bid, self.high_bidder = amount, player
            self.log.append({"event": "bid", "player": player, "amount": amount})
        else:
            raise IllegalAction("rummoli_auction_actions")
        still = [p for p in self.bidders if p not in self.passed]
        if not still:
            # "si aucun joueur ne veut de la veuve elle est morte et reste cachée"
            self.widow_status = "dead"
            self.dead = self.widow
            self.widow = []
            self.log.append({"event": "widow_dead"})
            self._start_poker()
        elif still == [self.high_bidder] and self.high_bidder is not None:
            self._sell_widow(self.high_bidder, self.high_bid)
        else:
            i = self.bidders.index(player)
            n = len(self.bidders)
            nxt = (self.bidders[(i + k) % n] for k in range(1, n + 1))
            # the high bidder does not bid against himself
            self.bid_turn = next(p for p in nxt if p not in self.passed and p != self.high_bidder)

    def _sell_widow(self, buyer: str, price: int) -> None:
        # "la mise va au donneur. La veuve doit être acceptée par celui qui l'a
        # remportée ... Cette dernière [sa main] est maintenant morte"
        self.chips[buyer] -= price
        self.chips[self.dealer] += price
        self.log.append({"event": "widow_sold", "player": buyer, "amount": price, "to": self.dealer})
        self.bid_turn = None
        self._take_widow(buyer)

    def _take_widow(self, player: str) -> None:
        self.dead = self.hands[player]
        self.hands[player] = self.widow
        self.widow = []
        self.widow_status, self.widow_holder = "taken", player
        self._start_poker()
