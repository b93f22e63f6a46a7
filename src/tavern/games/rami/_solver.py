"""The best arrangement of a hand: the melds leaving the fewest deadwood points.

Two exact solvers, one answer:

- **the fast path** (no wild joker in the hand, sets of distinct suits): a hand
  is four per-suit rank patterns. Once the sets are chosen, runs live inside one
  suit, so the rest of the problem splits into four independent per-suit
  problems whose answers are memoized per :class:`MeldRules` (a single deck has
  only 8,192 suit patterns). Sets are only possible on ranks held in three
  suits, found with bit tricks, so most hands cost four lookups. A one-deck
  hand uses one bit per card (13-bit suit masks, list memos); a hand with a
  card twice uses 4-bit counts per card.
- **the general path** (jokers, any rules): candidate melds as bitmasks over
  the hand's real cards plus a joker count, then a memoized DP that takes the
  lowest remaining card and either leaves it as deadwood or puts it in one of
  the candidate melds containing it.

In the count layout a suit is 4 bits per rank (rank index ``r`` at bit ``4r``),
so up to 15 copies of a card (15 decks) fit.

Long because both solvers share one set of precomputed tables (``_Tables``)
and the hot path's packed layouts: apart, each would need the other's
internals.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product
from typing import Any

from tavern.games.rami.meldcore import (
    ORDER,
    RANK_INDEX,
    SUIT_INDEX,
    SUITS,
    Arrangement,
    Meld,
    MeldRules,
    _code,
    _line,
    _wild,
    _windows,
    is_joker,
    points,
)

_NIBBLES = 0x1111111111111  # bit 4r for r in 0..12
_UNIT = [1 << (4 * r) for r in range(13)]
#: card code -> (suit index, 1 << 4·rank)
_INFO = {ORDER[r] + s: (SUIT_INDEX[s], _UNIT[r]) for r in range(13) for s in SUITS}


# The hot path packs a whole hand into one integer: suit s occupies 52 bits
# from bit 52·s, rank r a 4-bit count at bit 4r of it. ``sum(map(...))`` then
# builds it in C, and each suit's slice, taken with its offset intact, is the
# key of the memo shared by all four suits.
_W = 52
_M = (1 << _W) - 1
_PACKED = {ORDER[r] + SUITS[s]: 1 << (_W * s + 4 * r) for r in range(13) for s in range(4)}
_NIB4 = sum(_NIBBLES << (_W * s) for s in range(4))
_PK = _PACKED.__getitem__
_new_tuple = tuple.__new__  # builds an Arrangement without NamedTuple's Python-level __new__
_W2, _W3 = 2 * _W, 3 * _W
#: any count of 2 or more (a second copy of a card: two or more decks)
_DUP = _NIB4 * 14
_FIVES = _NIBBLES * 5  # + 5 per rank: a sum of 3 or 4 suits sets the nibble's 8 bit
_EIGHTS = _NIBBLES * 8


class _Tables:
    """Everything precomputed for one :class:`MeldRules`."""

    def __init__(self, rules: MeldRules) -> None:
        self.rules = rules
        # windows containing each rank, as (presence mask over bits 4r, ranks)
        self.windows_with: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(13)]
        seen = set()
        for length in range(rules.min_run, 14):
            for win in _windows(rules, length):
                t = tuple(win)
                if t in seen:
                    continue
                seen.add(t)
                m = 0
                for r in win:
                    m |= _UNIT[r]
                for r in win:
                    self.windows_with[r].append((m, t))
        circular, positions = _line(rules)
        self.circular = circular
        self.line = [p % 13 for p in positions]
        self.rank_points = [[points(ORDER[r] + s, rules) for r in range(13)] for s in SUITS]
        shared = rules.card_points is None
        d: dict[int, tuple[int, tuple[Any, ...]]] = {0: (0, ())}
        self.suit_memo = [d if shared else {0: (0, ())} for _ in SUITS]
        # per suit (the cards carry the suit): best runs and deadwood as cards
        pts: dict[int, int] = {0: 0}
        self.pts = [pts if shared else {0: 0} for _ in SUITS]  # suit counts -> deadwood points
        self.run_templates: dict[tuple[int, int], list[tuple[Any, ...]]] = {}
        # one-deck hot path: memos indexed by a suit's 13-bit mask
        pts1: list[int | None] = [None] * 8192
        self.pts1: list[list[int | None]] = [pts1 if shared else [None] * 8192 for _ in SUITS]
        self.parts1: list[list[tuple[Any, ...] | None]] = [[None] * 8192 for _ in SUITS]
        self.set_options1: dict[int, list[tuple[Any, ...]]] = {}
        self.recent: dict[tuple[str, ...], Arrangement] = {}  # general path
        self.pack_options: dict[int, list[tuple[int, int, tuple[Meld, ...]]]] = {}
        self.parts_memo: list[dict[int, tuple[tuple[Meld, ...], tuple[str, ...], int]]] = [
            {} for _ in SUITS
        ]

        self.fast = (
            rules.distinct_suits_in_set and min(rules.set_sizes) == 3 and max(rules.set_sizes) <= 4
        )
        self.packings: dict[tuple[int, ...], list[tuple[tuple[int, ...], tuple[Any, ...]]]] = {}
        self.set_shapes = [
            frozenset(c)
            for n in sorted(set(rules.set_sizes))
            if n <= 4
            for c in combinations(range(4), n)
        ]


_TABLES: dict[MeldRules, _Tables] = {}


def _tables(rules: MeldRules) -> _Tables:
    """The tables of ``rules``, kept on the rules object itself: hashing a frozen
    dataclass of 13 fields costs more than the whole hot path's lookups. Equal
    rules objects share one set of tables."""
    try:
        tables: _Tables = rules._solver_tables  # type: ignore[attr-defined]  # set below
        return tables
    except AttributeError:
        pass
    t = _TABLES.get(rules)
    if t is None:
        if len(_TABLES) > 64:  # rules objects are few; bound the cache anyway
            _TABLES.clear()
        t = _TABLES[rules] = _Tables(rules)
    object.__setattr__(rules, "_solver_tables", t)  # frozen, but not its cache
    return t


# ---------------------------------------------------------------- fast path


def _suit(t: _Tables, s: int, key: int) -> tuple[int, tuple[Any, ...]]:
    """(deadwood points, runs) for one suit's counts, runs only."""
    memo = t.suit_memo[s]
    v = memo.get(key)
    if v is not None:
        return v
    pres = (key | key >> 1 | key >> 2 | key >> 3) & _NIBBLES
    low = pres & -pres
    r = low.bit_length() // 4
    sub = _suit(t, s, key - low)
    best = (t.rank_points[s][r] + sub[0], sub[1])
    if best[0]:
        for wm, ranks in t.windows_with[r]:
            if pres & wm == wm:
                sub = _suit(t, s, key - wm)
                if sub[0] < best[0]:
                    best = (sub[0], sub[1] + (ranks,))
                    if not best[0]:
                        break
    memo[key] = best
    return best


