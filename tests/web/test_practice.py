"""Issue 29 « S'entraîner »: a logged-in player opens a practice table of any
game against the house players, from the village page's form. Bad input is
refused in French and creates nothing; the table is never listed in the
village; its deals are listed in « Mes donnes » as « entraînement » and never
reach the surveillance report; no écu moves, no daily hand is counted."""

from __future__ import annotations

import asyncio
import random

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from tests.dbtools import harness_settings, session_scope
from tests.tables.conftest import any_legal, settle
from webtools import make_user, page, post_form, register

from tavern.services import stats, surveillance
from tavern.store.models import ArchivedHand, DailyHandUsage, LedgerEntry, PlayerWeek, Seat, TableConfig, User
from tavern.tables.actor import TableActor
from tavern.tables.bank import SqlBank
from tavern.tables.broadcast import LocalBroadcaster
from tavern.tables.commands import Act, Leave
from tavern.tables.practice import PracticeBank, practice_table

pytestmark = pytest.mark.db


def _open(client: TestClient, **fields: str):
    return post_form(client, "/entrainement", {"game": "rams", "opponents": "2", "level": "débutant", **fields}, "/")


def _counts() -> dict[str, int]:
    with session_scope() as s:
        return {"tables": s.scalar(select(func.count()).select_from(TableConfig)) or 0,
                "users": s.scalar(select(func.count()).select_from(User)) or 0,
                "seats": s.scalar(select(func.count()).select_from(Seat)) or 0,
                "ledger": s.scalar(select(func.count()).select_from(LedgerEntry)) or 0,
                "daily": s.scalar(select(func.count()).select_from(DailyHandUsage)) or 0}


def test_a_newcomer_opens_a_practice_table_never_listed_in_the_village(client: TestClient, world) -> None:
    register(client, "novice")
    assert "S'entraîner" in page(client.get("/"))
    # Each game's page leads to its practice table, the form set to that game.
    assert 'href="/entrainement?game=rummoli"' in client.get("/classements/rummoli").text
    assert '<option value="rummoli" data-low="2" data-high="7" selected>' in client.get("/entrainement?game=rummoli").text
    r = _open(client, fast="1")
    assert r.status_code == 303 and r.headers["location"].startswith("/tables/")
    table_id = int(r.headers["location"].rsplit("/", 1)[1])
    with session_scope() as s:
        table = s.get_one(TableConfig, table_id)
        novice = s.scalars(select(User).where(User.username == "novice")).one()
        assert (table.practice_user_id, table.game, table.seats, table.rake_percent) == (novice.id, "rams", 3, 0)
        assert table.options["practice"] == {"level": "débutant", "fast": True}
        seated = {seat.user.username: seat.user for seat in table.seated}
        assert set(seated) == {"novice", "Maison Ana", "Maison Bruno"}
        # The house players are the house's: on no leaderboard, and no password opens their account.
        assert seated["Maison Ana"].house and seated["Maison Ana"].password_hash == "!"
    listed = [t["id"] for v in client.get("/api/village").json() for tv in v["taverns"] for t in tv["tables"]]
    assert table_id not in listed
    assert client.get(f"/tables/{table_id}").status_code == 200
    # Its seats hold practice chips (500 at Rams, unit 1), not a ledger balance.
    api = client.get(f"/api/tables/{table_id}").json()
    assert api["practice"] and {s["player"]: s["chips"] for s in api["seated"]} == {
        "novice": 500, "Maison Ana": 500, "Maison Bruno": 500}
    # One practice table at a time: opening another closes the first.
    again = _open(client, game="ramponneau", opponents="5", level="habitué")
    assert again.status_code == 303
    with session_scope() as s:
        assert s.get_one(TableConfig, table_id).status == "closed"
        assert not s.scalars(select(Seat).where(Seat.table_id == table_id)).all()


def test_the_forms_default_opponents_fit_the_chosen_games_seats(client: TestClient, world) -> None:
    """RULES.md Gin: « 2 players. » The form's default (two opponents) must not be a
    number the server refuses: for Gin it is one, and the field's bounds are the game's."""
    register(client, "novice")
    gin = client.get("/entrainement?game=gin").text
    assert 'name="opponents" value="1" min="1" max="1"' in gin
    rams = client.get("/entrainement?game=rams").text
    assert 'name="opponents" value="2" min="2" max="7"' in rams
    # The page's module keeps the field within the range when the game changes.
    assert '<script src="/static/practice.js" type="module">' in gin


