"""The site's routers, made one way: a page router (HTML, every form
checked against CSRF, outside the OpenAPI schema) and a JSON API router
(the same check, a section of the schema). Both read their request's
session and run in the read pool (``ReadRoute``, web/deps.py)."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from tavern.web.csrf import csrf_protect
from tavern.web.deps import ReadRoute


def page_router(prefix: str = "") -> APIRouter:
    """The pages under ``prefix``."""
    return APIRouter(route_class=ReadRoute, prefix=prefix, dependencies=[Depends(csrf_protect)],
                     include_in_schema=False)


def api_router(prefix: str, tag: str) -> APIRouter:
    """The JSON API under ``prefix``, in the schema's section ``tag``."""
    return APIRouter(route_class=ReadRoute, prefix=prefix, tags=[tag], dependencies=[Depends(csrf_protect)])
