"""The best arrangement of a hand: the melds leaving the fewest deadwood points.

Two exact solvers, one answer:

- **the fast path** (no wild joker in the hand, sets of distinct suits): a hand
  is four per-suit rank counts. Once the sets are chosen, runs live inside one
  suit, so the rest of the problem splits into four independent per-suit
  problems whose answers are memoized per :class:`MeldRules` (a single deck has
  only 8,192 suit patterns). Sets are only possible on ranks held in three
  suits, found with bit tricks, so most hands cost four dictionary lookups.
- **the general path** (jokers, any rules): candidate melds as bitmasks over
  the hand's real cards plus a joker count, then a memoized DP that takes the
  lowest remaining card and either leaves it as deadwood or puts it in one of
  the candidate melds containing it.

Counts are packed 4 bits per rank (rank index ``r`` at bit ``4r``), so up to 15
copies of a card (15 decks) fit.
"""

from __future__ import annotations

from itertools import combinations, product

from tavern.games.rami.melds import (
    ORDER,
    RANK_INDEX,
    SUIT_INDEX,
    SUITS,
    Arrangement,
    Meld,
    MeldRules,
    _code,
    _windows,
    _wild,
    is_joker,
    points,
)

_NIBBLES = 0x1111111111111  # bit 4r for r in 0..12
_UNIT = [1 << (4 * r) for r in range(13)]
#: card code -> (suit index, 1 << 4·rank)
_INFO = {ORDER[r] + s: (SUIT_INDEX[s], _UNIT[r]) for r in range(13) for s in SUITS}


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
        self.rank_points = [[points(ORDER[r] + s, rules) for r in range(13)] for s in SUITS]
        shared = rules.card_points is None
        d: dict[int, tuple[int, tuple]] = {0: (0, ())}
        self.suit_memo = [d if shared else {0: (0, ())} for _ in SUITS]
        self.fast = (
            rules.distinct_suits_in_set and min(rules.set_sizes) == 3 and max(rules.set_sizes) <= 4
        )
        self.packings: dict[tuple[int, ...], list[tuple[tuple[int, ...], tuple]]] = {}
        self.set_shapes = [
            frozenset(c)
            for n in sorted(set(rules.set_sizes))
            if n <= 4
            for c in combinations(range(4), n)
        ]


_TABLES: dict[MeldRules, _Tables] = {}


def _tables(rules: MeldRules) -> _Tables:
    t = _TABLES.get(rules)
    if t is None:
        if len(_TABLES) > 64:  # rules objects are few; bound the cache anyway
            _TABLES.clear()
        t = _TABLES[rules] = _Tables(rules)
    return t


# ---------------------------------------------------------------- fast path


def _suit(t: _Tables, s: int, key: int) -> tuple[int, tuple]:
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


def _packings(t: _Tables, counts: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple]]:
    """Every way to take zero or more sets (of distinct suits) out of one rank's
    per-suit counts: (per-suit decrements, the sets as suit tuples)."""
    v = t.packings.get(counts)
    if v is not None:
        return v
    shapes = [sh for sh in t.set_shapes if all(counts[s] for s in sh)]
    out: list[tuple[tuple[int, ...], tuple]] = []

    def rec(start: int, left: list[int], taken: tuple) -> None:
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


def _fast(t: _Tables, keys: list[int], want_melds: bool):
    """Minimal deadwood (and the chosen sets and per-suit results)."""
    k0, k1, k2, k3 = keys
    a = (k0 | k0 >> 1 | k0 >> 2 | k0 >> 3) & _NIBBLES
    b = (k1 | k1 >> 1 | k1 >> 2 | k1 >> 3) & _NIBBLES
    c = (k2 | k2 >> 1 | k2 >> 2 | k2 >> 3) & _NIBBLES
    d = (k3 | k3 >> 1 | k3 >> 2 | k3 >> 3) & _NIBBLES
    three = (a & b & (c | d)) | (c & d & (a | b))
    memo = t.suit_memo
    if not three:
        r0 = memo[0].get(k0) or _suit(t, 0, k0)
        r1 = memo[1].get(k1) or _suit(t, 1, k1)
        r2 = memo[2].get(k2) or _suit(t, 2, k2)
        r3 = memo[3].get(k3) or _suit(t, 3, k3)
        total = r0[0] + r1[0] + r2[0] + r3[0]
        if want_melds:
            return total, (), (r0, r1, r2, r3), keys
        return total
    options = []
    while three:
        low = three & -three
        three ^= low
        sh = low.bit_length() - 1
        counts = ((k0 >> sh) & 15, (k1 >> sh) & 15, (k2 >> sh) & 15, (k3 >> sh) & 15)
        options.append([(sh, dec, sets) for dec, sets in _packings(t, counts)])
    best = None
    for combo in product(*options):
        kk = [k0, k1, k2, k3]
        for sh, dec, _sets in combo:
            for s in range(4):
                if dec[s]:
                    kk[s] -= dec[s] << sh
        res = [_suit(t, s, kk[s]) for s in range(4)]
        total = res[0][0] + res[1][0] + res[2][0] + res[3][0]
        if best is None or total < best[0]:
            best = (total, combo, res, kk)
            if not total:
                break
    assert best is not None
    return best if want_melds else best[0]


