"""Fixtures for the web tests: the real app on a migrated temp database.

``db_url`` (tests/conftest.py) installs a fresh migrated database in the
settings; the app is built on it and driven through Starlette's TestClient
(httpx), cookies and all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from tavern.services import ledger, taverns, users
from tavern.store.db import session_scope
from tavern.web.app import create_app

PASSWORD = "correct horse battery"
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def app(db_url: str) -> Iterator[FastAPI]:
    application = create_app()
    yield application
    application.state.engine.dispose()


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


def csrf_of(client: TestClient, page: str = "/login") -> str:
    """The session's CSRF token, read from a page's hidden field."""
    html = client.get(page).text
    m = CSRF_INPUT.search(html)
    assert m, f"no CSRF field on {page}"
    return m.group(1)


def api_csrf(client: TestClient) -> str:
    return client.get("/api/auth/session").json()["csrf_token"]


def register(client: TestClient, username: str, password: str = PASSWORD) -> None:
    r = client.post("/register", data={"username": username, "password": password,
                                       "password2": password, "csrf_token": csrf_of(client, "/register")},
                    follow_redirects=False)
    assert r.status_code == 303, r.text


def login(client: TestClient, username: str, password: str = PASSWORD):  # noqa: ANN201
    return client.post("/login", data={"username": username, "password": password,
                                        "csrf_token": csrf_of(client)}, follow_redirects=False)


def post_form(client: TestClient, url: str, data: dict | None = None, page: str = "/compte"):  # noqa: ANN201
    """Post a form the way the browser does: with the session's CSRF token."""
    return client.post(url, data={**(data or {}), "csrf_token": csrf_of(client, page)},
                       follow_redirects=False)


@dataclass
class World:
    """A village with one tavern; ids of the people in it."""

    village_id: int
    tavern_id: int
    owner_id: int
    admin_id: int


def make_user(s: Session, name: str, *, role: str = "player", level: int = 1,
              ecus: int = 0, tokens: int = 0) -> int:
    user = users.create_user(s, name, PASSWORD, role=role, level=level)
    if ecus:
        ledger.issue(s, user.id, ecus, "ecus")
    if tokens:
        ledger.issue(s, user.id, tokens, "tokens")
    return user.id


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
