"""Asserting a refusal by its code (and some of its parameters), never by
its wording: the wording is the catalogue's (tests/test_catalogue.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tavern.catalogue import MESSAGES
from tavern.refusal import Refusal


@contextmanager
def refused(code: str, exc_type: type[BaseException] = Refusal, **params: Any) -> Iterator[Any]:
    """``with refused("raise_too_small", minimum=100): deal.act(...)``. A
    replay's ``in_action`` refusal is checked by the refusal it carries."""
    assert code in MESSAGES, f"{code} is not in the catalogue"
    with pytest.raises(exc_type) as info:
        yield info
    exc = info.value
    if getattr(exc, "code", None) == "in_action" and code != "in_action":
        # A replay's refusal names the action and carries the engine's own refusal.
        assert isinstance(exc.params.get("index"), int)
        nested = exc.params["refusal"]
        assert nested["code"] == code, f"refused with {nested['code']!r}, not {code!r}"
        for key, value in params.items():
            assert nested["params"].get(key) == value, f"{key}: {nested['params'].get(key)!r} != {value!r}"
        return
    assert getattr(exc, "code", None) == code, f"refused with {getattr(exc, 'code', exc)!r}, not {code!r}"
    for key, value in params.items():
        assert exc.params.get(key) == value, f"{key}: {exc.params.get(key)!r} != {value!r}"
    assert "?" not in exc.message.replace("?»", ""), exc.message  # every parameter it names was given


def problem_codes(exc: Refusal) -> list[tuple[str, str | None]]:
    """The (code, field) of each problem of a refused form."""
    return [(p["code"], p["params"].get("field")) for p in exc.params.get("problems", [])]
