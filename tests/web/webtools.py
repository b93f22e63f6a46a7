"""Helpers for the web tests: log in, post a form with its CSRF token, build a world.

Imported by the test modules (``tests/web/conftest.py`` puts this folder on
``sys.path``, since pytest runs with ``--import-mode=importlib``).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from tests.dbtools import harness_settings

from tavern.services import ledger, users

PASSWORD = "correct horse battery"
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')


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


def login(client: TestClient, username: str, password: str = PASSWORD):
    return client.post("/login", data={"username": username, "password": password,
                                        "csrf_token": csrf_of(client)}, follow_redirects=False)


def post_form(client: TestClient, url: str, data: dict | None = None, page: str = "/compte"):
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
    user = users.create_user(s, name, PASSWORD, role=role, level=level, settings=harness_settings())
    if ecus:
        ledger.issue(s, user.id, ecus, "ecus")
    if tokens:
        ledger.issue(s, user.id, tokens, "tokens")
    return user.id




def page(response) -> str:
    """A page's text with HTML entities decoded (Jinja escapes ' as &#39;)."""
    return html.unescape(response.text)


def deal_stopped_mid_hand(session_factory, settings):
    """A table of ana and bob whose first deal is under way when its actor
    stops, as when the process dies mid-deal: the deal stays archived as it
    started (in progress until a restart voids it). Returns the world."""
    import asyncio

    from tests.tables.conftest import Harness, build_world

    world = build_world(session_factory, stakes={"small_blind": 1, "big_blind": 2},
                        password_hash=users.hash_password(PASSWORD, settings))

    async def scenario():
        h = Harness(world, deal_pause=60.0)
        actor = await h.start(seated=("ana", "bob"))
        actor.next_deal_at = actor.clock()
        await h.settle()
        await h.settle()
        assert actor.engine is not None and not actor.engine.over
        await actor.stop()

    asyncio.run(scenario())
    return world
