"""« Surveillance »: the collusion report and the archived deals, for site
admins only (docs/surveillance.md)."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel
from sqlalchemy.orm import Session

from tavern import fair, fair_cards
from tavern.refusal import Refusal
from tavern.services import archive, surveillance
from tavern.web.deps import CurrentUser, Id, read_db, require_admin
from tavern.web.refusals import Refused
from tavern.web.rendering import render
from tavern.web.routing import api_router, page_router
from tavern.web.state import services

pages = page_router("/admin")
api = api_router("/api/admin", "administration")

#: Pairs shown below the suspicious ones, for comparison.
OTHERS_SHOWN = 30


class FlagOut(BaseModel):
    kind: str
    weight: float
    text: str


class PairOut(BaseModel):
    players: tuple[str, str]
    score: float
    deals_together: int
    chips: dict[str, float]  # "a>b": chips that went from a to b
    share_from_other: dict[str, float]
    facing: dict[str, dict[str, int]]  # x: {"faced", "folded", "raised"} against the other's bets
    flags: list[FlagOut]
    deals: list[int]


def pair_out(p: surveillance.Pair) -> PairOut:
    return PairOut(
        players=(p.a, p.b), score=p.score, deals_together=p.deals,
        chips={f"{p.a}>{p.b}": round(p.flow[(p.a, p.b)], 1), f"{p.b}>{p.a}": round(p.flow[(p.b, p.a)], 1)},
        share_from_other={x: round(p.share_from_other(x), 3) for x in (p.a, p.b)},
        facing={x: {"faced": f.faced, "folded": f.folded, "raised": f.raised} for x, f in p.facing.items()},
        flags=[FlagOut(kind=f.kind, weight=round(f.weight, 2), text=f.text) for f in p.flags],
        deals=p.deal_ids())


def _report(request: Request, db: Session) -> surveillance.Report:
    return surveillance.report(db, surveillance.Thresholds.from_settings(services(request).settings))


@pages.get("/surveillance")
def report_page(request: Request, _: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> Response:
    report = _report(request, db)
    suspicious = report.suspicious()
    others = [p for p in report.pairs if p.score < report.thresholds.score][:OTHERS_SHOWN]
    return render(request, "admin/surveillance.html",
                  {"report": report, "suspicious": suspicious, "others": others, "player": None})


@pages.get("/surveillance/joueurs/{name}")
def player_page(request: Request, name: str, _: CurrentUser = Depends(require_admin),
                db: Session = Depends(read_db)) -> Response:
    report = _report(request, db)
    mine = report.of_player(name)
    if not mine:
        raise Refused(404, Refusal("no_shared_deal"))
    return render(request, "admin/surveillance.html",
                  {"report": report, "suspicious": [p for p in mine if p.score >= report.thresholds.score],
                   "others": [p for p in mine if p.score < report.thresholds.score], "player": name})


@pages.get("/donnes/{deal_id}")
def deal_page(request: Request, deal_id: Id, _: CurrentUser = Depends(require_admin),
              db: Session = Depends(read_db)) -> Response:
    """An archived deal as the admin sees it: every card, every move in order,
    the result, its server seed at once (its players wait
    ``TAVERN_FAIR_REVEAL_DAYS``, issue 42 §6), and whether its deck and its
    per-card digests check against that seed."""
    hand = archive.get_hand(db, deal_id)
    if hand is None:
        raise Refused(404, Refusal("no_such_deal"))
    try:
        checked, verdict = fair_cards.verify(hand.record), True
    except fair.FairError as exc:
        checked, verdict = [str(exc)], False
    return render(request, "admin/deal.html", {"hand": hand, "checked": checked, "verdict": verdict})


@api.get("/deals/{deal_id}/record", summary="An archived deal's whole record, server seed and deck included: "
                                            "what `tavern verify` reads (docs/fairness.md)")
def api_record(deal_id: Id, _: CurrentUser = Depends(require_admin), db: Session = Depends(read_db)) -> dict[str, Any]:
    hand = archive.get_hand(db, deal_id)
    if hand is None:
        raise Refused(404, Refusal("no_such_deal"))
    return {**(hand.record or {}), "game": hand.game}


@api.get("/surveillance", response_model=list[PairOut],
         summary="The collusion report: every pair of players who shared deals, most suspicious first")
def api_report(request: Request, _: CurrentUser = Depends(require_admin),
               db: Session = Depends(read_db)) -> list[PairOut]:
    return [pair_out(p) for p in _report(request, db).pairs]
