"""Betting rounds, structures, pots and rake — shared by every betting game.

Ramponneau, Draw poker (and Rummoli's betting option) all bet the same way;
only the structure (no limit, pot limit, fixed limit), who opens and the bet
unit change. This module knows nothing about cards.

Players are plain indices ``0..n-1`` **in order starting left of the button**
(index ``n-1`` is the button when he is dealt in). That one convention makes
"first active player left of the button", "clockwise" and "the first winner
left of the button gets the odd chips" all mean "lowest index first".

The hot path (``Betting.act``) works on plain lists of ints and bools: the
table runtime and the benchmark play thousands of deals.

Rules implemented (RULES.md, ramponneau.fr.txt, draw-poker.fr.txt):

* a bet is at least the big blind (an all-in may be less);
* a raise is at least the previous bet or raise of this round ("A bets 50: B
  folds, calls 50 or raises to at least 100 — 75 is refused");
* an all-in short of a full raise does not reopen the betting for players
  who already acted (several short all-ins that add up to a full raise do,
  as in the TDA rules and pokerkit);
* pot limit: a raise at most the pot after calling;
* fixed limit: bets and raises of exactly one unit, one bet and three raises
  a round (the big blind counts as the first-round bet);
* uncalled bets go back to their owner; main and side pots by contribution
  level; rake per pot, rounded down, optionally capped; odd chips to the first
  winner left of the button.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tavern.games.base import IllegalAction

NO_LIMIT = "no-limit"
POT_LIMIT = "pot-limit"
FIXED_LIMIT = "fixed-limit"
STRUCTURES = (NO_LIMIT, POT_LIMIT, FIXED_LIMIT)

#: Fixed limit: one bet and three raises in a round.
FIXED_LIMIT_BETS = 4

#: ``_AFTER[n][i]``: the seats after ``i`` going left, round the table of ``n``
#: (``i = -1``: from seat 0). Precomputed: finding the next speaker is the
#: commonest step of a deal.
_AFTER = [
    {i: tuple((i + 1 + k) % n for k in range(n)) for i in range(-1, n)} if n else {}
    for n in range(0, 24)
]


class Betting:
    """The chips of one deal: stacks, bets of the current round, pots.

    ``stack[i]`` is what player ``i`` has behind, ``bet[i]`` what he put in
    during the current round, ``total[i]`` everything he put in this deal
    (including ``bet[i]`` and dead money). ``allin[i]`` means "asks nothing
    more": no chips left, or protected after a disconnection.
    """

    __slots__ = (
        "active",
        "actor",
        "aggressor",
        "allin",
        "bet",
        "count",
        "folded",
        "full",
        "high",
        "live",
        "may_raise",
        "min_bet",
        "n",
        "need",
        "short_sum",
        "stack",
        "structure",
        "total",
        "unit",
    )

    def __init__(self, stacks: list[int], structure: str, min_bet: int) -> None:
        n = len(stacks)
        if not 2 <= n < len(_AFTER):
            raise IllegalAction("betting_players", lo=2, hi=len(_AFTER) - 1)
        self.n = n
        self.structure = structure
        self.min_bet = min_bet
        self.stack = list(stacks)
        self.bet = [0] * n
        self.total = [0] * n
        self.folded = [False] * n
        self.allin = [s == 0 for s in stacks]
        self.need = [False] * n
        self.may_raise = [True] * n
        self.high = 0  # the bet to match this round
        self.full = min_bet  # size of the last full bet or raise (min raise increment)
        self.count = 0  # bets and raises this round (fixed-limit cap)
        self.short_sum = 0  # short all-in raises since the last full one
        self.actor = -1
        self.aggressor = -1  # last to bet or raise this round
        self.unit = min_bet  # fixed-limit bet size of this round
        self.live = n  # players not folded
        self.active = n - sum(self.allin)  # players not folded who can still bet

    # -- forced chips -------------------------------------------------------

    def post(self, i: int, amount: int, *, dead: bool = False) -> int:
        """A blind or a post: live chips count as the player's bet this round;
        dead chips (a missed small blind) only go to the pot. A short stack
        posts what he has and is all-in."""
        amount = min(amount, self.stack[i])
        self.stack[i] -= amount
        self.total[i] += amount
        if not dead:
            self.bet[i] += amount
            if self.bet[i] > self.high:
                self.high = self.bet[i]
        if self.stack[i] == 0 and not self.allin[i]:
            self.allin[i] = True
            self.active -= 1
        return amount

    def set_all_in(self, i: int) -> None:
        """Treat ``i`` as all-in from now on (protection after a disconnection)."""
        if not self.allin[i] and not self.folded[i]:
            self.active -= 1
        self.allin[i] = True
        self.need[i] = False

    # -- rounds -------------------------------------------------------------

    def start_round(self, first: int, unit: int, *, blinds_count: bool = False) -> None:
        """Open a betting round whose first speaker is the first player from
        ``first`` (going left) who can act. ``unit`` is the fixed-limit bet
        of this round; ``blinds_count`` says the big blind is the round's
        first bet (first round with blinds)."""
        n = self.n
        self.unit = unit
        self.full = unit if self.structure == FIXED_LIMIT else self.min_bet
        self.count = 1 if blinds_count and self.high > 0 else 0
        self.short_sum = 0
        self.aggressor = -1
        self.need = [not f and not a for f, a in zip(self.folded, self.allin, strict=False)]
        self.may_raise = [True] * n
        self.actor = -1
        self._advance(first - 1)

    def _advance(self, after: int) -> None:
        """Find the next player who must act, going left from ``after``."""
        n = self.n
        need, bet, high = self.need, self.bet, self.high
        if self.live <= 1:
            for i in range(n):
                need[i] = False
            self.actor = -1
            return
        # A lone player with chips who already matched the bet has nobody to
        # bet against: the round is over for him.
        if self.active <= 1:
            for i in range(n):
                if need[i] and bet[i] >= high:
                    need[i] = False
        for i in _AFTER[n][after]:
            if need[i]:
                self.actor = i
                return
        self.actor = -1

    @property
    def round_over(self) -> bool:
        return self.actor < 0

    def end_round(self) -> tuple[int, int] | None:
        """Close the round: return the uncalled part of the highest bet to its
        owner. Returns ``(player, amount)`` when chips went back."""
        bet = self.bet
        top, first, second = 0, -1, 0
        for i, x in enumerate(bet):
            if x > first:
                top, first, second = i, x, first if first > 0 else 0
            elif x > second:
                second = x
        back = None
        if bet[top] > second:
            amount = bet[top] - second
            self.stack[top] += amount
            self.total[top] -= amount
            # He stays marked all-in if he was: nobody else can bet against
            # him any more (the others are all-in for less or folded).
            back = (top, amount)
        for i in range(self.n):
            bet[i] = 0
        self.high = 0
        return back

    def can_bet_more(self) -> bool:
        """False when at most one player could still bet: the rest of the deal
        is dealt out without betting."""
        return self.active >= 2

    # -- decisions ----------------------------------------------------------

    def raise_bounds(self, i: int) -> tuple[int, int] | None:
        """``(min, max)`` totals for a bet or raise by ``i``, or None if he may
        not: he cannot cover more than the bet, an all-in for less did not
        reopen the betting for him, the fixed-limit cap is reached, or nobody
        else still in could answer a raise."""
        high, bet, stack = self.high, self.bet, self.stack
        most = stack[i] + bet[i]
        if most <= high or not self.may_raise[i] or self.active < 2 - self.allin[i]:
            return None
        folded, allin = self.folded, self.allin
        for j in _AFTER[self.n][i]:
            if stack[j] + bet[j] > high and not allin[j] and not folded[j] and j != i:
                break
        else:
            return None
        structure = self.structure
        if structure == NO_LIMIT:
            lo = high + self.full if high > 0 else self.min_bet
            hi = most
        elif structure == FIXED_LIMIT:
            if self.count >= FIXED_LIMIT_BETS:
                return None
            lo = hi = high + self.unit
        else:
            lo = high + self.full if high > 0 else self.min_bet
            # pot limit: the pot after calling, added to the call
            hi = high + sum(self.total) + (high - bet[i])
        if hi > most:
            hi = most
        if lo > most:
            lo = most  # only an all-in for less remains
        if hi < lo:
            hi = lo
        return lo, hi

    def legal(self, i: int) -> list[dict[str, Any]]:
        if i != self.actor:
            return []
        high, mine = self.high, self.bet[i]
        most = mine + self.stack[i]
        if high > mine:
            out: list[dict[str, Any]] = [
                {"action": "fold"}, {"action": "call", "amount": high if high < most else most}]
        else:
            out = [{"action": "check"}]
        if most <= high or not self.may_raise[i]:
            return out
        bounds = self.raise_bounds(i)
        if bounds is not None:
            out.append({"action": "raise" if high > 0 else "bet", "min": bounds[0], "max": bounds[1]})
        return out

    def act(self, i: int, action: str, amount: int | None = None) -> None:
        """Apply one decision of the actor ``i``. Checks everything first: an
        :class:`IllegalAction` leaves the state as it was."""
        if i != self.actor:
            raise IllegalAction("not_your_turn", action=action)
        bet, stack, high = self.bet, self.stack, self.high
        if action == "fold":
            if bet[i] >= high:
                raise IllegalAction("fold_when_check_free", action=action)
            self.folded[i] = True
            self.live -= 1
            self.active -= 1
        elif action == "check":
            if bet[i] < high:
                raise IllegalAction("check_facing_bet", action=action, bet=high)
        elif action == "call":
            if bet[i] >= high:
                raise IllegalAction("nothing_to_call", action=action)
            pay = high - bet[i]
            if pay > stack[i]:
                pay = stack[i]
            stack[i] -= pay
            bet[i] += pay
            self.total[i] += pay
            if stack[i] == 0:
                self.allin[i] = True
                self.active -= 1
        elif action == "bet" or action == "raise":
            self._check_raise(i, action, amount)
            assert amount is not None
            pay = amount - bet[i]
            stack[i] -= pay
            bet[i] = amount
            self.total[i] += pay
            if stack[i] == 0:
                self.allin[i] = True
                self.active -= 1
            size = amount - high
            if size >= self.full or (self.structure == FIXED_LIMIT and size >= self.unit):
                self.full = max(self.full, size)
                self._reopen(i)
            else:
                # A short all-in: those who already acted may only call or
                # fold, unless short all-ins add up to a full raise.
                self.short_sum += size
                if self.short_sum >= self.full:
                    self._reopen(i)
                else:
                    folded, allin, need = self.folded, self.allin, self.need
                    for j in range(self.n):
                        if j != i and not folded[j] and not allin[j] and bet[j] < amount:
                            need[j] = True
            self.high = amount
            self.count += 1
            self.aggressor = i
        else:
            raise IllegalAction("unknown_action", action=action)
        self.need[i] = False
        self.may_raise[i] = False
        self._advance(i)

    def _reopen(self, i: int) -> None:
        self.short_sum = 0
        folded, allin, need, may = self.folded, self.allin, self.need, self.may_raise
        for j in range(self.n):
            if j != i and not folded[j] and not allin[j]:
                need[j] = True
                may[j] = True

    def _check_raise(self, i: int, action: str, amount: int | None) -> None:
        high = self.high
        if action == "bet" and high > 0:
            raise IllegalAction("bet_already_made", action=action, bet=high)
        if action == "raise" and high == 0:
            raise IllegalAction("raise_without_bet", action=action)
        if type(amount) is not int:
            raise IllegalAction("amount_whole_chips", action=action)
        most = self.stack[i] + self.bet[i]
        if amount > most:
            raise IllegalAction("more_than_stack", action=action, available=most)
        bounds = self.raise_bounds(i)
        if bounds is None:
            if most <= high:
                why = "cannot_cover_bet"
            elif not self.may_raise[i]:
                why = "short_all_in_no_reopen"
            elif self.structure == FIXED_LIMIT and self.count >= FIXED_LIMIT_BETS:
                why = "fixed_limit_capped"
            else:
                why = "nobody_to_call_raise"
            raise IllegalAction(why, action=action)
        lo, hi = bounds
        if amount < lo and amount != most:
            if self.structure == FIXED_LIMIT:
                raise IllegalAction("fixed_limit_amount", action=action, amount=lo)
            if high == 0:
                raise IllegalAction("bet_too_small", action=action, minimum=lo)
            raise IllegalAction("raise_too_small", action=action, minimum=lo)
        if amount > hi:
            if self.structure == FIXED_LIMIT:
                raise IllegalAction("fixed_limit_amount", action=action, amount=lo)
            raise IllegalAction("pot_limit_exceeded", action=action, maximum=hi)


# -- pots -------------------------------------------------------------------


def build_pots(total: list[int], folded: list[bool]) -> list[tuple[int, list[int]]]:
    """Main and side pots from what each player put in: ``[(amount, eligible)]``,
    main pot first. A pot is a contribution level; its eligible players are
    those still in who reached it. Levels with the same eligible players merge
    (a folded player's chips just sit in the pot he reached)."""
    levels = sorted({t for i, t in enumerate(total) if t > 0 and not folded[i]})
    pots: list[tuple[int, list[int]]] = []
    prev = 0
    n = len(total)
    for level in levels:
        amount = 0
        for j in range(n):
            t = total[j]
            if t > prev:
                amount += (t if t < level else level) - prev
        eligible = [j for j in range(n) if not folded[j] and total[j] >= level]
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        else:
            pots.append((amount, eligible))
        prev = level
    # Chips above every live player's level (folded money that nobody still in
    # matched) go to the last pot: they were bet into it.
    extra = sum(t - prev for t in total if t > prev)
    if extra:
        if pots:
            pots[-1] = (pots[-1][0] + extra, pots[-1][1])
        else:  # nobody still in: cannot happen in a real deal
            pots.append((extra, []))
    return pots


class Rake:
    """The house's take: ``percent`` of every pot, rounded down, at most
    ``cap`` a pot; with ``no_flop_no_drop`` no rake when the deal ends in its
    first betting round."""

    __slots__ = ("_of_hundred", "cap", "no_flop_no_drop", "percent")

    def __init__(self, percent: Any = 0, cap: int | None = None, no_flop_no_drop: bool = True) -> None:
        # Fraction(str(..)): 2.5 % stays exactly 5/200, never a binary float.
        self.percent = Fraction(str(percent))
        # The take as integers (numerator, denominator × 100): Fraction
        # arithmetic on every pot was a visible share of a deal's end.
        self._of_hundred = (self.percent.numerator, self.percent.denominator * 100)
        self.cap = cap
        self.no_flop_no_drop = no_flop_no_drop

    def take(self, amount: int, *, first_round_only: bool) -> int:
        if not self.percent or (first_round_only and self.no_flop_no_drop):
            return 0
        num, den = self._of_hundred
        r = amount * num // den  # rounded down, exactly amount × percent / 100
        if self.cap is not None and r > self.cap:
            r = self.cap
        return r


def split(amount: int, winners: list[int]) -> dict[int, int]:
    """Equal shares; the odd chips go to the first winner left of the button
    (the lowest index)."""
    share, odd = divmod(amount, len(winners))
    out = {w: share for w in winners}
    first = min(winners)
    out[first] += odd
    return out
