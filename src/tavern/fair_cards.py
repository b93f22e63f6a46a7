"""Per-card commitments: a reveal that shows no card a player did not see
(docs/fairness.md "Per-card commitments", issue 42 §6).

Revealing the server seed at the end of a deal gives away every folded hand
and every undealt card. Instead, as soon as a deal's deck is shuffled — before
any player is shown a card — the table commits to each position of each
shuffle separately, the scheme ``tavern-cards-1``:

* the *salt* of position ``i`` of shuffle ``k`` (1-based shuffles, 0-based
  positions) is ``HMAC-SHA256(server seed, "salt|tavern-cards-1|{table}|{deal}|{k}|{i}")``
  in hex: 32 bytes nobody can guess without the server seed (a PRF keyed by
  32 CSPRNG bytes), and which need not be stored — the archive re-derives
  them from the seed it keeps for the admins;
* the *leaf* of that position is ``SHA-256("tavern-cards-1|{k}|{i}|{card}|{salt}")``
  in hex;
* the shuffle's *digest* is ``SHA-256("tavern-cards-1|{commitment}|{k}|{leaf 0},{leaf 1},…")``
  in hex (``commitment``: the seed's, so a digest belongs to one deal).

The digests are shown with the table's state (``table.fair.cards``) from the
first publication of the deal. When the deal ends each player receives the
leaves and the *openings* ``{shuffle, position, card, salt}`` of the
positions whose card he saw (:func:`seen_positions`); his page checks that
the leaves give the digest it saw and that each opening gives its leaf
(:func:`check_openings`, ``static/fair_cards.js`` — byte for byte the same).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import inspect
from collections.abc import Iterable, Sequence
from typing import Any

from tavern.fair import DealSeed, FairError, FairStream, _outputs  # _outputs: the one reading of a record's shuffles

CARDS_SCHEME = "tavern-cards-1"


def salt(server_seed: bytes, table: int, deal: int, shuffle: int, position: int) -> str:
    """Position ``position`` of shuffle ``shuffle``'s salt (hex)."""
    msg = f"salt|{CARDS_SCHEME}|{int(table)}|{int(deal)}|{int(shuffle)}|{int(position)}".encode()
    return hmac.digest(server_seed, msg, "sha256").hex()  # one call into OpenSSL: every position of every deal


def leaf(shuffle: int, position: int, card: str, salt_hex: str) -> str:
    return hashlib.sha256(f"{CARDS_SCHEME}|{shuffle}|{position}|{card}|{salt_hex}".encode()).hexdigest()


def digest(commitment: str, shuffle: int, leaves: Sequence[str]) -> str:
    return hashlib.sha256(f"{CARDS_SCHEME}|{commitment}|{shuffle}|{','.join(leaves)}".encode()).hexdigest()


class DealCards:
    """One deal's per-card commitments, built as its shuffles are made.

    ``outputs`` is the deal's stream's list of shuffles (``FairStream.outputs``),
    read, never changed: a rebuilt stock shuffled during the deal is
    committed to at the next publication that asks (:meth:`digests`),
    before any of its cards is shown."""

    def __init__(self, server_seed: bytes, commitment: str, table: int, deal: int,
                 outputs: list[list[str]]) -> None:
        self._seed, self.commitment, self.table, self.deal = server_seed, commitment, table, deal
        self._outputs = outputs
        self.leaves: list[list[str]] = []
        self._digests: list[str] = []

    @classmethod
    def of(cls, seed: DealSeed, table: int, deal: int, stream: FairStream) -> DealCards:
        """A deal's commitments as its table makes them, over its stream's shuffles."""
        return cls(seed.server_seed, seed.commitment, table, deal, stream.outputs)

    def digests(self) -> list[str]:
        for k in range(len(self.leaves) + 1, len(self._outputs) + 1):
            cards = self._outputs[k - 1]
            leaves = [leaf(k, i, c, salt(self._seed, self.table, self.deal, k, i)) for i, c in enumerate(cards)]
            self.leaves.append(leaves)
            self._digests.append(digest(self.commitment, k, leaves))
        return list(self._digests)

    def opening(self, shuffle: int, position: int) -> dict[str, Any]:
        card = self._outputs[shuffle - 1][position]
        return {"shuffle": shuffle, "position": position, "card": str(card),
                "salt": salt(self._seed, self.table, self.deal, shuffle, position)}

    def reveal(self, positions: Iterable[tuple[int, int]]) -> dict[str, Any]:
        """What one player receives: every shuffle's leaves (they hide the
        cards: each is salted) and the openings of his positions."""
        self.digests()
        return {"cards_scheme": CARDS_SCHEME, "leaves": [list(ls) for ls in self.leaves],
                "openings": [self.opening(k, i) for k, i in sorted(set(positions))]}


