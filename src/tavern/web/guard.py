"""The door of every HTTP request: body size and control characters.

Before any route (or the CSRF check) runs, this ASGI middleware

* refuses a body larger than its route kind allows with 413, on the declared
  ``Content-Length`` alone or as soon as the streamed body passes the limit —
  a logged-out 200 MB POST is no longer read whole before its 403;
* refuses with 422 a text input carrying a control character (NUL and the
  other C0 codes but tab, line feed and carriage return; DEL) or a lone UTF-16
  surrogate, wherever it is: the path, the query string, a form field, a JSON
  string. PostgreSQL cannot store a NUL (it answered 500), and no name,
  message or amount of the site needs one.

The body, once read, is handed on unchanged to the application.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote, unquote_to_bytes

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tavern.catalogue import URL_PARTS, french
from tavern.web import errors

KIB = 1024
#: Body limits per route kind (bytes). Logging in or signing up carries a
#: name and a password (at most 1024 characters, even escaped as JSON
#: surrogate pairs: 12 bytes each).
AUTH_LIMIT = 16 * KIB
#: Every other form or JSON body: names, amounts, a table's settings.
DEFAULT_LIMIT = 64 * KIB
AUTH_PATHS = ("/login", "/register", "/logout", "/api/auth/")

#: C0 controls but \t \n \r, and DEL.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")



def body_limit(path: str) -> int:
    """The largest body accepted on ``path``."""
    return AUTH_LIMIT if path.startswith(AUTH_PATHS) else DEFAULT_LIMIT


def bad_text(text: str) -> bool:
    """A control character, or a lone surrogate (not encodable as UTF-8)."""
    if CONTROL.search(text):
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _json_strings(value: Any, where: str = "") -> Iterator[tuple[str, str]]:
    """Every string of a JSON document (keys too), with where it is."""
    if isinstance(value, str):
        yield where or "corps", value
    elif isinstance(value, dict):
        for k, v in value.items():
            here = f"{where}.{k}" if where else str(k)
            yield here, str(k)
            yield from _json_strings(v, here)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _json_strings(v, f"{where}.{i}" if where else str(i))


def _form_fields(raw: bytes) -> Iterator[tuple[str, bytes]]:
    for pair in raw.split(b"&"):
        name, _, value = pair.partition(b"=")
        yield (unquote(name.replace(b"+", b" ").decode("latin-1")),
               unquote_to_bytes(value.replace(b"+", b" ")))


def body_problems(content_type: str, body: bytes) -> list[str]:
    """The fields of ``body`` that carry a forbidden character."""
    ctype = content_type.split(";")[0].strip().lower()
    problems = []
    if ctype == "application/json" or ctype.endswith("+json"):
        try:
            doc = json.loads(body)
        except ValueError:
            return []  # not JSON at all: the route's own validation answers
        for where, text in _json_strings(doc):
            if bad_text(text):
                problems.append(where)
    elif ctype == "application/x-www-form-urlencoded":
        for name, value in _form_fields(body):
            # In UTF-8 a control byte is always that character (never part of
            # another one), so the bytes can be checked before decoding.
            if CONTROL_BYTES.search(value) or bad_text(name):
                problems.append(name or "corps")
    elif ctype == "multipart/form-data":
        # No route takes files: a control byte anywhere is refused.
        stripped = body.replace(b"\r\n", b"")
        if CONTROL_BYTES.search(stripped):
            problems.append("corps")
    return problems


def url_problems(scope: Scope) -> list[str]:
    problems = []
    if bad_text(scope.get("path", "")):
        problems.append(URL_PARTS["path"])
    query = scope.get("query_string", b"")
    if query:
        for name, value in _form_fields(query):
            if CONTROL_BYTES.search(value) or bad_text(name):
                problems.append(name or URL_PARTS["query"])
    return problems


class RequestGuard:
    """ASGI middleware: see the module docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket" and url_problems(scope):
                await send({"type": "websocket.close", "code": 1008, "reason": french("forbidden_characters")})
                return
            await self.app(scope, receive, send)
            return
        problems = url_problems(scope)
        if problems:
            await self._refuse_text(scope, receive, send, problems)
            return
        limit = body_limit(scope["path"])
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > limit
            except ValueError:
                too_big = False
            if too_big:
                await self._too_large(scope, receive, send, limit)
                return
        if scope["method"] in ("GET", "HEAD", "OPTIONS") and declared is None \
                and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)
            return
        # Read the body, never more than the limit.
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._too_large(scope, receive, send, limit)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        ctype = headers.get(b"content-type", b"").decode("latin-1")
        problems = body_problems(ctype, body) if body else []
        if problems:
            await self._refuse_text(scope, receive, send, problems)
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        request = Request(scope, receive)
        response = errors.error_response(request, 413, french("body_too_large", {"limit": limit // KIB}),
                                         headers={"Connection": "close"})
        await response(scope, receive, send)

    async def _refuse_text(self, scope: Scope, receive: Receive, send: Send,
                           fields: list[str]) -> None:
        request = Request(scope, receive)
        problems = [french("control_character", {"where": f}) for f in fields]
        response = errors.error_response(request, 422, french("forbidden_characters"), problems,
                                         code="forbidden_characters")
        await response(scope, receive, send)
