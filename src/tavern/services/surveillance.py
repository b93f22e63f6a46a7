"""« Surveillance »: the collusion and chip-dumping report (docs/surveillance.md).

One pass over the archived deals gathers, for every pair of players who were
dealt together: the chips that went from one to the other, how often one
faced the other's bet or raise and folded, called or raised back, and the
share of each one's winnings that came from the other. The table visits
(address, browser) add who played from the same place. Each pair gets flags,
each flag a French sentence saying what was seen against what was expected,
and a score that ranks the pairs.

Nothing here decides: the report points an admin at deals to look at.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from tavern.catalogue import french
from tavern.settings import Settings
from tavern.store.models import ArchivedHand, TableVisit, User

AGGRESSIVE = frozenset({"bet", "raise"})
FACING = frozenset({"fold", "call", "raise"})  # the answers to a bet
#: Deals listed per pair as evidence (the most telling first).
EVIDENCE = 12


def _default(name: str) -> Any:
    """A threshold's default is its setting's: one place says it."""
    return Settings.model_fields[f"surveillance_{name}"].default


@dataclass(frozen=True)
class Thresholds:
    """The report's thresholds (settings ``TAVERN_SURVEILLANCE_*``)."""

    #: Fewer deals together than this and a pair is never flagged on play.
    min_deals: int = _default("min_deals")
    #: How often a player must have faced the other's bets before his folds count.
    min_faced: int = _default("min_faced")
    #: Chips given to the other against chips taken back from him: one way…
    one_way: float = _default("one_way")
    #: … and this many times the giver's ratio against everybody else and
    #: the taker's (a strong player takes from everybody alike, a weak one
    #: gives to everybody; a partner is fed by one).
    one_way_excess: float = _default("one_way_excess")
    #: Fold rate against the other above the rate against everybody else by this.
    fold_gap: float = _default("fold_gap")
    #: Raise-back rate against the other below the rate against the others by this.
    raise_gap: float = _default("raise_gap")
    #: A pair is listed as suspicious from this score.
    score: float = _default("score")

    @classmethod
    def from_settings(cls, settings: Any) -> Thresholds:
        return cls(**{name: getattr(settings, f"surveillance_{name}") for name in cls.__dataclass_fields__})


@dataclass
class Facing:
    """One player's answers to bets: from one opponent, or from all others."""

    faced: int = 0
    folded: int = 0
    raised: int = 0

    def fold_rate(self) -> float:
        return self.folded / self.faced if self.faced else 0.0

    def raise_rate(self) -> float:
        return self.raised / self.faced if self.faced else 0.0


@dataclass
class Flag:
    kind: str  # "dumping", "soft_play", "same_address", "same_browser"
    weight: float
    text: str


@dataclass
class Pair:
    a: str
    b: str
    deals: int = 0
    #: chips that went from the first to the second: flow[(x, y)]
    flow: dict[tuple[str, str], float] = field(default_factory=lambda: defaultdict(float))
    #: what each one won in deals with the other, and the part the table's
    #: size alone would give him from the other
    won_together: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    #: what each one lost in deals with the other, and in how many deals
    lost_together: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    losing_deals: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    facing: dict[str, Facing] = field(default_factory=dict)  # x's answers to the other's bets
    evidence: list[tuple[float, int]] = field(default_factory=list)  # (chips moved, deal id)
    addresses: set[str] = field(default_factory=set)
    browsers: set[str] = field(default_factory=set)
    flags: list[Flag] = field(default_factory=list)

    @property
    def score(self) -> float:
        return round(sum(f.weight for f in self.flags), 2)

    def share_from_other(self, x: str) -> float:
        other = self.b if x == self.a else self.a
        won = self.won_together[x]
        return self.flow[(other, x)] / won if won > 0 else 0.0

    def loss_share_to_other(self, x: str) -> float:
        other = self.b if x == self.a else self.a
        lost = self.lost_together[x]
        return self.flow[(x, other)] / lost if lost > 0 else 0.0

    def deal_ids(self) -> list[int]:
        return [d for _, d in sorted(self.evidence, key=lambda e: (-e[0], e[1]))[:EVIDENCE]]