def _fast_arrangement(t: _Tables, keys: list[int]) -> Arrangement:
    total, combo, res, left = _fast(t, keys, True)
    melds: list[Meld] = []
    for sh, _dec, sets in combo:
        r = sh // 4
        for suits in sets:
            cs = tuple(ORDER[r] + SUITS[s] for s in suits)
            melds.append(Meld("set", cs, (None,) * len(cs)))
    deadwood: list[str] = []
    for s in range(4):
        k = left[s]
        for ranks in res[s][1]:
            cs = tuple(ORDER[r] + SUITS[s] for r in ranks)
            melds.append(Meld("run", cs, (None,) * len(cs)))
            for r in ranks:
                k -= _UNIT[r]
        for r in range(13):
            deadwood.extend([ORDER[r] + SUITS[s]] * ((k >> (4 * r)) & 15))
    return Arrangement(melds, deadwood, total)


# ---------------------------------------------------------------- general path


def _candidates(nat: list[str], jokers: int, rules: MeldRules, t: _Tables):
    """Candidate melds as {(natural mask, jokers used): spec}, grouped by lowest bit."""
    found: dict[tuple[int, int], tuple] = {}
    by_rank: dict[str, list[int]] = {}
    by_suit_rank: dict[tuple[str, int], list[int]] = {}
    for i, c in enumerate(nat):
        if is_joker(c):
            continue  # jokers that are not wild never meld
        by_rank.setdefault(c[0], []).append(i)
        by_suit_rank.setdefault((c[1], RANK_INDEX[c[0]]), []).append(i)
    max_set = max(rules.set_sizes)
    for rank, idx in by_rank.items():
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
    suits_held = {s for s, _r in by_suit_rank}
    all_windows = [w for L in range(rules.min_run, 14) for w in _windows(rules, L)]
    for s in suits_held:
        for win in all_windows:
            opts = [by_suit_rank.get((s, r), ()) for r in win]
            held = [p for p, o in enumerate(opts) if o]
            missing = len(win) - len(held)
            if missing > jokers or len(held) < rules.min_natural:
                continue
            for extra in range(0, min(jokers - missing, len(held) - rules.min_natural) + 1):
                for as_joker in combinations(held, extra):
                    real = [p for p in held if p not in as_joker]
                    for picks in product(*(opts[p] for p in real)):
                        mask = 0
                        for i in picks:
                            mask |= 1 << i
                        k = missing + extra
                        pos = dict(zip(real, picks))
                        spec = ("run", s, tuple((r, pos.get(p)) for p, r in enumerate(win)))
                        found.setdefault((mask, k), spec)
    by_low: list[list[tuple[int, int, tuple]]] = [[] for _ in nat]
    for (mask, k), spec in found.items():
        low = (mask & -mask).bit_length() - 1
        by_low[low].append((mask, k, spec))
    return by_low


class _DP:
    def __init__(self, hand: list[str], rules: MeldRules) -> None:
        self.rules = rules
        self.t = _tables(rules)
        self.nat = [c for c in hand if not _wild(c, rules)]
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
            cm, k, spec = choice  # type: ignore[misc]
            use, jokers = jokers[:k], jokers[k:]
            melds.append(self._meld(spec, use))
            mask ^= cm
            j -= k
        deadwood.extend(jokers)
        return Arrangement(melds, deadwood, total)

    def _meld(self, spec: tuple, jokers: list[str]) -> Meld:
        if spec[0] == "set":
            _kind, combo, k = spec
            cs = [self.nat[i] for i in combo]
            rank = cs[0][0]
            missing = [s for s in SUITS if s not in {c[1] for c in cs}] or list(SUITS)
            sf = [None] * len(cs) + [rank + missing[x % len(missing)] for x in range(k)]
            return Meld("set", tuple(cs) + tuple(jokers), tuple(sf))
        _kind, suit, cells = spec
        it = iter(jokers)
        cs2: list[str] = []
        sf2: list[str | None] = []
        for r, i in cells:
            if i is None:
                cs2.append(next(it))
                sf2.append(_code(r, suit))
            else:
                cs2.append(self.nat[i])
                sf2.append(None)
        return Meld("run", tuple(cs2), tuple(sf2))


# ---------------------------------------------------------------- entry points


def min_points(hand: list[str], rules: MeldRules) -> int:
    t = _tables(rules)
    if t.fast:
        keys = _fast_keys(hand)
        if keys is not None:
            return _fast(t, keys, False)
    dp = _DP(hand, rules)
    return dp.f((1 << len(dp.nat)) - 1, len(dp.wild))


def best(hand: list[str], rules: MeldRules) -> Arrangement:
    t = _tables(rules)
    if t.fast:
        keys = _fast_keys(hand)
        if keys is not None:
            return _fast_arrangement(t, keys)
    dp = _DP(hand, rules)
    return dp.arrangement((1 << len(dp.nat)) - 1, len(dp.wild))


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
        return result[1], best(rest, rules)
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