def _packings(t: _Tables, counts: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[Any, ...]]]:
    """Every way to take zero or more sets (of distinct suits) out of one rank's
    per-suit counts: (per-suit decrements, the sets as suit tuples)."""
    v = t.packings.get(counts)
    if v is not None:
        return v
    shapes = [sh for sh in t.set_shapes if all(counts[s] for s in sh)]
    out: list[tuple[tuple[int, ...], tuple[Any, ...]]] = []

    def rec(start: int, left: list[int], taken: tuple[Any, ...]) -> None:
        out.append((tuple(counts[i] - left[i] for i in range(4)), taken))
        for i in range(start, len(shapes)):
            sh = shapes[i]
            if all(left[s] for s in sh):
                for s in sh:
                    left[s] -= 1
                rec(i, left, taken + (tuple(sorted(sh)),))
                for s in sh:
                    left[s] += 1

    rec(0, list(counts), ())
    t.packings[counts] = out
    return out


def _fast_keys(hand: list[str]) -> list[int] | None:
    keys = [0, 0, 0, 0]
    info = _INFO
    try:
        for c in hand:
            s, u = info[c]
            keys[s] += u
    except KeyError:
        return None
    return keys


def _fast(t: _Tables, keys: list[int], want_melds: bool, k: int = 0, three: int = -1) -> Any:
    # Any: the points alone, or (points, sets, keys left) with ``want_melds``.
    """Minimal deadwood; with ``want_melds``: (points, chosen sets, per-suit keys left).
    The hot paths hand in the packed hand ``k`` and the ranks held in three
    suits (``three``, bit 4r) they already know.

    Long because it is the hot path of every rami decision, written inline
    (no helper calls per set shape) for the speed bench/bench_melds.py measures."""
    k0, k1, k2, k3 = keys
    if three < 0:
        a = (k0 | k0 >> 1 | k0 >> 2 | k0 >> 3) & _NIBBLES
        b = (k1 | k1 >> 1 | k1 >> 2 | k1 >> 3) & _NIBBLES
        c = (k2 | k2 >> 1 | k2 >> 2 | k2 >> 3) & _NIBBLES
        d = (k3 | k3 >> 1 | k3 >> 2 | k3 >> 3) & _NIBBLES
        three = (a & b & (c | d)) | (c & d & (a | b))
        k = k0 | k1 << _W | k2 << 2 * _W | k3 << 3 * _W
    m0, m1, m2, m3 = t.suit_memo
    if not three:
        total = (
            (m0.get(k0) or _suit(t, 0, k0))[0]
            + (m1.get(k1) or _suit(t, 1, k1))[0]
            + (m2.get(k2) or _suit(t, 2, k2))[0]
            + (m3.get(k3) or _suit(t, 3, k3))[0]
        )
        return (total, (), (k0, k1, k2, k3)) if want_melds else total
    # Ranks held in three or four suits: try every packing of sets on each.
    # A packing's decrement is one packed integer (the hot path's layout).
    options = []
    po = t.pack_options
    while three:
        low = three & -three
        three ^= low
        sh = low.bit_length() - 1
        col = (
            (k0 >> sh & 15) | (k1 >> sh & 15) << 4 | (k2 >> sh & 15) << 8 | (k3 >> sh & 15) << 12
        ) << 6 | sh
        opts = po.get(col)
        if opts is None:
            counts = ((k0 >> sh) & 15, (k1 >> sh) & 15, (k2 >> sh) & 15, (k3 >> sh) & 15)
            r = sh // 4
            opts = po[col] = [
                (
                    sum(q[s] << (_W * s + sh) for s in range(4)),
                    sh,
                    tuple(  # the sets as melds, built once
                        Meld("set", cs, (None,) * len(cs))
                        for cs in (tuple(ORDER[r] + SUITS[x] for x in suits) for suits in sets)
                    ),
                )
                for q, sets in _packings(t, counts)
            ]
        options.append(opts)
    q0, q1, q2, q3 = t.pts
    best = None
    for combo in ((o,) for o in options[0]) if len(options) == 1 else product(*options):
        x = k
        for dec, _sh, _melds in combo:
            x -= dec
        y0, y1, y2, y3 = x & _M, x >> _W & _M, x >> 2 * _W & _M, x >> 3 * _W
        try:
            total = q0[y0] + q1[y1] + q2[y2] + q3[y3]
        except KeyError:
            total = _pts(t, 0, y0) + _pts(t, 1, y1) + _pts(t, 2, y2) + _pts(t, 3, y3)
        if best is None or total < best[0]:
            best = (total, combo, x)
            if not total:
                break
    assert best is not None
    if not want_melds:
        return best[0]
    x = best[2]
    return best[0], best[1], (x & _M, x >> _W & _M, x >> 2 * _W & _M, x >> 3 * _W)


