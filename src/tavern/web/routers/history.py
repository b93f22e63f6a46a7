"""« Mes donnes »: a player's archived deals and a step-by-step replayer
that shows him only what he saw at the time (issue 11).

A deal still being played is listed « en cours »: no end, no result, not
voided (its row says voided only so that a crash leaves it so), and no
steps nor seed until it ends — the live table shows it as it goes, and its
replay would have nothing to add that the table did not show (issue 33)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fastapi import Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel
from sqlalchemy.orm import Session

from tavern import fair_cards
from tavern.refusal import Refusal
from tavern.services import archive, house_seats
from tavern.web.deps import CurrentUser, Id, SiteSettings, read_db, require_user
from tavern.web.refusals import Refused
from tavern.web.rendering import GAME_LABELS, render
from tavern.web.routing import api_router, page_router

pages = page_router()
api = api_router("/api/me", "account")

LISTED = 100


class DealOut(BaseModel):
    id: int
    table_id: int
    game: str
    ended: str | None  #: None while the deal is being played
    players: list[str]
    in_progress: bool  #: being played: no end, no result, no steps nor seed until it ends
    voided: bool  #: cancelled by a crash (nobody paid); never while in progress
    delta: int | None  #: what this player won (+) or lost (−), None when voided or in progress
    practice: bool = False  #: played at a practice table, with practice chips (« entraînement »)
    house: list[str] = []  #: its players of the house (marked « maison »)


def _deals(db: Session, user: CurrentUser) -> list[DealOut]:
    out = []
    hands = archive.list_hands(db, player=user.username, limit=LISTED)
    house = house_seats.house_names(db, [name for hand in hands for name in hand.players or []])
    for hand in hands:
        if (hand.record or {}).get("closing"):
            continue
        playing = archive.in_progress(hand)
        voided = hand.voided and not playing
        delta = (hand.result or {}).get("delta") or {}
        out.append(DealOut(id=hand.id, table_id=hand.table_id, game=hand.game,
                           ended=None if playing else hand.ended.isoformat(), players=list(hand.players or []),
                           in_progress=playing, voided=voided,
                           delta=None if voided or playing else delta.get(user.username),
                           practice=hand.practice, house=[n for n in hand.players or [] if n in house]))
    return out


def _steps(db: Session, user: CurrentUser, deal_id: int) -> list[dict[str, Any]]:
    hand = archive.get_hand(db, deal_id)
    if hand is None or user.username not in (hand.players or []):
        raise Refused(404, Refusal("not_your_deal"))
    if archive.in_progress(hand):
        raise Refused(409, Refusal("deal_in_progress"))
    if hand.voided:
        raise Refused(409, Refusal("deal_voided_no_replay"))
    return archive.deal_steps(hand, user.username)


@pages.get("/mes-donnes")
def deals_page(request: Request, settings: SiteSettings, user: CurrentUser = Depends(require_user),
               db: Session = Depends(read_db)) -> Response:
    return render(request, "my_deals.html", {"deals": _deals(db, user), "labels": GAME_LABELS,
                                             "reveal_days": settings.fair_reveal_days})


@pages.get("/mes-donnes/{deal_id}")
def replay_page(request: Request, deal_id: Id, user: CurrentUser = Depends(require_user),
                db: Session = Depends(read_db)) -> Response:
    _steps(db, user, deal_id)  # 404 unless he played it
    hand = archive.get_hand(db, deal_id)
    house = sorted(house_seats.house_names(db, list(hand.players or []))) if hand is not None else []
    return render(request, "replay.html", {"deal_id": deal_id, "house": house})


@api.get("/deals", response_model=list[DealOut], summary="My archived deals, newest first")
def api_deals(user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> list[DealOut]:
    return _deals(db, user)


@api.get("/deals/{deal_id}/fair", summary="The openings of the cards I saw in one of my deals; "
                                           "its seed and deck after TAVERN_FAIR_REVEAL_DAYS (docs/fairness.md)")
def api_fair(deal_id: Id, settings: SiteSettings, user: CurrentUser = Depends(require_user),
             db: Session = Depends(read_db)) -> dict[str, Any]:
    """For a deal he was dealt in, finished or voided by a crash, never while
    it is being played: the openings of the cards he saw (issue 42 §6), and
    ``TAVERN_FAIR_REVEAL_DAYS`` after its end what ``tavern verify`` reads —
    the deal's game and config, its ``fair`` block with the server seed, its
    deck and its rebuilt stocks."""
    hand = archive.get_hand(db, deal_id)
    if hand is None or user.username not in (hand.players or []):
        raise Refused(404, Refusal("not_your_deal"))
    record = hand.record or {}
    if archive.in_progress(hand) or "fair" not in record:
        raise Refused(404, Refusal("seed_not_revealed"))
    # The game and its config: verify starts each shuffle from that game's packs.
    return fair_cards.player_reveal({**record, "game": hand.game}, user.username, hand.ended,
                                    settings.fair_reveal_days, dt.datetime.now(dt.UTC))


@api.get("/deals/{deal_id}", summary="One of my deals, step by step, as I saw it")
def api_steps(deal_id: Id, user: CurrentUser = Depends(require_user),
              db: Session = Depends(read_db)) -> list[dict[str, Any]]:
    return _steps(db, user, deal_id)