@dataclass
class Report:
    pairs: list[Pair]
    deals: int
    players: int
    thresholds: Thresholds
    generated: dt.datetime
    #: The pairs with a house player (tables/house.py), listed apart and never flagged:
    #: the house plays its seats by program, nobody colludes with it.
    house_pairs: list[Pair] = field(default_factory=list)

    def suspicious(self) -> list[Pair]:
        return [p for p in self.pairs if p.score >= self.thresholds.score]

    def of_player(self, name: str) -> list[Pair]:
        return [p for p in self.pairs if name in (p.a, p.b)]


# --- reading the deals ---------------------------------------------------------


def _deltas(record: dict[str, Any], result: dict[str, Any]) -> dict[str, int]:
    delta = result.get("delta")
    if isinstance(delta, dict):
        return {str(k): int(v) for k, v in delta.items() if isinstance(v, int | float)}
    chips = result.get("chips") or {}
    start = {str(s.get("player")): s.get("chips", 0) for s in record.get("seats") or [] if isinstance(s, dict)}
    return {p: int(chips[p]) - int(start[p]) for p in start if p in chips}


class _Analysis:
    def __init__(self) -> None:
        self.pairs: dict[tuple[str, str], Pair] = {}
        # each player's answers to the bets of everybody: to compare one
        # opponent against the others
        self.facing_all: dict[str, Facing] = defaultdict(Facing)
        # chips each player gave to all others and took from them
        self.given: dict[str, float] = defaultdict(float)
        self.taken: dict[str, float] = defaultdict(float)
        self.deals = 0
        self.players: set[str] = set()

    def pair(self, x: str, y: str) -> Pair:
        key = (x, y) if x < y else (y, x)
        p = self.pairs.get(key)
        if p is None:
            p = self.pairs[key] = Pair(*key)
        return p

    def add(self, deal_id: int, record: dict[str, Any], result: dict[str, Any]) -> None:
        seats = [s.get("player") for s in record.get("seats") or [] if isinstance(s, dict)]
        names = [n for n in seats if isinstance(n, str)]
        if len(names) < 2:
            return
        self.deals += 1
        self.players.update(names)
        deltas = _deltas(record, result)
        won = {p: d for p, d in deltas.items() if d > 0}
        lost = {p: -d for p, d in deltas.items() if d < 0}
        total_won = sum(won.values())
        for i, x in enumerate(names):
            for y in names[i + 1:]:
                self.pair(x, y).deals += 1
        # Chips flow from each loser to each winner in proportion to what the
        # winner took (what the rake kept is spread the same way).
        for loser, amount in lost.items():
            for winner, gain in won.items():
                moved = amount * gain / total_won
                p = self.pair(loser, winner)
                p.flow[(loser, winner)] += moved
                p.evidence.append((moved, deal_id))
                self.given[loser] += moved
                self.taken[winner] += moved
            for other in names:
                if other != loser:
                    p = self.pair(loser, other)
                    p.lost_together[loser] += amount
                    p.losing_deals[loser] += 1
        for winner, gain in won.items():
            for other in names:
                if other != winner:
                    self.pair(winner, other).won_together[winner] += gain
        self._betting(record.get("actions") or [])

    def _betting(self, actions: list[Any]) -> None:
        """Who answered whose bet, and how (poker games; other games' moves
        are neither bets nor folds and leave this untouched)."""
        aggressor: str | None = None
        for a in actions:
            if not isinstance(a, dict):
                continue
            who, what = a.get("player"), a.get("action")
            if not isinstance(who, str):
                continue
            if what == "check":
                aggressor = None  # a new betting round, nobody has bet yet
            elif what in FACING and aggressor is not None and aggressor != who:
                mine = self.pair(who, aggressor).facing.setdefault(who, Facing())
                everyone = self.facing_all[who]
                for f in (mine, everyone):
                    f.faced += 1
                    f.folded += what == "fold"
                    f.raised += what == "raise"
            if what in AGGRESSIVE:
                aggressor = who


