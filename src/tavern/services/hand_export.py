"""A player takes his deals out (issue 31 §3): his poker deals in a date
range, as PHH (Ramponneau) or as PokerStars hand-history text (Ramponneau
and draw poker), the format the common trackers import.

Only his own view of each deal: every card written is one he saw. What he
saw comes from one function, :func:`player_view` (the replayer's per-step
views of the deal); the writers are told which other players' hands were
shown to him and write nobody else's hole cards.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import String, cast, select
from sqlalchemy.orm import Session

from tavern.games.base import IllegalAction
from tavern.games.poker.phh import to_phh
from tavern.games.poker.stars import to_pokerstars
from tavern.refusal import Refusal
from tavern.services import archive
from tavern.store.models import ArchivedHand, TableConfig

#: The longest range one export covers (« a year long » is refused).
MAX_DAYS = 366
FORMATS = {"phh": ("ramponneau",), "pokerstars": ("ramponneau", "draw")}


class ExportError(Refusal, ValueError):
    """A refused export: nothing is written."""


def player_view(hand: ArchivedHand, player: str) -> list[dict[str, Any]]:
    """The deal step by step as ``player`` saw it. The one place the export
    learns what he saw (the replayer's redaction is the authority)."""
    return archive.deal_steps(hand, player)


def shown_to(steps: Iterable[dict[str, Any]], player: str) -> set[str]:
    """The other players whose hole cards ``player`` saw at some step of
    the deal (shown down, in his view)."""
    out: set[str] = set()
    for step in steps:
        for seat in (step.get("view") or {}).get("players") or []:
            if isinstance(seat, dict) and seat.get("player") != player and seat.get("cards"):
                out.add(str(seat["player"]))
    return out


def mentions(player: str) -> Any:
    """A pre-filter on the deals that name ``player``: the JSON list of
    names as text contains ``"player"`` (portable: SQLite and PostgreSQL
    both write a JSON string between double quotes; ``_`` and ``%`` are
    escaped). The caller still checks ``player in hand.players``: the
    JSON containment operators differ between the two."""
    return cast(ArchivedHand.players, String).contains(f'"{player}"', autoescape=True)


def check_range(start: dt.date, end: dt.date) -> None:
    """``start`` to ``end``, both days included: in order, at most a year."""
    if end < start:
        raise ExportError("export_range_upside_down", start=start.isoformat(), end=end.isoformat())
    if (end - start).days + 1 > MAX_DAYS:
        raise ExportError("export_range_too_long", days=MAX_DAYS)


def _bounds(start: dt.date, end: dt.date) -> tuple[dt.datetime, dt.datetime]:
    first = dt.datetime.combine(start, dt.time(), dt.UTC)
    return first, dt.datetime.combine(end + dt.timedelta(days=1), dt.time(), dt.UTC)


def his_deals(db: Session, player: str, start: dt.date, end: dt.date, games: Iterable[str],
              ids: Iterable[int] | None = None) -> list[ArchivedHand]:
    """His finished deals of ``games`` that ended in the range, oldest first;
    with ``ids``, only those, and every one must be his (else refused, naming
    the ids that are not)."""
    check_range(start, end)
    lo, hi = _bounds(start, end)
    stmt = (select(ArchivedHand).where(ArchivedHand.ended >= lo, ArchivedHand.ended < hi,
                                       ArchivedHand.voided.is_(False), ArchivedHand.game.in_(list(games)),
                                       mentions(player))
            .order_by(ArchivedHand.ended, ArchivedHand.id))
    wanted = sorted(set(ids)) if ids is not None else None
    if wanted is not None:
        mine = [h for h in db.scalars(select(ArchivedHand).where(ArchivedHand.id.in_(wanted)))
                if player in (h.players or [])]
        foreign = sorted(set(wanted) - {h.id for h in mine})
        if foreign:  # another player's deal, or none at all: the same answer
            raise ExportError("export_not_your_deals", ids=", ".join(map(str, foreign)))
        stmt = stmt.where(ArchivedHand.id.in_(wanted))
    # Players are checked in Python: JSON containment differs between SQLite and PostgreSQL.
    return [h for h in db.scalars(stmt.execution_options(yield_per=200))
            if player in (h.players or []) and not (h.record or {}).get("closing")
            and not (h.result or {}).get("in_progress")]


@dataclass
class Export:
    text: str
    count: int = 0
    skipped: list[int] = field(default_factory=list)  #: deals the format cannot say (a post to enter)


def export(db: Session, player: str, start: dt.date, end: dt.date, fmt: str,
           ids: Iterable[int] | None = None, *, zone: str = "Europe/Paris") -> Export:
    """The text of his deals in ``fmt`` (``phh`` or ``pokerstars``); the
    PokerStars header tells each deal's time in ``zone`` (the site's,
    ``settings.timezone``) and in ET."""
    if fmt not in FORMATS:
        raise ExportError("export_format", formats=", ".join(FORMATS))
    hands = his_deals(db, player, start, end, FORMATS[fmt], ids)
    tables = dict(db.execute(select(TableConfig.id, TableConfig.name)
                             .where(TableConfig.id.in_({h.table_id for h in hands}))).all())
    parts: list[str] = []
    out = Export(text="")
    for hand in hands:
        shown = shown_to(player_view(hand, player), player)
        try:
            if fmt == "phh":
                others = [p for p in hand.players if p != player and p not in shown]
                parts.append(f"[{hand.id}]\n{to_phh(hand.record, hidden=others)}")
            else:
                parts.append(to_pokerstars(hand.record, hero=player, shown=shown, number=hand.id, when=hand.ended,
                                           table=tables.get(hand.table_id) or f"Table {hand.table_id}",
                                           zone=ZoneInfo(zone)))
        except IllegalAction:
            out.skipped.append(hand.id)
    out.text = "\n\n".join(parts) + ("\n" if parts and fmt == "pokerstars" else "")
    out.count = len(parts)
    return out
