"""The rules of a Concours de Ramponneau that need no database: the blind
structure, the payout table, places and prizes, and a contest's settings
checked with the admin's own words (French).

RULES.md: "Contests: site admins can launch a ramponneau contest." The
rulings below are the issue's and TDA practice; ``docs/contests.md`` lists
them all.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from tavern.bounds import MAX_AMOUNT, MAX_COUNT
from tavern.refusal import Refusal

#: Starting chips offered on the creation form.
DEFAULT_STARTING_CHIPS = 3000
#: Minutes per level offered on the creation form.
DEFAULT_LEVEL_MINUTES = 10
#: The default structure's blinds: each level about 1.5× the previous one.
DEFAULT_BLINDS = (
    (10, 20), (15, 30), (25, 50), (50, 100), (75, 150), (100, 200), (150, 300), (200, 400),
    (300, 600), (400, 800), (500, 1000), (700, 1400), (1000, 2000), (1500, 3000), (2000, 4000),
    (3000, 6000), (4000, 8000), (6000, 12000), (8000, 16000), (10000, 20000),
)
#: The shortest level a contest may have (the tests play fast levels).
MIN_LEVEL_SECONDS = 5
#: The longest (a bound, as every number from a form: tavern.bounds).
MAX_LEVEL_SECONDS = MAX_COUNT
#: How far ahead a contest may start.
MAX_START_AHEAD = dt.timedelta(days=366)
#: Whole percents pay at most this many places.
MAX_PAID = 50
SEATS_RANGE = (2, 10)  #: "seats per table (2–10)"
TIMER_RANGE = (5, 120)  #: seconds of the action timer


class ContestRuleError(Refusal, ValueError):
    """Settings that cannot work: a code the catalogue says to the admin in French."""


@dataclass(frozen=True)
class Level:
    """One level of the blind structure: the blinds, the ante (dealt in
    players each put it in the pot before the blinds) and its length."""

    small_blind: int
    big_blind: int
    ante: int
    seconds: int

    def as_dict(self) -> dict[str, int]:
        return {"small_blind": self.small_blind, "big_blind": self.big_blind, "ante": self.ante,
                "seconds": self.seconds}

    @staticmethod
    def of(data: dict[str, Any]) -> Level:
        return Level(int(data["small_blind"]), int(data["big_blind"]), int(data.get("ante", 0) or 0),
                     int(data["seconds"]))


def default_structure(minutes: float = DEFAULT_LEVEL_MINUTES) -> list[Level]:
    """The structure offered on the creation form: no ante."""
    seconds = max(MIN_LEVEL_SECONDS, round(minutes * 60))
    return [Level(sb, bb, 0, seconds) for sb, bb in DEFAULT_BLINDS]


def level_at(structure: Sequence[Level], elapsed: float) -> tuple[int, float]:
    """The level in play ``elapsed`` seconds after the start (its index) and
    the seconds left before the next one. "The blind level changes on the
    clock": past the last level, the last one stays (no time left shown as
    ``inf``)."""
    if elapsed < 0:
        return 0, structure[0].seconds - elapsed
    t = 0.0
    for i, lv in enumerate(structure):
        t += lv.seconds
        if elapsed < t:
            return i, t - elapsed
    return len(structure) - 1, float("inf")


def level_started(structure: Sequence[Level], index: int) -> int:
    """Seconds from the contest's start to the start of level ``index``."""
    return sum(lv.seconds for lv in structure[:index])


# --- payouts ----------------------------------------------------------------


