"""Issue 29 §2, house seats at real tables, seen from the web: the owner's
« Joueurs de la maison » and its bad inputs, the admin's « Caisse de la
maison » (its balance, credit and results by table). « Bad input: an owner's
house-seat setting outside its bounds … refused in French, nothing changed »."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from tests.dbtools import session_scope
from webtools import World, api_csrf, login, page, post_form

from tavern.services import house_seats, ledger, seats
from tavern.store.models import LedgerEntry, TableConfig

pytestmark = pytest.mark.db

RAMPONNEAU = {"game": "ramponneau", "name": "La grande", "small_blind": "1", "big_blind": "2",
              "seats": "4", "rake_percent": "5", "action_timer_seconds": "30", "no_flop_no_drop": "on"}


def _with_deck(client: TestClient, world: World) -> str:
    login(client, "owner")
    base = f"/ma-taverne/{world.tavern_id}"
    post_form(client, f"{base}/acheter", {"kind": "deck52"}, page=base)
    deck = client.get(f"/api/taverns/{world.tavern_id}").json()["inventory"][0]
    post_form(client, f"{base}/entreposer", {"inventory_id": str(deck["id"])}, page=base)
    return base


def _tables() -> list[tuple[str, int]]:
    with session_scope() as s:
        return [(t.name, t.house_seats) for t in s.scalars(select(TableConfig))]


def test_the_owner_allows_house_players_at_a_table(client: TestClient, world: World) -> None:
    base = _with_deck(client, world)
    assert 'name="house_seats"' in client.get(base).text and "Joueurs de la maison" in client.get(base).text
    r = post_form(client, f"{base}/tables", {**RAMPONNEAU, "house_seats": "3"}, page=base)
    assert r.status_code == 303, page(r)
    assert _tables() == [("La grande", 3)]
    [table] = client.get(f"/api/taverns/{world.tavern_id}").json()["tables"]
    assert table["house_seats"] == 3
    assert '<span data-house-seats="3">3 de la maison au plus</span>' in client.get(base).text


def test_none_by_default(client: TestClient, world: World) -> None:
    base = _with_deck(client, world)
    assert post_form(client, f"{base}/tables", RAMPONNEAU, page=base).status_code == 303
    assert _tables() == [("La grande", 0)]


def test_a_setting_outside_its_bounds_is_refused_in_french_and_nothing_stored(client: TestClient,
                                                                              world: World) -> None:
    base = _with_deck(client, world)
    for value, reason in (("4", "« Joueurs de la maison » : de 0 à 3 joueurs de la maison à cette table"),
                          ("-1", "« Joueurs de la maison » : "), ("deux", "« Joueurs de la maison » : "),
                          ("99999999999999", "« Joueurs de la maison » : au plus")):
        r = post_form(client, f"{base}/tables", {**RAMPONNEAU, "house_seats": value}, page=base)
        assert r.status_code == 400, value
        assert reason in page(r), (value, page(r)[:300])
    h = {"X-CSRF-Token": api_csrf(client)}
    api = {"game": "gin", "stakes": {"unit": 1}, "name": "Gin", "house_seats": 2}  # Gin: two seats, one house player
    r = client.post(f"/api/taverns/{world.tavern_id}/tables", json=api, headers=h)
    assert r.status_code in (400, 422), r.text
    assert "0 à 1 joueurs de la maison" in r.text
    r = client.post(f"/api/taverns/{world.tavern_id}/tables", json={**api, "house_seats": -1}, headers=h)
    assert r.status_code == 422, r.text
    assert _tables() == []


def test_the_admin_funds_the_purse_and_reads_its_results(client: TestClient, world: World) -> None:
    login(client, "admin")
    r = client.get("/admin/maison")
    assert r.status_code == 200 and "Caisse de la maison" in r.text and "0 écu<" in r.text  # issue 42 §7: « 0 écu »
    r = post_form(client, "/admin/maison/crediter", {"amount": "5000"}, page="/admin/maison")
    assert r.status_code == 303
    r = client.post("/api/admin/house/credit", json={"amount": 700}, headers={"X-CSRF-Token": api_csrf(client)})
    assert r.status_code == 200 and r.json()["balance"] == 5700
    with session_scope() as s:
        # A grant like any: from the house's issuance, in the ledger.
        entries = s.scalars(select(LedgerEntry).where(LedgerEntry.reason == "issue",
                                                      LedgerEntry.reference == f"house-purse:admin:{world.admin_id}"))
        assert sorted(e.amount for e in entries) == [700, 5000]
        # A house player caves 200 from it at a table, then wins 30 there and leaves.
        table = TableConfig(tavern_id=world.tavern_id, name="Chez nous", game="ramponneau",
                            stakes={"small_blind": 1, "big_blind": 2}, buy_in_min=20, buy_in_max=200, seats=4,
                            house_seats=1)
        s.add(table)
        s.flush()
        [sat] = house_seats.sit(s, table.id, 1)
        assert ledger.audit(s).ok
        table_id = table.id
    with session_scope() as s:
        # (30 chips won, as a deal moves them: here bought by the owner and handed over)
        ledger.cave(s, world.owner_id, table_id, 30)
        ledger.transfer(s, ledger.account(s, "user", world.owner_id, "chips", table_id),
                        ledger.account(s, "user", sat.user_id, "chips", table_id), 30, "chips", "hand", "test")
        assert seats.leave(s, table_id, sat.user_id) == 230
        assert ledger.audit(s).ok
    r = client.get("/api/admin/house")
    assert r.json()["balance"] == 5730
    [row] = r.json()["tables"]
    assert (row["table_id"], row["caved"], row["cashed"], row["at_table"]) == (table_id, 200, 230, 0)
    text = client.get("/admin/maison").text
    assert "5730 écus" in text and "Chez nous" in text and "+30" in text


def test_bad_credit_refused_and_nothing_changed(client: TestClient, world: World) -> None:
    login(client, "admin")

    def entries() -> int:
        with session_scope() as s:
            return s.scalar(select(func.count()).select_from(LedgerEntry)) or 0

    before = entries()
    for amount in ("0", "-5", "abc", "99999999999"):
        r = post_form(client, "/admin/maison/crediter", {"amount": amount}, page="/admin/maison")
        assert r.status_code == 400 and "Le montant est un nombre entier entre 1 et" in page(r), amount
    assert client.post("/api/admin/house/credit", json={"amount": 0},
                       headers={"X-CSRF-Token": api_csrf(client)}).status_code == 422
    assert entries() == before


def test_only_an_admin_sees_the_purse(client: TestClient, world: World) -> None:
    login(client, "owner")
    assert client.get("/api/admin/house").status_code == 403
    assert client.get("/admin/maison", follow_redirects=False).status_code in (303, 403)


@pytest.fixture
def dumping_table(db_url: str, world: World) -> int:
    from test_surveillance_pages import NAMES, _archive_dumping
    from tests.tables.liveserver import seed_table

    table_id, _ = seed_table(db_url, NAMES)
    _archive_dumping(table_id)  # ana dumps chips to bruno, 400 deals
    return table_id


def test_the_surveillance_report_lists_the_house_players_apart(client: TestClient, world: World,
                                                                dumping_table: int) -> None:
    """« listed apart in the surveillance report »: the same deals, bruno a
    house player now — his pair with ana is never flagged, and it is in its own section."""
    from tavern.store.models import User

    login(client, "admin")
    assert 'data-pair="ana+bruno"' in page(client.get("/admin/surveillance")).split('id="pairs"')[0]
    with session_scope() as s:
        s.scalars(select(User).where(User.username == "bruno")).one().house = True
    html = page(client.get("/admin/surveillance"))
    humans, house = html.split('id="house-section"')
    assert "bruno" not in humans and 'id="no-suspicious"' in humans
    assert 'data-pair="ana+bruno"' in house and 'data-pair="bruno+h1"' in house
    assert "jamais signalés" in house
    assert all("bruno" not in p["players"] for p in client.get("/api/admin/surveillance").json())
    mine = page(client.get("/admin/surveillance/joueurs/ana")).split('id="house-section"')[1]
    assert 'data-pair="ana+bruno"' in mine and 'data-pair="bruno+h1"' not in mine


def test_mes_donnes_and_the_replay_mark_the_house_players(client: TestClient, db_url: str, world: World) -> None:
    """« marked « maison » everywhere a name appears (…, replay, « Mes donnes ») »."""
    import random

    from test_surveillance_pages import honest, simulate
    from tests.tables.liveserver import PASSWORD, seed_table

    from tavern.services import archive, practice

    table_id, _ = seed_table(db_url, ("ana",))
    with session_scope() as s:
        practice.house_players(s, 1)  # « Maison Ana », a house account
        rng = random.Random(4)
        [(_, record, result)] = simulate({"ana": honest(rng), "Maison Ana": honest(rng)}, 1, seed=5, per_table=2)
        deal_id = archive.archive_hand(s, table_id, record, result).id
    login(client, "ana", PASSWORD)
    html = page(client.get("/mes-donnes"))
    row = html[html.index(f'data-deal="{deal_id}"'):]
    row = row[:row.index("</tr>")]
    assert 'Maison Ana <small class="tl-house" data-house>(maison)</small>' in row
    assert "ana <small" not in row  # only the house's
    [deal] = client.get("/api/me/deals").json()
    assert deal["house"] == ["Maison Ana"]
    replay = client.get(f"/mes-donnes/{deal_id}").text
    assert 'data-house="[&#34;Maison Ana&#34;]"' in replay


def test_the_table_page_marks_a_house_player(client: TestClient, world: World) -> None:
    with session_scope() as s:
        house_seats.fund(s, 1000, world.admin_id)
        table = TableConfig(tavern_id=world.tavern_id, name="Chez nous", game="ramponneau",
                            stakes={"small_blind": 1, "big_blind": 2}, buy_in_min=20, buy_in_max=200, seats=4,
                            house_seats=1)
        s.add(table)
        s.flush()
        [sat] = house_seats.sit(s, table.id, 1)
        table_id = table.id
    login(client, "owner")
    [seat] = client.get(f"/api/tables/{table_id}").json()["seated"]
    assert (seat["player"], seat["house"]) == (sat.username, True)
    assert f'{sat.username} <small class="tl-house">(maison)</small>' in page(client.get(f"/tables/{table_id}"))
