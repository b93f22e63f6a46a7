"""A refusal: a stable code and its parameters, never a sentence.

Every refusal of the house — an engine's :class:`tavern.games.base.IllegalAction`,
the ledger's ``InsufficientFunds``, a tavern's, a seat's, a contest's — is a
:class:`Refusal`: ``Refusal("raise_too_small", minimum=100)``. The code is what
programs test and the API returns; the parameters are plain JSON values
(numbers, names, card codes such as ``"Td"``), so a client can word them its
own way. :mod:`tavern.catalogue` is the one place that says a code in French,
for the pages, the forms, the API, the table and the command line.

(The shape follows the errors-as-types of projects such as polar's
``exceptions.py``: one class per family of refusal, a code per cause.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Refusal(Exception):
    """Something the rules or the house refuse. Nothing has changed.

    ``code`` names the cause (``not_your_turn``), ``params`` the values the
    message needs (``{"minimum": 100}``). ``str()`` is the French message from
    the catalogue, so a log or a stray ``str(exc)`` never shows a bare code.
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        """The refusal in French (:func:`tavern.catalogue.french`)."""
        # Imported here: the catalogue imports this module (from_pydantic).
        from tavern.catalogue import french

        return french(self.code, self.params)

    def as_dict(self) -> dict[str, Any]:
        """What the API and the table send: ``{"code", "message", "params"}``."""
        return {"code": self.code, "message": self.message, "params": self.params}

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        # Subclasses take other constructor arguments (a ledger account, a
        # record's field): rebuild from the state, not through __init__.
        return _restore, (type(self), self.code, self.params, dict(self.__dict__))


def _restore(cls: type[Refusal], code: str, params: dict[str, Any], state: dict[str, Any]) -> Refusal:
    exc = cls.__new__(cls)
    Exception.__init__(exc, code, params)
    exc.__dict__.update(state)
    return exc


class Invalid(Refusal, ValueError):
    """A value a validator refuses: raised inside a pydantic validator (which
    only catches ``ValueError``), it comes out of the validation error with
    its code and parameters (:func:`tavern.catalogue.validation_refusals`)."""


def from_pydantic(error: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """One pydantic error as a code and its parameters: pydantic's own stable
    error type (``greater_than_equal`` with ``ge``), or the code of the
    :class:`Invalid` a validator raised. The field is not included."""
    ctx = dict(error.get("ctx") or {})
    cause = ctx.pop("error", None)
    if isinstance(cause, Refusal):
        return cause.code, dict(cause.params)
    params = {k: v if isinstance(v, (int, float, str, bool)) else str(v) for k, v in ctx.items()}
    return str(error.get("type", "invalid")), params
