"""Players and admins: accounts, Argon2 password hashes, levels and roles."""

from __future__ import annotations

import re
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from tavern.refusal import Refusal
from tavern.settings import Settings
from tavern.store.models import ROLES, User


@lru_cache(maxsize=4)
def _hasher_for(time_cost: int, memory_kib: int, parallelism: int) -> PasswordHasher:
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)


def _hasher(settings: Settings) -> PasswordHasher:
    """The site's Argon2id parameters (``settings``: the app's, or a test's cheap ones)."""
    return _hasher_for(settings.argon2_time_cost, settings.argon2_memory_kib, settings.argon2_parallelism)


#: Checking a password reads the parameters from its hash: any hasher does.
_VERIFIER = PasswordHasher()

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,40}$")


class UserError(Refusal, ValueError):
    """A refused user operation, in words the user understands."""


def hash_password(password: str, settings: Settings) -> str:
    return _hasher(settings).hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _VERIFIER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str, settings: Settings) -> bool:
    """Whether a hash was made with weaker parameters than the site's."""
    return _hasher(settings).check_needs_rehash(password_hash)


def find_by_username(session: Session, username: str) -> User | None:
    """Usernames are unique regardless of case ("Alice" is "alice")."""
    return session.scalars(select(User).where(func.lower(User.username) == username.lower())).one_or_none()


def get(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def create_user(
    session: Session, username: str, password: str, *, level: int = 1, role: str = "player",
    password_hash: str | None = None, settings: Settings | None = None,
) -> User:
    """A new account. ``password_hash``: the password already hashed (the web
    layer hashes before its write transaction: Argon2 is slow on purpose and
    must not hold the database's write lock); else it is hashed here with the
    ``settings``' parameters."""
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
    if password_hash is None:
        if settings is None:
            raise TypeError("create_user needs the password's hash or the settings to hash it with")
        password_hash = hash_password(password, settings)
    user = User(username=username, password_hash=password_hash,
                level=level, role=role)
    session.add(user)
    session.flush()
    return user


@lru_cache(maxsize=4)
def _dummy_hash_for(time_cost: int, memory_kib: int, parallelism: int) -> str:
    return _hasher_for(time_cost, memory_kib, parallelism).hash("not anybody's password")


def dummy_hash(settings: Settings) -> str:
    """A hash with the site's parameters that no password matches."""
    s = settings
    return _dummy_hash_for(s.argon2_time_cost, s.argon2_memory_kib, s.argon2_parallelism)


def authenticate(session: Session, username: str, password: str, settings: Settings) -> User | None:
    """The user if the password matches, else ``None``. Rehashes old hashes.

    An unknown name costs one Argon2 verification too (against a dummy hash):
    answering it faster would tell which names exist."""
    user = find_by_username(session, username)
    if user is None:
        verify_password(dummy_hash(settings), password)
        return None
    if not verify_password(user.password_hash, password):
        return None
    if needs_rehash(user.password_hash, settings):
        user.password_hash = hash_password(password, settings)
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


def set_password(session: Session, user_id: int, password: str, settings: Settings) -> None:
    if len(password) < 6:
        raise UserError("password_too_short", minimum=6)
    _must(session, user_id).password_hash = hash_password(password, settings)


def _must(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise UserError("no_such_user")
    return user


def set_password_hash(session: Session, user_id: int, password_hash: str) -> None:
    """A hash made outside the transaction (Argon2 is slow on purpose)."""
    _must(session, user_id).password_hash = password_hash
