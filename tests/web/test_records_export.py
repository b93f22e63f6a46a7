"""Issue 31 §3: from « Mes donnes » a player downloads his poker deals of a
date range — PokerStars text or PHH — in his own view; a range upside down
or over a year, another player's deal ids: refused in French, never a 5xx."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from fastapi.testclient import TestClient
from poker.room.pokerstars import PokerStarsHandHistory
from tests.dbtools import session_scope
from webtools import login

from tavern.games import registry
from tavern.store.models import ArchivedHand

pytestmark = pytest.mark.db
pokerkit = pytest.importorskip("pokerkit")
from pokerkit.notation import HandHistory, PokerStarsParser  # noqa: E402

CARD = re.compile(r"[2-9TJQKA][cdhs]")


@pytest.fixture
def deal(settings, session_factory) -> int:
    from tests.web.test_history import _play_one_deal

    from tavern.services import users

    return _play_one_deal(session_factory, users.hash_password("correct horse battery", settings))


def _range(days: int = 0) -> dict[str, str]:
    today = dt.datetime.now(dt.UTC).date()
    return {"start": (today - dt.timedelta(days=days)).isoformat(), "end": today.isoformat()}


def test_a_player_downloads_his_deals_in_his_own_view(client: TestClient, deal: int) -> None:
    with session_scope() as s:
        record, ended = s.get(ArchivedHand, deal).record, s.get(ArchivedHand, deal).ended
    *_, (engine, _) = registry.replay_steps(record)
    unshown = {c for i, p in enumerate(engine.players) if p != "ana" and i not in engine.shown for c in engine.hole[i]}
    login(client, "ana")  # she folded at once: the others' cards she saw are only those shown down
    got = client.get("/api/me/export/deals", params={**_range(1), "format": "pokerstars"})
    assert got.status_code == 200 and got.headers["x-tavern-deals"] == "1"
    assert "attachment" in got.headers["content-disposition"]
    (hh,) = list(PokerStarsParser()(got.text, error_status=True))
    assert list(hh.players) == engine.players
    assert list(list(hh)[-1].stacks) == [engine.b.stack[i] for i in range(len(engine.players))]
    assert f"Dealt to ana [{' '.join(engine.hole[engine.index['ana']])}]" in got.text
    # Issue 42 §3: the site's time with its zone, then ET in brackets, the form
    # the poker package's PokerStars parser reads (it takes the ET time).
    assert re.search(r" - \d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d CES?T \[\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d ET\]", got.text)
    stars = PokerStarsHandHistory(got.text)
    stars.parse()
    assert stars.date == (ended if ended.tzinfo else ended.replace(tzinfo=dt.UTC)).replace(microsecond=0)
    assert not set(CARD.findall(got.text)) & unshown
    phh = client.get("/mes-donnes-export", params={**_range(0), "format": "phh"})
    assert phh.status_code == 200
    (history,) = list(HandHistory.loads_all(phh.text))
    assert list(list(history)[-1].stacks) == [engine.b.stack[i] for i in range(len(engine.players))]
    assert not set(CARD.findall(phh.text.split("players =")[0])) & unshown
    # His deal named by its id; a range that holds none gives an empty file.
    assert client.get("/api/me/export/deals", params={**_range(0), "ids": str(deal)}).headers["x-tavern-deals"] == "1"
    empty = client.get("/api/me/export/deals", params={"start": "2020-01-01", "end": "2020-12-31"})
    assert empty.status_code == 200 and empty.text == ""
    assert "Télécharger mes donnes" in client.get("/mes-donnes").text


def test_bad_ranges_and_other_players_deals_are_refused_in_french(client: TestClient, deal: int) -> None:
    login(client, "dan")  # not dealt in
    today = dt.datetime.now(dt.UTC).date()
    cases = [
        ({"start": today.isoformat(), "end": (today - dt.timedelta(days=3)).isoformat()},
         "export_range_upside_down", "à l'envers"),
        ({"start": (today - dt.timedelta(days=366)).isoformat(), "end": today.isoformat()},
         "export_range_too_long", "366 jours"),
        ({**_range(1), "ids": str(deal)}, "export_not_your_deals", f"Vous n'avez pas joué ces donnes : {deal}"),
        ({**_range(1), "ids": "99999"}, "export_not_your_deals", "99999"),
        ({**_range(1), "ids": "1;DROP"}, "export_not_your_deals", "Vous n'avez pas joué"),
    ]
    for params, code, words in cases:
        got = client.get("/api/me/export/deals", params=params)
        assert got.status_code == 400, (params, got.text)
        assert got.json()["code"] == code and words in got.json()["message"], got.json()
    page = client.get("/mes-donnes-export", params={"start": "2026-05-01", "end": "2025-05-01"})
    assert page.status_code == 400 and "La période est à l&#39;envers" in page.text
    for params in ({"start": "hier", "end": "2026-01-01"}, {**_range(1), "format": "zip"}):
        got = client.get("/api/me/export/deals", params=params)
        assert got.status_code == 422 and got.json()["code"] == "invalid_values"
    # A year exactly (366 days counted inclusive at most) is accepted; dan has no deal in it.
    year = client.get("/api/me/export/deals", params={"start": (today - dt.timedelta(days=365)).isoformat(),
                                                      "end": today.isoformat()})
    assert year.status_code == 200 and year.text == ""
    client.post("/logout")
    client.cookies.clear()
    assert client.get("/api/me/export/deals", params=_range(1)).status_code == 401
