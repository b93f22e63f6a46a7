"""The provably fair shuffle (docs/fairness.md).

Before a deal the table publishes a *commitment*: the SHA-256 of a fresh
32-byte server seed. The deck is then derived from that seed, the seated
players' client seeds and the deal's number, so that neither the server nor
any player alone chooses it; after the deal the seed is revealed and anyone
can recompute the deck (``tavern verify``, or the page's own Web Crypto code
in ``static/fair.js`` — the two must stay byte for byte the same scheme).

The scheme, ``tavern-fair-1``:

* the stream is HMAC-SHA256 keyed by the server seed (raw bytes) over the
  message ``"{block}|tavern-fair-1|{table}|{deal}|{n}|{seed 1}|…|{seed n}"``
  (UTF-8; ``block`` counts 0, 1, 2 …; the client seeds in seat order, each
  0–64 characters of ``A-Z a-z 0-9 _ -`` so that ``|`` never appears in one);
  its 32-byte blocks are read four bytes at a time as big-endian integers;
* an integer below ``n`` is drawn by rejection: a 32-bit value ``v`` is kept
  when ``v < 2**32 - 2**32 % n`` and gives ``v % n`` (no modulo bias);
* each shuffle starts from its cards in *canonical order* (clubs, diamonds,
  hearts, spades; 2 to ace in each; jokers last by number), so the server
  cannot arrange the cards before shuffling them, then runs Fisher–Yates
  from the last position down: ``j = draw(i + 1)``, swap ``i`` and ``j``;
* a deal's shuffles (Gin's two packs, a draw poker or rami stock rebuilt
  from the discards) all read the same stream, one after the other, and the
  record keeps their sizes in order.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavern.cards import CSPRNG, RANKS, SUITS, RandomSource, is_joker

SCHEME = "tavern-fair-1"
SEED_BYTES = 32
#: What a client seed may hold: the browser's default is 32 hex digits.
CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{0,64}")
_LIMIT = 1 << 32


class FairError(ValueError):
    """A seed, a commitment or a fairness block that is not well formed."""


def canonical_key(card: str) -> int:
    """A card's place in the canonical order of a fresh deck."""
    if is_joker(card):
        return 1000 + int(card[1:])
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def canonical(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=canonical_key)


def new_server_seed(source: RandomSource) -> bytes:
    """Thirty-two fresh bytes (the table hands in the CSPRNG; tests a seeded source)."""
    if source is CSPRNG:  # the system's generator in one call, not one per byte
        return secrets.token_bytes(SEED_BYTES)
    return bytes(source.randbelow(256) for _ in range(SEED_BYTES))


def commitment(server_seed: bytes) -> str:
    """What is published before the deal: the SHA-256 of the seed, in hex."""
    return hashlib.sha256(server_seed).hexdigest()


def check_client_seed(seed: object) -> str:
    if not isinstance(seed, str) or CLIENT_SEED.fullmatch(seed) is None:
        raise FairError("une graine de joueur tient en 64 caractères au plus : lettres, chiffres, _ et -")
    return seed


class FairStream:
    """The deal's random source: draws integers from the HMAC stream and
    shuffles from canonical order (``cards.shuffle`` hands a shuffle to a
    source that knows how to do it). It logs the size of every shuffle."""

    canonical = True

    def __init__(self, server_seed: bytes, table: int, deal: int, client_seeds: Sequence[str]) -> None:
        if len(server_seed) != SEED_BYTES:
            raise FairError(f"a server seed is {SEED_BYTES} bytes")
        self._key = server_seed
        seeds = [check_client_seed(s) for s in client_seeds]
        self._suffix = f"|{SCHEME}|{int(table)}|{int(deal)}|{len(seeds)}|" + "|".join(seeds)
        self._block = 0
        self._buffer = b""
        self.shuffles: list[int] = []

    def _word(self) -> int:
        if len(self._buffer) < 4:
            msg = f"{self._block}{self._suffix}".encode()
            self._buffer += hmac.new(self._key, msg, hashlib.sha256).digest()
            self._block += 1
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def randbelow(self, n: int) -> int:
        if not 0 < n <= _LIMIT:
            raise FairError(f"cannot draw below {n}")
        keep = _LIMIT - _LIMIT % n
        while True:
            v = self._word()
            if v < keep:
                return v % n

    def shuffle(self, cards: Iterable[str]) -> list[str]:
        out = canonical(cards)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        self.shuffles.append(len(out))
        return out


