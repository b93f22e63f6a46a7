"""« Surveillance » in the admin pages (issue 16, docs/surveillance.md):
only site admins see it; archived deals of a dumping pair put that pair on
top with links to its deals; two accounts playing from one browser are
noted when they open a table."""

from __future__ import annotations

import random
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.dbtools import session_scope
from tests.services.test_surveillance import dumper, honest, receiver, simulate
from tests.tables.liveserver import PASSWORD, seed_table
from webtools import World, login, page

from tavern import fair, fair_cards
from tavern.cards import CSPRNG
from tavern.games import registry
from tavern.services import archive
from tavern.store.models import TableVisit
from tavern.web.state import services

pytestmark = pytest.mark.db

NAMES = ("ana", "bruno", "h1", "h2", "h3", "h4")


@pytest.fixture
def table(db_url: str, world: World) -> tuple[int, dict[str, int]]:
    return seed_table(db_url, NAMES)


def _archive_dumping(table_id: int) -> list[int]:
    rng = random.Random(8)
    policies = {n: honest(rng) for n in NAMES[2:]}
    policies["ana"], policies["bruno"] = dumper(rng, "bruno"), receiver(rng, "ana")
    ids = []
    with session_scope() as s:
        for _, record, result in simulate(policies, 400, seed=9):
            ids.append(archive.archive_hand(s, table_id, record, result).id)
    return ids


def test_only_admins_see_the_report(client: TestClient, world: World, table) -> None:
    table_id, _ = table
    [deal] = _archive_dumping(table_id)[:1]
    for url in ("/admin/surveillance", "/admin/surveillance/joueurs/ana", f"/admin/donnes/{deal}",
                "/api/admin/surveillance"):
        assert client.get(url, follow_redirects=False).status_code in (302, 303, 401), url
    login(client, "ana", PASSWORD)
    for url in ("/admin/surveillance", "/admin/surveillance/joueurs/ana", f"/admin/donnes/{deal}",
                "/api/admin/surveillance"):
        assert client.get(url).status_code == 403, url


def test_the_dumping_pair_is_on_top_with_its_deals(client: TestClient, world: World, table) -> None:
    table_id, _ = table
    ids = _archive_dumping(table_id)
    login(client, "admin")
    html = page(client.get("/admin/surveillance"))
    assert "400 donnes archivées lues" in html
    first = html.index('id="suspicious"')
    row = html[first:html.index("</tr>", html.index('data-pair=', first))]
    assert 'data-pair="ana+bruno"' in row and 'data-flag="dumping"' in row
    assert "ana a cédé" in row and "/admin/donnes/" in row
    api = client.get("/api/admin/surveillance").json()
    assert set(api[0]["players"]) == {"ana", "bruno"} and api[0]["score"] >= services(client.app).settings.surveillance_score
    assert api[0]["chips"]["ana>bruno"] > 3 * api[0]["chips"]["bruno>ana"]
    assert all(d in ids for d in api[0]["deals"])

    mine = page(client.get("/admin/surveillance/joueurs/h1"))
    assert "Surveillance <small>· h1</small>" in mine and 'data-pair="ana+bruno"' not in mine
    assert client.get("/admin/surveillance/joueurs/personne").status_code == 404

    deal = page(client.get(f"/admin/donnes/{api[0]['deals'][0]}"))
    assert 'id="deal-actions"' in deal and "ana" in deal and "non vérifiable" in deal  # simulated: no fair block


