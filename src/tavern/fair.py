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

Verifying a record (:func:`verify`) starts from the deck the record's game
deals at its table — the game's packs for its config and number of players
(:func:`table_packs`) — and never from the record's own cards: a deck holding
a card twice, a joker the game has not, or one card too many is refused even
when it is a shuffle of the seeds.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavern.cards import CSPRNG, RANKS, SUITS, RandomSource, check_card, is_joker
from tavern.catalogue import french
from tavern.refusal import Refusal

SCHEME = "tavern-fair-1"
SEED_BYTES = 32
#: What a client seed may hold: the browser's default is 32 hex digits.
CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{0,64}")
_LIMIT = 1 << 32


class FairError(Refusal, ValueError):
    """A seed, a commitment or a record that does not check: a refusal with
    its code (``tavern.catalogue`` words it in French)."""


@functools.lru_cache(maxsize=256)  # a few dozen codes; every deal sorts its deck by them (FairStream.shuffle)
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
        raise FairError("fair_client_seed")
    return seed


class FairStream:
    """The deal's random source: draws integers from the HMAC stream and
    shuffles from canonical order (``cards.shuffle`` hands a shuffle to a
    source that knows how to do it). It logs the size of every shuffle."""

    canonical = True

    def __init__(self, server_seed: bytes, table: int, deal: int, client_seeds: Sequence[str]) -> None:
        if len(server_seed) != SEED_BYTES:
            raise FairError("fair_server_seed_size", size=SEED_BYTES)
        self._key = server_seed
        seeds = [check_client_seed(s) for s in client_seeds]
        self._suffix = f"|{SCHEME}|{int(table)}|{int(deal)}|{len(seeds)}|" + "|".join(seeds)
        self._block = 0
        self._buffer = b""
        self.shuffles: list[int] = []
        #: Each shuffle's cards, in order (the per-card commitments, fair_cards.py).
        self.outputs: list[list[str]] = []

    def _word(self) -> int:
        if len(self._buffer) < 4:
            msg = f"{self._block}{self._suffix}".encode()
            self._buffer += hmac.digest(self._key, msg, "sha256")  # one call into OpenSSL: ~7 a deal
            self._block += 1
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def randbelow(self, n: int) -> int:
        if not 0 < n <= _LIMIT:
            raise FairError("fair_draw_range", n=n)
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
        self.outputs.append(list(out))
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


def table_packs(game: object, config: object, players: int) -> list[list[str]]:
    """The packs a table of ``game`` shuffles at the start of a deal, in
    order, as the game's spec gives them for this config and number of
    players (:meth:`GameSpec.packs`: ``deck_packs`` when a game shuffles
    several packs apart, as Gin does, else its one ``deck_composition``):
    the deck kind, how many decks and jokers. ``static/fair.js``
    (``tablePacks``) mirrors it."""
    from tavern.games import registry  # here: the registry loads every engine

    if not isinstance(game, str) or game not in registry.GAMES:
        raise FairError("fair_unknown_game", game=str(game))
    try:
        return registry.spec(game).packs(config, players)  # type: ignore[arg-type]  # any JSON: the game checks it
    except Refusal as exc:  # a config or a number of players the game refuses
        raise FairError("fair_table_refused", game=game, refusal={"code": exc.code, "params": exc.params}) from None
    except (TypeError, ValueError, AttributeError) as exc:  # a config that is not even an object
        raise FairError("fair_table_refused", game=game,
                        refusal={"code": "record_malformed", "params": {"kind": type(exc).__name__,
                                                                        "detail": str(exc)}}) from None


def _outputs(record: dict[str, Any], sizes: list[int]) -> list[list[str]]:
    """The deal's shuffles in the order they were made: the deck cut into
    its first shuffles, then each rebuilt stock."""
    deck = record.get("deck")
    reshuffles = record.get("reshuffles") or []
    if not isinstance(deck, list) or not isinstance(reshuffles, list) or not all(
            isinstance(r, list) and all(isinstance(c, str) for c in r) for r in [deck, *reshuffles]):
        raise FairError("fair_no_deck")
    out, at = [], 0
    for size in sizes:
        if at < len(deck):
            out.append(deck[at:at + size])
            at += size
    if at != len(deck):
        raise FairError("fair_sizes_cover", shuffles=sizes, size=len(deck))
    rest = sizes[len(out):]
    if len(rest) != len(reshuffles):
        raise FairError("fair_reshuffle_count", announced=len(rest), found=len(reshuffles))
    for size, shuffled in zip(rest, reshuffles, strict=True):
        if not isinstance(shuffled, list) or len(shuffled) != size:
            raise FairError("fair_reshuffle_size")
        out.append(list(shuffled))
    return out


