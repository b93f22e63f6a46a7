"""The server's logging, configured once where the program starts.

``configure(level, fmt)`` is called by the app factory and the command line
(the only places that read the settings). ``fmt`` is ``text`` (the default,
for a person reading ``make run``) or ``json`` (one object a line, for a log
collector): time, level, logger, message and, where they apply, the request
id, the account, the table and the deal — carried by context variables that
the request middleware, the table socket and the table actor set
(:func:`bind`), so no call site has to pass them.

What a log line must never hold — a password, a session token, a seed
before its reveal, a hidden card — is kept out twice: no code logs them, and
the formatters drop every ``extra`` field they do not know and mask any
``password=…``, ``token: …``, ``seed=…``, ``cards=…`` left in a message's
text (:func:`redact`), whatever wrote it (a library's exception included).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import logging
import re
import sys
import time
from collections import deque
from typing import Any, TextIO

import orjson

#: The context of a log line, set where it becomes known (web/app.py,
#: web/ws.py, tables/actor.py); a task or thread started later inherits it.
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
ACCOUNT: contextvars.ContextVar[int | None] = contextvars.ContextVar("account", default=None)
TABLE: contextvars.ContextVar[int | None] = contextvars.ContextVar("table", default=None)
DEAL: contextvars.ContextVar[int | None] = contextvars.ContextVar("deal", default=None)
_FIELDS = (("request_id", REQUEST_ID), ("account", ACCOUNT), ("table", TABLE), ("deal", DEAL))

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
FORMATS = ("text", "json")
MASK = "***"

# A secret named in free text: ``password=hunter2``, ``"token": "abc"``,
# ``server_seed: 9f…``, ``cards=['Ah', 'Kd']``. The value (quoted, bracketed
# or one word) is masked, the name kept so the line still says what it was.
_SECRET = re.compile(
    r"""(?ix)
    (\b\w*(?:password|passwd|mot_de_passe|token|secret|cookie|seed|cards|hole|deck)\w*\b["']?\s*[:=]\s*)
    ( "[^"]*" | '[^']*' | \[[^\]]*\] | [^\s,;&}]+ )
    """
)


def redact(text: str) -> str:
    """``text`` with every named secret's value masked."""
    return _SECRET.sub(lambda m: m.group(1) + MASK, text)


def bind(**fields: Any) -> None:
    """Set context fields (``request_id``, ``account``, ``table``, ``deal``)
    for the current task or thread and what it starts from now on."""
    for name, var in _FIELDS:
        if name in fields:
            var.set(fields[name])


def context() -> dict[str, Any]:
    """The context fields that are set."""
    return {name: value for name, var in _FIELDS if (value := var.get()) is not None}


class ContextFilter(logging.Filter):
    """Puts the context fields on every record (``%(table)s`` in a format)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, var in _FIELDS:
            # A field the call gave itself (``extra={"table": 7}``: a line
            # about another table than the task's) is kept.
            if getattr(record, name, None) is None:
                setattr(record, name, var.get())
        return True


def _message(record: logging.LogRecord, formatter: logging.Formatter) -> str:
    text = record.getMessage()
    if record.exc_info:
        text += "\n" + formatter.formatException(record.exc_info)
    elif record.exc_text:
        text += "\n" + record.exc_text
    return redact(text)


class JsonFormatter(logging.Formatter):
    """One JSON object a line. Only known fields: a stray ``extra`` (which
    could be anything) never reaches the log."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": _message(record, self),
        }
        for name, _var in _FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                out[name] = value
        return orjson.dumps(out).decode()


class TextFormatter(logging.Formatter):
    """``time LEVEL logger [request table deal] message`` for a person."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        where = " ".join(f"{name}={value}" for name, _var in _FIELDS
                         if (value := getattr(record, name, None)) is not None)
        line = f"{self.formatTime(record)} {record.levelname:<7} {record.name}"
        return f"{line} [{where}] {_message(record, self)}" if where else f"{line} {_message(record, self)}"


class StderrHandler(logging.StreamHandler[TextIO]):
    """Writes to whatever ``sys.stderr`` is at each line (as logging's own
    last resort does): a test's captured stream, swapped after it, is never
    written to closed."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


class RecentErrors(logging.Handler):
    """The last errors of this process, for the engine room (admin page)."""

    def __init__(self, keep: int = 50) -> None:
        super().__init__(level=logging.ERROR)
        self.lines: deque[dict[str, Any]] = deque(maxlen=keep)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append({"time": dt.datetime.fromtimestamp(record.created, dt.UTC).strftime("%Y-%m-%d %H:%M:%S"),
                           "logger": record.name, "message": redact(record.getMessage()),
                           **{name: getattr(record, name, None) for name, _var in _FIELDS}})


RECENT_ERRORS = RecentErrors()
RECENT_ERRORS.addFilter(ContextFilter())
_HANDLER_NAME = "tavern"
#: uvicorn's own loggers, which do not propagate (uvicorn's logging config):
#: in JSON mode their lines are JSON too — one format a line for the collector.
UVICORN = ("uvicorn", "uvicorn.access")


def configure(level: str = "INFO", fmt: str = "text") -> None:
    """Configure logging once; a second call replaces the first's handler
    instead of adding one. The handler is the root logger's, so a library's
    lines (asyncio's "task exception was never retrieved", SQLAlchemy's
    warnings) come out in the same format; the ``tavern`` loggers log at
    ``level``, the others from WARNING. The ``tavern`` records still
    propagate to the root (pytest's ``caplog`` sees them there)."""
    handler = StderrHandler()
    handler.set_name(_HANDLER_NAME)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        if old.get_name() == _HANDLER_NAME or old is RECENT_ERRORS:
            root.removeHandler(old)
    root.addHandler(handler)
    root.addHandler(RECENT_ERRORS)
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)
    logging.getLogger("tavern").setLevel(level)
    for name in UVICORN if fmt == "json" else ():
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        logger.addHandler(handler)


class Repeated:
    """A failure that may repeat many times a second while its cause lasts (a
    table's settlement or deal start tried again while the store is away):
    the first is logged whole, with its traceback; the next ones are counted
    and said once every ``every`` seconds ("… 57 more times in 30 s"); the
    first success after them says how many there were. One line a fault,
    not one a try (issue 38: the log flooded while PostgreSQL was away)."""

    def __init__(self, logger: logging.Logger, message: str, every: float = 30.0,
                 clock: Any = None) -> None:
        self.logger, self.message, self.every = logger, message, every
        self.clock = clock or time.monotonic
        self.count = 0  #: failures since the last success
        self.unsaid = 0  #: of which not yet in a summary
        self.said_at = 0.0

    def failed(self, *args: object) -> None:
        """Called from the ``except`` block of the failure."""
        now = self.clock()
        self.count += 1
        if self.count == 1:
            self.logger.exception(self.message, *args)
            self.said_at = now
            return
        self.unsaid += 1
        if now - self.said_at >= self.every:
            self.logger.warning(self.message + ": %d more times in %.0f s (last: %s)", *args, self.unsaid,
                                now - self.said_at, _last_error())
            self.unsaid, self.said_at = 0, now

    def succeeded(self, *args: object) -> None:
        if self.count > 1:
            self.logger.warning(self.message + ": works again after %d failures", *args, self.count)
        self.count = self.unsaid = 0


def _last_error() -> str:
    exc = sys.exc_info()[1]
    return f"{type(exc).__name__}: {exc}"[:200] if exc is not None else "?"
