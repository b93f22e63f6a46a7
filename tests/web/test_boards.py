"""Issue 31 §2: leaderboards per game and per week, Paris time; contests by
points per place; house players never appear; an admin hides a flagged
account."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from tests.dbtools import session_scope
from webtools import login, make_user, post_form

from tavern.services import boards, stats
from tavern.store.models import Contest, ContestEntry, User

pytestmark = pytest.mark.db


@pytest.fixture(autouse=True)
def players(world) -> None:
    with session_scope() as s:
        for name in ("ana", "bob", "cid"):
            make_user(s, name)


def _deal(winner: str, loser: str, amount: int, ended: dt.datetime) -> None:
    record = {"game": "gin", "seats": [{"player": winner, "chips": 500}, {"player": loser, "chips": 500}]}
    with session_scope() as s:
        stats.count_deal(s, record, {"delta": {winner: amount, loser: -amount}}, ended=ended)


def test_the_week_turns_at_midnight_in_paris() -> None:
    # Sunday 23:30 UTC in winter is Monday 00:30 in Paris: the new week.
    assert boards.week_of(dt.datetime(2026, 11, 29, 23, 30, tzinfo=dt.UTC)) == dt.date(2026, 11, 30)
    assert boards.week_of(dt.datetime(2026, 11, 29, 22, 59, tzinfo=dt.UTC)) == dt.date(2026, 11, 23)
    # Summer: Paris is UTC+2.
    assert boards.week_of(dt.datetime(2026, 6, 28, 22, 30, tzinfo=dt.UTC)) == dt.date(2026, 6, 29)


def test_weekly_board_by_game_without_house_players_and_hidden_accounts(client: TestClient) -> None:
    now = dt.datetime.now(dt.UTC)
    _deal("ana", "bob", 30, now)
    _deal("ana", "bob", 20, now)
    _deal("cid", "ana", 10, now)
    _deal("bob", "cid", 99, now - dt.timedelta(days=8))  # another week
    board = client.get("/api/leaderboards/gin").json()
    assert [(r["player"], r["net"], r["deals"]) for r in board["rows"]] == [("ana", 40, 3), ("cid", 10, 1),
                                                                           ("bob", -50, 2)]
    last = (now - dt.timedelta(days=8)).date().isoformat()
    assert [r["player"] for r in client.get("/api/leaderboards/gin", params={"semaine": last}).json()["rows"]] == \
        ["bob", "cid"]
    assert client.get("/api/leaderboards/ramponneau").json()["rows"] == []
    missing = client.get("/api/leaderboards/belote")
    assert missing.status_code == 404 and missing.json()["code"] == "board_unknown_game"
    with session_scope() as s:
        s.scalars(select(User).where(User.username == "cid")).one().house = True
    assert [r["player"] for r in client.get("/api/leaderboards/gin").json()["rows"]] == ["ana", "bob"]
    page = client.get("/")
    assert "Classements de la semaine" in page.text and "/joueurs/ana" in page.text
    assert "/joueurs/cid" not in client.get("/classements/gin").text
    # An admin takes ana off the boards; a player cannot.
    login(client, "bob")
    assert post_form(client, "/admin/classements", {"username": "ana"}).status_code == 403
    client.post("/logout")
    client.cookies.clear()
    login(client, "admin")
    done = post_form(client, "/admin/classements", {"username": "ana"})
    assert done.status_code == 303
    assert [r["player"] for r in client.get("/api/leaderboards/gin").json()["rows"]] == ["bob"]
    unknown = post_form(client, "/admin/classements", {"username": "personne"})
    assert unknown.status_code == 400 and "Aucun joueur ne s'appelle « personne »" in unknown.text.replace("&#39;", "'")


def test_contest_points_by_place(client: TestClient) -> None:
    with session_scope() as s:
        ids = {u.username: u.id for u in s.scalars(select(User))}
        played = [([("ana", 1), ("bob", 2), ("cid", 7)], "finished"), ([("bob", 1), ("ana", 3)], "finished"),
                  ([("cid", 1)], "running")]
        for k, (places, status) in enumerate(played):
            c = Contest(name=f"C{k}", status=status, starts_at=dt.datetime.now(dt.UTC), starting_chips=1000, seats=6,
                        min_players=2, max_players=9, structure=[], created_by=ids["admin"])
            s.add(c)
            s.flush()
            s.add_all([ContestEntry(contest_id=c.id, user_id=ids[n], place=p) for n, p in places])
    rows = client.get("/api/leaderboards/contests").json()
    # 1st 10, 2nd 7, 3rd 5, any place past 6th 1; a running contest counts nothing yet.
    assert [(r["player"], r["points"], r["contests"]) for r in rows] == [("bob", 17, 2), ("ana", 15, 2), ("cid", 1, 1)]


def test_a_contest_deal_counts_in_his_statistics_but_not_on_the_weekly_board() -> None:
    from tests.services.helpers import make_table

    from tavern.services import archive
    from tavern.store.models import PlayerStats, PlayerWeek

    record = {"game": "gin", "seats": [{"player": "ana", "chips": 500}, {"player": "bob", "chips": 500}]}
    with session_scope() as s:
        owner = s.scalars(select(User).where(User.username == "owner")).one()
        table = make_table(s, owner)
        c = Contest(name="Coupe", status="running", starts_at=dt.datetime.now(dt.UTC), starting_chips=1000, seats=6,
                    min_players=2, max_players=9, structure=[], created_by=owner.id)
        s.add(c)
        s.flush()
        hands = []
        for contest_id in (c.id, None):
            hand = archive.archive_hand(s, table.id, record, {"in_progress": True})
            hand.contest_id = contest_id
            s.flush()
            hands.append(hand.id)
        for hand_id in hands:
            archive.complete_hand(s, hand_id, record, {"delta": {"ana": 40, "bob": -40}}, 0, dt.datetime.now(dt.UTC))
    with session_scope() as s:
        ana = s.scalars(select(User.id).where(User.username == "ana")).one()
        assert s.scalars(select(PlayerStats.deals).where(PlayerStats.user_id == ana)).one() == 2
        assert s.scalars(select(PlayerWeek.deals).where(PlayerWeek.user_id == ana)).one() == 1
