"""Gin rummy, the variant of rami.fr.txt (game ``gin``): one deal, and the
three-column match carried from deal to deal.

Rules: ``RULES.md`` § Rami family, "Gin rummy (this variant)", and
``rules/rami.fr.txt`` ("LE GIN RUMMY"). Melds come from the family's meld
machinery (:mod:`tavern.games.rami.melds`): ace with the 2 or the king, never
around the corner, worth 15.

The deck order of a deal is 104 cards: the 52 of the playing deck (top first),
then the 52 of the second deck lying aside, whose top card (``deck[52]``) is
the turned card: its value is the knock limit; a spade doubles the deal; an
ace or a 2 means only gin wins. Both decks are shuffled anew every deal, so
the turned card is a new one every deal.

The dealer gives 11 cards to his opponent and 10 to himself, one at a time,
the opponent first. Actions (see ``docs/records/rami.md``):

- ``draw`` ``source``: ``"stock"`` or ``"discard"``;
- ``discard`` ``card``;
- ``knock`` ``card``: discard ``card`` and show 8 or 9 cards in melds, the
  other 1 or 2 totalling less than the turned card;
- ``gin`` ``card``: "petit gin", discard ``card`` and show 10 cards in melds;
  ``gin`` without ``card``: "grand gin", all 11 cards in melds.

The opponent of a knocker lays off on the knocker's melds automatically, as
well as he can (cards speak: laying off only lowers his count).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from tavern.cards import CSPRNG, CardError, check_deck_order, deck52, shuffle
from tavern.games.base import Event, IllegalAction, LegalAction
from tavern.games.rami import melds
from tavern.games.rami.common import DrawDiscardDeal, replay_output, settle
from tavern.games.rami.gin_sheet import COCOTTE, MatchSheet
from tavern.games.rami.melds import min_deadwood as _md
from tavern.games.setup import Carry, Deck, Options, Reshuffles, Rng, Seats, check_count, check_seats, parse_config
from tavern.games.spec import GameSpec

GAME = "gin"
#: Gin is played by two.
SEATS = (2, 2)
#: "L'as peut suivre le 2 comme le roi ... A l'exception de l'as, qui vaut 15,
#: la valeur des cartes est la même qu'au Rami."
RULES = melds.MeldRules(ace_low=True, ace_high=True, ace_around=False, ace_points=15)
UNDERCUT = 20  # "l'adversaire marque la différence ... plus 20 points de pénalité"
PETIT_GIN = 25
GRAND_GIN = 50


class GinConfig(BaseModel):
    """Table options of Gin rummy."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: Chips per point.
    unit: int = Field(1, ge=0)
    #: "match": the source's score sheet (three columns to 250), chips move when
    #: the match ends, the loser paying the difference of the final counts.
    #: "deal": chips move every deal, the deal's points + 25 per cocotte.
    scoring: Literal["match", "deal"] = "match"
    column_target: int = Field(250, ge=1)
    columns: int = Field(3, ge=1, le=9)


# ------------------------------------------------------------------ the match


# ------------------------------------------------------------------ hands


def _min_deadwood(cards: list[str]) -> int:
    return _md(cards, RULES)


def knock_limit(turned: str) -> int | None:
    """The turned card's value, or None when it is an ace or a 2 ("il faut faire
    gin pour gagner le coup")."""
    if turned[0] in "A2":
        return None
    return 10 if turned[0] in "TJQK" else int(turned[0])


def knock_arrangement(cards: list[str], limit: int | None) -> melds.Arrangement | None:
    """A knock these 10 cards allow with the least deadwood, or None."""
    options = knock_arrangements(cards, limit)
    return options[0] if options else None


def _candidate_melds(cards: list[str]) -> list[tuple[int, ...]]:
    """Every meld these cards can make, as sorted tuples of card indexes:
    sets of three or four of a rank, runs of three or more in a suit."""
    out: list[tuple[int, ...]] = []
    by_rank: dict[str, list[int]] = {}
    by_suit: dict[str, list[int]] = {}
    for i, c in enumerate(cards):
        by_rank.setdefault(c[0], []).append(i)
        by_suit.setdefault(c[1], []).append(i)
    for idx in by_rank.values():
        for size in (3, 4):
            out.extend(combinations(idx, size))
    for idx in by_suit.values():
        for size in range(3, len(idx) + 1):
            for sub in combinations(idx, size):
                if melds.is_meld([cards[i] for i in sub], RULES):
                    out.append(sub)
    return [tuple(sorted(m)) for m in out]


