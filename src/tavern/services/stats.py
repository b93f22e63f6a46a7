"""A player's figures per game (issue 31 §1), kept current as deals settle.

:func:`count_deal` runs in the transaction that settles a deal
(:func:`tavern.services.archive.complete_hand`): the deal's figures are added
to each player's row for its game with one upsert per player, so the
figures and the chips move together — a server killed mid-deal counts
nothing (the deal is voided, never settled), a settlement rolled back
counts nothing. Reading them is a handful of rows per player, whatever the
number of deals (bench/bench_stats.py).

What counts, from the archived record and result (docs/statistics.md):
deals played and won (ended with more chips), chips won and lost, the
biggest pot he took; at poker VPIP (chips put in by choice in the first
betting round), PFR (a bet or raise there), went to showdown and won at
showdown; Gin and rami matches won; Rams « rams général » made.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass, fields
from functools import cache
from typing import Any, cast
from zoneinfo import ZoneInfo

from sqlalchemy import Table, case, delete, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from tavern.games import registry
from tavern.games.base import IllegalAction
from tavern.games.rummoli.poker_phase import split
from tavern.store.db import bound, listed
from tavern.store.direct import Direct
from tavern.store.models import PlayerStats, PlayerWeek, User

POKER = ("ramponneau", "draw")


@dataclass
class Figures:
    deals: int = 1
    won: int = 0
    chips_won: int = 0
    chips_lost: int = 0
    biggest_pot: int = 0
    vpip: int = 0
    pfr: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    matches_won: int = 0
    rams_made: int = 0


def _poker(record: dict[str, Any], result: dict[str, Any], out: dict[str, Figures],
           first_round: list[tuple[str, str]] | None = None) -> None:
    """VPIP and PFR from the first betting round, showdowns from the end.
    Only the engine knows where that round ends: the table hands in the
    moves it saw made in it (``PokerDeal.first_round_moves``, no replay);
    otherwise (``stats rebuild``, an old record) the record is replayed."""
    replayed = True
    if first_round is None:
        first_round, replayed = _first_round_replayed(record)
    for who, what in first_round:
        if who in out and what in ("call", "bet", "raise"):
            out[who].vpip = 1
            out[who].pfr = max(out[who].pfr, int(what != "call"))
    if not replayed:
        return  # a record the engine cannot replay to its end: no showdown counted
    actions = record.get("actions") or []
    folded = {str(a.get("player")) for a in actions if isinstance(a, dict) and a.get("action") == "fold"}
    still_in = [p for p in out if p not in folded]
    winners = {w for pot in result.get("pots") or [] for w in pot.get("winners") or []}
    if len(still_in) > 1:
        for p in still_in:
            out[p].showdowns = 1
            out[p].showdowns_won = int(p in winners)


def _first_round_replayed(record: dict[str, Any]) -> tuple[list[tuple[str, str]], bool]:
    """The first betting round's moves by a replay of the record, and
    whether it replayed to its end (the moves before a refused one count)."""
    moves: list[tuple[str, str]] = []
    first = True  # the state before each action: still the first betting round
    try:
        for engine, action in registry.replay_steps(record):
            if action is not None and first:
                moves.append((str(action.get("player")), str(action.get("action"))))
            # Ramponneau sets it at the flop, draw poker at the first draw.
            first = not engine.reached_second
    except (IllegalAction, KeyError, TypeError, ValueError):
        return moves, False
    return moves, True


def deal_figures(game: str, record: dict[str, Any], result: dict[str, Any],
                 first_round: list[tuple[str, str]] | None = None) -> dict[str, Figures]:
    """Each player's figures for one finished deal (``first_round``: at
    poker, the first betting round's moves as the table saw them)."""
    delta = result.get("delta") or result.get("net") or {}
    players = [s.get("player") for s in record.get("seats") or [] if isinstance(s, dict) and not s.get("waiting")]
    out = {str(p): Figures() for p in players if isinstance(p, str)}
    for p, fig in out.items():
        d = delta.get(p, 0) if isinstance(delta, dict) else 0
        d = d if isinstance(d, int) else 0
        fig.won = int(d > 0)
        fig.chips_won = max(d, 0)
        fig.chips_lost = max(-d, 0)
        taken = _taken(result, p)
        fig.biggest_pot = max(d, 0) if taken is None else taken
    scoring = result.get("scoring") or {}
    match = scoring.get("match") if isinstance(scoring, dict) else None
    if isinstance(match, dict) and match.get("winner") in out:
        out[match["winner"]].matches_won = 1
    for pot in result.get("pots") or []:
        general = pot.get("general") if isinstance(pot, dict) else None
        if isinstance(general, dict) and general.get("success") and general.get("announcer") in out:
            out[general["announcer"]].rams_made = 1
    if game in POKER:
        _poker(record, result, out, first_round)
    return out