def _suit_parts(t: _Tables, s: int, key: int) -> tuple[tuple[Meld, ...], tuple[str, ...], int]:
    """The runs (as :class:`Meld`) and deadwood cards of one suit's best play,
    memoized like the points (melds are immutable, so they are shared)."""
    memo = t.parts_memo[s]
    v = memo.get(key)
    if v is not None:
        return v
    suit = SUITS[s]
    runs = _suit(t, s, key)[1]
    melds = []
    k = key
    for ranks in runs:
        cs = tuple(ORDER[r] + suit for r in ranks)
        melds.append(Meld("run", cs, (None,) * len(cs)))
        for r in ranks:
            k -= _UNIT[r]
    dead: list[str] = []
    for r in range(13):
        n = (k >> (4 * r)) & 15
        if n:
            dead.extend([ORDER[r] + suit] * n)
    v = memo[key] = (tuple(melds), tuple(dead), _suit(t, s, key)[0])
    return v


def _fast_arrangement(t: _Tables, keys: list[int], k: int = 0, three: int = -1) -> Arrangement:
    total, combo, left = _fast(t, keys, True, k, three)
    melds: list[Meld] = []
    for _dec, _sh, set_melds in combo:
        melds.extend(set_melds)
    p0, p1, p2, p3 = _parts(t, 0, left[0]), _parts(t, 1, left[1]), _parts(t, 2, left[2]), _parts(t, 3, left[3])
    melds += [*p0[0], *p1[0], *p2[0], *p3[0]]
    return Arrangement(melds, [*p0[1], *p1[1], *p2[1], *p3[1]], total)


