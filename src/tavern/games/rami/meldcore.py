"""The meld machinery's ground: rank order, rules, melds and arrangements,
points, run geometry. :mod:`.melds` (classify, extend) and :mod:`._solver`
(the best arrangement) both stand on it, so neither imports the other's
insides: no cycle (docs/architecture.md, the import contracts)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from tavern.games.base import IllegalAction
from tavern.refusal import Invalid

#: Rank order inside the family: the ace first ("l'as venant toutefois après le 2"
#: is the rami.fr.txt way of saying A-2-3).
ORDER = "A23456789TJQK"
RANK_INDEX = {r: i for i, r in enumerate(ORDER)}
SUITS = "cdhs"
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_FACE = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}
_SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


@dataclass(frozen=True)
class MeldRules:
    """How one game (with its options) melds and counts.

    ``card_points`` overrides the points fields when a game counts in a way
    they cannot express; it receives a card code and returns its points.
    """

    ace_low: bool = True  # A-2-3
    ace_high: bool = False  # Q-K-A
    ace_around: bool = False  # K-A-2 (implies both of the above)
    set_sizes: tuple[int, ...] = (3, 4)
    distinct_suits_in_set: bool = True
    jokers: bool = False  # are X1, X2… wild? (if not, a joker is just deadwood)
    min_natural: int = 1  # real cards a meld needs at least
    min_run: int = 3
    ace_points: int = 1
    figure_points: int = 10  # T J Q K
    joker_points: int = 20
    card_points: Callable[[str], int] | None = field(default=None, compare=True)

    def __post_init__(self) -> None:
        if not (self.ace_low or self.ace_high or self.ace_around):
            raise Invalid("ace_somewhere")
        if not self.set_sizes or min(self.set_sizes) < 2:
            raise Invalid("set_at_least_2")
        if self.min_natural < 1:
            raise Invalid("meld_real_cards", minimum=1)

    # The solver keeps its memo tables on the rules object (``_solver_tables``,
    # not a field: equality, hashing and repr ignore it). Rules are immutable,
    # so a copy is the object itself, and the tables never travel in a pickle.
    def __copy__(self) -> MeldRules:
        return self

    def __deepcopy__(self, memo: dict) -> MeldRules:
        return self

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_solver_tables"}


@dataclass(frozen=True)
class Meld:
    """A meld as laid: ``cards`` in meld order (a run low→high), and for each
    position the card a joker stands for (``None`` for real cards)."""

    kind: Literal["set", "run"]
    cards: tuple[str, ...]
    stands_for: tuple[str | None, ...]

    @property
    def jokers(self) -> int:
        return sum(1 for s in self.stands_for if s is not None)

    def as_cards(self) -> tuple[str, ...]:
        """The cards the meld represents, jokers replaced by what they stand for."""
        return tuple(s if s is not None else c for c, s in zip(self.cards, self.stands_for, strict=False))


class Arrangement(NamedTuple):
    """A partition of a hand into melds and deadwood; ``points`` is the deadwood's.

    A named tuple (``melds, deadwood, points = arrangement`` works) because the
    solver's hot path builds one per call and a tuple is the cheapest object."""

    melds: list[Meld]
    deadwood: list[str]
    points: int


def is_joker(card: str) -> bool:
    return card[0] == "X"


def points(card: str, rules: MeldRules) -> int:
    """The card's points when left in hand (deadwood)."""
    if rules.card_points is not None:
        return rules.card_points(card)
    if is_joker(card):
        return rules.joker_points
    r = card[0]
    if r == "A":
        return rules.ace_points
    if r in "TJQK":
        return rules.figure_points if r != "T" else 10
    return int(r)


def _check(card: str) -> None:
    if not isinstance(card, str) or len(card) < 2:
        raise IllegalAction("not_a_card", card=str(card))
    if card[0] == "X":
        if not card[1:].isdigit():
            raise IllegalAction("not_a_card", card=str(card))
    elif len(card) != 2 or card[0] not in RANK_INDEX or card[1] not in SUIT_INDEX:
        raise IllegalAction("not_a_card", card=str(card))


def _wild(card: str, rules: MeldRules) -> bool:
    return rules.jokers and is_joker(card)


# ---------------------------------------------------------------- run geometry


def _line(rules: MeldRules) -> tuple[bool, list[int]]:
    """(circular?, the positions a run may use). Position p is rank p % 13."""
    if rules.ace_around:
        return True, list(range(13))
    lo = 0 if rules.ace_low else 1
    hi = 13 if rules.ace_high else 12
    return False, list(range(lo, hi + 1))


def _windows(rules: MeldRules, length: int) -> list[list[int]]:
    """Every run window of ``length`` positions, as lists of rank indices."""
    if length > 13:
        return []
    circular, line = _line(rules)
    if circular:
        starts = range(13) if length < 13 else range(1)
        return [[(s + i) % 13 for i in range(length)] for s in starts]
    out = []
    for a in range(len(line) - length + 1):
        out.append([line[a + i] % 13 for i in range(length)])
    return out


def _code(rank: int, suit: str) -> str:
    return ORDER[rank] + suit
