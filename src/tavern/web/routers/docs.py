"""``/docs``: the API reference, rendered from the OpenAPI document.

FastAPI's default Swagger UI loads its scripts from a CDN, which our
Content-Security-Policy (self only, no external asset) forbids; this page is
server-rendered from ``app.openapi()`` instead, and the raw document stays at
``/openapi.json`` for tools.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from tavern.web.deps import ReadRoute
from tavern.web.rendering import render

pages = APIRouter(route_class=ReadRoute, include_in_schema=False)

METHODS = ("get", "post", "put", "patch", "delete")


def _type(schema: Any) -> str:
    """A schema in a few words: "int", "list[TableBrief]", "str | null"."""
    if not isinstance(schema, dict):  # JSON Schema allows `true` for "anything"
        return "any"
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " | ".join(_type(s) for s in schema["anyOf"])
    if "enum" in schema:
        return " | ".join(repr(v) for v in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    kind = schema.get("type", "any")
    if kind == "array":
        return f"list[{_type(schema.get('items', {}))}]"
    if kind == "object" and "additionalProperties" in schema:
        return f"dict[str, {_type(schema['additionalProperties'])}]"
    return {"integer": "int", "string": "str", "boolean": "bool", "number": "float"}.get(str(kind), str(kind))


def _body(op: dict[str, Any]) -> str | None:
    content = (op.get("requestBody") or {}).get("content") or {}
    for media in content.values():
        return _type(media.get("schema", {}))
    return None


def _responses(op: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for code, resp in op.get("responses", {}).items():
        content: dict[str, Any] = resp.get("content") or {}
        first: dict[str, Any] = next(iter(content.values()), {})
        schema = first.get("schema")
        out.append((code, _type(schema) if schema else resp.get("description", "")))
    return out


def reference(doc: dict[str, Any]) -> dict[str, Any]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for path, item in doc.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if not op:
                continue
            tag = (op.get("tags") or ["autres"])[0]
            groups.setdefault(tag, []).append({
                "method": method.upper(), "path": path, "summary": op.get("summary", ""),
                "params": [(p["name"], p.get("in", ""), _type(p.get("schema", {})), p.get("required", False))
                           for p in op.get("parameters", [])],
                "body": _body(op), "responses": _responses(op),
            })
    schemas = {
        name: [(field, _type(spec), field in s.get("required", []))
               for field, spec in s.get("properties", {}).items()]
        for name, s in sorted(doc.get("components", {}).get("schemas", {}).items())
    }
    return {"info": doc.get("info", {}), "groups": groups, "schemas": schemas}


@pages.get("/docs")
def api_docs(request: Request) -> Response:
    return render(request, "api_docs.html", {"ref": reference(request.app.openapi())})