# ---------------------------------------------------------------- general path


def _candidates(nat: list[str], jokers: int, rules: MeldRules,
                t: _Tables) -> list[list[tuple[int, int, tuple[Any, ...]]]]:
    """Candidate melds as {(natural mask, jokers used): spec}, grouped by lowest bit.

    Long because sets and runs, with and without jokers, are enumerated in
    one pass over the hand's index maps, which the two share."""
    found: dict[tuple[int, int], tuple[Any, ...]] = {}
    by_rank: dict[str, list[int]] = {}
    by_suit_rank: dict[tuple[str, int], list[int]] = {}
    for i, c in enumerate(nat):
        if is_joker(c):
            continue  # jokers that are not wild never meld
        by_rank.setdefault(c[0], []).append(i)
        by_suit_rank.setdefault((c[1], RANK_INDEX[c[0]]), []).append(i)
    max_set = max(rules.set_sizes)
    for _rank, idx in by_rank.items():
        for n in range(rules.min_natural, min(len(idx), max_set) + 1):
            for combo in combinations(idx, n):
                if rules.distinct_suits_in_set and len({nat[i][1] for i in combo}) != n:
                    continue
                mask = 0
                for i in combo:
                    mask |= 1 << i
                for size in rules.set_sizes:
                    k = size - n
                    if 0 <= k <= jokers and not (rules.distinct_suits_in_set and size > 4):
                        found.setdefault((mask, k), ("set", combo, k))
    held_by_suit: dict[str, int] = {}
    count_by_suit: dict[str, int] = {}
    first_by_suit: dict[str, int] = {}
    for (s, r), idx in by_suit_rank.items():
        held_by_suit[s] = held_by_suit.get(s, 0) | 1 << r
        count_by_suit[s] = count_by_suit.get(s, 0) + len(idx)
        first_by_suit[s] = min(first_by_suit.get(s, len(nat)), min(idx))
    min_nat = rules.min_natural
    for s, held_mask in held_by_suit.items():
        if count_by_suit[s] == held_mask.bit_count():
            # One copy of each rank, and (the DP sorts its cards by suit then
            # rank) the suit's cards are consecutive bits from `off`: the runs
            # depend only on which ranks are held, so they are memoized.
            off = first_by_suit[s]
            for cm, k, win, real, ords in _run_templates(t, held_mask, jokers):
                key = (cm << off, k)
                if key not in found:
                    found[key] = ("run", s, win, real, tuple(off + o for o in ords))
            continue
        for win, missing in _windows_within(t, held_mask, jokers):
            if len(win) - missing < min_nat:
                continue
            opts = [by_suit_rank.get((s, r), ()) for r in win]
            held = [p for p, o in enumerate(opts) if o]
            for extra in range(0, min(jokers - missing, len(held) - min_nat) + 1):
                k = missing + extra
                for as_joker in combinations(held, extra):
                    real = tuple(p for p in held if p not in as_joker) if extra else tuple(held)
                    for picks in product(*(opts[p] for p in real)):
                        mask = 0
                        for i in picks:
                            mask |= 1 << i
                        if (mask, k) not in found:
                            found[(mask, k)] = ("run", s, win, real, picks)
    by_low: list[list[tuple[int, int, tuple[Any, ...]]]] = [[] for _ in nat]
    for (mask, k), spec in found.items():
        low = (mask & -mask).bit_length() - 1
        by_low[low].append((mask, k, spec))
    return by_low


