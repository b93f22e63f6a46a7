"""Players and admins: accounts, Argon2 password hashes, levels and roles."""

from __future__ import annotations

import re
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavern.refusal import Refusal
from tavern.settings import get_settings
from tavern.store.models import ROLES, User


@lru_cache(maxsize=4)
def _hasher_for(time_cost: int, memory_kib: int, parallelism: int) -> PasswordHasher:
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)


def _hasher() -> PasswordHasher:
    s = get_settings()
    return _hasher_for(s.argon2_time_cost, s.argon2_memory_kib, s.argon2_parallelism)

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,40}$")


class UserError(Refusal, ValueError):
    """A refused user operation, in words the user understands."""


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher().verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """Whether a hash was made with weaker parameters than the site's."""
    return _hasher().check_needs_rehash(password_hash)


def find_by_username(session: Session, username: str) -> User | None:
    """Usernames are unique regardless of case ("Alice" is "alice")."""
    return session.scalars(select(User).where(func.lower(User.username) == username.lower())).one_or_none()


def get(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def create_user(
    session: Session, username: str, password: str, *, level: int = 1, role: str = "player",
    password_hash: str | None = None,
) -> User:
    """A new account. ``password_hash``: the password already hashed (the web
    layer hashes before its write transaction: Argon2 is slow on purpose and
    must not hold the database's write lock)."""
    if not USERNAME.match(username):
        raise UserError("bad_username")
    if len(password) < 6:
        raise UserError("password_too_short", minimum=6)
    if role not in ROLES:
        raise UserError("unknown_role", role=role)
    if level < 0:
        raise UserError("negative_level")
    if find_by_username(session, username) is not None:
        raise UserError("username_taken", username=username)
    user = User(username=username, password_hash=password_hash or hash_password(password),
                level=level, role=role)
    session.add(user)
    session.flush()
    return user


@lru_cache(maxsize=4)
def _dummy_hash_for(time_cost: int, memory_kib: int, parallelism: int) -> str:
    return _hasher_for(time_cost, memory_kib, parallelism).hash("not anybody's password")


def dummy_hash() -> str:
    """A hash with the site's parameters that no password matches."""
    s = get_settings()
    return _dummy_hash_for(s.argon2_time_cost, s.argon2_memory_kib, s.argon2_parallelism)


def authenticate(session: Session, username: str, password: str) -> User | None:
    """The user if the password matches, else ``None``. Rehashes old hashes.

    An unknown name costs one Argon2 verification too (against a dummy hash):
    answering it faster would tell which names exist."""
    user = find_by_username(session, username)
    if user is None:
        verify_password(dummy_hash(), password)
        return None
    if not verify_password(user.password_hash, password):
        return None
    if _hasher().check_needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    return user


def set_level(session: Session, user_id: int, level: int) -> User:
    if level < 0:
        raise UserError("negative_level")
    user = _must(session, user_id)
    user.level = level
    return user


def set_role(session: Session, user_id: int, role: str) -> User:
    if role not in ROLES:
        raise UserError("unknown_role", role=role)
    user = _must(session, user_id)
    user.role = role
    return user


def set_password(session: Session, user_id: int, password: str) -> None:
    if len(password) < 6:
        raise UserError("password_too_short", minimum=6)
    _must(session, user_id).password_hash = hash_password(password)


def _must(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise UserError("no_such_user")
    return user
