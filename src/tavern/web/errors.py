"""Every refusal gets a clear answer: JSON ``detail`` for the API, a page otherwise.

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

from tavern.web.rendering import render

log = logging.getLogger("tavern.web")

BUSY = "Le site est très occupé en ce moment : réessayez dans quelques secondes."

TITLES = {
    400: "Requête invalide",
    401: "Connexion requise",
    403: "Accès refusé",
    404: "Page introuvable",
    405: "Méthode non permise",
    409: "Conflit",
    422: "Données invalides",
    413: "Requête trop volumineuse",
    429: "Trop de tentatives",
    500: "Erreur du serveur",
    503: "Site surchargé",
}


def wants_json(request: Request) -> bool:
    if request.url.path.startswith("/api"):
        return True
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


def _field(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "form")]
    return ".".join(parts) or "requête"


def describe_validation(errors: list[dict[str, Any]]) -> list[str]:
    """Validation errors as short sentences ("stakes.big_blind: ...")."""
    return [f"{_field(e.get('loc', ()))} : {e.get('msg', 'valeur invalide')}" for e in errors]


def error_response(request: Request, status: int, detail: str,
                   problems: list[str] | None = None,
                   headers: dict[str, str] | None = None) -> Response:
    if wants_json(request):
        body: dict[str, Any] = {"detail": detail}
        if problems:
            body["errors"] = problems
        return JSONResponse(body, status_code=status, headers=headers)
    resp = render(request, "error.html", {
        "status": status,
        "title": TITLES.get(status, "Erreur"),
        "detail": detail,
        "problems": problems or [],
    }, status_code=status)
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def install(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        detail = exc.detail if isinstance(exc.detail, str) else TITLES.get(exc.status_code, "Erreur")
        if exc.status_code == 404 and detail == "Not Found":
            detail = "Cette page n'existe pas."
        if exc.status_code == 405:
            detail = "Cette adresse n'accepte pas cette méthode."
        if exc.status_code == 401 and not wants_json(request):
            # A page that needs an account sends the visitor to the login form.
            # Back to the page after logging in (a form's POST cannot be replayed: home).
            target = quote(request.url.path) if request.method == "GET" else "/"
            return RedirectResponse(f"/login?next={target}", status_code=303)
        return error_response(request, exc.status_code, detail, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        problems = describe_validation(list(exc.errors()))
        return error_response(request, 422, "Certaines valeurs sont invalides.", problems)

    @app.exception_handler(PoolTimeout)
    async def overloaded(request: Request, exc: PoolTimeout) -> Response:
        # Every database connection is busy: say so at once (db_pool_timeout),
        # rather than hold the visitor until a 30-second failure.
        log.warning("database pool exhausted on %s %s", request.method, request.url.path)
        return error_response(request, 503, BUSY, headers={"Retry-After": "2"})

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(request, 500, "Une erreur inattendue est survenue ; elle a été "
                              "consignée. Réessayez plus tard.")
