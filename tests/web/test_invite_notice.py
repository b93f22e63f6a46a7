"""Issue 30 §4: "A small notice on any page when … a friend's private table
invites you": the owner invites a player by name; the player's pages are
told (his notice socket), and he may sit. Bad input: a French refusal,
nothing written. Never-leak: the notice goes to the guest only, and names
the table and its owner, nothing else."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from test_private_tables import FRIENDS, open_private
from test_waiting import Players, notices
from tests.dbtools import session_scope
from webtools import World, make_user, page, post_form

from tavern.catalogue import french
from tavern.services import private_tables
from tavern.store.models import TableGrant, User

pytestmark = pytest.mark.db


def _grants() -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).select_from(TableGrant)) or 0


def _invite(players: Players, world: World, table_id: int, body: dict, csrf: bool = True, who: str = "owner"):
    return players.call(who, "POST", f"/api/taverns/{world.tavern_id}/tables/{table_id}/invitations", json=body,
                        csrf=csrf)


@pytest.fixture
def friends(client: TestClient, new_client: Callable[[], TestClient], world: World) -> tuple[int, Players]:
    table_id, _ = open_private(client, world)  # the client is the owner's from here on
    with session_scope() as s:
        for name in ("ana", "bob"):
            make_user(s, name, ecus=1000)
    players = Players(client, new_client, ("ana", "bob"))
    players.jars["owner"] = dict(client.cookies)
    return table_id, players


def test_the_invited_player_is_told_on_his_pages_and_may_sit(client: TestClient, world: World,
                                                             friends: tuple[int, Players]) -> None:
    table_id, players = friends
    with notices(players, "ana") as ana, notices(players, "bob") as bob:
        r = _invite(players, world, table_id, {"username": "ana"})
        assert r.status_code == 204, r.text
        told = ana.receive_json()
        assert told == {"type": "table_invitation", "table_id": table_id, "table": FRIENDS["name"],
                        "owner": "owner", "text": "owner vous invite à sa table privée « Entre amis »."}
        # bob, not invited, hears nothing: a notice of his own would come first.
        _invite(players, world, table_id, {"username": "bob"})
        assert bob.receive_json()["type"] == "table_invitation"
    with session_scope() as s:
        ana_id = s.scalar(select(User.id).where(User.username == "ana"))
        assert private_tables.has_grant(s, table_id, ana_id)


def test_the_owner_invites_from_his_page(client: TestClient, world: World, friends: tuple[int, Players]) -> None:
    table_id, _ = friends
    base = f"/ma-taverne/{world.tavern_id}"
    assert f'action="{base}/tables/{table_id}/inviter"' in client.get(base).text
    r = post_form(client, f"{base}/tables/{table_id}/inviter", {"username": "ana"}, page=base)
    assert r.status_code == 303
    assert french("invitation_sent", {"name": "ana", "table": "Entre amis"}) in page(client.get(base))
    assert _grants() == 1


@pytest.mark.parametrize("body,status,code", [
    ({"username": "personne"}, 400, "invite_no_such_player"),
    ({"username": "owner"}, 400, "invite_yourself"),
])
def test_bad_input_is_refused_in_french_and_writes_nothing(client: TestClient, world: World,
                                                           friends: tuple[int, Players], body: dict, status: int,
                                                           code: str) -> None:
    table_id, players = friends
    r = _invite(players, world, table_id, body)
    assert r.status_code == status and r.json()["code"] == code, r.text
    assert r.json()["message"] == french(code, r.json()["params"])
    assert _grants() == 0


def test_only_the_owner_invites_with_the_csrf_token(client: TestClient, world: World,
                                                   friends: tuple[int, Players]) -> None:
    table_id, players = friends
    assert _invite(players, world, table_id, {"username": "ana"}, csrf=False).status_code == 403
    r = _invite(players, world, table_id, {"username": "ana"}, who="bob")
    assert r.status_code == 403 and r.json()["code"] == "not_your_tavern"
    assert _invite(players, world, table_id, {"username": "x" * 41}).status_code == 422
    assert _grants() == 0
