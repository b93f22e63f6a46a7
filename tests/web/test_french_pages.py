"""Issue 11 §5: what a user reads is French. Every page a player, an owner
or an admin can open is rendered and its visible text scanned for English
(words that never occur in the French interface); the API documentation
page (/docs) is for developers and stays in English."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from tests.french_words import english_in
from tests.tables.liveserver import PASSWORD, seed_table
from webtools import World, login

from tavern.services import archive

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