def knock_arrangements(cards: list[str], limit: int | None) -> list[melds.Arrangement]:
    """Every way these 10 cards knock with the least deadwood: 8 or 9 cards
    in melds, the 1 or 2 others totalling less than ``limit``. Several
    arrangements may tie (a card fitting a set or a run): the knocker's melds
    are his choice, and they decide what the opponent can lay off."""
    if limit is None:
        return []
    candidates = _candidate_melds(cards)
    found: list[tuple[list[tuple[int, ...]], list[int]]] = []

    def go(free: list[int], chosen: list[tuple[int, ...]], dead: list[int]) -> None:
        if not free:
            if 1 <= len(dead) <= 2:
                found.append((list(chosen), list(dead)))
            return
        first, rest = free[0], free[1:]
        if len(dead) < 2:
            go(rest, chosen, [*dead, first])
        for m in candidates:
            if m[0] == first and all(i in rest for i in m[1:]):
                go([i for i in rest if i not in m], [*chosen, m], dead)

    go(list(range(len(cards))), [], [])
    scored = []
    for chosen, dead in found:
        pts = sum(melds.points(cards[i], RULES) for i in dead)
        if pts < limit:
            scored.append(melds.Arrangement([melds.classify([cards[i] for i in m], RULES) for m in chosen],
                                            [cards[i] for i in dead], pts))
    if not scored:
        return []
    low = min(a.points for a in scored)
    return [a for a in scored if a.points == low]


def chosen_arrangement(cards: list[str], shown: Any, limit: int) -> melds.Arrangement:
    """The knocker's own melds (``shown``: lists of cards), checked: legal
    melds of his cards, the 1 or 2 left totalling less than ``limit``."""
    if not isinstance(shown, list) or not all(isinstance(m, list) for m in shown):
        raise IllegalAction("knock_melds_shape")
    left = list(cards)
    laid = []
    for group in shown:
        for c in group:
            if c not in left:
                raise IllegalAction("knock_card_not_kept", card=str(c))
            left.remove(c)
        laid.append(melds.classify(group, RULES))
    pts = sum(melds.points(c, RULES) for c in left)
    if not left:
        raise IllegalAction("knock_is_gin")
    if len(left) > 2 or pts >= limit:
        raise IllegalAction("knock_limit", limit=limit)
    return melds.Arrangement(laid, left, pts)


def lay_off(hand: list[str], table: list[melds.Meld]) -> tuple[list[dict[str, Any]], melds.Arrangement]:
    """The opponent of a knocker: his own melds plus the cards he lays off on the
    knocker's ``table``, chosen to leave the least deadwood. Returns the lay-offs
    (``{"meld": index, "cards": [...]}``) and the arrangement of the rest."""
    near = [
        c for c in hand
        if any((m.kind == "set" and c[0] == m.as_cards()[0][0])
               or (m.kind == "run" and c[1] == m.as_cards()[0][1]) for m in table)
    ]
    best: tuple[int, list[str], dict[int, list[str]] | None] = (melds.min_deadwood(hand, RULES), [], None)
    for size in range(1, min(len(near), 10) + 1):
        for subset in combinations(near, size):
            rest = list(hand)
            for c in subset:
                rest.remove(c)
            pts = melds.min_deadwood(rest, RULES)
            if pts >= best[0]:
                continue
            plan = _attach(list(subset), table)
            if plan is not None:
                best = (pts, list(subset), plan)
    _pts, laid, plan = best
    rest = list(hand)
    for c in laid:
        rest.remove(c)
    layoffs: list[dict[str, Any]] = [{"meld": i, "cards": cs} for i, cs in sorted((plan or {}).items()) if cs]
    return layoffs, melds.best_arrangement(rest, RULES)


def _attach(cards: list[str], table: list[melds.Meld]) -> dict[int, list[str]] | None:
    """Assign each card to a meld so that every meld stays legal, or None."""
    groups: dict[int, list[str]] = {}

    def ok(i: int) -> bool:
        try:
            melds.extend(table[i], groups[i], RULES)
        except IllegalAction:
            return False
        return True

    def go(k: int) -> bool:
        if k == len(cards):
            return all(ok(i) for i in groups if groups[i])
        c = cards[k]
        for i in range(len(table)):
            m = table[i].as_cards()[0]
            if (table[i].kind == "set" and c[0] != m[0]) or (table[i].kind == "run" and c[1] != m[1]):
                continue
            groups.setdefault(i, []).append(c)
            # a set must stay legal at once; a run may need the next card first
            if (table[i].kind == "run" or ok(i)) and go(k + 1):
                return True
            groups[i].pop()
        return False

    return {i: cs for i, cs in groups.items() if cs} if go(0) else None


