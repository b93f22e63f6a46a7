"""The Rummoli phase ("le ramy"): leads, runs, stops, restarts, pay sections,
going out and the deadlock.

"Le gagnant du tour de poker ouvre le jeu avec la plus basse carte de
n'importe quelle couleur ... Le jeu se poursuit à la gauche du joueur:
n'importe quel autre joueur peut maintenant déposer la(les) carte(s)
suivante(s) ... Le jeu continue de cette façon jusqu'à ce que l'as de chaque
couleur ait été déposé ou jusqu'à ce que la séquence de jeu ait été
interrompue ... le dernier joueur à avoir joué relance le jeu avec sa plus
faible carte dans une autre couleur."

Each card exists once, so the next card of a sequence has one live holder or
none: the holder is asked to ``play`` it (with the following cards he holds,
if he likes); nobody: the sequence stops and a ``lead`` is due.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tavern.cards import CardError, check_card
from tavern.games.base import Event, IllegalAction
from tavern.games.rummoli.board import pay_what_he_has
from tavern.games.rummoli.config import RUMMOLI_POT, PaySection, RummoliConfig
from tavern.games.rummoli.sequence import (
    colour,
    lead_options,
    lowest_of_suit,
    next_card,
    other_colour,
    runs_from,
)


class RamyPhase:
    """Mixin of :class:`~tavern.games.rummoli.engine.RummoliDeal`: the
    ``rummoli`` phase and the end of the deal. The state lives on the deal."""

    config: RummoliConfig
    players: list[str]
    phase: str
    chips: dict[str, int]
    board: dict[str, int]
    hands: dict[str, list[str]]
    played: dict[str, list[str]]
    on_table: set[str]
    won_sections: dict[str, str]
    awards: list[dict[str, Any]]
    called: str | None
    leader: str | None
    colour_required: str | None
    last_player: str | None
    outcome: str | None
    winner: str | None
    held_paid: list[dict[str, Any]]
    log: list[Event]

    if TYPE_CHECKING:  # provided by the deal
        def _left_of(self, player: str, k: int = 1) -> str: ...

    def _start_rummoli(self, leader: str) -> None:
        # "Le gagnant du tour de poker ouvre le jeu avec la plus basse carte de
        # n'importe quelle couleur". Rulings: between tied poker winners, the
        # one nearest the dealer's left leads; with side pots (method 2), the
        # winner of the main pot leads.
        self.phase = "rummoli"
        self.leader = leader
        self.colour_required = None
        self.called = None
        self.log.append({"event": "lead_due", "player": leader, "colour": None})

    def _holder(self, card: str | None) -> str | None:
        if card is None:
            return None
        for p in self.players:
            if card in self.hands[p]:
                return p
        return None

    def _act_rummoli(self, player: str, action: str, args: dict[str, Any]) -> None:
        hand = self.hands[player]
        if self.called is not None:
            if action != "play" or set(args) != {"cards"}:
                raise IllegalAction("rummoli_play_called", called=self.called)
            cards = self._check_cards(args["cards"])
            if not cards or cards[0] != self.called:
                raise IllegalAction("rummoli_run_starts_with", called=self.called)
            if cards not in runs_from(hand, self.called):
                raise IllegalAction("rummoli_run")
            self._play(player, cards)
            return
        if action != "lead" or set(args) != {"card"}:
            raise IllegalAction("rummoli_lead_now")
        card = self._check_cards([args["card"]])[0]
        if card not in hand:
            raise IllegalAction("card_not_in_hand", card=card)
        options = lead_options(hand, self.colour_required)
        if card not in options:
            why, named = self._why_not_lead(hand, card)
            raise IllegalAction(why, card=named)
        self._play(player, [card], lead=True)

    def _why_not_lead(self, hand: list[str], card: str) -> tuple[str, str]:
        """The refusal code and the card it names (the card to lead instead)."""
        if self.colour_required is not None and colour(card[1]) != self.colour_required:
            return "rummoli_other_colour", card
        low = lowest_of_suit(hand, card[1]) or card  # he holds the suit: he leads it
        return "rummoli_lead_lowest", low

    @staticmethod
    def _check_cards(cards: Any) -> list[str]:
        if isinstance(cards, str) or not isinstance(cards, list):
            raise IllegalAction("cards_list")
        try:
            return [check_card(c) for c in cards]
        except CardError as exc:
            raise IllegalAction(exc.code, **exc.params) from None

    def _play(self, player: str, cards: list[str], *, lead: bool = False) -> None:
        self.log.append({"event": "lead" if lead else "play", "player": player, "cards": list(cards)})
        for card in cards:
            self.hands[player].remove(card)
            self.played[player].append(card)
            self.on_table.add(card)
            self._pay_sections(player)
        self.last_player = player
        self.leader = None
        if not self.hands[player]:
            self._goes_out(player)
            return
        nxt = next_card(cards[-1])
        holder = self._holder(nxt)
        if holder is not None:
            self.called = nxt
            return
        # "jusqu'à ce que l'as ... ait été déposé ou jusqu'à ce que la séquence
        # de jeu ait été interrompue ... la carte ... prisonnière de la main morte"
        # Ruling: a next card already on the table stops the sequence too.
        reason = "ace" if nxt is None else ("played" if nxt in self.on_table else "dead")
        self.called = None
        self.log.append({"event": "stop", "after": cards[-1], "reason": reason})
        self._find_restarter(player, other_colour(cards[-1][1]))

    def _find_restarter(self, last: str, needed: str) -> None:
        # "le dernier joueur à avoir joué relance le jeu avec sa plus faible
        # carte dans une autre couleur". Ruling: if he holds none, the restart
        # passes to the left, to the first player who can; nobody: deadlock.
        for k in range(len(self.players)):
            p = self._left_of(last, k)
            if lead_options(self.hands[p], needed):
                self.leader, self.colour_required = p, needed
                self.log.append({"event": "lead_due", "player": p, "colour": needed})
                return
            self.log.append({"event": "cannot_restart", "player": p, "colour": needed})
        self._deadlock()

    def _pay_sections(self, player: str) -> None:
        """ "Le joueur qui joue l'une de ces cartes ou combinaisons remporte
        les jetons posés sur la section correspondante." """
        mine = set(self.played[player])
        for section in self.config.pay_sections:
            if section.id in self.won_sections or not _complete(section, mine):
                continue
            amount = self.board[section.id]
            self.board[section.id] = 0
            self.chips[player] += amount
            self.won_sections[section.id] = player
            self.awards.append({"section": section.id, "amount": amount, "winners": [player]})
            self.log.append({"event": "win", "section": section.id, "player": player, "amount": amount})

    def _goes_out(self, player: str) -> None:
        # "Les jetons posés sur la section marquée Rummoli sont remportés par le
        # premier joueur à s'être défait de toute sa main ... Chaque autre joueur
        # donne au gagnant un jeton pour chaque carte qu'il lui reste en main."
        pot = self.board[RUMMOLI_POT]
        self.board[RUMMOLI_POT] = 0
        self.chips[player] += pot
        self.awards.append({"section": RUMMOLI_POT, "amount": pot, "winners": [player]})
        self.log.append({"event": "win", "section": RUMMOLI_POT, "player": player, "amount": pot})
        for p in self.players:
            if p != player and self.hands[p]:
                paid = pay_what_he_has(self.chips, p, self.config.unit * len(self.hands[p]))
                self.chips[player] += paid
                self.log.append(
                    {"event": "pays", "player": p, "to": player, "cards": len(self.hands[p]), "amount": paid}
                )
        self._finish("out", player)

    def _deadlock(self) -> None:
        # "Chaque joueur place alors un jeton dans la cagnotte Rummoli pour
        # chaque carte qu'il tient encore."
        for p in self.players:
            paid = pay_what_he_has(self.chips, p, self.config.unit * len(self.hands[p]))
            self.board[RUMMOLI_POT] += paid
            self.held_paid.append({"player": p, "cards": len(self.hands[p]), "amount": paid})
            self.log.append({"event": "pays", "player": p, "to": RUMMOLI_POT, "cards": len(self.hands[p]), "amount": paid})
        self._finish("deadlock", None)

    def _finish(self, outcome: str, winner: str | None) -> None:
        self.phase = "over"
        self.outcome, self.winner = outcome, winner
        self.called = self.leader = None
        self.log.append({"event": "deal_over", "outcome": outcome, "winner": winner})


def _complete(section: PaySection, mine: set[str]) -> bool:
    if section.cards:
        return all(c in mine for c in section.cards)
    return any(all(r + s in mine for r in section.ranks) for s in "cdhs")
