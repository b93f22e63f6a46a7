"""One Rams deal as a state machine: exchange, speaking, tricks, settlement.

Seats are listed going left (clockwise) as everywhere in tavern; Rams turns to
the *right*, so "the player on the dealer's right" is the previous seat index
and the speaking and playing order runs down the seat indices, the dealer last.

Phases: ``exchange`` (the dealer may swap a card for the turned card), then
``speak`` (each in turn: ``play``, ``widow``, ``thrown``, ``pass`` or
``general``), then ``play`` (the tricks), then ``done``.
"""

from __future__ import annotations

import copy
from typing import Any

from tavern.cards import suit
from tavern.games.base import Event, IllegalAction, LegalAction, hidden
from tavern.games.rams import account, stakes
from tavern.games.rams.config import RamsConfig
from tavern.games.rams.layout import Layout, deal, layout
from tavern.games.records import hand_record
from tavern.games.tricks import TrickPlay, TrickRules

SPEECHES = ("play", "widow", "thrown", "pass", "general")


class RamsEngine:
    game = "rams"

    def __init__(
        self,
        config: RamsConfig,
        seats: list[dict[str, Any]],
        button: int,
        deck: list[str],
        carry: dict[str, Any] | None,
    ) -> None:
        self.config = config
        self.seats = [dict(s) for s in seats]
        self.button = button
        self.deck = list(deck)
        self.carry_in = copy.deepcopy(carry)
        self.actions: list[dict[str, Any]] = []
        self.chips: dict[str, int] = {s["player"]: s["chips"] for s in seats}
        self.start_chips = dict(self.chips)

        names = [s["player"] for s in seats]
        self.partie, active = _players_in(config, names, carry)
        self.order = _right_of_dealer(names, button, set(active))
        self.dealer = self.order[-1]
        self.plan: Layout = layout(len(self.order), widow=config.widow, trump_by_first_card=config.trump_by_first_card)
        dealt = deal(self.order, self.plan, self.deck)
        self.hands = dealt.hands
        self.widow = dealt.widow
        self.stock = dealt.stock
        self.turned = dealt.turned  # the turned card, public for the whole deal
        self.trump: str | None = suit(self.turned) if self.turned else None
        self.turned_on_table = self.plan.turned == "separate"
        self.discard: list[str] = []  # the dealer's card given for the turned one
        self.dead: dict[str, list[str]] = {}  # thrown hands and hands of players who passed
        self.n_tricks = self.plan.hand_size

        self.carried = self.stake = 0  # set au coup by _dealers_stake
        self.forced, self.pot = self._dealers_stake(carry)

        self.speeches: dict[str, str] = {}
        self.widow_taker: str | None = None
        self.thrown_taker: str | None = None
        self.general: str | None = None
        self.tricks: TrickPlay | None = None
        self.outcome: stakes.CoupOutcome | None = None
        self.gone: list[str] = []
        self.own: dict[str, list[str]] = {}
        self.phase = "exchange" if self.turned_on_table else "speak"
        if self.phase == "speak":
            self._start_speaking()

    def _dealers_stake(self, carry: dict[str, Any] | None) -> tuple[bool, int]:
        """Whether the deal is forced, and the pot: the pot carried in plus the
        dealer's stake ("celui qui donne met au tapis")."""
        if self.partie is None:
            carried, forced = stakes.coup_carry(carry)
            stake = self.config.unit * self.config.stake_units(self.n_tricks)
            # The pot carried in and the dealer's stake paid: the deal's account.
            self.carried, self.stake = carried, stakes.pay(self.chips, self.dealer, None, stake)
            return forced, carried + self.stake
        # À la partie there is no pot, hence no forced deal: "chaque joueur qui, prenant
        # part à ce coup" — taking part is a choice.
        return False, 0

    # --- whose turn -------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == "done"

    def _speaker(self) -> str | None:
        if self.phase != "speak":
            return None
        return self.order[len(self.speeches)]

    def to_act(self) -> list[str]:
        if self.phase == "exchange":
            return [self.dealer]
        if self.phase == "speak":
            return [self._speaker()]  # type: ignore[list-item]  # the speaking phase has a speaker
        if self.phase == "play":
            assert self.tricks is not None
            return [self.tricks.to_play()]  # type: ignore[list-item]  # the play phase has a player to play
        return []

    # --- what is legal ------------------------------------------------------------------

    def speech_choices(self, player: str) -> list[str]:
        if self._speaker() != player:
            return []
        choices = ["play"]
        widow_open = bool(self.widow) and self.widow_taker is None
        if widow_open:
            choices.append("widow")
        if self._may_take_thrown(player):
            choices.append("thrown")
        forced_widow = self.config.forced_widow and widow_open
        if not self.forced and not forced_widow:
            choices.append("pass")
        # "On ne doit pas demander le rams général avant la fille prise." Ruling: it
        # may be asked once no one after the speaker could still take the widow.
        if not widow_open or player == self.dealer:
            choices.append("general")
        return choices

    def _may_take_thrown(self, player: str) -> bool:
        """"Lorsqu'un joueur prend la fille, le suivant peut échanger son jeu avec celui jeté.\""""
        if not self.config.exchange_thrown or self.widow_taker is None or self.thrown_taker is not None:
            return False
        i = self.order.index(self.widow_taker)
        return i + 1 < len(self.order) and self.order[i + 1] == player

    def must_lead_trump(self, player: str) -> bool:
        """"Au coup de rams forcé… le premier à jouer est obligé de jouer atout.\""""
        t = self.tricks
        return bool(
            self.config.forced_trump_lead
            and self.forced
            and self.config.stakes == "coup"
            and t is not None
            and len(t.tricks) == 1
            and not t.current.plays
            and t.trump is not None
            and t.to_play() == player
        )

    def _blind_lead(self, player: str) -> bool:
        """No trump to lead on a forced-trump lead: "il joue une carte cachée… en disant atout"."""
        assert self.tricks is not None
        return self.must_lead_trump(player) and not any(suit(c) == self.tricks.trump for c in self.tricks.hands[player])

    def playable(self, player: str) -> list[str]:
        if self.phase != "play":
            return []
        assert self.tricks is not None
        cards = self.tricks.legal(player)
        if self.must_lead_trump(player) and not self._blind_lead(player):
            cards = [c for c in cards if suit(c) == self.tricks.trump]
        return cards

    def legal_actions(self, player: str) -> list[LegalAction]:
        if self.phase == "exchange":
            if player != self.dealer:
                return []
            return [{"action": "exchange"}] + [{"action": "exchange", "card": c} for c in self.hands[player]]
        if self.phase == "speak":
            return [{"action": "speak", "choice": c} for c in self.speech_choices(player)]
        if self.phase == "play":
            blind = self._blind_lead(player) if self.tricks and self.tricks.to_play() == player else False
            return [{"action": "play", "card": c, **({"blind": True} if blind else {})} for c in self.playable(player)]
        return []

    def timeout_action(self, player: str) -> dict[str, Any]:
        """The safest move: keep the hand, pass when allowed (else play), the lowest legal card."""
        if self.phase == "exchange":
            return {"action": "exchange"}
        if self.phase == "speak":
            choices = self.speech_choices(player)
            return {"action": "speak", "choice": "pass" if "pass" in choices else "play"}
        cards = self.playable(player)
        if not cards:
            raise IllegalAction("not_your_turn", player=player)
        assert self.tricks is not None
        return {"action": "play", "card": min(cards, key=self.tricks.rules.strength)}

    # --- acting ---------------------------------------------------------------------------

    def act(self, player: str, action: str, **args: Any) -> list[Event]:
        if self.phase == "done":
            raise IllegalAction("deal_over", player=player, action=action)
        if player not in self.to_act():
            raise IllegalAction("not_your_turn", player=player, action=action)
        handler = {"exchange": self._exchange, "speak": self._speak, "play": self._play}.get(action)
        if handler is None or action != self.phase:
            expected = {"exchange": "exchange", "speak": "speak", "play": "play"}[self.phase]
            raise IllegalAction("wrong_phase", player=player, action=action, phase=expected)
        events = handler(player, **args)
        self.actions.append({"player": player, "action": action, **args})
        return events

    def _exchange(self, player: str, card: str | None = None, **extra: Any) -> list[Event]:
        _no_extra("exchange", extra)
        if card is not None and card not in self.hands[player]:
            raise IllegalAction("card_not_in_hand", player=player, action="exchange", card=str(card))
        events: list[Event] = []
        if card is not None:
            hand = self.hands[player]
            hand[hand.index(card)] = self.turned  # type: ignore[assignment]  # an exchange happens only with a turned card
            self.discard.append(card)
            self.turned_on_table = False
            events.append({"event": "exchange", "player": player, "took": self.turned})
        else:
            events.append({"event": "exchange", "player": player, "took": None})
        self.phase = "speak"
        self._start_speaking()
        return events

    def _start_speaking(self) -> None:
        # Hands as they stand when speaking starts: a rams général gives them back.
        self.own = {p: list(h) for p, h in self.hands.items()}

    def _speak(self, player: str, choice: Any = None, **extra: Any) -> list[Event]:
        _no_extra("speak", extra)
        if choice not in SPEECHES:
            raise IllegalAction("rams_speech_unknown", player=player, action="speak", choices=list(SPEECHES))
        allowed = self.speech_choices(player)
        if choice not in allowed:
            raise IllegalAction(_why_not(choice, self), player=player, action="speak", choice=choice)
        self.speeches[player] = choice
        events: list[Event] = [{"event": "speak", "player": player, "choice": choice}]
        if choice == "widow":
            self.dead[player] = self.hands[player]
            self.hands[player] = self.widow
            self.widow = []
            self.widow_taker = player
        elif choice == "thrown":
            assert self.widow_taker is not None
            self.dead[player], self.hands[player] = self.hands[player], self.dead.pop(self.widow_taker)
            self.thrown_taker = player
        elif choice == "pass":
            self.dead[player] = self.hands[player]
            self.hands[player] = []
        elif choice == "general":
            return events + self._start_general(player)

        passed = [p for p in self.order if self.speeches.get(p) == "pass"]
        if len(self.speeches) == len(self.order) - 1 and len(passed) == len(self.order) - 1:
            # Everybody before the last speaker passed: he takes the pot, unplayed.
            last = self.order[-1]
            self.phase = "done"
            if self.partie is not None:
                # Ruling: à la partie there are no stakes to take; the deal counts for nothing.
                return events + [{"event": "tokens", "tokens": dict(self.partie["tokens"]), "out": []}]
            self.outcome = stakes.settle_all_pass(self.chips, self.pot, last)
            return events + [{"event": "pot", "player": last, "amount": self.pot, "reason": "all passed"}]
        if len(self.speeches) == len(self.order):
            players = [p for p in self.order if self.speeches[p] != "pass"]
            events += self._start_play(players, leader=players[0])
        return events

    def _start_general(self, announcer: str) -> list[Event]:
        """"Tous les joueurs… doivent prendre part au coup… Si un joueur avait pris la fille,
        il devrait la remettre sur le tapis et reprendre son jeu." The announcer leads."""
        self.general = announcer
        if self.widow_taker is not None:
            self.widow = self.hands[self.widow_taker]  # the taker still holds the widow
        self.hands = {p: list(h) for p, h in self.own.items()}
        self.dead = {}
        self.widow_taker = self.thrown_taker = None
        return self._start_play(list(self.order), leader=announcer)

    def _start_play(self, players: list[str], leader: str) -> list[Event]:
        rules = TrickRules()
        self.tricks = TrickPlay(players, {p: self.hands[p] for p in players}, self.trump, leader, rules)
        for p in players:
            self.hands[p] = self.tricks.hands[p]  # one list per hand: the trick core owns it now
        self.phase = "play"
        return [{"event": "play_starts", "players": players, "leader": leader}]

    def _play(self, player: str, card: Any = None, **extra: Any) -> list[Event]:
        _no_extra("play", extra)
        assert self.tricks is not None
        if not isinstance(card, str):
            raise IllegalAction("say_which_card", player=player, action="play")
        self.tricks.check(player, card)
        blind = self._blind_lead(player)
        if self.must_lead_trump(player) and not blind and suit(card) != self.tricks.trump:
            raise IllegalAction("rams_forced_lead_trump", player=player, action="play")
        events = self.tricks.play(player, card, blind=blind)
        if self.tricks.over:
            events += self._settle()
        return events

    # --- the end -------------------------------------------------------------------------------

    def _settle(self) -> list[Event]:
        assert self.tricks is not None
        won = dict(self.tricks.won)
        self.phase = "done"
        if self.partie is not None:
            self.gone = stakes.settle_partie(
                self.partie, won, general=self.general, n_tricks=self.n_tricks, trente_et_un=self.config.trente_et_un
            )
            stakes.partie_finish(self.partie, self.chips, self.config.partie_stake)
            return [{"event": "tokens", "tokens": dict(self.partie["tokens"]), "out": self.gone}]
        if self.general is not None:
            success = won[self.general] == self.n_tricks
            others = [p for p in self.order if p != self.general]
            self.outcome = stakes.settle_general(self.chips, self.pot, self.general, others, success)
        else:
            self.outcome = stakes.settle_tricks(self.chips, self.pot, won, self.n_tricks)
        return [{"event": "settle", **self.outcome.as_pot()}]

    def carry_out(self) -> dict[str, Any] | None:
        if self.phase != "done":
            return None
        if self.partie is not None:
            return copy.deepcopy(self.partie)
        assert self.outcome is not None
        return {"pot": self.outcome.next_pot, "forced": self.outcome.next_forced}

    def result(self) -> dict[str, Any]:
        names = [s["player"] for s in self.seats]
        out: dict[str, Any] = {
            "chips": {p: self.chips[p] for p in names},
            "delta": {p: self.chips[p] - self.start_chips[p] for p in names},
            "rake": 0,
            "pots": [self.outcome.as_pot()] if self.outcome else [],
            "tricks": dict(self.tricks.won) if self.tricks else {},
            "shown": {},
            "carry": self.carry_out(),
            "finished": self.over,
        }
        if self.partie is not None:
            out["tokens"] = dict(self.partie["tokens"])
            out["out"] = list(self.gone)
            out["loser"] = self.partie["loser"]
            loser = self.partie["loser"]
            out["account"] = account.partie_account(loser, {p: d for p, d in out["delta"].items() if d and p != loser})
        else:
            out["account"] = account.coup_account(self.dealer, self.carried, self.stake, self.outcome,
                                                  out["tricks"], self.n_tricks)
        return out

    def record(self) -> dict[str, Any]:
        return hand_record(game=self.game, config=self.config.model_dump(), seats=self.seats,
                           button=self.button, deck=self.deck, actions=self.actions,
                           carry=self.carry_in).dump()

    # --- what each one sees -------------------------------------------------------------------------

    def locations(self) -> dict[str, list[str]]:
        """Where every card of the deck is (tests check each card is in exactly one place)."""
        where: dict[str, list[str]] = {f"hand:{p}": list(h) for p, h in self.hands.items()}
        where.update({f"dead:{p}": list(h) for p, h in self.dead.items()})
        where["widow"] = list(self.widow)
        where["discard"] = list(self.discard)
        where["stock"] = list(self.stock)
        where["turned"] = [self.turned] if self.turned_on_table and self.turned else []
        where["tricks"] = self.tricks.played_cards() if self.tricks else []
        return where

    def seen(self, action: dict[str, Any], player: str | None) -> dict[str, Any]:
        """Another player's move without the cards the table hid from the
        others: the card the dealer gave for the turned card (it goes face
        down; that he took the turned card is public) and a face-down lead
        (the view never turns it: only its player sees it)."""
        if action["player"] == player or "card" not in action:
            return dict(action)
        if action["action"] == "exchange" or (action["action"] == "play" and self._played_blind(action)):
            return hidden(action, 1)
        return dict(action)

    def _played_blind(self, action: dict[str, Any]) -> bool:
        """Whether ``action``'s card went face down (one deck: a card is played once)."""
        plays = (p for trick in (self.tricks.tricks if self.tricks else []) for p in trick.plays)
        return any(p.blind for p in plays if p.player == action["player"] and p.card == action["card"])

    def view(self, player: str | None, *, legal: bool = True) -> dict[str, Any]:
        """``legal`` false: without his legal actions (what fair_cards.seen_positions reads)."""
        t = self.tricks
        tricks_seen = []
        if t is not None:
            for trick in t.tricks:
                cards = [
                    {"player": p.player, "card": p.card if (not p.blind or p.player == player) else None, "blind": p.blind}
                    for p in trick.plays
                ]
                tricks_seen.append({"leader": trick.leader, "cards": cards})
        v: dict[str, Any] = {
            "game": self.game,
            "phase": self.phase,
            "order": list(self.order),
            "dealer": self.dealer,
            "chips": dict(self.chips),
            "pot": self.pot,
            "forced": self.forced,
            "trump": t.trump if t else self.trump,
            "turned": self.turned,
            "turned_on_table": self.turned_on_table,
            "hand_sizes": {p: len(h) for p, h in self.hands.items()},
            "widow_size": len(self.widow),
            "widow_taker": self.widow_taker,
            "dead_sizes": {p: len(h) for p, h in self.dead.items()},
            "speeches": dict(self.speeches),
            "general": self.general,
            "tricks": tricks_seen,
            "won": dict(t.won) if t else {},
            "to_act": self.to_act(),
        }
        if self.partie is not None:
            v["tokens"] = dict(self.partie["tokens"])
        if player is not None and player in self.hands:
            v["hand"] = list(self.hands[player])
            # ``legal``, where every game puts them (docs/protocol.md);
            # ``legal_actions`` is its deprecated name, sent for one more release.
            if legal:
                v["legal"] = v["legal_actions"] = self.legal_actions(player)
        if self.over:
            v["result"] = self.result()
        return v


