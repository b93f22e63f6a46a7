"""``/metrics``: the Prometheus scrape (tavern/metrics.py, docs/operations.md).

Only for the operator: from an address of ``TAVERN_METRICS_ALLOW`` or with
``Authorization: Bearer`` and ``TAVERN_METRICS_TOKEN``; refused otherwise
(403, ``metrics_forbidden``) — the figures tell how busy the site is and
where, nothing a visitor needs.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress

from fastapi import APIRouter, Request
from starlette.responses import Response

from tavern import metrics
from tavern.refusal import Refusal
from tavern.settings import Settings
from tavern.web.deps import ReadRoute
from tavern.web.refusals import Refused
from tavern.web.sampler import sample_now
from tavern.web.state import services

pages = APIRouter(route_class=ReadRoute, include_in_schema=False)


def allowed(settings: Settings, address: str | None, authorization: str | None) -> bool:
    if settings.metrics_token and authorization:
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), settings.metrics_token.encode()):
            return True
    if settings.metrics_allow and address:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in ipaddress.ip_network(net, strict=False) for net in settings.metrics_allow)
    return False


@pages.get("/metrics")
async def scrape(request: Request) -> Response:
    settings: Settings = services(request).settings
    if not allowed(settings, request.client.host if request.client else None, request.headers.get("authorization")):
        raise Refused(403, Refusal("metrics_forbidden"))
    sample_now(request.app)
    # In multiprocess mode the scrape reads every worker's files: off the loop.
    body = await asyncio.to_thread(metrics.scrape) if metrics.MULTIPROCESS else metrics.scrape()
    return Response(body, media_type=metrics.CONTENT_TYPE)
