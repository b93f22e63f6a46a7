"""Issue 33 §15: contests as a player reads them — « 1 inscrit », levels in
seconds, a finished or cancelled contest said as it is, a contest table's
page with the contest's current level and no cave nor rake."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.dbtools import session_scope
from webtools import World, api_csrf, login, make_user, page

from tavern.cards import SeededSource
from tavern.contest_rules import Level, Settings
from tavern.services import contests as svc
from tavern.store.models import Contest, TableConfig

pytestmark = pytest.mark.db

#: A 15-second first level, then whole minutes, then minutes and seconds.
LEVELS = (Level(10, 20, 0, 15), Level(20, 40, 0, 600), Level(40, 80, 10, 90))


def _contest(admin: int, *, fee: int = 0) -> int:
    now = dt.datetime.now(dt.UTC)
    settings = Settings("Concours éclair", now + dt.timedelta(hours=2), fee, 0, 1000, 6, 2, 13, LEVELS, 0, 30, None)
    with session_scope() as s:
        return svc.create(s, admin, settings, now).id


def _register(contest_id: int, *names: str) -> dict[str, int]:
    ids = {}
    with session_scope() as s:
        for name in names:
            ids[name] = make_user(s, name, ecus=500)
            svc.register(s, contest_id, ids[name], dt.datetime.now(dt.UTC))
    return ids


def _row(html: str, name: str) -> str:
    """The lobby's row of a contest."""
    return next(r for r in re.findall(r"<tr>.*?</tr>", html, re.S) if name in r)


def test_level_lengths_read_in_seconds_or_minutes() -> None:
    from tavern.web.rendering import duration

    assert [duration(lv.seconds) for lv in LEVELS] == ["15 s", "10 min", "1 min 30 s"]


def test_one_registered_and_levels_in_seconds(client: TestClient, world: World) -> None:
    cid = _contest(world.admin_id)
    _register(cid, "ana")
    text = page(client.get(f"/concours/{cid}"))
    assert "1 inscrit ·" in text and "1 inscrits" not in text
    lobby = page(client.get("/concours"))
    assert "3 niveaux de 15 s" in _row(lobby, "Concours éclair") and "0.2 min" not in lobby
    # The structure's table: each level's length as it is said.
    for said in ("<td>15 s</td>", "<td>10 min</td>", "<td>1 min 30 s</td>"):
        assert said in text, said
    _register(cid, "bob")
    assert "2 inscrits ·" in page(client.get(f"/concours/{cid}"))


def test_unregistering_from_a_finished_contest_says_it_is_finished(client: TestClient, world: World) -> None:
    cid = _contest(world.admin_id)
    _register(cid, "ana")
    with session_scope() as s:
        s.get(Contest, cid).status = "finished"
    login(client, "ana")
    r = client.post(f"/api/contests/{cid}/unregister", headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 400
    said = r.json()["detail"]
    assert "terminé" in said and "commencé" not in said, said
    with session_scope() as s:
        assert svc.entries_count(s, cid) == 1  # nothing changed


def test_a_cancelled_contest_has_nobody_registered(client: TestClient, world: World) -> None:
    cid = _contest(world.admin_id, fee=50)
    _register(cid, "ana", "bob")
    with session_scope() as s:
        svc.cancel(s, cid, "Annulé par l'administrateur.")
    lobby = page(client.get("/concours"))
    assert "0 / 13" in _row(lobby, "Concours éclair"), _row(lobby, "Concours éclair")
    assert "2 inscrits" not in page(client.get(f"/concours/{cid}"))
    assert client.get(f"/api/contests/{cid}").json()["registered"] == 0
    login(client, "ana")
    r = client.post(f"/api/contests/{cid}/unregister", headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 400 and "annulé" in r.json()["detail"]


def test_a_contest_table_shows_the_current_level_and_no_cave_nor_rake(client: TestClient, world: World) -> None:
    cid = _contest(world.admin_id)
    _register(cid, "ana", "bob")
    with session_scope() as s:
        # Started 5 minutes ago: the 15-second first level is long past, the second is on.
        svc.begin(s, cid, dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5), SeededSource(random.Random(3)))
        table_id = s.scalars(select(TableConfig.id).where(TableConfig.contest_id == cid)).one()
    login(client, "ana")
    text = page(client.get(f"/tables/{table_id}"))
    facts = re.search(r'<table class="facts">.*?</table>', text, re.S).group(0)
    assert "20/40" in facts and "niveau 2" in facts, facts
    assert "10/20" not in facts
    assert "Cave" not in facts and "Rake" not in facts, facts


def test_cancelled_for_one_player_says_one_registered(client: TestClient, world: World) -> None:
    """The start time comes with one player for a minimum of two: cancelled,
    and the reason says « 1 inscrit », not « 1 inscrits »."""
    cid = _contest(world.admin_id)
    _register(cid, "ana")
    with session_scope() as s:
        assert svc.begin(s, cid, dt.datetime.now(dt.UTC), SeededSource(random.Random(3))) is None
    text = page(client.get(f"/concours/{cid}"))
    assert "Pas assez de joueurs : 1 inscrit pour 2 au minimum." in text, text