def default_payouts(field: int) -> list[int]:
    """The payout table (percent of the prize pool by place) for ``field``
    players: winner-take-all under 6 players, two places from 6, three from
    10, and about 15 % of the field paid from 20 players, each place worth
    less than the one before, at most :data:`MAX_PAID` places (whole
    percents)."""
    if field < 6:
        return [100]
    if field < 10:
        return [65, 35]
    if field < 20:
        return [50, 30, 20]
    paid = min(MAX_PAID, max(3, field * 15 // 100))
    # Every place paid gets 1 %, the rest by weights 1, 1/2, 1/3, … rounded
    # to whole percents by largest remainder.
    rest = 100 - paid
    weights = [1.0 / (i + 1) for i in range(paid)]
    total = sum(weights)
    raw = [rest * w / total for w in weights]
    out = [int(r) for r in raw]
    by_remainder = sorted(range(paid), key=lambda i: (-(raw[i] - out[i]), i))
    for i in by_remainder[: rest - sum(out)]:
        out[i] += 1
    out = sorted((1 + p for p in out), reverse=True)  # never more than the place before
    return out


def place_prizes(pool: int, percents: Sequence[int]) -> list[int]:
    """Écus for each paid place: ``percent`` of the pool rounded down, the odd
    écus left by rounding one each to the earlier places, so the prizes add
    up exactly to the pool."""
    amounts = [pool * p // 100 for p in percents]
    for i in range(pool - sum(amounts)):
        amounts[i % len(amounts)] += 1
    return amounts


@dataclass(frozen=True)
class Finish:
    """Players finishing together: ``players`` tie (equal stacks at the start
    of the deal that knocked them out) and cover places ``place`` to
    ``place + len(players) - 1``; the list's order (from the button's left)
    decides who gets the odd écus of a shared prize."""

    place: int
    players: tuple[str, ...]


def knockout_places(left_before: int, busted: Sequence[tuple[str, int]]) -> list[Finish]:
    """Places of the players knocked out in one deal. ``left_before``: players
    with chips before the deal's end was counted (all tables); ``busted``:
    (name, chips at the start of the deal), in order from the button's left.

    "Players knocked out in the same deal: the one who started the deal with
    more chips finishes higher; equal stacks tie and share the prizes of the
    places they cover equally (odd écus to the earlier place)."
    """
    place = left_before - len(busted) + 1  # the best place they can take
    stacks = sorted({chips for _, chips in busted}, reverse=True)
    out = []
    for chips in stacks:
        group = tuple(name for name, c in busted if c == chips)
        out.append(Finish(place, group))
        place += len(group)
    return out


def share_prizes(finishes: Sequence[Finish], prizes: Sequence[int]) -> dict[str, int]:
    """Each player's prize: a group of tied players shares the prizes of the
    places it covers equally; the odd écus go one each to the players holding
    the earlier places within the group (its order). Places beyond the paid
    ones are worth 0."""
    out: dict[str, int] = {}
    for f in finishes:
        covered = range(f.place, f.place + len(f.players))
        total = sum(prizes[p - 1] for p in covered if p - 1 < len(prizes))
        each, odd = divmod(total, len(f.players))
        for i, name in enumerate(f.players):
            out[name] = each + (1 if i < odd else 0)
    return out


# --- the settings of a contest ------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """A contest as the admin sets it (checked by :func:`check_settings`)."""

    name: str
    starts_at: dt.datetime  #: aware, any zone (the form's is Europe/Paris)
    fee: int
    house_prize: int
    starting_chips: int
    seats: int
    min_players: int
    max_players: int
    structure: tuple[Level, ...]
    late_levels: int  #: late registration until the end of this level (0: none)
    action_timer: int
    payouts: tuple[int, ...] | None  #: None: the default table for the field size


def check_settings(s: Settings, now: dt.datetime) -> None:
    """Refuse what cannot work, with a clear message; nothing is created."""
    if not s.name.strip():
        raise ContestRuleError("contest_needs_name")
    if len(s.name) > 80:
        raise ContestRuleError("contest_name_too_long", maximum=80)
    if s.starts_at.tzinfo is None:
        raise ContestRuleError("contest_start_timezone")
    if s.starts_at <= now:
        raise ContestRuleError("contest_start_past")
    if s.starts_at - now > MAX_START_AHEAD:
        # Year 9999 was taken, then its Paris time overflowed every contest page.
        raise ContestRuleError("contest_start_too_far", days=MAX_START_AHEAD.days)
    if s.fee < 0:
        raise ContestRuleError("contest_negative_fee")
    if s.house_prize < 0:
        raise ContestRuleError("contest_negative_prize")
    if s.starting_chips < 1:
        raise ContestRuleError("contest_starting_chips")
    # The API bounds its numbers at the door; the form (and any other caller)
    # gets here with whatever int() made of the text: 2⁶³ overflowed the store.
    for field, value in (("fee", s.fee), ("house_prize", s.house_prize), ("starting_chips", s.starting_chips)):
        if value > MAX_AMOUNT:
            raise ContestRuleError("contest_amount_too_large", field=field, maximum=MAX_AMOUNT)
    lo, hi = SEATS_RANGE
    if not lo <= s.seats <= hi:
        raise ContestRuleError("contest_seats_range", lo=lo, hi=hi)
    if s.min_players < 2:
        raise ContestRuleError("contest_min_players", minimum=2)
    if s.max_players < s.min_players:
        raise ContestRuleError("contest_max_below_min")
    if s.max_players > 1000:
        raise ContestRuleError("contest_max_players", maximum=1000)
    _check_levels(s)
    if s.structure[0].big_blind > s.starting_chips:
        raise ContestRuleError("contest_first_blind_above_chips")
    if not 0 <= s.late_levels <= len(s.structure):
        raise ContestRuleError("contest_late_levels", levels=len(s.structure))
    lo, hi = TIMER_RANGE
    if not lo <= s.action_timer <= hi:
        raise ContestRuleError("contest_timer_range", lo=lo, hi=hi)
    if s.payouts is not None:
        _check_payouts(s.payouts, s.min_players)


def _check_levels(s: Settings) -> None:
    """The blind structure: at least one level, each positive and bounded,
    long enough and not too long, each above the one before."""
    structure = s.structure
    if not structure:
        raise ContestRuleError("contest_no_levels")
    for i, lv in enumerate(structure, start=1):
        if lv.big_blind < 1 or lv.small_blind < 0 or lv.ante < 0:
            raise ContestRuleError("contest_level_positive", level=i)
        if max(lv.small_blind, lv.big_blind, lv.ante) > MAX_AMOUNT:
            raise ContestRuleError("contest_level_too_large", level=i, maximum=MAX_AMOUNT)
        if lv.small_blind > lv.big_blind:
            raise ContestRuleError("contest_level_small_above_big", level=i)
        if lv.seconds < MIN_LEVEL_SECONDS:
            raise ContestRuleError("contest_level_too_short", level=i, minimum=MIN_LEVEL_SECONDS)
        if lv.seconds > MAX_LEVEL_SECONDS:
            raise ContestRuleError("contest_level_too_long", level=i, maximum=MAX_LEVEL_SECONDS)
        if i > 1:
            prev = structure[i - 2]
            if (lv.big_blind < prev.big_blind or lv.small_blind < prev.small_blind or lv.ante < prev.ante
                    or (lv.big_blind, lv.small_blind, lv.ante) == (prev.big_blind, prev.small_blind, prev.ante)):
                raise ContestRuleError("contest_levels_increase", level=i, previous=i - 1)


def _check_payouts(payouts: tuple[int, ...], min_players: int) -> None:
    """The prize shares in percent: positive, summing to 100, never rising,
    no more places than the fewest players the contest starts with."""
    if not payouts:
        raise ContestRuleError("contest_payouts_empty")
    if any(p <= 0 for p in payouts):
        raise ContestRuleError("contest_payout_positive")
    if sum(payouts) != 100:
        raise ContestRuleError("contest_payouts_sum", total=sum(payouts))
    if any(b > a for a, b in pairwise(payouts)):
        raise ContestRuleError("contest_payouts_order")
    if len(payouts) > min_players:
        raise ContestRuleError("contest_payouts_places", places=len(payouts), minimum=min_players)


def parse_payouts(text: str) -> tuple[int, ...] | None:
    """The form's payout field: empty or "défaut" for the default table,
    else percents separated by commas or spaces ("50, 30, 20")."""
    text = text.strip().lower()
    if text in ("", "défaut", "defaut", "default"):
        return None
    try:
        return tuple(int(p) for p in text.replace(";", ",").replace(",", " ").split())
    except ValueError:
        raise ContestRuleError("contest_payouts_format") from None


def parse_structure(text: str) -> tuple[Level, ...]:
    """The form's structure field: one level a line, "petite/grosse[/ante] minutes"
    ("10/20 10", "100/200/25 8"). Minutes may be a decimal ("0.2")."""
    out = []
    for n, line in enumerate((ln.strip() for ln in text.splitlines()), start=1):
        if not line:
            continue
        parts = line.split()
        try:
            blinds = [int(b) for b in parts[0].split("/")]
            minutes = float(parts[1].replace(",", ".")) if len(parts) > 1 else float("nan")
        except (ValueError, IndexError):
            blinds, minutes = [], float("nan")
        # "inf" minutes parse as a float too, and round() of it overflows.
        if len(parts) != 2 or len(blinds) not in (2, 3) or not math.isfinite(minutes):
            raise ContestRuleError("contest_structure_line", line=n)
        out.append(Level(blinds[0], blinds[1], blinds[2] if len(blinds) == 3 else 0, round(minutes * 60)))
    return tuple(out)


def structure_text(structure: Sequence[Level]) -> str:
    """The inverse of :func:`parse_structure` (the form's default)."""
    lines = []
    for lv in structure:
        blinds = f"{lv.small_blind}/{lv.big_blind}" + (f"/{lv.ante}" if lv.ante else "")
        minutes = lv.seconds / 60
        lines.append(f"{blinds} {int(minutes) if minutes == int(minutes) else round(minutes, 3)}")
    return "\n".join(lines)
