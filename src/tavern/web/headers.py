"""Security headers set on every response."""

from __future__ import annotations

from starlette.responses import Response

# Only our own origin: no inline script, no external asset, no framing.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
       "form-action 'self'; frame-ancestors 'none'")


def apply(response: Response, https: bool) -> None:
    h = response.headers
    h.setdefault("Content-Security-Policy", CSP)
    h.setdefault("X-Frame-Options", "DENY")
    h.setdefault("X-Content-Type-Options", "nosniff")
    h.setdefault("Referrer-Policy", "same-origin")
    if https:
        h.setdefault("Strict-Transport-Security", "max-age=31536000")