# ------------------------------------------------------------------ the deal


class GinEngine(DrawDiscardDeal):
    """One deal of Gin rummy between two players."""

    game = GAME
    ACTIONS: ClassVar[dict[str, tuple[str, ...]]] = {
        "draw": ("source",),
        "discard": ("card",),
        "knock": ("card", "melds"),  # melds optional: the knocker's own arrangement
        "gin": ("card",),  # optional: without it, grand gin
    }
    OPTIONAL_ARGS = frozenset({"gin", "knock"})
    ALREADY_DRAWN = "already_drawn_gin"

    def __init__(self, cfg: GinConfig, seats: list[dict[str, Any]], button: int,
                 deck_order: list[str], carry: dict[str, Any] | None) -> None:
        self._sit(cfg, seats, button, deck_order)
        self.carry_in = carry
        self.dealer = self.players[button]
        self.opponent = self.players[1 - button]
        # "le donneur donne onze cartes à son adversaire et dix à lui-même"
        self.hands = {self.opponent: self.deck[0:21:2], self.dealer: self.deck[1:20:2]}
        self.stock = list(reversed(self.deck[21:52]))  # top last
        self.turned = self.deck[52]
        self.limit = knock_limit(self.turned)
        self.doubled = self.turned[1] == "s"  # "Lorsque ♠ est la couleur de la carte retournée"
        # The opponent (the seat after the dealer's, where the turn starts) begins
        # with a discard, without a draw: "Son adversaire écarte une carte".
        self.phase = "play"
        self.sheet = MatchSheet.from_carry(carry, self.players, cfg) if cfg.scoring == "match" else None
        self._options_cache: dict[tuple[str, ...], dict[str, Any]] = {}

    # ------------------------------------------------------------- contract
    def other(self, player: str) -> str:
        return self.players[1 - self.players.index(player)]

    def _options(self, player: str) -> dict[str, Any]:
        """Which discards allow a knock or a petit gin; is there a grand gin."""
        hand = self.hands[player]
        key = tuple(sorted(hand)) + ("|", self.drawn_from_discard or "")
        v = self._options_cache.get(key)
        if v is None:
            knock, gin = [], []
            for c in self.discardable(player):
                rest = list(hand)
                rest.remove(c)
                if melds.min_deadwood(rest, RULES) == 0:
                    gin.append(c)
                elif knock_arrangement(rest, self.limit) is not None:
                    knock.append(c)
            grand = melds.min_deadwood(hand, RULES) == 0
            v = self._options_cache[key] = {"knock": knock, "gin": gin, "grand": grand}
        return v

    def legal_plays(self, player: str) -> list[LegalAction]:
        out: list[LegalAction] = [{"action": "discard", "cards": self.discardable(player)}]
        opts = self._options(player)
        if opts["knock"]:
            out.append({"action": "knock", "cards": list(opts["knock"])})
        if opts["gin"] or opts["grand"]:
            out.append({"action": "gin", "cards": list(opts["gin"]), "grand": opts["grand"]})
        return out

    def timeout_play(self, player: str) -> dict[str, Any]:
        """Throw the card whose loss hurts least (the draw was from the stock:
        in Gin the stock never runs out before the deal ends)."""
        hand = self.discardable(player)
        best = min(hand, key=lambda c: (self._without(player, c), -melds.points(c, RULES)))
        return {"action": "discard", "card": best}

    def _without(self, player: str, card: str) -> int:
        rest = list(self.hands[player])
        rest.remove(card)
        return melds.min_deadwood(rest, RULES)

    # ------------------------------------------------------------------ act
    def turn_ended(self) -> list[Event]:
        if not self.stock:
            # Ruling (the source is silent): the stock is exhausted and nobody
            # went down: the deal is void, nobody scores.
            return self._finish(None, 0, 0, {"ending": "void"})
        return []

    def _knock(self, player: str, card: Any = None, melds: Any = None) -> list[Event]:
        if card is None:
            raise IllegalAction("knock_discards")
        card = self._card_to_throw(player, card)
        if self.limit is None:
            raise IllegalAction("only_gin_wins")
        rest = list(self.hands[player])
        rest.remove(card)
        if _min_deadwood(rest) == 0:
            raise IllegalAction("knock_is_gin")
        loser = self.other(player)
        if melds is not None:
            # "il pose sur la table huit ou neuf cartes formant des
            # combinaisons": which ones is the knocker's choice.
            arr = chosen_arrangement(rest, melds, self.limit)
            layoffs, opp = lay_off(self.hands[loser], list(arr.melds))
        else:
            options = knock_arrangements(rest, self.limit)
            if not options:
                raise IllegalAction(
                    "knock_limit", limit=self.limit
                )
            # Left to the table, the knocker shows what is best for him: the
            # least deadwood, then the melds that leave the opponent the most
            # points after his lay-offs (then the fewest cards laid off).
            tried = [(a, *lay_off(self.hands[loser], list(a.melds))) for a in options]
            arr, layoffs, opp = min(tried, key=lambda t: (-t[2].points, sum(len(x["cards"]) for x in t[1])))
        self._throw(player, card)
        details: dict[str, Any] = {
            "ending": "knock", "knocker": player, "discard": card,
            "melds": [list(m.cards) for m in arr.melds], "deadwood": list(arr.deadwood),
            "knocker_points": arr.points,
            "opponent_melds": [list(m.cards) for m in opp.melds],
            "layoffs": layoffs, "opponent_deadwood": list(opp.deadwood),
            "opponent_points": opp.points,
        }
        if opp.points > arr.points:
            winner, pts = player, opp.points - arr.points
        else:
            # undercut (+20) or tie (20 to the opponent): "En cas d'égalité des
            # points, l'adversaire marque 20 points de pénalité"
            winner, pts = loser, arr.points - opp.points + UNDERCUT
            details["undercut"] = opp.points < arr.points
            details["tie"] = opp.points == arr.points
        events: list[Event] = [{"event": "knock", "player": player, "card": card}]
        return events + self._finish(winner, pts, 1, details)

    def act(self, player: str, action: str, **args: Any) -> list[Event]:
        events = super().act(player, action, **args)
        if action == "knock" and "melds" not in self.actions[-1]:
            # The record keeps the melds shown, chosen or not: a replay shows
            # the same ones whatever the default becomes.
            shown = self.outcome or {}
            self.actions[-1]["melds"] = [list(m) for m in shown.get("melds", [])]
        return events

    def _gin(self, player: str, card: Any = None) -> list[Event]:
        grand = card is None
        if grand:
            self._check_play()
            shown = list(self.hands[player])
        else:
            card = self._card_to_throw(player, card)
            shown = list(self.hands[player])
            shown.remove(card)
        arr = melds.best_arrangement(shown, RULES)
        if arr.points:
            raise IllegalAction("big_gin_needs_all" if grand else "gin_needs_all", deadwood=list(arr.deadwood))
        if not grand:
            self._throw(player, card)
        loser = self.other(player)
        opp = melds.best_arrangement(self.hands[loser], RULES)  # no lay-off against gin
        bonus, coc = (GRAND_GIN, 4) if grand else (PETIT_GIN, 2)
        details = {
            "ending": "grand gin" if grand else "petit gin", "discard": card,
            "melds": [list(m.cards) for m in arr.melds],
            "opponent_melds": [list(m.cards) for m in opp.melds],
            "opponent_deadwood": list(opp.deadwood), "opponent_points": opp.points,
        }
        events: list[Event] = [{"event": "gin", "player": player, "grand": grand, "card": card}]
        return events + self._finish(player, opp.points + bonus, coc, details)

    # --------------------------------------------------------------- ending
    def _finish(self, winner: str | None, pts: int, cocottes: int, details: dict[str, Any]) -> list[Event]:
        factor = 2 if (self.doubled and winner is not None) else 1
        # ``unit`` (chips per point) lets the result panel show how the points became chips.
        scoring = {**details, "winner": winner, "turned": self.turned, "factor": factor,
                   "points": pts * factor, "cocottes": cocottes * factor, "unit": self.config.unit}
        chips = {s["player"]: s["chips"] for s in self.seats}
        unit = self.config.unit
        if self.sheet is not None:
            # Issue 11 §9, ruling (docs/games/rami.md "Gin: the match is paid
            # deal by deal"): each deal pays what it changes in the match's
            # count as it stands — its points in the columns they enter, its
            # cocottes, the bonuses of a column it closes — so that a player
            # leaving mid-match takes nothing away that the sheet says he owes.
            a, b = self.players
            before = self.sheet.margin(a, b)
            if winner is not None:
                self.sheet.add(winner, pts * factor, cocottes * factor)
            scoring["sheet"] = self.sheet.as_data()
            change = self.sheet.margin(a, b) - before
            scoring["match_change"] = {a: change, b: -change}
            if change:
                w, lo = (a, b) if change > 0 else (b, a)
                self._delta, scoring["paid"] = settle(chips, {lo: abs(change) * unit}, [w])
            if self.sheet.over:
                count = self.sheet.final_count()
                diff = count[a]["total"] - count[b]["total"]
                match: dict[str, Any] = {"count": count, "margin": abs(diff)}
                if diff:
                    match["winner"] = a if diff > 0 else b
                scoring["match"] = match
        elif winner is not None:
            owed = (pts + COCOTTE * cocottes) * factor * unit
            self._delta, scoring["paid"] = settle(chips, {self.other(winner): owed}, [winner])
        self.phase = "over"
        self.outcome = scoring
        return [{"event": "end", **scoring}]

    def carry_out(self) -> dict[str, Any] | None:
        if self.sheet is None or self.sheet.over:
            return None  # the next deal starts a new match
        return self.sheet.as_data()

    def public_view(self) -> dict[str, Any]:
        v: dict[str, Any] = {
            "turned": self.turned,
            "knock_limit": self.limit,
            "doubled": self.doubled,
            **self.piles(),
            "sheet": self.sheet.as_data() if self.sheet is not None else None,
        }
        if self.sheet is not None:
            v["count"] = self.sheet.final_count()
        return v


