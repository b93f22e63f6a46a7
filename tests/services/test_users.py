from __future__ import annotations

import pytest
from tests.refusals import refused

from tavern.services import users
from tavern.services.users import UserError

pytestmark = pytest.mark.db


def test_passwords_are_argon2_hashed_and_verified(session):
    user = users.create_user(session, "alice", "s3cret-pw")
    assert user.password_hash.startswith("$argon2id$") and "s3cret-pw" not in user.password_hash
    assert users.verify_password(user.password_hash, "s3cret-pw")
    assert not users.verify_password(user.password_hash, "wrong")
    assert not users.verify_password("not a hash", "s3cret-pw")
    assert users.authenticate(session, "ALICE", "s3cret-pw") is user
    assert users.authenticate(session, "alice", "nope") is None
    assert users.authenticate(session, "nobody", "s3cret-pw") is None


def test_usernames_are_unique_regardless_of_case(session):
    users.create_user(session, "Alice", "password1")
    with refused("username_taken", UserError):
        users.create_user(session, "alice", "password2")
    assert users.find_by_username(session, "aLiCe").username == "Alice"


@pytest.mark.parametrize("name, pw", [("ab", "password"), ("a b c", "password"), ("alice", "short")])
def test_bad_names_and_passwords_are_refused(session, name, pw):
    with pytest.raises(UserError):
        users.create_user(session, name, pw)


def test_levels_and_roles(session):
    user = users.create_user(session, "alice", "password")
    assert (user.level, user.role) == (1, "player")
    users.set_level(session, user.id, 0)
    users.set_role(session, user.id, "admin")
    assert (user.level, user.role) == (0, "admin")
    with pytest.raises(UserError):
        users.set_role(session, user.id, "god")
    with pytest.raises(UserError):
        users.set_level(session, user.id, -1)