@dataclass
class DealSeed:
    """One deal's seed as the table keeps it: the secret until the deal ends."""

    server_seed: bytes
    commitment: str = field(init=False)

    def __post_init__(self) -> None:
        self.commitment = commitment(self.server_seed)

    def stream(self, table: int, deal: int, client_seeds: Sequence[str]) -> FairStream:
        return FairStream(self.server_seed, table, deal, client_seeds)

    def block(self, table: int, deal: int, players: Sequence[str], client_seeds: Sequence[str],
              stream: FairStream) -> dict[str, Any]:
        """The record's ``fair`` block (docs/hand-records.md)."""
        return {"scheme": SCHEME, "commitment": self.commitment, "server_seed": self.server_seed.hex(),
                "table": table, "deal": deal,
                "client_seeds": [{"player": p, "seed": s} for p, s in zip(players, client_seeds, strict=True)],
                "shuffles": list(stream.shuffles)}


# --- verification -----------------------------------------------------------


def _outputs(record: dict[str, Any], sizes: list[int]) -> list[list[str]]:
    """The deal's shuffles in the order they were made: the deck cut into
    its first shuffles, then each rebuilt stock."""
    deck = record.get("deck")
    reshuffles = record.get("reshuffles") or []
    if not isinstance(deck, list) or not isinstance(reshuffles, list):
        raise FairError("le relevé n'a pas de paquet (« deck ») lisible")
    out, at = [], 0
    for size in sizes:
        if at < len(deck):
            out.append(deck[at:at + size])
            at += size
    if at != len(deck):
        raise FairError(f"les mélanges annoncés ({sizes}) ne couvrent pas le paquet de {len(deck)} cartes")
    rest = sizes[len(out):]
    if len(rest) != len(reshuffles):
        raise FairError(f"{len(rest)} remélanges annoncés, {len(reshuffles)} dans le relevé")
    for size, shuffled in zip(rest, reshuffles, strict=True):
        if not isinstance(shuffled, list) or len(shuffled) != size:
            raise FairError("un remélange du relevé n'a pas la taille annoncée")
        out.append(list(shuffled))
    return out


def verify(record: dict[str, Any]) -> list[str]:
    """Check a hand record's deck against its revealed seed. Returns what was
    checked (sentences for people); raises :class:`FairError` on any mismatch."""
    fair = record.get("fair")
    if not isinstance(fair, dict):
        raise FairError("ce relevé n'a pas de bloc « fair » : la donne n'a pas été mélangée de façon vérifiable")
    if fair.get("scheme") != SCHEME:
        raise FairError(f"schéma inconnu {fair.get('scheme')!r} (attendu {SCHEME})")
    try:
        seed = bytes.fromhex(fair["server_seed"])
        table, deal = int(fair["table"]), int(fair["deal"])
        seeds = [check_client_seed(c["seed"]) for c in fair["client_seeds"]]
        sizes = [int(n) for n in fair["shuffles"]]
        promised = str(fair["commitment"])
    except (KeyError, TypeError, ValueError) as exc:
        raise FairError(f"bloc « fair » mal formé : {exc}") from None
    said = []
    if not hmac.compare_digest(commitment(seed), promised):
        raise FairError("la graine révélée ne correspond pas à l'engagement publié avant la donne")
    said.append(f"graine du serveur conforme à l'engagement {promised[:16]}…")
    stream = FairStream(seed, table, deal, seeds)
    for k, shuffled in enumerate(_outputs(record, sizes), start=1):
        if stream.shuffle(shuffled) != list(shuffled):
            raise FairError(f"le mélange n° {k} ({len(shuffled)} cartes) ne découle pas des graines")
        said.append(f"mélange n° {k} : {len(shuffled)} cartes, identiques à celles tirées des graines")
    return said
