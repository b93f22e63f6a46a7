"""Issue 33 §6: every whole number a request may carry has a maximum.

docs/web.md "Bad input": ids beyond 2³¹−1 and amounts beyond 10¹² are
refused at the door. A contest's fee of 2⁶³ reached the store and answered
500 (``OverflowError``): an ``int`` field without a maximum is that bug
waiting. These tests walk what the app takes in — every route's parameters
and body (the pages' routes too, which the served document leaves out), the
served OpenAPI document, the WebSocket commands and the services' model of
the owner's table form — and fail on an integer without a maximum. The
bounds themselves live in one place, :mod:`tavern.bounds`.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, APIWebSocketRoute, iter_route_contexts
from fastapi.testclient import TestClient
from pydantic import BaseModel, TypeAdapter

from tavern.services.taverns import TableSettings
from tavern.web import protocol
from tavern.web.routers.contests import ContestIn


def _resolve(root: dict[str, Any], ref: str) -> dict[str, Any]:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node  # type: ignore[no-any-return]


def unbounded(root: dict[str, Any], schema: Any, where: str, seen: frozenset[str] = frozenset()) -> Iterator[str]:
    """The places in ``schema`` (refs resolved in ``root``) that take an integer without a maximum."""
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if isinstance(ref, str):
        if ref not in seen:  # a model holding itself is walked once
            yield from unbounded(root, _resolve(root, ref), where, seen | {ref})
        return
    if schema.get("type") == "integer" and "maximum" not in schema and "exclusiveMaximum" not in schema:
        yield where
    for name, sub in (schema.get("properties") or {}).items():
        yield from unbounded(root, sub, f"{where}.{name}", seen)
    for key in ("items", "additionalProperties"):
        yield from unbounded(root, schema.get(key), f"{where}[]", seen)
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for sub in schema.get(key) or ():
            yield from unbounded(root, sub, where, seen)


def request_integers(doc: dict[str, Any]) -> Iterator[str]:
    """Unbounded integers in what an OpenAPI document's operations take in
    (parameters and request bodies; never the answers)."""
    for path, item in doc.get("paths", {}).items():
        for method, op in item.items():
            for p in op.get("parameters", []):
                yield from unbounded(doc, p.get("schema"), f"{method.upper()} {path} {p['in']}:{p['name']}")
            for kind, content in (op.get("requestBody") or {}).get("content", {}).items():
                yield from unbounded(doc, content.get("schema"), f"{method.upper()} {path} body({kind})")


def every_route_document(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document of every HTTP route, the pages' included."""
    routes = []
    for context in iter_route_contexts(app.routes):  # through the included routers
        if isinstance(context.original_route, APIRoute):
            route = copy.copy(context.original_route)
            route.include_in_schema = True
            routes.append(route)
    return get_openapi(title="every route", version="0", routes=routes)


def model_integers(model: type[BaseModel] | TypeAdapter[Any]) -> list[str]:
    schema = model.json_schema() if isinstance(model, TypeAdapter) else model.model_json_schema()
    return list(unbounded(schema, schema, getattr(model, "__name__", "commands")))


def test_the_walk_finds_an_unbounded_integer() -> None:
    """The check itself can fail: an ``int`` without ``le`` is found, however deep."""

    class Inner(BaseModel):
        fee: int

    class Outer(BaseModel):
        inner: list[Inner] | None = None
        percents: dict[str, int] = {}

    assert model_integers(Outer) == ["Outer.inner[].fee", "Outer.percents[]"]


def test_no_route_takes_an_unbounded_integer(app: FastAPI) -> None:
    """Every parameter and body of every HTTP route, pages and API."""
    doc = every_route_document(app)
    assert len(doc["paths"]) > 40  # the pages' routes are in too
    assert list(request_integers(doc)) == []


def test_the_served_openapi_document_has_no_unbounded_integer(client: TestClient) -> None:
    """What schemathesis reads (tests/reliability/test_openapi_fuzz.py): with a
    maximum on every integer, its invalid cases include one past it."""
    doc = client.get("/openapi.json").json()
    assert list(request_integers(doc)) == []
    fee = _resolve(doc, doc["paths"]["/api/admin/contests"]["post"]["requestBody"]["content"]["application/json"]
                   ["schema"]["$ref"])["properties"]["fee"]
    assert fee["maximum"] == 10**12


@pytest.mark.parametrize("model", [protocol.commands, ContestIn, TableSettings],
                         ids=["websocket commands", "contest", "table settings"])
def test_input_models_have_no_unbounded_integer(model: Any) -> None:
    """The WebSocket commands, and the models the forms' data goes through."""
    assert model_integers(model) == []


def test_the_table_socket_is_the_only_websocket(app: FastAPI) -> None:
    """Issue 33 §5 asked to check every WebSocket endpoint for binary frames:
    the table's (web/ws.py, tested in tests/tables/test_ws.py) parses and
    bounds what it reads; the live village's (web/village_feed.py) and a
    player's notices (web/notices.py) read nothing a visitor sends (tested in
    tests/web/test_private_tables.py and tests/web/test_waiting.py). A new
    one must answer binary frames and bound its numbers as well."""
    sockets = sorted(context.original_route.path for context in iter_route_contexts(app.routes)
                     if isinstance(context.original_route, APIWebSocketRoute))
    assert sockets == ["/ws/notices", "/ws/tables/{table_id}", "/ws/village"]