def test_a_fair_deal_shows_its_check(client: TestClient, world: World, table) -> None:
    table_id, _ = table
    seed = fair.DealSeed(fair.new_server_seed(CSPRNG))
    stream = seed.stream(table_id, 1, ["x", ""])
    engine = registry.load("ramponneau").new_deal({"small_blind": 1, "big_blind": 2},
                                                  [{"player": "ana", "chips": 50}, {"player": "bruno", "chips": 50}],
                                                  0, rng=stream)
    engine.act(engine.to_act()[0], "fold")
    record = {**engine.record(), "fair": seed.block(table_id, 1, ["ana", "bruno"], ["x", ""], stream)}
    record["fair"]["cards"] = fair_cards.DealCards(seed.server_seed, seed.commitment, table_id, 1,
                                                   stream.outputs).digests()
    with session_scope() as s:
        deal = archive.archive_hand(s, table_id, record, engine.result()).id
    # Issue 42 §6: the server seed goes to the admins' audit and `tavern verify`
    # at once — its players wait TAVERN_FAIR_REVEAL_DAYS.
    login(client, "ana", PASSWORD)
    assert "server_seed" not in client.get(f"/api/me/deals/{deal}/fair").json()["fair"]
    assert client.get(f"/api/admin/deals/{deal}/record").status_code == 403
    login(client, "admin")
    html = page(client.get(f"/admin/donnes/{deal}"))
    assert 'id="deal-fair" data-ok="1"' in html and "vérifié" in html
    assert "Empreintes des cartes" in html and f'<code id="deal-seed">{seed.server_seed.hex()}</code>' in html
    whole = client.get(f"/api/admin/deals/{deal}/record").json()
    assert whole["fair"]["server_seed"] == seed.server_seed.hex() and fair_cards.verify(whole)
    assert client.get("/api/admin/deals/999999/record").status_code == 404


def test_two_accounts_from_one_browser_are_noted(client: TestClient, world: World, table) -> None:
    table_id, _ = table
    origin = {"Origin": services(client.app).settings.allowed_origins[0]}
    for name in ("ana", "bruno"):
        login(client, name, PASSWORD)
        client.get(f"/tables/{table_id}")  # the page gives this browser its name (once)
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=origin) as ws:
            assert ws.receive_json()["type"] == "state"
        client.post("/logout", data={}, follow_redirects=False)
    for _ in range(50):  # written in batches (web/visits.py), within a second
        with session_scope() as s:
            visits = s.scalars(select(TableVisit).where(TableVisit.table_id == table_id)).all()
        if len(visits) >= 2:
            break
        time.sleep(0.1)
    assert len(visits) == 2 and len({v.browser for v in visits}) == 1
    assert client.cookies.get("tavern_browser") not in {v.browser for v in visits}  # only its hash is kept
    login(client, "admin")
    html = page(client.get("/admin/surveillance"))
    row = html[html.index('data-pair="ana+bruno"'):]
    assert 'data-flag="same_browser"' in row[:row.index("</tr>")]
    assert f"même navigateur à la table {table_id}" in row


def test_two_accounts_without_a_browser_cookie_are_not_one_browser(client: TestClient, world: World, table) -> None:
    """Issue 33: clients that send no browser cookie (bots, the API) were
    noted "-" and flagged « même navigateur » together; their visit is now
    noted without a browser, and they share only the address."""
    table_id, _ = table
    origin = {"Origin": services(client.app).settings.allowed_origins[0]}
    for name in ("ana", "bruno"):
        login(client, name, PASSWORD)
        client.cookies.delete("tavern_browser")  # as a bot or the API: no page visited, no cookie
        with client.websocket_connect(f"/ws/tables/{table_id}", headers=origin) as ws:
            assert ws.receive_json()["type"] == "state"
        client.post("/logout", data={}, follow_redirects=False)
    for _ in range(50):  # written in batches (web/visits.py), within a second
        with session_scope() as s:
            visits = s.scalars(select(TableVisit).where(TableVisit.table_id == table_id)).all()
        if len(visits) >= 2:
            break
        time.sleep(0.1)
    assert len(visits) == 2 and [v.browser for v in visits] == [None, None]
    login(client, "admin")
    html = page(client.get("/admin/surveillance"))
    suspicious, others = html[:html.index('id="pairs"')], html[html.index('id="pairs"'):]
    assert 'data-pair="ana+bruno"' not in suspicious  # before: « même navigateur », score 1.5
    row = others[others.index('data-pair="ana+bruno"'):]
    assert "<td>0.5</td>" in row[:row.index("</tr>")]  # the shared address alone
