"""Issue 31 §1: a player's statistics kept current as deals settle (a deal
killed mid-hand counts nothing), his private page, and a public profile
that shows nothing private."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from webtools import deal_stopped_mid_hand, login

from tavern.store.models import ArchivedHand

pytestmark = pytest.mark.db


def test_a_settled_deal_counts_in_the_statistics_and_the_public_profile(settings, client: TestClient,
                                                                       session_factory) -> None:
    from tests.web.test_history import _play_one_deal

    from tavern.services import users

    deal = _play_one_deal(session_factory, users.hash_password("correct horse battery", settings))
    with session_scope() as s:
        hand = s.get(ArchivedHand, deal)
        record, result = hand.record, hand.result
    folded = {a["player"] for a in record["actions"] if a["action"] == "fold"}
    still_in = [p for p in ("ana", "bob", "cid") if p not in folded]
    winners = {w for pot in result["pots"] for w in pot["winners"]}
    for name in ("ana", "bob", "cid"):
        client.post("/logout")
        client.cookies.clear()
        login(client, name)
        (mine,) = client.get("/api/me/stats").json()
        delta = result["delta"][name]
        assert (mine["game"], mine["deals"], mine["practice"]) == ("ramponneau", 1, False)
        assert (mine["won"], mine["net"], mine["chips_won"], mine["chips_lost"]) == \
            (int(delta > 0), delta, max(delta, 0), max(-delta, 0))
        went = name in still_in and len(still_in) > 1
        assert (mine["showdowns"], mine["showdowns_won"]) == (int(went), int(went and name in winners))
    page = client.get("/mes-statistiques")
    assert page.status_code == 200 and "Ramponneau" in page.text and "VPIP" in page.text
    # The public profile: name, since, games, places, taverns — no chips.
    profile = client.get("/api/players/ana").json()
    assert profile["username"] == "ana" and profile["games"] == {"ramponneau": 1}
    assert set(profile) == {"username", "since", "games", "places", "taverns"}
    assert "ana" in client.get("/joueurs/ana").text
    missing = client.get("/api/players/personne")
    assert missing.status_code == 404 and missing.json()["message"] == "Aucun joueur de ce nom."


def test_a_deal_killed_mid_hand_counts_nothing(settings, client: TestClient, session_factory) -> None:
    from tavern.tables.bank import SqlBank

    world = deal_stopped_mid_hand(session_factory, settings)
    SqlBank(session_factory, settings).void_interrupted(world.table_id)  # the restart voids it
    login(client, "ana")
    assert client.get("/api/me/stats").json() == []
    assert client.get("/api/players/ana").json()["games"] == {}
    client.post("/logout")
    client.cookies.clear()
    assert client.get("/api/me/stats").status_code == 401


def test_the_figures_rebuilt_from_the_archive_are_those_counted_at_settlement(settings, session_factory) -> None:
    """`tavern stats-rebuild` (deals settled before migration 0008): the
    same rows as the settlements wrote."""
    from sqlalchemy import select
    from tests.dbtools import session_scope
    from tests.web.test_history import _play_one_deal

    from tavern.services import stats, users
    from tavern.store.models import PlayerStats, PlayerWeek

    _play_one_deal(session_factory, users.hash_password("correct horse battery", settings))

    def rows(s):
        return (sorted(tuple(getattr(r, c.name) for c in PlayerStats.__table__.columns if c.name != "id")
                       for r in s.scalars(select(PlayerStats))),
                sorted((r.user_id, r.game, r.week, r.deals, r.net) for r in s.scalars(select(PlayerWeek))))

    with session_scope() as s:
        settled = rows(s)
        assert len(settled[0]) == 3 and sum(r[4] for r in settled[1]) == 0  # three players; chips only moved
    with session_scope() as s:
        assert stats.rebuild(s) == 1
    with session_scope() as s:
        assert rows(s) == settled