def _block(record: dict[str, Any]) -> tuple[bytes, int, int, list[str], list[int], str]:
    fair = record.get("fair")
    if not isinstance(fair, dict):
        raise FairError("fair_no_block")
    if fair.get("scheme") != SCHEME:
        raise FairError("fair_scheme", scheme=str(fair.get("scheme")), wanted=SCHEME)
    try:
        seed = bytes.fromhex(fair["server_seed"])
        table, deal = int(fair["table"]), int(fair["deal"])
        seeds = [check_client_seed(c["seed"]) for c in fair["client_seeds"]]
        sizes = [int(n) for n in fair["shuffles"]]
        promised = str(fair["commitment"])
    except FairError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise FairError("fair_block_malformed", kind=type(exc).__name__, detail=str(exc)) from None
    return seed, table, deal, seeds, sizes, promised


def verify(record: dict[str, Any]) -> list[str]:
    """Check a hand record's deck against its revealed seed. Returns what was
    checked (sentences for people); raises :class:`FairError` on any mismatch.

    Each first shuffle must be the game's own pack (:func:`table_packs`, for
    the record's ``game``, ``config`` and its players, one client seed each)
    shuffled by the stream; a rebuilt stock must be a shuffle of cards that
    pack holds. That the rebuilt stock is exactly the discards of that moment
    is the replay's check (``tavern replay``)."""
    seed, table, deal, seeds, sizes, promised = _block(record)
    said = []
    if not hmac.compare_digest(commitment(seed), promised):
        raise FairError("fair_commitment")
    said.append(french("fair_seed_ok", {"commitment": promised[:16]}))
    seats = record.get("seats")
    if seats is not None:  # the revealed block alone (the API's) has none
        named = [s.get("player") if isinstance(s, dict) else None for s in seats] if isinstance(seats, list) else None
        if named != [c.get("player") for c in record["fair"]["client_seeds"]]:
            raise FairError("fair_seats")
    game = record.get("game")
    packs = table_packs(game, record.get("config"), len(seeds))
    wanted, deck = [len(p) for p in packs], record.get("deck")
    if isinstance(deck, list) and all(isinstance(c, str) for c in deck):  # else _outputs says so
        if sizes[:len(packs)] != wanted or len(deck) != sum(wanted):
            # a card too many or too few, or the packs cut another way (one
            # shuffle of Gin's 104 cards): not how this table deals
            raise FairError("fair_packs", game=str(game), pack_sizes=wanted, announced=sizes[:len(packs)],
                            size=len(deck))
    parts = _outputs(record, sizes)
    every = Counter(c for p in packs for c in p)
    stream = FairStream(seed, table, deal, seeds)
    for k, shuffled in enumerate(parts, start=1):
        if k <= len(packs):
            start = packs[k - 1]
            missing, extra = Counter(start) - Counter(shuffled), Counter(shuffled) - Counter(start)
            if missing or extra:
                raise FairError("fair_not_the_pack", index=k, game=str(game),
                                missing=_said(missing), extra=_said(extra))
        else:  # a rebuilt stock: cards of the deal's packs, never more copies
            extra = Counter(shuffled) - every
            if extra:
                raise FairError("fair_foreign_reshuffle", index=k, game=str(game), extra=_said(extra))
            start = list(shuffled)
        if stream.shuffle(start) != list(shuffled):
            raise FairError("fair_shuffle_mismatch", index=k, size=len(shuffled))
        said.append(french("fair_shuffle_ok", {"index": k, "size": len(shuffled)}))
    return said


def _said(cards: Counter[Any]) -> list[str]:
    """Cards for a message: each code as often as it counts, in canonical
    order (anything that is no card code at all said as it was written)."""
    out = [str(c) for c in cards.elements()]
    return sorted(out, key=lambda c: (canonical_key(c) if _is_code(c) else 10_000, c))


def _is_code(card: str) -> bool:
    try:
        check_card(card)
    except ValueError:
        return False
    return True