def shuffles_of(record: dict[str, Any]) -> list[list[str]]:
    """A record's shuffles in the order they were made: its deck cut by the
    fair block's sizes, then each rebuilt stock."""
    return _outputs(record, [int(n) for n in record["fair"]["shuffles"]])


def deal_cards(record: dict[str, Any]) -> DealCards:
    """A finished (or voided) deal's commitments, re-derived from its record
    (which keeps the server seed: the archive's, never a player's)."""
    f = record["fair"]
    return DealCards(bytes.fromhex(f["server_seed"]), f["commitment"], int(f["table"]), int(f["deal"]),
                     shuffles_of(record))


def check_openings(reveal: Any, digests: Sequence[str], commitment: str) -> list[str]:
    """Check a player's reveal against the digests he saw before the deal
    (``commitment``: the deal's seed commitment). Returns the sentences of
    what checked; raises :class:`FairError` (said in French) on a leaf
    list that is not the one committed to, or an opening that does not give
    its leaf — a card swapped or forged."""
    from tavern.catalogue import french

    try:
        leaves = [[str(x) for x in ls] for ls in reveal["leaves"]]
        openings = [(int(o["shuffle"]), int(o["position"]), str(o["card"]), str(o["salt"]))
                    for o in reveal["openings"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise FairError("fair_opening_malformed", kind=type(exc).__name__, detail=str(exc)) from None
    said = []
    if len(leaves) != len(digests):  # a shuffle left out, or one nobody was shown
        raise FairError("fair_cards_digest", index=min(len(leaves), len(digests)) + 1)
    for k, ls in enumerate(leaves, start=1):
        if not hmac.compare_digest(digest(commitment, k, ls), digests[k - 1]):
            raise FairError("fair_cards_digest", index=k)
    for k, i, card, salt_hex in openings:
        if not (1 <= k <= len(leaves) and 0 <= i < len(leaves[k - 1])):
            raise FairError("fair_opening_position", index=k, position=i + 1)
        if not hmac.compare_digest(leaf(k, i, card, salt_hex), leaves[k - 1][i]):
            raise FairError("fair_opening_mismatch", card=card, index=k, position=i + 1)
    said.append(french("fair_openings_ok", {"count": len(openings), "digests": len(leaves)}))
    return said


def check_digests(record: dict[str, Any]) -> list[str]:
    """The archive's side (``tavern verify``, the admins' audit): the
    digests a record says were shown before the deal follow from its server
    seed and its deck — so the openings its players received could only be
    the cards dealt. A record from before the per-card commitments has none."""
    f = record["fair"]
    if "cards" not in f:
        return []
    mine, shown = deal_cards(record).digests(), [str(d) for d in f["cards"]]
    if mine != shown:
        bad = next((k for k, (a, b) in enumerate(zip(mine, shown, strict=False), start=1) if a != b),
                   min(len(mine), len(shown)) + 1)
        raise FairError("fair_cards_mismatch", index=bad)
    return [french_line("fair_cards_ok", count=len(f["cards"]))]


def verify(record: Any) -> list[str]:
    """What ``tavern verify`` checks: a whole record (the archive's, or a
    player's reveal once ``TAVERN_FAIR_REVEAL_DAYS`` have passed) by its seed
    and its per-card digests; a player's early reveal (``GET
    /api/me/deals/{id}/fair`` before the delay: openings, no seed) by its
    openings against the digests it carries — which the player compares with
    the ones he noted before the deal. Raises :class:`FairError` (French)."""
    from tavern import fair

    if not isinstance(record, dict) or not isinstance(record.get("fair"), dict):
        raise FairError("fair_no_block")
    f = record["fair"]
    if "server_seed" in f:
        return fair.verify(record) + check_digests(record)
    if "openings" not in f:
        raise FairError("fair_no_block")
    if f.get("cards_scheme") != CARDS_SCHEME:
        raise FairError("fair_scheme", scheme=str(f.get("cards_scheme")), wanted=CARDS_SCHEME)
    cards, promised = f.get("cards"), f.get("commitment")
    if not isinstance(cards, list) or not isinstance(promised, str):
        raise FairError("fair_opening_malformed", kind="KeyError", detail="cards, commitment")
    return check_openings(f, [str(d) for d in cards], promised)


def french_line(code: str, **params: Any) -> str:
    from tavern.catalogue import french

    return french(code, params)


# --- which positions each player saw ----------------------------------------


class _Placed(str):
    """A card code that knows its place in the deal's shuffles: the replay
    deals these, and a player's views say which physical cards he saw — a
    second copy of a card (double rami, Gin's deck aside, a rebuilt stock)
    is another position, never confused with the one he saw."""

    at: tuple[int, int]


def _placed(card: str, at: tuple[int, int]) -> _Placed:
    out = _Placed(card)
    out.at = at
    return out


def _walk(value: Any, unique: dict[str, tuple[int, int]], into: set[tuple[int, int]]) -> None:
    """The positions of the cards in a view: a tagged card's own; a code
    the deal holds at one position only (a card played comes from the
    recorded action, untagged), that one; any other code, none. A loop over
    a stack, exact types first: it reads every view of every step of a deal
    (bench/bench_deal_end.py)."""
    stack = [value]
    pop, push, add, get = stack.pop, stack.extend, into.add, unique.get
    while stack:
        v = pop()
        kind = type(v)
        if kind is _Placed:
            add(v.at)
        elif kind is str:
            at = get(v)
            if at is not None:
                add(at)
        elif kind is dict:
            push(v.values())
        elif kind is list or kind is tuple:
            push(v)
        elif v is None or kind is int or kind is bool or kind is float:
            continue  # chips, counts, flags: most of a view
        elif isinstance(v, _Placed):
            add(v.at)
        elif isinstance(v, str):
            at = get(v)
            if at is not None:
                add(at)
        elif isinstance(v, dict):
            push(v.values())
        elif isinstance(v, (list, tuple)):
            push(v)


def seen_positions(record: dict[str, Any]) -> dict[str, list[tuple[int, int]]]:
    """For each player of the deal, the positions (shuffle, index) whose card
    he was shown: the deal replayed from its record with every card tagged
    by its position, and each player's own view (``engine.view``, what the
    table sends him: his hand, the board, the discard pile, the melds laid,
    the hands shown at a showdown) read after every step. A mucked hand, the
    stock, the widow he did not take, another's discards never are in it.

    A card code the deal holds at several positions (double rami's two
    packs, Gin's deck aside, a card in a rebuilt stock) is opened only where
    the view holds its tagged copy: an untagged copy (a card played, taken
    from the recorded action) does not say which position it came from, and
    opening the other would tell where that one went.

    The views are read without the player's legal actions where the game
    can leave them out (``view(player, legal=False)``: the rami family,
    Rummoli and Rams; Gin's knock arrangements were most of a deal's end): a
    legal action names cards of his hand or of the table, which the view
    holds anyway. Poker's views are read as the table sends them: the public
    view once a step, then each player's own part (his hole cards, his legal
    actions; ``base.public_and_own``). tests/test_deal_end_fast.py holds
    this to the whole views, deal by deal in every game
    (bench/_deal_end_old.py, the code before)."""
    from tavern.games import registry
    from tavern.games.base import public_and_own

    parts = shuffles_of(record)
    firsts = len(parts) - len(record.get("reshuffles") or [])
    where: dict[str, list[tuple[int, int]]] = {}
    for k, cards in enumerate(parts, start=1):
        for i, c in enumerate(cards):
            where.setdefault(c, []).append((k, i))
    unique = {c: ats[0] for c, ats in where.items() if len(ats) == 1}

    def mark(deal: dict[str, Any]) -> dict[str, Any]:
        deck = [_placed(c, (k, i)) for k, cards in enumerate(parts[:firsts], start=1) for i, c in enumerate(cards)]
        again = [[_placed(c, (firsts + n, i)) for i, c in enumerate(r)] for n, r in enumerate(parts[firsts:], start=1)]
        return {**deal, "deck": deck, "reshuffles": again}

    players = [s["player"] for s in record["seats"]]
    seen: dict[str, set[tuple[int, int]]] = {p: set() for p in players}
    quick: bool | None = None
    for engine, _ in registry.replay_steps(record, mark=mark):
        forgo = getattr(engine, "forgo_equity", None)  # Ramponneau's all-in equity: cards the view holds anyway
        if forgo is not None:
            forgo()
        split = public_and_own(engine, players)
        if split is not None:  # poker: the public view read once a step, then each player's own part
            public, owns = split
            common: set[tuple[int, int]] = set()
            _walk(public, unique, common)
            for p in players:
                seen[p] |= common
                _walk([value for _, value in owns.get(p, [])], unique, seen[p])
            continue
        if quick is None:
            quick = "legal" in inspect.signature(engine.view).parameters
        for p in players:
            _walk(engine.view(p, legal=False) if quick else engine.view(p), unique, seen[p])
    return {p: sorted(s) for p, s in seen.items()}


def deal_end(cards: DealCards | None, record: dict[str, Any], players: Iterable[str]
             ) -> tuple[dict[str, list[tuple[int, int]]], dict[str, dict[str, Any]]]:
    """What a table works out when a deal ends, in a worker thread (a
    replay and a salt per opening: never on the table's loop): which
    positions each player saw, and each one's reveal. ``cards``: the deal's
    commitments as the table made them (its digests already taken), else
    re-derived from the record."""
    seen = seen_positions(record)
    mine = cards if cards is not None else deal_cards(record)
    return seen, {p: mine.reveal(seen.get(p, [])) for p in players}


def player_reveal(record: dict[str, Any], player: str, ended: dt.datetime | None, days: int,
                  now: dt.datetime) -> dict[str, Any]:
    """What « Mes donnes » gives ``player`` of one of his finished deals
    (``GET /api/me/deals/{id}/fair``): ``days`` days after its end (never
    with 0: ``TAVERN_FAIR_REVEAL_DAYS``) the whole block ``tavern verify``
    reads, seed and deck; before, the openings of the cards he saw and the
    day the seed comes (``seed_after``)."""
    base = {"game": record.get("game"), "config": record.get("config")}
    f = dict(record["fair"])
    due = ended + dt.timedelta(days=days) if days > 0 and ended is not None else None
    if due is not None and now >= due:
        return {**base, "fair": {k: v for k, v in f.items() if k != "seen"}, "deck": record.get("deck"),
                "reshuffles": record.get("reshuffles") or []}
    seen = f.get("seen")
    mine = seen.get(player, []) if isinstance(seen, dict) else seen_positions(record).get(player, [])
    common = {k: v for k, v in f.items() if k not in ("server_seed", "seen")}
    if "cards" not in f:  # a deal archived before the per-card commitments: nothing to open
        return {**base, "fair": common, "seed_after": due and due.isoformat()}
    return {**base, "fair": {**common, **deal_cards(record).reveal(map(tuple, mine))},
            "seed_after": due and due.isoformat()}