def analyse(deals: Iterable[tuple[int, dict[str, Any], dict[str, Any]]],
            visits: Iterable[tuple[int, str, str, str | None]] = (),
            thresholds: Thresholds | None = None,
            now: dt.datetime | None = None, house: frozenset[str] = frozenset()) -> Report:
    """The report over ``deals`` — ``(deal id, record, result)`` — and the
    table ``visits`` — ``(table id, player, address, browser)``, the
    browser None when the client sent no cookie. The pairs with one of the
    ``house`` players are in ``house_pairs``, unflagged."""
    t = thresholds or Thresholds()
    run = _Analysis()
    for deal_id, record, result in deals:
        run.add(deal_id, record, result)
    _shared_places(run, visits)
    for p in run.pairs.values():
        p.flags = [] if {p.a, p.b} & house else _flags(p, run, t)
    pairs = sorted(run.pairs.values(), key=lambda p: (-p.score, -p.deals, p.a, p.b))
    return Report([p for p in pairs if not {p.a, p.b} & house], run.deals, len(run.players), t,
                  now or dt.datetime.now(dt.UTC), [p for p in pairs if {p.a, p.b} & house])


#: A browser nobody can share: no cookie was sent (stored as NULL; "-" in the
#: rows written before migration 0007, which turns them into NULL).
NO_BROWSER = frozenset({None, "", "-"})


def _shared_places(run: _Analysis, visits: Iterable[tuple[int, str, str, str | None]]) -> None:
    by_place: dict[tuple[int, str, str], set[str]] = defaultdict(set)
    for table_id, player, address, browser in visits:
        by_place[(table_id, "address", address)].add(player)
        if browser not in NO_BROWSER:  # clients without a cookie share no browser
            by_place[(table_id, "browser", str(browser))].add(player)
    for (table_id, kind, _), players in by_place.items():
        names = sorted(players)
        for i, x in enumerate(names):
            for y in names[i + 1:]:
                p = run.pair(x, y)
                (p.addresses if kind == "address" else p.browsers).add(str(table_id))


def _pct(x: float) -> str:
    return f"{round(100 * x)} %"


def _times(x: float) -> str:
    return f"{x:.1f}".replace(".", ",") + " fois"


def _flags(p: Pair, run: _Analysis, t: Thresholds) -> list[Flag]:
    flags: list[Flag] = []
    for y, x in ((p.a, p.b), (p.b, p.a)):
        # Chip dumping: chips go from y to x and hardly any come back — far
        # more one way than y gives to the others, or x takes from them.
        if p.deals < t.min_deals or p.losing_deals[y] < t.min_deals:
            continue
        there, back = p.flow[(y, x)], p.flow[(x, y)]
        ratio = there / max(back, 1.0)
        gives = (run.given[y] - there) / max(run.taken[y] - back, 1.0)
        takes = (run.taken[x] - there) / max(run.given[x] - back, 1.0)
        excess = ratio / max(gives, takes, 1.0)
        if ratio >= t.one_way and excess >= t.one_way_excess:
            flags.append(Flag("dumping", min(excess, 5.0),
                              french("flag_dumping", {
                                  "deals": p.deals, "giver": y, "taker": x, "given": round(there), "back": round(back),
                                  "ratio": _times(ratio), "gives": _times(gives), "takes": _times(takes),
                                  "excess": _times(excess), "threshold": _times(t.one_way_excess)})))
    for x, y in ((p.a, p.b), (p.b, p.a)):
        mine = p.facing.get(x)
        if mine is None or mine.faced < t.min_faced:
            continue
        all_x = run.facing_all[x]
        others = Facing(all_x.faced - mine.faced, all_x.folded - mine.folded, all_x.raised - mine.raised)
        if others.faced < t.min_faced:
            continue
        fold_gap = mine.fold_rate() - others.fold_rate()
        raise_gap = others.raise_rate() - mine.raise_rate()
        if fold_gap >= t.fold_gap:
            flags.append(Flag("soft_play", fold_gap * 2,
                              french("flag_soft_fold", {
                                  "player": x, "other": y, "rate": _pct(mine.fold_rate()), "faced": mine.faced,
                                  "others_rate": _pct(others.fold_rate()), "gap": _pct(fold_gap),
                                  "threshold": _pct(t.fold_gap)})))
        if raise_gap >= t.raise_gap:
            flags.append(Flag("soft_play", raise_gap * 2,
                              french("flag_soft_raise", {
                                  "player": x, "other": y, "rate": _pct(mine.raise_rate()),
                                  "others_rate": _pct(others.raise_rate()), "gap": _pct(raise_gap),
                                  "threshold": _pct(t.raise_gap)})))
    if p.addresses:
        flags.append(Flag("same_address", 0.5,
                          french("flag_same_address", {"first": p.a, "second": p.b,
                                                       "tables": ", ".join(sorted(p.addresses, key=int))})))
    if p.browsers:
        flags.append(Flag("same_browser", 1.0,
                          french("flag_same_browser", {"first": p.a, "second": p.b,
                                                       "tables": ", ".join(sorted(p.browsers, key=int))})))
    return flags


