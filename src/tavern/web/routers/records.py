"""A player's records out (issue 31): his deals downloaded from « Mes donnes »
as PHH or PokerStars hand-history text (services/hand_export.py).

Kept apart from routers/history.py (« Mes donnes » and its replayer): the
download only reads the archive through the export service, which takes
each deal as the player saw it."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from fastapi import Depends, Query
from fastapi.responses import Response
from sqlalchemy.orm import Session

from tavern.bounds import MAX_ID
from tavern.services import hand_export
from tavern.web.deps import CurrentUser, SiteSettings, read_db, require_user
from tavern.web.refusals import Refused
from tavern.web.routing import api_router, page_router

pages = page_router()
api = api_router("/api/me", "account")

#: At most this many deal ids named in one request (a query string, so kept short).
MAX_IDS = 400  # 4,800 characters at most: under 64 KiB even percent-encoded, the longest URL clients send
Fmt = Annotated[str, Query(alias="format", pattern="^(phh|pokerstars)$")]
Ids = Annotated[str | None, Query(max_length=12 * MAX_IDS)]


def _ids(raw: str | None) -> list[int] | None:
    if not raw:
        return None
    out: list[int] = []
    for part in raw.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= MAX_ID or len(out) >= MAX_IDS:
            raise Refused(400, hand_export.ExportError("export_not_your_deals", ids=part[:12] or "—"))
        out.append(int(part))
    return out


def _download(db: Session, user: CurrentUser, start: dt.date, end: dt.date, fmt: str, ids: str | None,
              zone: str) -> Response:
    try:
        done = hand_export.export(db, user.username, start, end, fmt, _ids(ids), zone=zone)
    except hand_export.ExportError as exc:
        raise Refused(400, exc) from None
    suffix = "phhs" if fmt == "phh" else "txt"
    name = f"mes-donnes-{start.isoformat()}-{end.isoformat()}.{suffix}"
    headers = {"Content-Disposition": f'attachment; filename="{name}"', "X-Tavern-Deals": str(done.count),
               "X-Tavern-Skipped": ",".join(map(str, done.skipped))}
    return Response(done.text, media_type="text/plain; charset=utf-8", headers=headers)


@pages.get("/mes-donnes-export")
def download_page(settings: SiteSettings, start: dt.date, end: dt.date, fmt: Fmt = "pokerstars", ids: Ids = None,
                  user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> Response:
    """The form of « Mes donnes »: the file, or the refusal as a page."""
    return _download(db, user, start, end, fmt, ids, settings.timezone)


@api.get("/export/deals", summary="My poker deals in a date range, as PHH or PokerStars text (my view only)")
def api_download(settings: SiteSettings, start: dt.date, end: dt.date, fmt: Fmt = "pokerstars", ids: Ids = None,
                 user: CurrentUser = Depends(require_user), db: Session = Depends(read_db)) -> Response:
    return _download(db, user, start, end, fmt, ids, settings.timezone)
