"""Issue 29 "Beyond" in « Mes donnes »: "the replayer show[s] each hand's
equity at that moment" — at the step where nobody can bet any more before
the river, and never for a hand that step does not show
(tests/web/test_replay_leaks.py's never-leak, for the equity's names).

Ruling (docs/games/poker.md "Rulings"): "In an all-in run-out (cards dealt
with nobody left to bet) ... every hand is tabled": the step that deals the
run-out shows the hands, and the equity with them.
"""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from tests.dbtools import session_scope
from tests.tables.conftest import build_world
from tests.web.test_replay_leaks import cards_in
from webtools import login

from tavern.games.poker import equity, ramponneau
from tavern.games.poker.records import stacked_deck
from tavern.services import archive

pytestmark = pytest.mark.db

NAMES = ("ana", "bob", "cid")


def all_in_deal():
    """Cid goes all in before the flop, Ana calls, Bob folds (his cards are
    two of Ana's outs): the run-out is dealt, Ana's and Cid's hands tabled."""
    holes = [["Ah", "Kh"], ["3h", "4h"], ["Qc", "Qd"]]  # ana, bob, cid (button cid)
    board = ["2h", "7h", "Qs", "Jc", "5c"]
    seats = [{"player": p, "chips": 300} for p in NAMES]
    e = ramponneau.new_deal({"small_blind": 5, "big_blind": 10}, seats, 2, deck=stacked_deck(holes, board))
    e.act("cid", "raise", amount=300)
    e.act("ana", "call")
    e.act("bob", "fold")
    assert e.over
    return json.loads(json.dumps(e.record())), json.loads(json.dumps(e.result())), holes, board


def test_the_replay_shows_the_equity_at_the_all_in_step_and_names_only_tabled_hands(
        settings, client: TestClient, session_factory) -> None:
    from tavern.services import users

    world = build_world(session_factory, game="ramponneau", names=NAMES,
                        password_hash=users.hash_password("correct horse battery", settings))
    record, result, holes, board = all_in_deal()
    with session_scope() as s:
        deal = archive.archive_hand(s, world.table_id, record, result).id
    want = [{"board": board[:k], "permille": dict(zip(("ana", "cid"), equity.permille([holes[0], holes[2]], board[:k]),
                                                      strict=True))} for k in (0, 3, 4)]
    for viewer in NAMES:
        client.cookies.clear()
        login(client, viewer)
        steps = client.get(f"/api/me/deals/{deal}").json()
        told = [k for k, step in enumerate(steps) if "equity" in step["view"]]
        assert told == [len(steps) - 1], viewer  # the step of the call that closed the betting, only
        view = steps[-1]["view"]
        assert view["equity"] == want
        shown = {p["player"] for p in view["players"] if p["cards"] and not p["folded"]}
        for street in view["equity"]:
            assert set(street["permille"]) <= shown
        # Bob's folded hand — two of Ana's hearts — stays unseen by the others, and out of the figures.
        if viewer != "bob":
            assert not cards_in(steps) & set(holes[1])