# --- from the database -----------------------------------------------------------


def archived_deals(s: Session) -> Iterator[tuple[int, dict[str, Any], dict[str, Any]]]:
    """Every finished deal, oldest first, streamed (the archive may be large);
    voided deals moved no chip, closings are not deals, and a practice deal
    (against the house players, practice chips) is nobody's collusion."""
    stmt = (select(ArchivedHand.id, ArchivedHand.record, ArchivedHand.result)
            .where(ArchivedHand.voided.is_(False), ArchivedHand.practice.is_(False)).order_by(ArchivedHand.id)
            .execution_options(yield_per=500))
    for deal_id, record, result in s.execute(stmt):
        if isinstance(record, dict) and not record.get("closing") and isinstance(result, dict):
            yield deal_id, record, result


def table_visits(s: Session) -> Iterator[tuple[int, str, str, str | None]]:
    stmt = (select(TableVisit.table_id, User.username, TableVisit.address, TableVisit.browser)
            .join(User, User.id == TableVisit.user_id))
    for row in s.execute(stmt):
        yield row.table_id, row.username, row.address, row.browser


def report(s: Session, thresholds: Thresholds | None = None) -> Report:
    house = frozenset(s.scalars(select(User.username).where(User.house.is_(True))))
    return analyse(archived_deals(s), table_visits(s), thresholds, house=house)


def record_visits(s: Session, visits: dict[tuple[int, int, str, str | None], dt.datetime]) -> None:
    """Note that each player opened each table from this address and browser
    — ``(table id, user id, address, browser) → when``; ``browser``: a hash
    of the page's browser cookie, never the cookie, or None without one
    (compared in Python below, so a NULL finds its row too): a new row the first
    time, its ``last_seen`` moved otherwise. A few statements for the whole
    batch (a restart's thousands of reconnections), not two per visit."""
    items = list(visits.items())
    for i in range(0, len(items), 500):  # IN lists of a bounded size
        chunk = dict(items[i:i + 500])
        known = {(r.table_id, r.user_id, r.address, r.browser): r.id for r in s.execute(
            select(TableVisit.id, TableVisit.table_id, TableVisit.user_id, TableVisit.address, TableVisit.browser)
            .where(TableVisit.user_id.in_({v[1] for v in chunk}), TableVisit.table_id.in_({v[0] for v in chunk})))}
        seen = [{"id": known[v], "last_seen": when} for v, when in chunk.items() if v in known]
        new = [{"table_id": t, "user_id": u, "address": a, "browser": b, "first_seen": when, "last_seen": when}
               for (t, u, a, b), when in chunk.items() if (t, u, a, b) not in known]
        if seen:
            s.execute(update(TableVisit), seen)  # by primary key, in one executemany
        if new:
            s.execute(insert(TableVisit), new)
