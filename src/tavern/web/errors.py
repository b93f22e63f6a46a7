"""Every refusal gets a clear answer: JSON for the API, a page otherwise.

The JSON of a refusal is ``{"code", "message", "params"}`` (and ``detail``,
the message again, for older clients): the catalogue's code when a service
or an engine refused (:class:`tavern.web.refusals.Refused`), else a code
for the status (``not_found``, ``login_required``…). Form validation gives
``invalid_values`` with each problem, naming its field by the form's label.

No request may end in a raw traceback: unexpected errors are logged and
answered with a plain page (or JSON) that says something went wrong.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from tavern import metrics
from tavern.catalogue import ERROR_TITLE, STATUS_TITLES, french, validation_refusals
from tavern.store.db import is_disk_full, is_store_away
from tavern.web.refusals import Refused
from tavern.web.rendering import render

log = logging.getLogger("tavern.web")

TITLES = STATUS_TITLES


def wants_json(request: Request) -> bool:
    if request.url.path.startswith("/api"):
        return True
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


#: The code of a refusal that is only a status (no service or engine code).
STATUS_CODES = {
    400: "refused", 401: "login_required", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
    409: "conflict", 413: "too_large", 422: "invalid_values", 429: "too_many_attempts", 500: "server_error",
    503: "busy",
}


def describe_validation(errors: list[dict[str, Any]]) -> list[str]:
    """Validation errors as French sentences naming each field by its label
    ("« Grosse blinde » : au moins 2.")."""
    return [p["message"] for p in validation_refusals(errors)]


def error_response(request: Request, status: int, detail: str,
                   problems: list[str] | None = None,
                   headers: dict[str, str] | None = None,
                   code: str | None = None, params: dict[str, Any] | None = None) -> Response:
    if 400 <= status < 500 and status != 404:  # a refusal (not a mistyped address)
        metrics.child(metrics.REFUSALS, code or STATUS_CODES.get(status, "refused")).inc()
    if wants_json(request):
        body: dict[str, Any] = {"code": code or STATUS_CODES.get(status, "refused"), "message": detail,
                                "params": params or {}, "detail": detail}
        if problems:
            body["errors"] = problems
        return JSONResponse(body, status_code=status, headers=headers)
    resp = render(request, "error.html", {
        "status": status,
        "title": TITLES.get(status, ERROR_TITLE),
        "detail": detail,
        "problems": problems or [],
    }, status_code=status)
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def install(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        detail = exc.detail if isinstance(exc.detail, str) else TITLES.get(exc.status_code, ERROR_TITLE)
        if exc.status_code == 404 and detail == "Not Found":
            detail = french("not_found")
        if exc.status_code == 405:
            detail = french("method_not_allowed")
        if exc.status_code == 401 and not wants_json(request):
            # A page that needs an account sends the visitor to the login form.
            # Back to the page after logging in (a form's POST cannot be replayed: home).
            target = quote(request.url.path) if request.method == "GET" else "/"
            return RedirectResponse(f"/login?next={target}", status_code=303)
        if isinstance(exc, Refused):
            return error_response(request, exc.status_code, detail,
                                  headers=dict(exc.headers) if exc.headers else None,
                                  code=exc.code, params=exc.params)
        return error_response(request, exc.status_code, detail, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        refusals = validation_refusals(list(exc.errors()))
        return error_response(request, 422, french("invalid_values"),
                              [p["message"] for p in refusals],
                              code="invalid_values", params={"problems": refusals})

    @app.exception_handler(PoolTimeout)
    async def overloaded(request: Request, exc: PoolTimeout) -> Response:
        # Every database connection is busy: say so at once (db_pool_timeout),
        # rather than hold the visitor until a 30-second failure.
        log.warning("database pool exhausted on %s %s", request.method, request.url.path)
        metrics.POOL_TIMEOUTS.inc()
        return error_response(request, 503, french("busy"), headers={"Retry-After": "2"})

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        return failed(request, exc)


def failed(request: Request, exc: Exception) -> Response:
    """The last net for an error no route answered: a 503 with a time to come
    back when the database is away (a restart: issue 38), else a logged 500."""
    if is_store_away(exc):
        log.warning("database away on %s %s: %s", request.method, request.url.path, exc.__class__.__name__)
        metrics.STORE_AWAY.inc()
        return error_response(request, 503, french("store_away"), headers={"Retry-After": "2"}, code="store_away")
    if is_disk_full(exc):  # nothing was written; counted by the engine (store.db.on_disk_full)
        log.error("database disk full on %s %s", request.method, request.url.path)
        return error_response(request, 503, french("store_full"), headers={"Retry-After": "60"}, code="store_full")
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return error_response(request, 500, french("server_error"), code="server_error")