def _right_of_dealer(names: list[str], button: int, active: set[str]) -> list[str]:
    """Active players from the dealer's right going right (down the seat indices), dealer last.

    À la partie, a dealer who is out passes the deal to the next active player on his right.
    """
    n = len(names)
    d = button
    while names[d] not in active:
        d = (d - 1) % n
    return [names[(d - 1 - i) % n] for i in range(n) if names[(d - 1 - i) % n] in active]


def _no_extra(action: str, extra: dict[str, Any]) -> None:
    if extra:
        raise IllegalAction("takes_no", action=action, names=sorted(extra))


def _why_not(choice: str, engine: RamsEngine) -> str:
    if choice == "pass":
        if engine.forced:
            return "rams_forced_deal"
        return "rams_widow_forced"
    if choice == "widow":
        return "rams_widow_taken" if engine.widow_taker else "rams_no_widow"
    if choice == "general":
        return "rams_general_before_widow"
    if choice == "thrown":
        return "rams_thrown_hand"
    return "rams_not_now"


def _players_in(config: RamsConfig, names: list[str],
                carry: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[str]]:
    """The partie's sheet (à la partie) and the players dealt in: those still
    in the partie, or everyone seated at a coup."""
    if config.stakes == "partie":
        partie = stakes.partie_carry(carry, names, config.partie_tokens)
        active = [p for p in names if p not in partie["out"]]
        if len(active) < 2:
            raise IllegalAction("partie_over")
        return partie, active
    # Two players only ever meet at the end of a partie ("l'avant-dernier joueur").
    if len(names) < 3:
        raise IllegalAction("players_range", game="rams", lo=3, hi=8)
    return None, names
