"""Whose turn it is, and how long he has: the clocks of one table.

:class:`Turns` keeps each player's deadline, runs his time bank when the
action timer is out, plays his move when the time is out (three in a row
sit him out at a cash table), plays the auto-actions chosen in advance, and
the disconnect protection of draw poker. It plays moves only through the
table (:class:`Turning.play`), never the engine behind its back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from tavern.catalogue import french
from tavern.games.base import Engine
from tavern.games.spec import GameSpec
from tavern.tables.bank import SqlBank, TableInfo
from tavern.tables.seating import SeatState

#: Auto-actions chosen in advance (RULES.md, draw poker: "Auto-actions chosen in
#: advance (check/fold, call any, …) are executed when the turn comes").
AUTO_ACTIONS = ("check_fold", "check", "call_any", "fold_any")
#: "after three time-outs in a row the player is sat out".
MAX_TIMEOUTS = 3
TIME_BANK_START = 30.0
TIME_BANK_REFILL = 5.0  #: seconds added to each player's bank per deal
TIME_BANK_MAX = 60.0


def auto_choice(auto: str, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    names = {a["action"]: a for a in legal}
    if auto == "check_fold":
        return {"action": "check"} if "check" in names else {"action": "fold"} if "fold" in names else None
    if auto == "check":
        return {"action": "check"} if "check" in names else None
    if auto == "call_any":
        return {"action": "call"} if "call" in names else {"action": "check"} if "check" in names else None
    if auto == "fold_any":
        return {"action": "check"} if "check" in names else {"action": "fold"} if "fold" in names else None
    return None


class TimeoutRule(Protocol):
    @property
    def timeouts_sit_out(self) -> bool: ...


class Turning(Protocol):
    """What the clocks need of their table (the actor)."""

    info: TableInfo
    game: GameSpec
    bank: SqlBank
    engine: Engine | None
    dealt: dict[str, SeatState]
    clock: Callable[[], float]
    grace: float

    @property
    def policy(self) -> TimeoutRule: ...

    def play(self, name: str, action: str, args: dict[str, Any], by: str | None = None) -> None: ...


class Turns:
    """The clocks of one table's running deal (see the module's docstring)."""

    def __init__(self, table: Turning) -> None:
        self.table = table
        self.deadlines: dict[str, float] = {}
        #: Players the disconnect protection was asked for in this deal.
        self.protected: set[str] = set()

    def new_deal(self) -> None:
        self.deadlines = {}
        self.protected = set()

    def acted(self, name: str) -> None:
        """The player moved himself: his clock stops."""
        self.deadlines.pop(name, None)

    def due(self, now: float) -> bool:
        """Play the time-outs due at ``now``; whether any was."""
        due = False
        for name, deadline in list(self.deadlines.items()):
            if deadline <= now:
                self.timeout(name)
                due = True
        return due

    def timeout(self, name: str) -> None:
        t = self.table
        seat = t.dealt[name]
        if seat.time_bank >= 1.0 and name not in self.protected and seat.connections:
            # The time bank takes over once the action timer has run out.
            self.deadlines[name] = t.clock() + seat.time_bank
            seat.time_bank = 0.0
            return
        self.deadlines.pop(name, None)
        assert t.engine is not None  # a time-out happens in a deal
        move = t.engine.timeout_action(name)
        args = {k: v for k, v in move.items() if k != "action"}
        t.play(name, move["action"], args, by="timeout")
        seat.timeouts += 1
        if not t.policy.timeouts_sit_out:
            return  # a contest: "he is never removed for time-outs"
        # Tell him what happened (a time-out used to pass in silence).
        seat.notice = french("timed_out", {"timeouts": seat.timeouts, "most": MAX_TIMEOUTS})
        if seat.timeouts >= MAX_TIMEOUTS:  # "after three time-outs in a row the player is sat out"
            seat.sitting_out = True
            seat.auto = "check_fold"
            seat.notice = french("timed_out_sat_out")

    def play_auto(self, name: str) -> bool:
        """Play ``name``'s auto-action if it is his turn and it applies."""
        t = self.table
        seat = t.dealt.get(name)
        if seat is None or not seat.auto or t.engine is None or t.engine.over:
            return False
        if name not in t.engine.to_act():
            return False
        choice = auto_choice(seat.auto, t.engine.legal_actions(name))
        if choice is None:
            if seat.sitting_out:
                choice = t.engine.timeout_action(name)
            else:
                seat.auto = None
                return False
        args = {k: v for k, v in choice.items() if k != "action"}
        t.play(name, choice["action"], args, by="auto")
        self.deadlines.pop(name, None)
        if not seat.sitting_out:
            seat.auto = None
        return True

    async def arm(self) -> bool:
        """Start the timer of whoever must act; play auto-actions and the
        disconnection protection as soon as the turn comes."""
        t = self.table
        changed = False
        assert t.engine is not None  # turns are armed in a deal
        for _ in range(200):  # auto-actions may chain; bounded all the same
            if t.engine.over:
                break
            acted = False
            for name in t.engine.to_act():
                seat = t.dealt[name]
                if self.play_auto(name):
                    acted = changed = True
                    break
                if await self._maybe_protect(seat):
                    acted = changed = True
                    break
                if name not in self.deadlines:
                    self.deadlines[name] = t.clock() + t.info.action_timer_seconds
                    changed = True
            if not acted:
                break
        for name in list(self.deadlines):
            if t.engine.over or name not in t.engine.to_act():
                del self.deadlines[name]
        return changed

    async def _maybe_protect(self, seat: SeatState) -> bool:
        """Draw poker: "A player who loses the connection is treated as all-in for
        the rest of that hand — a protection allowed a limited number of times a
        day". The table decides after a grace period to reconnect."""
        t = self.table
        if (not t.game.disconnect_protection or seat.connections or seat.disconnected_at is None
                or seat.name in self.protected):
            return False
        if t.clock() - seat.disconnected_at < t.grace:
            return False
        self.protected.add(seat.name)  # asked once per deal, whatever the answer
        if not await asyncio.to_thread(t.bank.use_disconnect_protection, seat.user_id):
            return False
        assert t.game.protect is not None  # a game with disconnect_protection has it
        t.game.protect(t.engine, seat.name)
        self.deadlines.pop(seat.name, None)
        return True

    @staticmethod
    def refill(seats: list[SeatState]) -> None:
        """A deal ended: each of its players' time bank grows (up to its most)."""
        for seat in seats:
            seat.time_bank = min(TIME_BANK_MAX, seat.time_bank + TIME_BANK_REFILL)
