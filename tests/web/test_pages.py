"""Pages render; the village is public, a table needs an account."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from tests.dbtools import harness_settings, session_scope
from webtools import PASSWORD, World, login, make_user, page

from tavern.services import taverns
from tavern.web.state import services

pytestmark = pytest.mark.db


def open_demo_table(world: World) -> int:
    with session_scope() as s:
        deck = taverns.buy_item(s, world.owner_id, "deck52", harness_settings())
        taverns.store_item(s, world.owner_id, deck.id, world.tavern_id)
        table = taverns.open_table(s, world.tavern_id, world.owner_id, {
            "game": "ramponneau", "name": "La grande", "stakes": {"small_blind": 1, "big_blind": 2},
            "seats": 6}, harness_settings())
        return table.id


def test_village_is_public_and_lists_open_tables(client: TestClient, world: World) -> None:
    """RULES.md: "A village lists its taverns. A tavern has an owner." """
    table_id = open_demo_table(world)
    r = client.get("/")
    assert r.status_code == 200
    assert "Au Lapin Agile" in page(r) and "Tenue par owner" in page(r)
    assert f'href="/tables/{table_id}"' in page(r)
    assert "Ramponneau" in page(r) and "1/2" in page(r) and "0/6" in page(r)
    village = client.get("/api/village").json()
    tables = village[0]["taverns"][0]["tables"]
    assert [(t["id"], t["game"], t["seats"], t["seats_taken"]) for t in tables] == [(table_id, "ramponneau", 6, 0)]


def test_table_page_needs_login_then_shows_the_table(client: TestClient, world: World) -> None:
    """RULES.md "Cave": "between 10× and 100× the big blind" — the page shows the bounds."""
    table_id = open_demo_table(world)
    r = client.get(f"/tables/{table_id}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/login?next=/tables/{table_id}"
    assert client.get(f"/api/tables/{table_id}").status_code == 401

    with session_scope() as s:
        make_user(s, "visitor")
    r = client.post("/login", data={"username": "visitor", "password": PASSWORD, "next": f"/tables/{table_id}",
                                    "csrf_token": client.get("/login").text.split('name="csrf_token" value="')[1].split('"')[0]},
                    follow_redirects=False)
    assert r.headers["location"] == f"/tables/{table_id}"
    page = client.get(f"/tables/{table_id}")
    assert page.status_code == 200
    # The block the live table runtime fills in.
    assert re.search(rf'<div id="table-live"[^>]*\sdata-table-id="{table_id}"', page.text)
    assert "entre 20 et 200 écus" in page.text
    data = client.get(f"/api/tables/{table_id}").json()
    assert (data["buy_in_min"], data["buy_in_max"], data["seats"], data["seated"]) == (20, 200, 6, [])


def test_login_next_never_leaves_the_site(client: TestClient, world: World) -> None:
    token = client.get("/login").text.split('name="csrf_token" value="')[1].split('"')[0]
    r = client.post("/login", data={"username": "owner", "password": PASSWORD, "next": "//evil.example/x",
                                    "csrf_token": token}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"


def test_unknown_table_and_page_are_clean_404s(client: TestClient, world: World) -> None:
    login(client, "owner")
    r = client.get("/tables/999999")
    assert r.status_code == 404 and "Cette table n'existe pas." in page(r) and "<html" in page(r)
    r = client.get("/api/tables/999999")
    assert r.status_code == 404 and r.json()["detail"] == "Cette table n'existe pas."
    r = client.get("/nulle-part")
    assert r.status_code == 404 and "Page introuvable" in page(r)


def test_every_page_renders_for_its_audience(client: TestClient, world: World) -> None:
    assert client.get("/login").status_code == 200
    assert client.get("/register").status_code == 200
    login(client, "owner")
    for path in ("/", "/compte", "/premium", f"/ma-taverne/{world.tavern_id}"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert "Ma taverne" in page(r)  # the owner gets his tavern's pages
    r = client.get("/ma-taverne", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/ma-taverne/{world.tavern_id}"


def test_security_headers(client: TestClient) -> None:
    h = client.get("/").headers
    assert h["X-Frame-Options"] == "DENY"
    assert h["X-Content-Type-Options"] == "nosniff"
    csp = h["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "http" not in csp
    assert client.get("/api/village").headers["X-Frame-Options"] == "DENY"


def test_static_css_is_served(client: TestClient) -> None:
    r = client.get("/static/tavern.css")
    assert r.status_code == 200 and "#table-live" in page(r)


def test_healthz_reports_the_database(client: TestClient) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200
    assert r.json() == {"ok": True, "database": "ok", "redis": None}


def test_healthz_pings_redis_when_configured(app) -> None:
    """With a redis_url that answers nothing, health is 503 and says why."""
    services(app).settings.redis_url = "redis://127.0.0.1:1/0"
    with TestClient(app) as c:
        r = c.get("/healthz")
    assert r.status_code == 503
    assert r.json()["database"] == "ok" and r.json()["redis"].startswith("down")


def test_docs_list_the_api(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    for path in ("/api/auth/login", "/api/village", "/api/tables/{table_id}", "/api/me",
                 "/api/premium/packs", "/api/taverns/{tavern_id}/shop", "/api/taverns/{tavern_id}/tables",
                 "/api/admin/users/{user_id}/credit", "/api/admin/audit", "/healthz"):
        assert path in doc["paths"], path
    page = client.get("/docs")
    assert page.status_code == 200
    assert "/api/taverns/{tavern_id}/tables" in page.text and "TableIn" in page.text
    assert "cdn" not in page.text.lower()  # no external asset under our CSP


def test_the_table_page_says_its_buttons_in_the_catalogues_words(client: TestClient, world: World) -> None:
    """Issue 28 §1: the action words the page shows come from the catalogue,
    one source — the page carries them, the game modules keep no list of their own."""
    import json
    from pathlib import Path

    from tavern import catalogue

    table_id = open_demo_table(world)
    with session_scope() as s:
        make_user(s, "reader")
    login(client, "reader")
    text = client.get(f"/tables/{table_id}").text
    carried = re.search(r'<script type="application/json" id="table-words">(.*?)</script>', text, re.S)
    assert carried is not None
    assert json.loads(carried.group(1)) == {**catalogue.ACTIONS, **catalogue.PILES}
    static = Path(catalogue.__file__).parent / "web" / "static" / "games"
    buttons = {w[0].upper() + w[1:] for w in catalogue.ACTIONS.values()}
    for module in static.glob("*.js"):  # "Se coucher", "Piocher"… said nowhere but in the catalogue
        text = module.read_text()
        assert not [w for w in buttons if f'"{w}"' in text or f'"{w} "' in text or f'"{w} à "' in text], module.name


def test_the_page_picks_a_game_by_its_specs_view_never_by_its_name() -> None:
    """Issue 28 §1: the page picks its game module from the table's `view`
    (GameSpec.view); no script tests a game's name."""
    from pathlib import Path

    from tavern.games import registry

    static = Path(registry.__file__).parents[1] / "web" / "static"
    table_js = (static / "table.js").read_text()
    views = {spec.view for spec in registry.specs().values()} | {"generic"}
    vmap = re.search(r"var VIEWS = \{(.*?)\};", table_js, re.S)
    assert vmap is not None and views <= set(re.findall(r"(\w+):", vmap.group(1)))
    for script in [static / "table.js", *static.glob("table/*.js"), *static.glob("games/*.js")]:
        assert not re.search(r"\.game\s*[!=]==|data-game", script.read_text()), script.name
