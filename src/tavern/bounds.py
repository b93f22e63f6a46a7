"""The bounds of every whole number the site accepts from outside.

A number from a request (a JSON body, a form, a query or path parameter, a
WebSocket command, a table's options) is checked against one of these at
the door: Python's integers have no end, the database's do (2⁶³−1 for a
BIGINT, 2³¹−1 for an id), and a number past them used to reach the store
and answer 500 (``OverflowError``). docs/web.md "Bad input".

Every integer field of a request model is one of the annotated types below
(or narrower); ``tests/web/test_bounds.py`` walks every input model of the
app and the OpenAPI document and fails on an integer without a maximum.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

#: Database ids fit a signed 32-bit integer.
MAX_ID = 2**31 - 1
#: Any amount of écus, tokens or chips (a fee, a prize, a blind, a cave), and
#: the table's sequence numbers: far beyond any real table, far below 2⁶³.
MAX_AMOUNT = 10**12
#: Any count: seats, players, levels, seconds, percents, places.
MAX_COUNT = 10**6

#: A database id (1 … 2³¹−1).
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
#: An amount of money or chips, or a sequence number (0 … 10¹²).
Amount = Annotated[int, Field(ge=0, le=MAX_AMOUNT)]
#: A count (0 … 10⁶).
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]


def out_of_bounds(value: Any, path: str = "") -> str | None:
    """Where free-form JSON (a table's options, a move's arguments) holds an
    integer beyond ±:data:`MAX_AMOUNT` (its path, ``""`` for ``value``
    itself), or None when every number in it is within."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return path if abs(value) > MAX_AMOUNT else None
    items: Any = ()
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    for key, sub in items:
        found = out_of_bounds(sub, f"{path}.{key}" if path else str(key))
        if found is not None:
            return found
    return None
