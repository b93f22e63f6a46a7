"""Cards, codes, decks and the shuffle.

A card is its two-character code: rank ``2 3 4 5 6 7 8 9 T J Q K A`` then suit
``c d h s`` (``As``, ``Td``). Jokers are ``X1``, ``X2``… so that two physical
jokers stay distinct. Multi-deck games hold duplicate codes: a deck order is
simply a list of codes, top card first.

Shuffles are Fisher–Yates over a cryptographically secure source
(:mod:`secrets`) unless a random source is handed in (tests, simulations).
The engines never call :mod:`random` themselves.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

from tavern.refusal import Refusal

RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: Rams and other piquet-deck games: A K Q J T 9 8 7.
PIQUET_RANKS = "789TJQKA"
RED_SUITS = frozenset("dh")
BLACK_SUITS = frozenset("cs")

RANK_VALUE = {r: i for i, r in enumerate(RANKS, start=2)}  # 2..14 (ace high)
SUIT_SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


class CardError(Refusal, ValueError):
    """A card code or a deck that does not exist (a refusal with a code)."""


class RandomSource(Protocol):
    """What a shuffle needs: an unbiased integer in ``range(n)``."""

    def randbelow(self, n: int) -> int: ...


class _Secrets:
    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


class SeededSource:
    """A reproducible source for tests and benchmarks (never for real deals)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def randbelow(self, n: int) -> int:
        return self._rng.randrange(n)


CSPRNG: RandomSource = _Secrets()


def is_joker(card: str) -> bool:
    return card.startswith("X")


def rank(card: str) -> str:
    if is_joker(card):
        raise CardError("joker_has_no_rank")
    return card[0]


def suit(card: str) -> str:
    if is_joker(card):
        raise CardError("joker_has_no_suit")
    return card[1]


def check_card(card: str) -> str:
    """Return ``card`` if it is a valid code, else raise :class:`CardError`."""
    if not isinstance(card, str):
        raise CardError("not_a_card", card=str(card))
    if len(card) >= 2 and card[0] == "X" and card[1:].isdigit() and int(card[1:]) > 0:
        return card
    if len(card) == 2 and card[0] in RANKS and card[1] in SUITS:
        return card
    raise CardError("not_a_card", card=card)


def deck52() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


def deck32() -> list[str]:
    """The 32-card piquet deck: A K Q J T 9 8 7 of each suit."""
    return [r + s for s in SUITS for r in PIQUET_RANKS]


def deck(*, decks: int = 1, jokers: int = 0, short: bool = False) -> list[str]:
    """Several decks of 52 (or 32 with ``short``) plus ``jokers`` distinct jokers."""
    if decks < 1 or jokers < 0:
        raise CardError("bad_deck")
    one = deck32() if short else deck52()
    return one * decks + [f"X{i}" for i in range(1, jokers + 1)]


def deck54() -> list[str]:
    return deck(jokers=2)


def shuffle(cards: Iterable[str], rng: RandomSource | None = None) -> list[str]:
    """A new list: Fisher–Yates, each permutation equally likely."""
    source = rng or CSPRNG
    own = getattr(source, "shuffle", None)
    if own is not None:  # a verifiable source shuffles its own way (tavern.fair)
        return list(own(cards))
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = source.randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_decks(count: int, cards: Sequence[str] | None = None,
                   rng: RandomSource | None = None) -> Iterator[list[str]]:
    """``count`` independent shuffles of ``cards`` (a 52-card deck by default)
    drawn from ``rng`` (the CSPRNG by default), as the tables deal them.

    The statistical tests of the shuffle (tests/reliability/test_shuffle.py)
    read their decks from here: any other source of randomness (a provably
    fair stream, a hardware generator) is put to the same test by handing it
    in as ``rng``."""
    base = list(cards) if cards is not None else deck52()
    for _ in range(count):
        yield shuffle(base, rng)


def check_deck_order(order: Sequence[str], composition: Sequence[str]) -> None:
    """Refuse a deck order that is not exactly a permutation of ``composition``."""
    for c in order:
        check_card(c)
    if Counter(order) != Counter(composition):
        missing = Counter(composition) - Counter(order)
        extra = Counter(order) - Counter(composition)
        raise CardError("deck_not_permutation", missing=sorted(missing.elements()), extra=sorted(extra.elements()))


class Stock:
    """Cards dealt from an explicit order, top card first."""

    def __init__(self, order: Sequence[str]) -> None:
        self._cards = list(order)
        self._next = 0

    def __len__(self) -> int:
        return len(self._cards) - self._next

    def draw(self, n: int = 1) -> list[str]:
        if n > len(self):
            raise CardError("stock_short", left=len(self), asked=n)
        out = self._cards[self._next : self._next + n]
        self._next += n
        return out

    def draw_one(self) -> str:
        return self.draw(1)[0]

    def peek(self) -> str | None:
        return self._cards[self._next] if len(self) else None

    def remaining(self) -> list[str]:
        return self._cards[self._next :]


def pretty(card: str) -> str:
    """``Td`` → ``10♦`` for people; ``X1`` → ``Joker``."""
    if is_joker(card):
        return "Joker"
    r = "10" if card[0] == "T" else card[0]
    return r + SUIT_SYMBOL[card[1]]
