"""What a running site holds: one typed object on ``app.state``.

The app factory (:func:`tavern.web.app.create_app`) builds one
:class:`Services` and every route, dependency, middleware and socket
handler reads it through :func:`services` — typed, so mypy sees a misspelt
name or a wrong use, instead of a dozen loose ``app.state`` attributes typed
``Any``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker
from starlette.applications import Starlette
from starlette.requests import HTTPConnection

from tavern.contests.manager import ContestManager
from tavern.settings import Settings
from tavern.store.batch import Batched
from tavern.tables.broadcast import Broadcaster
from tavern.tables.manager import TableManager
from tavern.web.mailer import Mailer
from tavern.web.ratelimit import Throttles
from tavern.web.session import SessionCodec, SessionUser
from tavern.web.visits import VisitBook
from tavern.web.wslimits import ConnectionLimits


@dataclass
class Services:
    """The site's settings, its database and the long-lived objects of this worker."""

    settings: Settings
    engine: Engine
    #: Units of work that may write (BEGIN IMMEDIATE on SQLite), and read-only ones.
    write_sessions: sessionmaker[Session]
    read_sessions: sessionmaker[Session]
    codec: SessionCodec
    #: Who the table sockets' cookies speak for, looked up in batches (web/ws.py).
    socket_users: Batched[tuple[int, str], SessionUser]
    throttles: Throttles
    ws_limits: ConnectionLimits
    #: The push sockets' caps (the village's, the notices'): web/push.py.
    push_limits: ConnectionLimits
    visits: VisitBook
    broadcaster: Broadcaster
    tables: TableManager
    contests: ContestManager
    #: Sends the outbox's mails (web/mailer.py).
    mailer: Mailer
    #: The pages' clock, replaceable in tests (None: the real one).
    clock: Callable[[], dt.datetime] | None = None


def services(where: Starlette | HTTPConnection) -> Services:
    """The site's :class:`Services`, from the app or from a request or socket."""
    app = where if isinstance(where, Starlette) else where.app
    found: Services = app.state.services
    return found
