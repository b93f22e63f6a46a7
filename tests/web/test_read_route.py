"""Every route of the site gives its read connection back in its own thread
(web/deps.py ``ReadRoute``; docs/web.md "Capacity")."""

from __future__ import annotations

from fastapi.routing import APIRoute
from sqlalchemy.orm import Session

from tavern.web.deps import ReadRoute, _released_after
from tavern.web.routers import ROUTERS


def test_every_route_of_the_site_is_a_read_route() -> None:
    routes = [r for router in ROUTERS for r in router.routes if isinstance(r, APIRoute)]
    assert len(routes) > 50
    assert [r.path for r in routes if not isinstance(r, ReadRoute)] == []


class _Recorder(Session):
    closed = 0

    def close(self) -> None:
        type(self).closed += 1


def test_a_sync_route_closes_its_sessions_as_it_returns_even_when_it_fails() -> None:
    def route(db: Session, n: int) -> int:
        assert _Recorder.closed == 0  # still open while the route runs
        if n < 0:
            raise ValueError("refused")
        return n * 2

    wrapped = _released_after(route)
    assert wrapped(db=_Recorder(), n=2) == 4 and _Recorder.closed == 1
    _Recorder.closed = 0
    try:
        wrapped(db=_Recorder(), n=-1)
    except ValueError:
        pass
    assert _Recorder.closed == 1


def test_async_routes_are_left_as_they_are() -> None:
    async def route() -> None:
        return None

    assert _released_after(route) is route
