"""One poker deal: seats, blinds, betting rounds, showdown, result, record.

Shared by Ramponneau (hold'em) and Draw poker, which only say how cards come
out between betting rounds (:meth:`PokerDeal._after_round`) and how a hand is
ranked. The engine contract is in :mod:`tavern.games.base`; the record format
in ``docs/records/poker.md``.

Seats (``seats`` of ``new_deal``) may carry, besides ``player`` and ``chips``:

* ``"waiting": true`` — seated but not dealt in (sitting out, or a new player
  waiting for the big blind to reach him): no cards, no blinds, chips unchanged;
* ``"post": true`` (or ``"big"``) — a new or returning player who posts the big
  blind to enter now, out of position. The post is live: it counts as his bet
  in the first round and he has the option like the big blind;
* ``"post": "both"`` — a returning player who missed both blinds posts the big
  blind live and the small blind dead (into the pot, not counted as his bet).

A post is refused in the small blind's seat ("not between the button and the
big blind"); the big blind's seat pays its blind anyway.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tavern.cards import RandomSource, check_deck_order, deck52, shuffle
from tavern.games.base import Event, IllegalAction, LegalAction, Own, hidden
from tavern.games.poker.betting import _AFTER, Betting, Rake, build_pots, split
from tavern.games.poker.evaluator import category_of
from tavern.games.records import hand_record
from tavern.games.setup import check_count, seat_list

BET, DRAW, SHOWDOWN, OVER = "bet", "draw", "showdown", "over"
_DECK52 = tuple(deck52())


def check_seats(seats: Any, bounds: tuple[int, int], game: str) -> list[int]:
    """Validate ``seats`` once (:func:`tavern.games.setup.seat_list`, then
    poker's own flags); return the indices of the seats dealt in."""
    seat_list(seats)
    dealt = []
    for k, s in enumerate(seats):
        if len(s) > 2 and s.get("post") not in (None, False, True, "big", "both"):
            raise IllegalAction("seat_post_value", seat=k)
        if len(s) == 2 or not s.get("waiting"):
            if s["chips"] == 0:
                raise IllegalAction("no_chips_no_deal", name=s["player"])
            dealt.append(k)
    check_count(len(dealt), game, bounds)  # the players dealt in, not those waiting
    return dealt


class PokerDeal:
    """A deal of Ramponneau or Draw poker. Build it with the game module's
    ``new_deal``. Player index ``i`` counts from the seat left of the button."""

    game = "poker"
    hole_count = 2

    __slots__ = (
        "_replaying",
        "_result",
        "actions",
        "awards",
        "b",
        "big_blind",
        "board",
        "button",
        "config",
        "deck",
        "draw_pos",
        "drawers",
        "drawn",
        "final_aggressor",
        "hole",
        "index",
        "muck",
        "mucked",
        "phase",
        "players",
        "pos",
        "pots",
        "protected",
        "rake",
        "rake_taken",
        "ranks",
        "reached_second",
        "reshuffles",
        "rng",
        "round",
        "runout",
        "sd_order",
        "sd_pos",
        "seats",
        "second_at",
        "shown",
        "small_blind",
        # draw poker
        "stock",
    )

    def __init__(
        self,
        config: dict[str, Any],
        seats: list[dict[str, Any]],
        button: int,
        dealt: list[int],
        *,
        small_blind: int,
        big_blind: int,
        structure: str,
        rake: Rake,
        deck: list[str] | None,
        rng: RandomSource | None,
        reshuffles: list[list[str]] | None,
    ) -> None:
        """Long because a deal's whole state starts here, one attribute a line
        (the betting, the board, the showdown, the draw), so that every field
        the engine reads is named in one place."""
        if type(button) is not int or not 0 <= button < len(seats):
            raise IllegalAction("bad_button", last=len(seats) - 1)
        self.config = config
        self.seats = seats
        self.button = button
        if deck is None:
            deck = shuffle(_DECK52, rng)
        else:
            check_deck_order(deck, _DECK52)
            deck = list(deck)
        self.deck = deck
        self._replaying = reshuffles is not None
        self.reshuffles = [list(r) for r in reshuffles] if reshuffles is not None else []
        self.rng = rng
        # Index order: left of the button first, the button last.
        cut = button + 1
        order = [k for k in dealt if k >= cut] + [k for k in dealt if k < cut]
        self.players = [seats[k]["player"] for k in order]
        self.index = {p: i for i, p in enumerate(self.players)}
        self.pos = order  # seat index of each player index
        n = len(order)
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.b = Betting([seats[k]["chips"] for k in order], structure, big_blind)
        self.rake = rake
        self.round = 0
        # (player, action, argument or None): made into record dicts on demand.
        self.actions: list[tuple[str, str, Any]] = []
        self.board: list[str] = []
        self.protected: list[bool] = [False] * n
        self.final_aggressor = -1
        self.reached_second = False
        self.second_at = -1  # len(actions) when the second round was reached (first_round_moves)
        self.runout = False  # cards dealt with nobody left to bet: hands are tabled
        self.sd_order: list[int] = []
        self.sd_pos = 0
        self.shown: dict[int, list[str]] = {}
        self.mucked: set[int] = set()
        self.ranks: dict[int, int] = {}
        self.pots: list[dict[str, Any]] = []
        self.awards = [0] * n
        self.rake_taken = 0
        self._result: dict[str, Any] | None = None
        self.muck: list[str] = []
        self.drawers: list[int] = []
        self.draw_pos = 0
        self.drawn: dict[int, int] = {}
        # Cards one at a time going left from the seat after the button.
        h = self.hole_count
        self.hole = [deck[i:h * n:n] for i in range(n)]
        self.stock = deck[h * n:]  # what draw poker draws from
        self._post_blinds(order, seats)
        self.phase = BET
        self._start_betting(first=self._first_round_opener())

    # -- blinds ---------------------------------------------------------------

    def _blind_seats(self) -> tuple[int, int]:
        """(small blind, big blind) indices. Heads-up the button posts the small blind."""
        n = len(self.players)
        return (1, 0) if n == 2 else (0, 1)

    def _post_blinds(self, order: list[int], seats: list[dict[str, Any]]) -> None:
        sb, bb = self._blind_seats()
        b = self.b
        ante = self.config.get("ante", 0)
        if ante:  # dead money before the blinds; a short stack antes what he has
            for i in range(len(self.players)):
                b.post(i, ante, dead=True)
        b.post(sb, self.small_blind)
        b.post(bb, self.big_blind)
        for i, k in enumerate(order):
            seat = seats[k]
            if len(seat) == 2:  # just player and chips: the common case
                continue
            post = seat.get("post")
            if not post or i == bb:
                continue
            if i == sb:
                raise IllegalAction("post_between_button_and_blind", name=self.players[i])
            b.post(i, self.big_blind)
            if post == "both":
                b.post(i, self.small_blind, dead=True)

    def _first_round_opener(self) -> int:
        return (self._blind_seats()[1] + 1) % len(self.players)

    # -- flow -------------------------------------------------------------------

    def _unit(self) -> int:
        return self.big_blind

    def _start_betting(self, first: int) -> None:
        self.phase = BET
        self.b.start_round(first, self._unit(), blinds_count=self.round == 0)
        if self.b.round_over:
            self._round_done()

    def _round_done(self) -> None:
        b = self.b
        if b.live <= 1:
            b.end_round()
            self._finish()
            return
        self.final_aggressor = b.aggressor if self._is_last_round() else -1
        b.end_round()
        self._after_round()

    def _is_last_round(self) -> bool:
        raise NotImplementedError

    def _after_round(self) -> None:
        """Deal what comes after a betting round, then start the next round,
        a draw or the showdown (game-specific)."""
        raise NotImplementedError

    def _rank(self, i: int) -> int:
        raise NotImplementedError

    # -- showdown -----------------------------------------------------------

    def _showdown(self) -> None:
        """Showdown order: the last to bet or raise on the last round first,
        else the first active player left of the button; then clockwise."""
        self.phase = SHOWDOWN
        b = self.b
        n = len(self.players)
        start = self.final_aggressor if self.final_aggressor >= 0 else 0
        folded = b.folded
        self.sd_order = [i for i in _AFTER[n][start - 1] if not folded[i]]
        self.sd_pos = 0
        self.pots = [{"amount": a, "eligible": e} for a, e in build_pots(b.total, b.folded)]
        for i in self.sd_order:
            self.ranks[i] = self._rank(i)
        self._advance_showdown()

    def may_muck(self, i: int) -> bool:
        """A player who sees he is beaten may muck: every pot he could win
        already has a better hand shown by a player eligible for it. (Never in
        an all-in run-out: those hands are tabled before the cards come.)"""
        if not self.shown or self.runout:
            return False
        r = self.ranks[i]
        ranks, shown = self.ranks, self.shown
        for pot in self.pots:
            if i in pot["eligible"]:
                if not any(j in shown and ranks[j] > r for j in pot["eligible"]):
                    return False
        return True

    def _advance_showdown(self) -> None:
        order = self.sd_order
        while self.sd_pos < len(order):
            i = order[self.sd_pos]
            if not self.runout and not self.protected[i] and self.may_muck(i):
                return  # his decision
            self.shown[i] = self.hole[i]  # cards speak
            self.sd_pos += 1
        self._finish()

    def _showdown_actor(self) -> int:
        return self.sd_order[self.sd_pos] if self.phase == SHOWDOWN else -1

    def _reach_second(self) -> None:
        """Past the first betting round (the flop, the first draw): for the
        rake's « no flop, no drop » and the first round's moves."""
        if not self.reached_second:
            self.reached_second = True
            self.second_at = len(self.actions)

    def first_round_moves(self) -> list[tuple[str, str]]:
        """(player, action) of each move made in the first betting round:
        what VPIP and PFR are counted from (services/stats.py) at the deal's
        end, without replaying it. The move that ends the round is in it:
        the engine records it before it deals the next street."""
        end = len(self.actions) if self.second_at < 0 else self.second_at
        return [(p, a) for p, a, _ in self.actions[:end]]

    # -- the end ----------------------------------------------------------------

    def _finish(self) -> None:
        b = self.b
        if not self.pots:
            self.pots = [{"amount": a, "eligible": e} for a, e in build_pots(b.total, b.folded)]
        first_round_only = not self.reached_second
        awards = self.awards
        for pot in self.pots:
            eligible = [i for i in pot["eligible"] if i not in self.mucked]
            amount = pot["amount"]
            r = self.rake.take(amount, first_round_only=first_round_only)
            pot["rake"] = r
            self.rake_taken += r
            if len(eligible) > 1 and self.ranks:
                best = max(self.ranks[i] for i in eligible)
                winners = [i for i in eligible if self.ranks[i] == best]
            else:
                winners = eligible
            pot["winners"] = winners
            shares = split(amount - r, winners) if winners else {}
            pot["shares"] = shares
            for w, s in shares.items():
                awards[w] += s
        for i in range(len(awards)):
            b.stack[i] += awards[i]
        self.phase = OVER

    # -- the contract -----------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def _actor(self) -> int:
        phase = self.phase
        if phase == BET:
            return self.b.actor
        if phase == DRAW:
            return self.drawers[self.draw_pos]
        if phase == SHOWDOWN:
            return self.sd_order[self.sd_pos]
        return -1

    def to_act(self) -> list[str]:
        i = self.b.actor if self.phase == BET else self._actor()
        return [] if i < 0 else [self.players[i]]

    def legal_actions(self, player: str) -> list[LegalAction]:
        i = self.index.get(player, -1)
        if i < 0:
            return []
        phase = self.phase
        if phase == BET:
            return self.b.legal(i)  # empty unless he is the one to speak
        if i != self._actor():
            return []
        if phase == DRAW:
            return [{"action": "draw", "cards": list(self.hole[i]), "max": len(self.hole[i])}]
        return [{"action": "show"}, {"action": "muck"}]

    def timeout_action(self, player: str) -> dict[str, Any]:
        """Check when free, else fold; stand pat at the draw; show at showdown."""
        i = self.index.get(player, -1)
        if self.phase == BET and i >= 0 and self.b.bet[i] < self.b.high:
            return {"action": "fold"}
        if self.phase == DRAW:
            return {"action": "draw", "discard": []}
        if self.phase == SHOWDOWN:
            return {"action": "show"}
        return {"action": "check"}

    def act(self, player: str, action: str, **args: Any) -> list[Event]:
        i = self.index.get(player, -1)
        if i < 0:
            raise IllegalAction("not_dealt_in", player=player, action=action)
        phase = self.phase
        if phase == BET:
            b = self.b
            try:
                if action == "bet" or action == "raise":
                    amount = args.get("amount")
                    if len(args) > 1:
                        raise IllegalAction("amount_only", action=action)
                    b.act(i, action, amount)
                    ev = {"event": action, "player": player, "amount": amount}
                else:
                    if args:
                        raise IllegalAction("no_arguments", action=action)
                    b.act(i, action)
                    amount = None
                    if action == "call":
                        ev = {"event": action, "player": player, "amount": b.bet[i]}
                    else:
                        ev = {"event": action, "player": player}
                        if action == "fold":
                            self._on_fold(i)
            except IllegalAction as exc:
                exc.player = player
                raise
            self.actions.append((player, action, amount))
            events = [ev]
            if b.actor < 0:
                self._round_done()
                events.append(self._flow_event())
            return events
        if phase == DRAW:
            return self._act_draw(i, player, action, args)
        if phase == SHOWDOWN:
            if i != self.sd_order[self.sd_pos]:
                raise IllegalAction("not_your_turn", player=player, action=action)
            if action == "show":
                self.shown[i] = self.hole[i]
            elif action == "muck":
                if not self.may_muck(i):
                    raise IllegalAction("muck_only_when_beaten", player=player, action=action)
                self.mucked.add(i)
            else:
                raise IllegalAction("showdown_show_or_muck", player=player, action=action)
            self.actions.append((player, action, None))
            self.sd_pos += 1
            self._advance_showdown()
            return [{"event": action, "player": player, **({"cards": self.hole[i]} if action == "show" else {})}]
        raise IllegalAction("deal_over", player=player, action=action)

    def _flow_event(self) -> Event:
        # Streets dealt or the end of the deal, for the runtime's animations.
        if self.phase == OVER:
            return {"event": "over"}
        return {"event": "phase", "phase": self.phase, "round": self.round, "board": list(self.board)}

    def _on_fold(self, i: int) -> None:
        """Folded cards go to the muck (draw poker reshuffles them)."""

    def _act_draw(self, i: int, player: str, action: str, args: dict[str, Any],
                  *, record: bool = True) -> list[Event]:
        raise IllegalAction("no_draw_here", player=player, action=action)

    def protect(self, player: str) -> list[Event]:
        """The table protects a disconnected player: all-in for the rest of the
        deal. He is asked nothing more (no bet, no draw, no showdown choice:
        cards speak) and stays eligible for the pots he contributed to."""
        i = self.index.get(player, -1)
        if i < 0 or self.phase == OVER or self.b.folded[i]:
            raise IllegalAction("protect_only_in_deal", player=player)
        if self.protected[i]:
            raise IllegalAction("already_protected", player=player)
        b = self.b
        self.protected[i] = True
        self.actions.append((player, "protect", None))
        events: list[Event] = [{"event": "protect", "player": player}]
        b.set_all_in(i)
        if self.phase == BET:
            if b.actor == i:
                b._advance(i)
            else:
                b._advance(b.actor - 1 if b.actor >= 0 else i)
            if b.round_over:
                self._round_done()
                events.append(self._flow_event())
        elif self.phase == DRAW and self.drawers[self.draw_pos] == i:
            events.extend(self._act_draw(i, player, "draw", {"discard": []}, record=False))
        elif self.phase == SHOWDOWN and self.sd_order[self.sd_pos] == i:
            self._advance_showdown()
        return events

    def view(self, player: str | None) -> dict[str, Any]:
        return self.views([player])[player]

    def seen(self, action: dict[str, Any], player: str | None) -> dict[str, Any]:
        """Another player's draw shows how many cards he changed, never which
        (the table says only the count: ``drawn``); every other move of
        poker names no hidden card."""
        if action["action"] == "draw" and action["player"] != player:
            return hidden(action, len(action.get("discard") or []))
        return dict(action)

    def views(self, players: Iterable[str | None]) -> dict[str | None, dict[str, Any]]:
        """The views of several recipients at once (the table's publication
        asks for every seat's): what all see alike is built once, then each
        dealt player gets his own hole cards in a copy of his seat. The views
        share their public parts: encode them, never change them."""
        public = self._public_view()
        seats = public["players"]
        out: dict[str | None, dict[str, Any]] = {}
        for player in players:
            me = self.index.get(player, -1) if player is not None else -1
            if player is None or me < 0:  # a spectator, a seat not dealt in
                out[player] = public
                continue
            own = seats
            if not self.b.folded[me]:  # a folded hand is dead: in the muck
                own = list(seats)
                own[me] = {**seats[me], "cards": list(self.hole[me])}
            out[player] = {**public, "players": own, "legal": self.legal_actions(player)}
        return out

    def public_and_own(self, players: Iterable[str]) -> tuple[dict[str, Any], dict[str, Own]]:
        """The public view, and what only each dealt player among ``players``
        sees (base.Own): his hole cards in his seat — unless folded, a dead
        hand — and his legal actions."""
        public = self._public_view()
        own: dict[str, Own] = {}
        for player in players:
            me = self.index.get(player, -1)
            if me < 0:
                continue
            mine: Own = [] if self.b.folded[me] else [(["players", me, "cards"], list(self.hole[me]))]
            mine.append((["legal"], self.legal_actions(player)))
            own[player] = mine
        return public, own

    def _public_view(self) -> dict[str, Any]:
        """The view of a spectator: no hidden card (shown ones are public)."""
        b = self.b
        actor = self._actor()
        seats = [{
            "player": p, "seat": self.pos[i], "chips": b.stack[i], "bet": b.bet[i],
            "committed": b.total[i], "folded": b.folded[i], "all_in": b.allin[i],
            "protected": self.protected[i], "cards": list(self.shown[i]) if i in self.shown else None,
            "card_count": len(self.hole[i]),
        } for i, p in enumerate(self.players)]
        public: dict[str, Any] = {
            "game": self.game, "phase": self.phase, "round": self.round,
            "button": self.button, "board": list(self.board), "players": seats,
            "pot": sum(b.total), "to_act": self.players[actor] if actor >= 0 else None,
            "legal": [], "big_blind": self.big_blind, "small_blind": self.small_blind,
        }
        if self.drawn:
            public["drawn"] = {self.players[i]: k for i, k in self.drawn.items()}
        if self.phase == OVER:
            public["result"] = self.result()
        return public

    def result(self) -> dict[str, Any]:
        if self._result is not None:
            return self._result
        if self.phase != OVER:
            raise IllegalAction("deal_not_over")
        names, stack = self.players, self.b.stack
        chips: dict[str, int] = {}
        delta: dict[str, int] = {}
        for seat in self.seats:  # waiting seats too: their chips do not move
            chips[seat["player"]] = seat["chips"]
            delta[seat["player"]] = 0
        for i, p in enumerate(names):
            delta[p] = stack[i] - chips[p]
            chips[p] = stack[i]
        pots = [{
            "amount": pot["amount"], "rake": pot["rake"],
            "eligible": [names[i] for i in pot["eligible"]],
            "winners": [names[i] for i in pot["winners"]],
            "shares": {names[i]: s for i, s in pot["shares"].items()},
        } for pot in self.pots]
        self._result = {
            "chips": chips, "delta": delta, "rake": self.rake_taken, "pots": pots,
            "shown": {names[i]: list(c) for i, c in self.shown.items()},
            "hands": self._hand_names(), "carry": None,
        }
        return self._result

    def _hand_names(self) -> dict[str, str]:
        """The category of each shown hand ("two_pair"); the UI asks the
        evaluator for the best five when it wants them."""
        return {self.players[i]: category_of(self.ranks[i]) for i in self.shown}

    def record(self) -> dict[str, Any]:
        """The hand record. A post to enter is the player's decision, so it is
        written as a ``post`` action at the head of ``actions`` (HAND_RECORDS.md),
        not as the seat flag the table handed in."""
        seats, posts = [], []
        for s in self.seats:
            seat = dict(s)
            post = seat.pop("post", None)
            if post and not seat.get("waiting"):
                amount = self.big_blind + (self.small_blind if post == "both" else 0)
                posts.append({"player": seat["player"], "action": "post", "amount": amount})
            seats.append(seat)
        return hand_record(game=self.game, config=self.config, seats=seats, button=self.button,
                           deck=self.deck, reshuffles=self.reshuffles,
                           actions=posts + [_entry(a) for a in self.actions]).dump()


def _entry(action: tuple[str, str, Any]) -> dict[str, Any]:
    player, name, arg = action
    if name == "draw":
        return {"player": player, "action": name, "discard": list(arg)}
    if arg is None:
        return {"player": player, "action": name}
    return {"player": player, "action": name, "amount": arg}


__all__ = ["BET", "DRAW", "OVER", "SHOWDOWN", "PokerDeal", "check_seats"]