def _run_templates(t: _Tables, held: int, jokers: int) -> list[tuple[Any, ...]]:
    """The runs of one suit holding one card of each rank in ``held``, with at
    most ``jokers`` jokers: (mask over the suit's cards in rank order, jokers
    used, window, positions of real cards in it, their ordinals)."""
    key = (held, jokers)
    v = t.run_templates.get(key)
    if v is not None:
        return v
    ordinal: dict[int, int] = {}
    for r in range(13):
        if held >> r & 1:
            ordinal[r] = len(ordinal)
    min_nat = t.rules.min_natural
    seen: set[tuple[int, int]] = set()
    out = []
    for win, missing in _windows_within(t, held, jokers):
        held_pos = [p for p, r in enumerate(win) if held >> r & 1]
        if len(held_pos) < min_nat:
            continue
        for extra in range(0, min(jokers - missing, len(held_pos) - min_nat) + 1):
            k = missing + extra
            for as_joker in combinations(held_pos, extra):
                real = tuple(p for p in held_pos if p not in as_joker)
                ords = tuple(ordinal[win[p]] for p in real)
                cm = 0
                for o in ords:
                    cm |= 1 << o
                if (cm, k) not in seen:
                    seen.add((cm, k))
                    out.append((cm, k, win, real, ords))
    if len(t.run_templates) > 100_000:
        t.run_templates.clear()
    t.run_templates[key] = out
    return out


