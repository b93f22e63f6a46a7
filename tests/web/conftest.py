"""Fixtures for the web tests: the real app on a migrated temp database.

``db_url`` (tests/conftest.py) installs a fresh migrated database in the
settings; the app is built on it and driven through Starlette's TestClient
(httpx), cookies and all.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from tests.dbtools import session_scope

from tavern.services import taverns
from tavern.settings import Settings
from tavern.web.app import create_app
from tavern.web.state import services

sys.path.insert(0, str(Path(__file__).parent))
from webtools import World, make_user


@pytest.fixture
def app(settings: Settings) -> Iterator[FastAPI]:
    """The app built on the test's settings (a test wanting others builds its
    own: ``create_app(settings.model_copy(update={...}))``)."""
    application = create_app(settings)
    yield application
    services(application).engine.dispose()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=True) as c:
        yield c


@pytest.fixture
def new_client(app: FastAPI) -> Iterator[Callable[[], TestClient]]:
    """Another browser on the same app (another user, another cookie jar)."""
    made: list[TestClient] = []

    def make() -> TestClient:
        c = TestClient(app, raise_server_exceptions=True)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


@pytest.fixture
def world(db_url: str) -> World:
    """Village « Bourg », tavern « Au Lapin Agile » held by ``owner`` (1000
    écus), and an ``admin``; built through the services, as the seed does."""
    with session_scope() as s:
        village = taverns.create_village(s, "Bourg")
        owner = make_user(s, "owner", ecus=1000)
        admin = make_user(s, "admin", role="admin")
        tavern = taverns.create_tavern(s, village.id, owner, "Au Lapin Agile")
        return World(village.id, tavern.id, owner, admin)