def _taken(result: dict[str, Any], player: str) -> int | None:
    """What ``player`` took from the pots of one deal (docs/statistics.md
    "the most he took from the pots of one deal"), whatever he paid in
    besides — a Rams dealer who takes 4 from the pot his stake of 5 went
    into took 4 — or None for a game without pots (the rami games: his net
    win counts). A pot says it by its ``shares`` (poker, Rams), its
    ``taken_by`` (Rams: everybody passed to the last speaker) or its
    ``winners`` (Rummoli: a section won whole, the poker pot split as the
    engine splits it)."""
    pots = [pot for pot in result.get("pots") or [] if isinstance(pot, dict)]
    if not pots:
        return None
    taken = 0
    for pot in pots:
        amount = pot.get("amount", 0)
        amount = amount if isinstance(amount, int) else 0
        shares, winners = pot.get("shares"), pot.get("winners")
        if isinstance(shares, dict):
            share = shares.get(player, 0)
            taken += share if isinstance(share, int) else 0
        elif isinstance(winners, list) and player in winners:
            taken += split(amount, [str(w) for w in winners]).get(player, 0)
        if pot.get("taken_by") == player:
            taken += amount
    return taken


_STATS = cast(Table, PlayerStats.__table__)
_ADDED = ("deals", "won", "chips_won", "chips_lost", "vpip", "pfr", "showdowns", "showdowns_won", "matches_won",
          "rams_made")


_USERS = cast(Table, User.__table__)


@cache
def _ids_of(players: int) -> Direct:
    """The players' ids by name: one statement per table size, compiled once."""
    return Direct(select(_USERS.c.username, _USERS.c.id).where(_USERS.c.username.in_(listed("names", players))))


@cache
def _upsert(dialect: str) -> Direct:
    insert = sqlite_insert if dialect == "sqlite" else postgresql_insert
    stmt = insert(_STATS)
    ex = stmt.excluded
    sets: dict[str, Any] = {name: _STATS.c[name] + ex[name] for name in _ADDED}
    # The biggest pot: portable (SQLite's max() and PostgreSQL's greatest() differ).
    sets["biggest_pot"] = case((ex.biggest_pot > _STATS.c.biggest_pot, ex.biggest_pot), else_=_STATS.c.biggest_pot)
    return Direct(stmt.on_conflict_do_update(index_elements=["user_id", "game", "practice"], set_=sets),
                  keys=["user_id", "game", "practice", *(f.name for f in fields(Figures))])


_WEEKS = cast(Table, PlayerWeek.__table__)
PARIS = ZoneInfo("Europe/Paris")


def week_of(when: dt.datetime) -> dt.date:
    """The Monday of ``when``'s week, Paris time: the week turns at midnight
    in Paris (a deal ending Monday 00:30 in Paris, Sunday 23:30 UTC in
    winter, is in the new week)."""
    day = when.astimezone(PARIS).date()
    return day - dt.timedelta(days=day.weekday())


@cache
def _week_upsert(dialect: str) -> Direct:
    insert = sqlite_insert if dialect == "sqlite" else postgresql_insert
    stmt = insert(_WEEKS)
    return Direct(stmt.on_conflict_do_update(index_elements=["user_id", "game", "week"],
                                             set_={"deals": _WEEKS.c.deals + stmt.excluded.deals,
                                                   "net": _WEEKS.c.net + stmt.excluded.net}),
                  keys=["user_id", "game", "week", "deals", "net"])