def _windows_within(t: _Tables, held: int, jokers: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Run windows of one suit needing at most ``jokers`` jokers: grow each
    window from every start until too many ranks are missing."""
    line = t.line
    n = len(line)
    longest = min(13, n)
    min_run = t.rules.min_run
    for a in range(n if not t.circular else 13):
        missing = 0
        ranks: list[int] = []
        for b in range(longest):
            if not t.circular and a + b >= n:
                break
            r = line[(a + b) % n]
            if not held >> r & 1:
                missing += 1
                if missing > jokers:
                    break
            ranks.append(r)
            if b + 1 >= min_run:
                yield tuple(ranks), missing


def _nat_order(card: str) -> tuple[int, int]:
    if is_joker(card):
        return (4, 0)
    return (SUIT_INDEX[card[1]], RANK_INDEX[card[0]])


class _DP:
    def __init__(self, hand: list[str], rules: MeldRules) -> None:
        self.rules = rules
        self.t = _tables(rules)
        # sorted by suit then rank (jokers that are not wild last): a suit's
        # cards are then consecutive bits, as _run_templates wants
        self.nat = sorted((c for c in hand if not _wild(c, rules)), key=_nat_order)
        self.wild = [c for c in hand if _wild(c, rules)]
        self.pts = [points(c, rules) for c in self.nat]
        self.jp = [points(c, rules) for c in self.wild]
        self.by_low = _candidates(self.nat, len(self.wild), rules, self.t)
        self.memo: dict[tuple[int, int], tuple[int, object]] = {}

    def f(self, mask: int, j: int) -> int:
        if not mask:
            # unused jokers are deadwood (the dearest ones are the ones used)
            return sum(sorted(self.jp)[:j]) if j else 0
        key = (mask, j)
        v = self.memo.get(key)
        if v is not None:
            return v[0]
        i = (mask & -mask).bit_length() - 1
        best = self.pts[i] + self.f(mask ^ (1 << i), j)
        choice: object = None
        for cm, k, spec in self.by_low[i]:
            if k <= j and cm & mask == cm:
                v2 = self.f(mask ^ cm, j - k)
                if v2 < best:
                    best, choice = v2, (cm, k, spec)
        self.memo[key] = (best, choice)
        return best

    def arrangement(self, mask: int, j: int) -> Arrangement:
        total = self.f(mask, j)
        melds: list[Meld] = []
        deadwood: list[str] = []
        jokers = sorted(self.wild, key=lambda c: -points(c, self.rules))  # dearest used first
        while mask:
            i = (mask & -mask).bit_length() - 1
            _v, choice = self.memo[(mask, j)]
            if choice is None:
                deadwood.append(self.nat[i])
                mask ^= 1 << i
                continue
            cm: int
            k: int
            spec: Any
            cm, k, spec = choice  # type: ignore[misc]  # the candidates' triples, typed loosely for speed
            use, jokers = jokers[:k], jokers[k:]
            melds.append(self._meld(spec, use))
            mask ^= cm
            j -= k
        deadwood.extend(jokers)
        return Arrangement(melds, deadwood, total)

    def _meld(self, spec: tuple[Any, ...], jokers: list[str]) -> Meld:
        if spec[0] == "set":
            _kind, combo, k = spec
            cs = [self.nat[i] for i in combo]
            rank = cs[0][0]
            missing = [s for s in SUITS if s not in {c[1] for c in cs}] or list(SUITS)
            sf = [None] * len(cs) + [rank + missing[x % len(missing)] for x in range(k)]
            return Meld("set", tuple(cs) + tuple(jokers), tuple(sf))
        _kind, suit, win, real, picks = spec
        at = dict(zip(real, picks, strict=False))
        it = iter(jokers)
        cs2: list[str] = []
        sf2: list[str | None] = []
        for p, r in enumerate(win):
            i = at.get(p)
            if i is None:
                cs2.append(next(it))
                sf2.append(_code(r, suit))
            else:
                cs2.append(self.nat[i])
                sf2.append(None)
        return Meld("run", tuple(cs2), tuple(sf2))


# ---------------------------------------------------------------- entry points


def _pts(t: _Tables, s: int, key: int) -> int:
    v = t.pts[s].get(key)
    if v is None:
        v = t.pts[s][key] = _suit(t, s, key)[0]
    return v


def _parts(t: _Tables, s: int, key: int) -> tuple[tuple[Meld, ...], tuple[str, ...], int]:
    v = t.parts_memo[s].get(key)
    return v if v is not None else _suit_parts(t, s, key)


# One deck (no card twice: Gin, Rami français, most hands) packs still
# tighter: one bit per card, suit s at bits 13s..13s+12, so each suit is a
# 13-bit mask and the memos are plain lists indexed by it. A duplicate card
# would carry into the next bit, which the popcount shows.
_PACKED1 = {ORDER[r] + SUITS[s]: 1 << (13 * s + r) for r in range(13) for s in range(4)}
_PK1 = _PACKED1.__getitem__
#: a 13-bit rank mask spread to the 4-bit-per-rank count layout
_SPREAD = [sum(_UNIT[r] for r in range(13) if m >> r & 1) for m in range(1 << 13)]


def _pts1(t: _Tables, s: int, m: int) -> int:
    v = t.pts1[s][m]
    if v is None:
        v = t.pts1[s][m] = _suit(t, s, _SPREAD[m])[0]
    return v


def _parts1(t: _Tables, s: int, m: int) -> tuple[tuple[Meld, ...], tuple[str, ...], int]:
    v = t.parts1[s][m]
    if v is None:
        v = t.parts1[s][m] = _parts(t, s, _SPREAD[m])
    return v


def _set_options1(t: _Tables, r: int, a: int, b: int, c: int, d: int) -> list[tuple[Any, ...]]:
    """The ways to take sets out of rank ``r`` (held in 3 or 4 suits, one deck):
    (removal mask per suit, the set as a Meld or None)."""
    bit = 1 << r
    pattern = (a & bit and 1) | (b & bit and 2) | (c & bit and 4) | (d & bit and 8)
    key = r << 4 | pattern
    v = t.set_options1.get(key)
    if v is None:
        present = [s for s in range(4) if pattern >> s & 1]
        v = [(0, 0, 0, 0, None)]
        for size in sorted(set(t.rules.set_sizes)):
            for suits in combinations(present, size):
                cs = tuple(ORDER[r] + SUITS[s] for s in suits)
                rm = [bit if s in suits else 0 for s in range(4)]
                v.append((rm[0], rm[1], rm[2], rm[3], Meld("set", cs, (None,) * len(cs))))
        t.set_options1[key] = v
    return v


def _sets1(t: _Tables, a: int, b: int, c: int, d: int, three: int) -> Any:
    # Any: (points, sets, four masks) — the shape the hot path unpacks.
    """One deck, some rank held in three suits: the best choice of sets, as
    (points, the sets as Melds, the four suit masks left)."""
    q0, q1, q2, q3 = t.pts1
    best = None
    if not three & (three - 1):  # one rank only (the usual case): no product
        for o in _set_options1(t, three.bit_length() - 1, a, b, c, d):
            w, x, y, z = a ^ o[0], b ^ o[1], c ^ o[2], d ^ o[3]
            try:
                total = q0[w] + q1[x] + q2[y] + q3[z]
            except TypeError:
                total = _pts1(t, 0, w) + _pts1(t, 1, x) + _pts1(t, 2, y) + _pts1(t, 3, z)
            if best is None or total < best[0]:
                best = (total, (o,), w, x, y, z)
        return best
    options = []
    while three:
        low = three & -three
        three ^= low
        options.append(_set_options1(t, low.bit_length() - 1, a, b, c, d))
    for combo in product(*options):
        w, x, y, z = a, b, c, d
        for ra, rb, rc, rd, _m in combo:
            w ^= ra
            x ^= rb
            y ^= rc
            z ^= rd
        try:
            total = q0[w] + q1[x] + q2[y] + q3[z]
        except TypeError:
            total = _pts1(t, 0, w) + _pts1(t, 1, x) + _pts1(t, 2, y) + _pts1(t, 3, z)
        if best is None or total < best[0]:
            best = (total, combo, w, x, y, z)  # type: ignore[assignment]  # combo's length varies
            if not total:
                break
    return best


def min_points(hand: Sequence[str], rules: MeldRules) -> int:
    try:
        t = rules._solver_tables  # type: ignore[attr-defined]  # the tables cached on the rules object (_tables)
    except AttributeError:
        t = _tables(rules)
    if t.fast:
        try:
            k = sum(map(_PK1, hand))
        except KeyError:
            k = -1  # a joker: the general path
        if k >= 0 and k.bit_count() == len(hand):
            a, b, c, d = k & 8191, k >> 13 & 8191, k >> 26 & 8191, k >> 39
            three = (a & b & (c | d)) | (c & d & (a | b))  # ranks held in 3 suits
            if not three:  # no set possible: four independent suits
                q0, q1, q2, q3 = t.pts1
                try:
                    points: int = q0[a] + q1[b] + q2[c] + q3[d]
                    return points
                except TypeError:  # a suit pattern not met yet
                    return _pts1(t, 0, a) + _pts1(t, 1, b) + _pts1(t, 2, c) + _pts1(t, 3, d)
            with_sets: int = _sets1(t, a, b, c, d, three)[0]
            return with_sets
        if k >= 0:  # two decks or more: 4-bit counts
            k = sum(map(_PK, hand))
            x0, x1, x2, x3 = k & _M, k >> _W & _M, k >> _W2 & _M, k >> _W3
            p = (k | k >> 1 | k >> 2 | k >> 3) & _NIB4
            n = (p & _M) + (p >> _W & _M) + (p >> _W2 & _M) + (p >> _W3)
            e = (n + _FIVES) & _EIGHTS  # the 8 bit of a rank's nibble: held in 3 suits
            if not e:
                return _pts(t, 0, x0) + _pts(t, 1, x1) + _pts(t, 2, x2) + _pts(t, 3, x3)
            least: int = _fast(t, [x0, x1, x2, x3], False, k, e >> 3)
            return least
    return _general(t, hand, rules).points


def best_arrangement(hand: Sequence[str], rules: MeldRules) -> Arrangement:
    """The melds leaving the fewest deadwood points (ties: any of the best)."""
    try:
        t = rules._solver_tables  # type: ignore[attr-defined]  # the tables cached on the rules object (_tables)
    except AttributeError:
        t = _tables(rules)
    if t.fast:
        try:
            k = sum(map(_PK1, hand))
        except KeyError:
            k = -1  # a joker: the general path
        if k >= 0 and k.bit_count() == len(hand):
            a, b, c, d = k & 8191, k >> 13 & 8191, k >> 26 & 8191, k >> 39
            three = (a & b & (c | d)) | (c & d & (a | b))
            if not three:
                q0, q1, q2, q3 = t.parts1
                p0, p1, p2, p3 = q0[a], q1[b], q2[c], q3[d]
                if p0 is None or p1 is None or p2 is None or p3 is None:
                    p0, p1, p2, p3 = _parts1(t, 0, a), _parts1(t, 1, b), _parts1(t, 2, c), _parts1(t, 3, d)
                return _new_tuple(Arrangement, (
                    [*p0[0], *p1[0], *p2[0], *p3[0]],
                    [*p0[1], *p1[1], *p2[1], *p3[1]],
                    p0[2] + p1[2] + p2[2] + p3[2],
                ))
            total, combo, w, x, y, z = _sets1(t, a, b, c, d, three)
            q0, q1, q2, q3 = t.parts1
            p0, p1, p2, p3 = q0[w], q1[x], q2[y], q3[z]
            if p0 is None or p1 is None or p2 is None or p3 is None:
                p0, p1, p2, p3 = _parts1(t, 0, w), _parts1(t, 1, x), _parts1(t, 2, y), _parts1(t, 3, z)
            if len(combo) == 1:
                m = combo[0][4]
                sets = [m] if m is not None else []
            else:
                sets = [o[4] for o in combo if o[4] is not None]
            return _new_tuple(Arrangement, (
                [*sets, *p0[0], *p1[0], *p2[0], *p3[0]],
                [*p0[1], *p1[1], *p2[1], *p3[1]],
                total,
            ))
        if k >= 0:
            k = sum(map(_PK, hand))
            x0, x1, x2, x3 = k & _M, k >> _W & _M, k >> _W2 & _M, k >> _W3
            p = (k | k >> 1 | k >> 2 | k >> 3) & _NIB4
            n = (p & _M) + (p >> _W & _M) + (p >> _W2 & _M) + (p >> _W3)
            e = (n + _FIVES) & _EIGHTS
            if not e:
                p0, p1, p2, p3 = _parts(t, 0, x0), _parts(t, 1, x1), _parts(t, 2, x2), _parts(t, 3, x3)
                return _new_tuple(Arrangement, (
                    [*p0[0], *p1[0], *p2[0], *p3[0]],
                    [*p0[1], *p1[1], *p2[1], *p3[1]],
                    p0[2] + p1[2] + p2[2] + p3[2],
                ))
            return _fast_arrangement(t, [x0, x1, x2, x3], k, e >> 3)
    arr = _general(t, hand, rules)
    return _new_tuple(Arrangement, (list(arr.melds), list(arr.deadwood), arr.points))


def _general(t: _Tables, hand: Sequence[str], rules: MeldRules) -> Arrangement:
    """The general path, with a small cache of recent hands: an engine asks about
    the same hand several times in a turn (legal actions, the move, the view)."""
    key = tuple(sorted(hand))
    arr = t.recent.get(key)
    if arr is None:
        dp = _DP(list(hand), rules)
        arr = dp.arrangement((1 << len(dp.nat)) - 1, len(dp.wild))
        if len(t.recent) >= 4096:
            t.recent.clear()
        t.recent[key] = arr
    return arr


def best_discard(hand: list[str], rules: MeldRules) -> tuple[str, Arrangement]:
    if not hand:
        raise ValueError("no card to discard")
    t = _tables(rules)
    result: tuple[int, str] | None = None
    if t.fast and _fast_keys(hand) is not None:
        for c in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(c)
            p = min_points(rest, rules)
            if result is None or p < result[0]:
                result = (p, c)
        assert result is not None
        rest = list(hand)
        rest.remove(result[1])
        return result[1], best_arrangement(rest, rules)
    dp = _DP(hand, rules)
    full = (1 << len(dp.nat)) - 1
    options: list[tuple[int, str, int, int]] = []
    for i, c in enumerate(dp.nat):
        if c not in dp.nat[:i]:
            options.append((dp.f(full ^ (1 << i), len(dp.wild)), c, full ^ (1 << i), len(dp.wild)))
    if dp.wild:
        options.append((dp.f(full, len(dp.wild) - 1), dp.wild[0], full, len(dp.wild) - 1))
    p, card, mask, j = min(options, key=lambda o: o[0])
    if card in dp.wild:
        dp2 = _DP([c for c in hand if c != card], rules)
        return card, dp2.arrangement((1 << len(dp2.nat)) - 1, len(dp2.wild))
    arr = dp.arrangement(mask, j)
    return card, arr


def discard_options(hand: list[str], rules: MeldRules) -> dict[str, int]:
    """For each distinct card of ``hand``: the least deadwood left after
    throwing it. With jokers the candidate melds are built once for all."""
    t = _tables(rules)
    if t.fast and _fast_keys(hand) is not None:
        out = {}
        for c in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(c)
            out[c] = min_points(rest, rules)
        return out
    dp = _DP(hand, rules)
    full = (1 << len(dp.nat)) - 1
    j = len(dp.wild)
    out = {}
    for i, c in enumerate(dp.nat):
        if c not in out:
            out[c] = dp.f(full ^ (1 << i), j)
    if dp.wild:
        without_one = dp.f(full, j - 1)
        for c in dp.wild:
            out[c] = without_one
    return out
