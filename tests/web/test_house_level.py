"""Issue 37 §2, the house players' level at a tavern's table, seen from the
web: « Practice tables and owners (house seats) may choose it » (« fort »),
and « an unknown level in … an owner's house-seat setting is refused in
French naming the levels, nothing created »."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.dbtools import session_scope
from tests.web.test_house_seats import RAMPONNEAU, _with_deck
from webtools import World, api_csrf, login, page, post_form

from tavern.bots.levels import LEVELS, REGULAR
from tavern.store.models import TableConfig

pytestmark = pytest.mark.db

NAMING = "les niveaux : « débutant », « habitué », « fort »"


def _levels() -> list[tuple[str, str]]:
    with session_scope() as s:
        return [(t.name, t.house_level) for t in s.scalars(select(TableConfig).order_by(TableConfig.id))]


def test_the_owner_opens_tables_at_each_level_and_habitue_by_default(client: TestClient, world: World) -> None:
    base = _with_deck(client, world)
    text = client.get(base).text
    assert 'name="house_level"' in text and all(f'<option value="{level}"' in text for level in LEVELS)
    r = post_form(client, f"{base}/tables", {**RAMPONNEAU, "name": "Sans choix", "house_seats": "2"}, page=base)
    assert r.status_code == 303, page(r)
    assert _levels() == [("Sans choix", REGULAR)]
    h = {"X-CSRF-Token": api_csrf(client)}
    for level in LEVELS:
        # The deck of the first table is taken: close it to open the next (one deck in the tavern).
        [open_table] = client.get(f"/api/taverns/{world.tavern_id}").json()["tables"]
        assert client.post(f"/api/taverns/{world.tavern_id}/tables/{open_table['id']}/close",
                           headers=h).status_code == 204
        r = client.post(f"/api/taverns/{world.tavern_id}/tables", headers=h, json={
            "game": "ramponneau", "name": level, "stakes": {"small_blind": 1, "big_blind": 2},
            "house_seats": 1, "house_level": level})
        assert r.status_code == 201, r.text
        assert r.json()["house_level"] == level
    assert [lv for _, lv in _levels()] == [REGULAR, *LEVELS]


def test_an_unknown_level_at_opening_is_refused_in_french_naming_the_levels(client: TestClient,
                                                                            world: World) -> None:
    base = _with_deck(client, world)
    r = post_form(client, f"{base}/tables", {**RAMPONNEAU, "house_seats": "2", "house_level": "champion"}, page=base)
    assert r.status_code == 400
    assert "« Niveau des joueurs de la maison » : « champion » n'est pas un niveau" in page(r), page(r)[:400]
    assert NAMING in page(r)
    h = {"X-CSRF-Token": api_csrf(client)}
    r = client.post(f"/api/taverns/{world.tavern_id}/tables", headers=h, json={
        "game": "ramponneau", "name": "X", "stakes": {"small_blind": 1, "big_blind": 2},
        "house_seats": 1, "house_level": "Fort"})  # the names are exact
    assert r.status_code in (400, 422) and NAMING in r.text, r.text
    assert _levels() == []


def test_the_owner_changes_the_level_by_form_and_api_and_an_unknown_one_changes_nothing(
        client: TestClient, world: World) -> None:
    base = _with_deck(client, world)
    assert post_form(client, f"{base}/tables", {**RAMPONNEAU, "house_seats": "2"}, page=base).status_code == 303
    [table] = client.get(f"/api/taverns/{world.tavern_id}").json()["tables"]
    url = f"{base}/tables/{table['id']}/maison"
    assert f'action="{url}"' in client.get(base).text  # shown beside its house seats
    for level in LEVELS:
        r = post_form(client, url, {"level": level}, page=base)
        assert r.status_code == 303, page(r)
        assert _levels() == [("La grande", level)]
        assert f"les joueurs de la maison jouent au niveau « {level} »" in page(client.get(base))
        assert f'<option value="{level}" selected>' in client.get(base).text
    r = post_form(client, url, {"level": "expert"}, page=base)
    assert r.status_code == 400 and "« expert » n'est pas un niveau" in page(r) and NAMING in page(r)
    assert _levels() == [("La grande", "fort")]
    h = {"X-CSRF-Token": api_csrf(client)}
    api = f"/api/taverns/{world.tavern_id}/tables/{table['id']}/house-level"
    for level in LEVELS:
        assert client.put(api, json={"level": level}, headers=h).status_code == 204
        assert _levels() == [("La grande", level)]
        assert client.get(f"/api/taverns/{world.tavern_id}").json()["tables"][0]["house_level"] == level
    r = client.put(api, json={"level": "expert"}, headers=h)
    assert r.status_code == 400 and NAMING in r.json()["message"], r.text
    assert _levels() == [("La grande", LEVELS[-1])]


def test_only_the_taverns_owner_sets_it(client: TestClient, world: World) -> None:
    base = _with_deck(client, world)
    assert post_form(client, f"{base}/tables", {**RAMPONNEAU, "house_seats": "2"}, page=base).status_code == 303
    [table] = client.get(f"/api/taverns/{world.tavern_id}").json()["tables"]
    client.post("/logout", data={"csrf_token": api_csrf(client)})
    client.cookies.clear()
    login(client, "admin")  # not the owner: refused like his other owner actions
    assert post_form(client, f"{base}/tables/{table['id']}/maison", {"level": "fort"}, page="/").status_code == 403
    r = client.put(f"/api/taverns/{world.tavern_id}/tables/{table['id']}/house-level", json={"level": "fort"},
                   headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 403, r.text
    assert _levels() == [("La grande", REGULAR)]