# ------------------------------------------------------------ module contract


def deck_composition(config: dict[str, Any], n_players: int) -> list[str]:
    """The playing deck then the deck lying aside: two 52-card decks."""
    parse_config(GinConfig, config)
    check_count(n_players, GAME, SEATS)
    return deck52() + deck52()


def deck_packs(config: dict[str, Any], n_players: int) -> list[list[str]]:
    """The packs shuffled apart, in order: the playing deck, then the deck
    lying aside (what ``tavern verify`` starts each shuffle from)."""
    deck_composition(config, n_players)  # the same checks
    return [deck52(), deck52()]


def _check_order(order: list[str]) -> None:
    if not isinstance(order, list) or len(order) != 104:
        raise IllegalAction("gin_deck_order")
    try:
        check_deck_order(order[:52], deck52())
        check_deck_order(order[52:], deck52())
    except CardError as exc:
        raise IllegalAction("deck_order", refusal={"code": exc.code, "params": exc.params}) from None


def new_deal(config: Options, seats: Seats, button: int, *, deck: Deck = None, rng: Rng = None,
             reshuffles: Reshuffles = None, carry: Carry = None) -> GinEngine:
    """A new deal of Gin rummy (see the module docstring and ``base.py``)."""
    cfg = parse_config(GinConfig, config)
    check_seats(seats, button, GAME, SEATS)
    if deck is None:
        # Each deck shuffled apart: the second one lies aside, its top turned.
        source = rng or CSPRNG
        deck = [c for pack in deck_packs(cfg.model_dump(), len(seats)) for c in shuffle(pack, source)]
    else:
        _check_order(deck)
    if reshuffles:
        raise IllegalAction("no_reshuffles", game="gin")
    return GinEngine(cfg, seats, button, list(deck), carry)


__all__ = [
    "RULES",
    "GinConfig",
    "GinEngine",
    "MatchSheet",
    "deck_composition",
    "deck_packs",
    "knock_arrangement",
    "knock_limit",
    "lay_off",
    "new_deal",
    "replay_output",
]


SPEC = GameSpec(
    name=GAME, label="Gin rami", rules="gin-rummy", seats=SEATS, deck_kind="deck52",
    stakes=("unit",), cave_unit=lambda s: 10 * s["unit"], decks=lambda n, options: 2, view="rami",
    config=GinConfig, new_deal=new_deal, replay_output=replay_output, deck_composition=deck_composition, deck_packs=deck_packs,
    result_story=("scoring",),
)
