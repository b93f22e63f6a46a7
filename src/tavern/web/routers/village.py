"""The village (public) and a table's page (players only)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fastapi import Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from tavern import catalogue
from tavern.bots.levels import REGULAR
from tavern.refusal import Refusal
from tavern.services import contests, ledger, private_tables, seats, taverns
from tavern.services import waiting as waiting_lists
from tavern.services.village import last_pots
from tavern.store.models import Contest, TableConfig
from tavern.web.deps import CurrentUser, Id, optional_user, read_db, require_user
from tavern.web.refusals import Refused
from tavern.web.rendering import GAME_LABELS, render
from tavern.web.routing import api_router, page_router
from tavern.web.village_live import ContestSoonOut, contests_soon

pages = page_router()
api = api_router("/api", "village")

STAKE_LABELS = catalogue.STAKE_LABELS
STAKE_WORDS = catalogue.STAKE_WORDS


def stakes_text(stakes: dict[str, Any]) -> str:
    """"1/2" for blinds, else "petite mise 2", "unité 1"."""
    if "small_blind" in stakes and "big_blind" in stakes:
        return f"{stakes['small_blind']}/{stakes['big_blind']}"
    parts = []
    for key, value in stakes.items():
        if key == "structure":
            parts.append(STAKE_WORDS.get(str(value), str(value)))
        else:
            parts.append(f"{STAKE_LABELS.get(key, key)} {value}")
    return ", ".join(parts)


class TableBrief(BaseModel):
    id: int
    name: str
    game: str
    game_label: str
    variant: str
    #: the variant as the pages say it (catalogue.VARIANTS): « limites fixées »
    variant_label: str
    stakes: dict[str, Any]
    stakes_text: str
    seats: int
    seats_taken: int
    #: who writes in its chat: open, players or off (services/chat.py)
    chat: str = "open"
    #: a table among friends: listed only for its owner and the holders of its link
    private: bool = False
    #: the last deal's size: the chips that changed hands in it (services/village.py);
    #: None when no deal ended there in the last 15 minutes
    last_pot: int | None = None
    #: how many wait for a seat there (issue 30 §3; the live summary's 4th column)
    waiting: int = 0
    #: « Joueurs de la maison »: how many house players may sit there (docs/bots.md)
    house_seats: int = 0
    #: their level (issue 37 §2): débutant, habitué or fort
    house_level: str = REGULAR


class TavernOut(BaseModel):
    id: int
    name: str
    owner: str
    tables: list[TableBrief]


class VillageOut(BaseModel):
    id: int
    name: str
    taverns: list[TavernOut]


class SeatOut(BaseModel):
    # Seats are counted from 0 everywhere a client reads them: here, in the
    # table socket's messages (docs/protocol.md "Seats") and in the `sit`
    # command. `seat_no` (from 1) stays for one release for older clients.
    seat: int = Field(ge=0, description="the seat, counted from 0 as in the table protocol")
    seat_no: int = Field(ge=1, deprecated=True,
                         description="deprecated (removed in the next release): the seat counted from 1; use `seat`")
    player: str
    chips: int
    #: A player of the house (issue 29: practice tables, house seats at real tables): « maison ».
    house: bool = False
    sitting_out: bool


class TableOut(TableBrief):
    tavern_id: int | None
    tavern_name: str
    contest_id: int | None = None
    #: A practice table (issue 29): against the house players, practice chips.
    practice: bool = False
    #: A practice table's choices: the house players' level, and whether they play fast.
    practice_level: str | None = None
    practice_fast: bool = False
    status: str
    buy_in_min: int
    buy_in_max: int
    rake_percent: int
    rake_cap: int | None
    action_timer_seconds: int
    seated: list[SeatOut]


def brief(table: TableConfig, taken: int, last_pot: int | None = None, waiting: int = 0) -> TableBrief:
    return TableBrief(
        id=table.id, name=table.name, game=table.game, game_label=GAME_LABELS.get(table.game, table.game),
        variant=table.variant, variant_label=catalogue.variant(table.variant),
        stakes=dict(table.stakes or {}), stakes_text=stakes_text(table.stakes or {}),
        seats=table.seats, seats_taken=taken, chat=table.chat or "open", private=table.private,
        last_pot=last_pot, waiting=waiting,
        house_seats=table.house_seats, house_level=table.house_level,
    )


def village_out(db: Session, viewer: CurrentUser | None) -> list[VillageOut]:
    """The village as ``viewer`` may see it: a private table only for its
    owner and the holders of its link (services/private_tables.py)."""
    tables: dict[int, list[TableBrief]] = {}
    visible = private_tables.visible_private(db, viewer.id if viewer is not None else None)
    pots = last_pots(db, dt.datetime.now(dt.UTC))  # one query for every table
    waits = waiting_lists.lengths(db)  # and one for every waiting list
    for summary in taverns.list_open_tables(db):
        if summary.table.tavern_id is None:  # a contest's table is listed with its contest
            continue
        if summary.table.private and summary.table.id not in visible:
            continue
        tables.setdefault(summary.table.tavern_id, []).append(
            brief(summary.table, summary.seats_taken, pots.get(summary.table.id), waits.get(summary.table.id, 0)))
    out = []
    for village in taverns.list_villages(db):
        out.append(VillageOut(id=village.id, name=village.name, taverns=[
            TavernOut(id=t.id, name=t.name, owner=t.owner.username, tables=tables.get(t.id, []))
            for t in taverns.list_taverns(db, village.id)
        ]))
    return out


def _contest_stakes(db: Session, contest_id: int, b: TableBrief) -> TableBrief:
    """A contest's table plays the contest's level now, not the first level
    its row was opened with: the blinds rise on the clock (contests.level_now)."""
    contest = db.get(Contest, contest_id)
    if contest is None:
        return b
    index, _ = contests.level_now(contest, dt.datetime.now(dt.UTC))
    level = contests.structure(contest)[index]
    stakes = {"small_blind": level.small_blind, "big_blind": level.big_blind}
    text = stakes_text(stakes) + (f", ante {level.ante}" if level.ante else "") + f" (niveau {index + 1})"
    return b.model_copy(update={"stakes": stakes | ({"ante": level.ante} if level.ante else {}), "stakes_text": text})


def _practice_choices(table: TableConfig) -> dict[str, Any]:
    """The level and the fast play a practice table was opened with (its row's options)."""
    chosen = (table.options or {}).get("practice") if table.practice_user_id is not None else None
    if not isinstance(chosen, dict):
        return {}
    return {"practice_level": str(chosen.get("level", "")) or None, "practice_fast": bool(chosen.get("fast"))}


def table_out(db: Session, table_id: int, viewer: CurrentUser) -> TableOut:
    table = taverns.get_table(db, table_id)
    if table is None:
        raise Refused(404, Refusal("no_such_table"))
    refused = private_tables.watch_refusal(db, table_id, viewer.id)
    if refused is not None:
        raise Refused(403, Refusal(refused))
    # A practice table's chips are no ledger balance: each seat's practice stack (the live table has the rest).
    seated = [SeatOut(seat=s.seat_no, seat_no=s.seat_no + 1, player=s.user.username,
                      chips=table.buy_in_max if table.practice_user_id is not None else ledger.chips(db, s.user_id, table.id),
                      sitting_out=s.sitting_out, house=s.user.house)
              for s in seats.seats(db, table.id)]
    b = brief(table, len(seated), last_pots(db, dt.datetime.now(dt.UTC), table.id).get(table.id))
    if table.contest_id is not None:
        b = _contest_stakes(db, table.contest_id, b)
    return TableOut(
        **b.model_dump(), tavern_id=table.tavern_id,
        tavern_name=table.tavern.name if table.tavern is not None else
        catalogue.PRACTICE_WORD if table.practice_user_id is not None else "Concours",
        contest_id=table.contest_id, practice=table.practice_user_id is not None,
        **_practice_choices(table), status=table.status,
        buy_in_min=table.buy_in_min, buy_in_max=table.buy_in_max, rake_percent=table.rake_percent,
        rake_cap=table.rake_cap, action_timer_seconds=table.action_timer_seconds, seated=seated,
    )


@pages.get("/")
def village_page(request: Request, user: CurrentUser | None = Depends(optional_user),
                 db: Session = Depends(read_db)) -> Response:
    from tavern.web.routers import (
        boards,  # the week's leaderboards (issue 31 §2)
        practice,  # « S'entraîner » (issue 29)
    )

    villages = village_out(db, user)
    soon = contests_soon(db, dt.datetime.now(dt.UTC))
    # The page's filter by stakes (static/village.js filters the rows on the client).
    stakes_choices = sorted({t.stakes_text for v in villages for tv in v.taverns for t in tv.tables})
    return render(request, "village.html", {"villages": villages, "stakes_choices": stakes_choices,
                                            "board": boards.summary(db), "contests_soon": soon,
                                            "labels": GAME_LABELS, "practice": practice.choices(), "chosen": ""})


@pages.get("/tables/{table_id}")
def table_page(request: Request, table_id: Id, user: CurrentUser = Depends(require_user),
               db: Session = Depends(read_db)) -> Response:
    table = table_out(db, table_id, user)
    by_seat = {s.seat: s for s in table.seated}
    return render(request, "table.html", {"table": table, "by_seat": by_seat})


@api.get("/village", response_model=list[VillageOut], summary="Villages, taverns and open tables")
def api_village(user: CurrentUser | None = Depends(optional_user),
                db: Session = Depends(read_db)) -> list[VillageOut]:
    return village_out(db, user)


@api.get("/village/contests", response_model=list[ContestSoonOut],
         summary="Contests opening soon: registration open or starting within the hour")
def api_contests_soon(_: CurrentUser | None = Depends(optional_user),
                      db: Session = Depends(read_db)) -> list[ContestSoonOut]:
    return contests_soon(db, dt.datetime.now(dt.UTC))


@api.get("/tables/{table_id}", response_model=TableOut, summary="A table: stakes, cave bounds, seats")
def api_table(table_id: Id, user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> TableOut:
    return table_out(db, table_id, user)
