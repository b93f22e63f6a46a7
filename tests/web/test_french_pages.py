"""Issue 11 §5: what a user reads is French. Every page a player, an owner
or an admin can open is rendered and its visible text scanned for English
(words that never occur in the French interface); the API documentation
page (/docs) is for developers and stays in English."""

from __future__ import annotations

import datetime as dt
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.dbtools import harness_settings, session_scope
from tests.french_words import english_in
from tests.tables.liveserver import PASSWORD, seed_table
from webtools import World, login

from tavern.contest_rules import Level
from tavern.contest_rules import Settings as ContestSettings
from tavern.services import archive, contests
from tavern.services import seed as demo
from tavern.store.models import TableConfig, Tavern, User

pytestmark = pytest.mark.db



class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:  # what a user reads in attributes too
            if name in ("title", "placeholder", "aria-label", "alt") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    p = _Text()
    p.feed(html)
    return " ".join(" ".join(p.parts).split())


def test_every_page_reads_in_french(client: TestClient, world: World, db_url: str) -> None:
    table_id, _ = seed_table(db_url, ("ana", "bruno"))
    with session_scope() as s:
        deal = archive.archive_hand(s, table_id, {"game": "ramponneau", "seats": [{"player": "ana", "chips": 5}],
                                                  "actions": [], "deck": []}, {"delta": {"ana": 0}}).id
    pages = {None: ["/", "/login", "/register", "/concours"],
             "ana": ["/", "/compte", "/premium", "/concours", f"/tables/{table_id}", "/ma-taverne", "/mes-donnes"],
             "owner": ["/ma-taverne", f"/ma-taverne/{world.tavern_id}"],
             "admin": ["/admin/utilisateurs", "/admin/tavernes", "/admin/audit", "/admin/concours",
                       "/admin/surveillance", f"/admin/donnes/{deal}"]}
    found = {}
    for who, urls in pages.items():
        client.cookies.clear()
        if who:
            if who == "ana":  # a player of the seeded table (its own password)
                login(client, who, PASSWORD)
            else:
                login(client, who)
        for url in urls:
            r = client.get(url)
            assert r.status_code == 200, (who, url, r.status_code)
            words = english_in(visible_text(r.text))
            if words:
                found[f"{who or 'visitor'} {url}"] = words
    assert not found, found


def test_the_demo_world_reads_in_french(client: TestClient, db_url: str) -> None:
    """Issue 33 §14: the village listed « Draw Poker (fixed-limit) ». The demo
    world (`tavern seed`: a table of every game, draw poker at fixed limits)
    with a contest whose first level lasts 15 seconds: the village, every
    table's page, the lobby, the contest's page, the owner's tavern and the
    admin's pages, each scanned for English."""
    with session_scope() as s:
        logins = {x.username: x.password for x in demo.seed(s, harness_settings())}
        admin = s.scalars(select(User.id).where(User.username == "admin")).one()
        now = dt.datetime.now(dt.UTC)
        contest = contests.create(s, admin, ContestSettings(
            "Concours du soir", now + dt.timedelta(hours=1), 10, 0, 1000, 6, 2, 9,
            (Level(10, 20, 0, 15), Level(20, 40, 0, 600)), 0, 30, None), now).id
        contests.register(s, contest, s.scalars(select(User.id).where(User.username == "alice")).one(), now)
        tables = list(s.scalars(select(TableConfig.id).where(TableConfig.status == "open")))
        tavern = s.scalars(select(Tavern.id)).one()
    pages = {None: ["/", "/concours", f"/concours/{contest}"],
             "alice": ["/", "/concours", f"/concours/{contest}", *(f"/tables/{t}" for t in tables)],
             "patron": ["/ma-taverne", f"/ma-taverne/{tavern}"],
             "admin": ["/admin/tavernes", "/admin/concours", f"/admin/concours/{contest}", "/admin/utilisateurs",
                       "/admin/audit", "/admin/surveillance"]}
    found, read = {}, ""
    for who, urls in pages.items():
        client.cookies.clear()
        if who:
            login(client, who, logins[who])
        for url in urls:
            r = client.get(url)
            assert r.status_code == 200, (who, url, r.status_code)
            text = visible_text(r.text)
            read += text
            words = english_in(text)
            if words:
                found[f"{who or 'visitor'} {url}"] = words
    assert not found, found
    assert "Draw Poker (limites fixées)" in read  # the variant is said, not dropped