# RULES.md, Rams: "3–8 players, 32 cards"; Gin rummy is for two.
@pytest.mark.parametrize(("fields", "words"), [
    ({"opponents": "1"}, "Nombre d'adversaires impossible pour ce jeu : entre 2 et 7."),
    ({"opponents": "8"}, "Nombre d'adversaires impossible pour ce jeu : entre 2 et 7."),
    ({"game": "gin", "opponents": "2"}, "Nombre d'adversaires impossible pour ce jeu : il se joue contre 1 adversaire."),
    ({"game": "gin", "opponents": "un"}, "Nombre d'adversaires impossible pour ce jeu : il se joue contre 1 adversaire."),
    ({"opponents": "deux"}, "Nombre d'adversaires impossible pour ce jeu : entre 2 et 7."),
    ({"game": "belote"}, "Jeu inconnu : « belote »."),
    ({"level": "champion"}, "Choisissez le niveau des joueurs de la maison (« débutant », « habitué »)."),
])
def test_bad_input_is_refused_in_french_and_creates_nothing(client: TestClient, world, fields, words) -> None:
    register(client, "novice")
    before = _counts()
    r = _open(client, **fields)
    assert r.status_code == 400
    assert words in page(r)
    assert _counts() == before


def test_practice_deals_are_listed_as_practice_and_never_reach_the_surveillance_report(
        client: TestClient, world, session_factory) -> None:
    register(client, "novice")
    before = _counts()
    table_id = int(_open(client).headers["location"].rsplit("/", 1)[1])

    async def scenario() -> None:
        settings = harness_settings()
        bank = PracticeBank(session_factory, settings, share_with=SqlBank(session_factory, settings))
        info, terms = bank.practice(table_id)
        actor: TableActor = practice_table(info, terms, bank, LocalBroadcaster(), deal_pause=0.0, think=(0.0, 0.0))
        await actor.start()
        choose = any_legal(random.Random(5))
        for _ in range(5000):
            if actor.deals >= 2:
                break
            engine = actor.engine
            if engine is not None and not engine.over and "novice" in engine.to_act():
                move = dict(choose("novice", engine.legal_actions("novice")))
                await actor.submit(Act(action=move.pop("action"), args=move), "novice")
            await asyncio.sleep(0.001)
            await settle(actor)
        await actor.submit(Leave(), "novice")  # the deal in progress is voided, the table closes
        await actor.stop()

    asyncio.run(scenario())
    with session_scope() as s:
        ids = set(s.scalars(select(ArchivedHand.id).where(ArchivedHand.table_id == table_id,
                                                          ArchivedHand.voided.is_(False))))
        assert ids
        assert not ids & {deal_id for deal_id, _, _ in surveillance.archived_deals(s)}
        assert s.get_one(TableConfig, table_id).status == "closed"
    deals = [d for d in client.get("/api/me/deals").json() if d["id"] in ids]
    assert deals and all(d["practice"] for d in deals)
    mine = page(client.get("/mes-donnes"))
    assert "entraînement" in mine
    # Its figures are kept apart as practice, never on the week's boards.
    with session_scope() as s:
        novice = s.scalars(select(User.id).where(User.username == "novice")).one()
        rows = stats.of_player(s, novice)
        assert rows and all(r.practice for r in rows)
        assert not s.scalars(select(PlayerWeek).where(PlayerWeek.user_id == novice)).all()
    # Practice chips: no écu moved, no daily hand counted (the house players were created, and the table).
    after = _counts()
    assert (after["ledger"], after["daily"]) == (before["ledger"], before["daily"])


def test_the_practice_form_needs_a_login(client: TestClient, world) -> None:
    with session_scope() as s:
        make_user(s, "curieux")
    r = client.post("/entrainement", data={"game": "rams", "opponents": "2", "level": "débutant"},
                    follow_redirects=False)
    assert r.status_code in (303, 401, 403)
    with session_scope() as s:
        assert not s.scalars(select(TableConfig).where(TableConfig.practice_user_id.is_not(None))).all()