def count_deal(session: Session, record: dict[str, Any], result: dict[str, Any], *, practice: bool = False,
               ended: dt.datetime | None = None, weekly: bool = True,
               first_round: list[tuple[str, str]] | None = None) -> None:
    """Add one settled deal to its players' figures and to their week's net
    at its game (``ended``, default now), in the caller's transaction (the
    settlement's). Practice deals, and contest deals (``weekly`` false: their
    chips are not money), stay off the weekly leaderboards. Its statements
    run straight on the driver (store/direct.py): every deal of every table
    passes here, inside the settlement's transaction: the table hands in
    the first betting round's moves at poker (``first_round``), so that
    nothing replays the deal."""
    game = str(record.get("game") or "")
    figures = deal_figures(game, record, result, first_round)
    if not game or not figures:
        return
    conn = session.connection()
    names = list(figures)
    ids: dict[str, int] = dict(_ids_of(len(names)).rows(conn, bound("names", names)))
    rows = [{"user_id": ids[p], "game": game, "practice": practice, **asdict(f)}
            for p, f in figures.items() if p in ids]
    if rows:
        _upsert(conn.dialect.name).run_many(conn, rows)
        if weekly and not practice:
            week = week_of(ended or dt.datetime.now(dt.UTC))
            _week_upsert(conn.dialect.name).run_many(
                conn, [{"user_id": r["user_id"], "game": game, "week": week, "deals": 1,
                        "net": r["chips_won"] - r["chips_lost"]} for r in rows])


def of_player(session: Session, user_id: int) -> list[PlayerStats]:
    """His rows, one per game (and practice apart)."""
    return list(session.scalars(select(PlayerStats).where(PlayerStats.user_id == user_id)
                                .order_by(PlayerStats.practice, PlayerStats.game)))


def rates(row: PlayerStats) -> dict[str, Any]:
    """One row as the pages show it: counts and, at poker, the usual
    percentages (of deals played; of showdowns for « won at showdown »)."""
    out: dict[str, Any] = {c.name: getattr(row, c.name) for c in _STATS.columns if c.name not in ("id", "user_id")}
    out["net"] = row.chips_won - row.chips_lost

    def pct(part: int, whole: int) -> float | None:
        return round(100 * part / whole, 1) if whole else None

    if row.game in POKER:
        out.update(vpip_pct=pct(row.vpip, row.deals), pfr_pct=pct(row.pfr, row.deals),
                   showdown_pct=pct(row.showdowns, row.deals), showdown_won_pct=pct(row.showdowns_won, row.showdowns))
    return out


def public_profile(session: Session, username: str) -> dict[str, Any] | None:
    """What anybody may see of a player: his name, since when he plays, the
    deals he played per game, his places in finished contests and the
    taverns he sat in. Nothing private: no chips, no figures, no address."""
    from tavern.store.models import Contest, ContestEntry, TableConfig, TableVisit, Tavern

    user = session.scalars(select(User).where(User.username == username)).first()
    if user is None:
        return None
    games = dict(session.execute(select(PlayerStats.game, PlayerStats.deals).where(
        PlayerStats.user_id == user.id, PlayerStats.practice.is_(False))).all())
    places = [{"contest": name, "place": place, "date": when.date().isoformat() if when else None}
              for name, place, when in session.execute(
                  select(Contest.name, ContestEntry.place, Contest.finished_at).join(Contest)
                  .where(ContestEntry.user_id == user.id, ContestEntry.place.is_not(None),
                         Contest.status == "finished").order_by(Contest.finished_at.desc()).limit(50))]
    taverns = sorted(set(session.scalars(
        select(Tavern.name).join(TableConfig, TableConfig.tavern_id == Tavern.id)
        .join(TableVisit, TableVisit.table_id == TableConfig.id).where(TableVisit.user_id == user.id))))
    return {"username": user.username, "since": user.created.date().isoformat(), "games": games,
            "places": places, "taverns": taverns}


def rebuild(session: Session) -> int:
    """Every figure and week counted again from the archive (the settled
    deals: not voided, not in progress): for the deals settled before the
    figures existed (migration 0008), or after a change of what is counted.
    Run it with the server stopped: a deal settling meanwhile could be
    counted twice or not at all. Returns the number of deals counted."""
    from tavern.store.models import ArchivedHand

    session.execute(delete(PlayerStats))
    session.execute(delete(PlayerWeek))
    counted = 0
    stmt = (select(ArchivedHand).where(ArchivedHand.voided.is_(False)).order_by(ArchivedHand.id)
            .execution_options(yield_per=500))
    for hand in session.scalars(stmt):
        record, result = hand.record or {}, hand.result or {}
        if result.get("in_progress") or record.get("closing"):
            continue
        count_deal(session, record, result, ended=hand.ended, weekly=hand.contest_id is None, practice=hand.practice)
        counted += 1
    return counted
