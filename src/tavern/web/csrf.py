"""CSRF protection: every state-changing request carries the session's token.

HTML forms send it as the hidden field ``csrf_token``; pages' JavaScript sends
it in the ``X-CSRF-Token`` header. The token lives in the signed HttpOnly
session cookie, so another site can neither read nor forge it.
"""

from __future__ import annotations

import hmac

from fastapi import Request

from tavern.refusal import Refusal
from tavern.web.refusals import Refused
from tavern.web.session import get_session

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
FORM_FIELD = "csrf_token"
HEADER = "X-CSRF-Token"


async def csrf_protect(request: Request) -> None:
    """Router dependency: refuse (403) an unsafe request without the right token."""
    if request.method in SAFE_METHODS:
        return
    expected = get_session(request).csrf
    sent = request.headers.get(HEADER)
    if sent is None:
        ctype = request.headers.get("content-type", "")
        if ctype.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
            try:
                form = await request.form()  # cached: the endpoint reads it again for free
            except Exception:  # a malformed body is simply "no token"
                form = {}  # type: ignore[assignment]  # read like an empty form
            value = form.get(FORM_FIELD)
            sent = value if isinstance(value, str) else None
    if not sent or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise Refused(403, Refusal("csrf_refused"))