def test_the_api_opens_a_practice_table_and_refuses_in_french(client: TestClient, world) -> None:
    from webtools import api_csrf

    register(client, "novice")
    headers = {"X-CSRF-Token": api_csrf(client)}
    before = _counts()
    for body, code in (({"game": "rams", "opponents": 8, "level": "débutant"}, "practice_opponents"),
                       ({"game": "gin", "opponents": 2, "level": "habitué"}, "practice_opponents_only"),
                       ({"game": "rams", "opponents": 2, "level": "expert"}, "practice_no_level")):
        r = client.post("/api/practice", json=body, headers=headers)
        assert r.status_code == 400 and code in r.text, r.text
    assert "Nombre d'adversaires impossible pour ce jeu" in client.post(
        "/api/practice", json={"game": "rams", "opponents": 1, "level": "débutant"}, headers=headers).text
    assert _counts() == before
    r = client.post("/api/practice", json={"game": "gin", "opponents": 1, "level": "habitué", "fast": True},
                    headers=headers)
    assert r.status_code == 201 and r.json()["closed"] == []
    with session_scope() as s:
        table = s.get_one(TableConfig, r.json()["id"])
        assert (table.game, table.seats, table.options["practice"]) == ("gin", 2, {"level": "habitué", "fast": True})


def test_a_practice_table_is_watched_by_its_player_only(client: TestClient, new_client, world) -> None:
    """Issue 42 §12: "A practice table can be watched by any logged-in account
    that knows its id: only its player." The page, the API and the socket
    refuse anyone else in French; the player's own table answers him."""
    from starlette.websockets import WebSocketDisconnect

    from tavern.catalogue import french
    from tavern.web.state import services

    register(client, "novice")
    table_id = int(_open(client).headers["location"].rsplit("/", 1)[1])
    curious = new_client()
    register(curious, "curieux")
    r = curious.get(f"/tables/{table_id}")
    assert r.status_code == 403 and french("practice_table_no_spectators") in page(r)
    assert curious.get(f"/api/tables/{table_id}").json()["code"] == "practice_table_no_spectators"
    mine = dict(client.cookies)
    client.cookies.clear()
    client.cookies.update(dict(curious.cookies))  # his cookies, through the client whose loop runs the tables
    try:
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(
                f"/ws/tables/{table_id}", headers={"Origin": services(client.app).settings.allowed_origins[0]}) as ws:
            ws.receive_json()
        assert closed.value.reason == french("practice_table_no_spectators")
    finally:
        client.cookies.clear()
        client.cookies.update(mine)
    assert client.get(f"/tables/{table_id}").status_code == 200
    assert client.get(f"/api/tables/{table_id}").json()["practice"] is True


def test_the_practice_table_says_its_level_and_fast_play_and_the_menu_leads_there(client: TestClient, world) -> None:
    """Issue 42 §13: « S'entraîner » gets a place in the menu; the form says
    « Gin rami (1 adversaire) »; the table's title shows the level and the
    fast play chosen, not « Entraînement : Rams · entraînement »."""
    register(client, "novice")
    for where in ("/", "/compte", "/concours", "/mes-donnes"):
        nav = page(client.get(where)).split("<main>")[0]
        assert 'href="/entrainement"' in client.get(where).text.split("<main>")[0], where
        assert "S'entraîner" in nav
    form = page(client.get("/entrainement"))
    assert "Gin rami (1 adversaire)" in form and "(1 à 1 adversaires)" not in form
    assert "Rams (2 à 7 adversaires)" in form
    table_id = int(_open(client, fast="1", level="habitué").headers["location"].rsplit("/", 1)[1])
    shown = page(client.get(f"/tables/{table_id}"))
    assert "<title>Entraînement : Rams · niveau habitué · jeu rapide · tavern</title>" in shown
    assert "· entraînement" not in shown
    heading = shown.split("<h1>")[1].split("</h1>")[0]
    assert heading == "Entraînement : Rams <small>· niveau habitué · jeu rapide</small>"
    api = client.get(f"/api/tables/{table_id}").json()
    assert (api["practice_level"], api["practice_fast"]) == ("habitué", True)
    slow = int(_open(client, level="débutant").headers["location"].rsplit("/", 1)[1])
    heading = page(client.get(f"/tables/{slow}")).split("<h1>")[1].split("</h1>")[0]
    assert heading == "Entraînement : Rams <small>· niveau débutant</small>"
