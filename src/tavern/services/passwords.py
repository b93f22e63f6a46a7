"""What a password must be: long enough, not a common one, not the name.

The common passwords are a short list shipped with the package
(``data/common_passwords.txt``): the ones every guessing attack tries
first, in English and in French. Case and surrounding spaces do not make a
common password less common.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

MIN_LENGTH = 8
MAX_LENGTH = 1024  # Argon2 would hash a megabyte happily; nobody needs that

#: Why a password is refused (the web layer says each in French).
TOO_SHORT = "short"
TOO_LONG = "long"
COMMON = "common"
NAME = "name"


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    text = files("tavern.services").joinpath("data/common_passwords.txt").read_text(encoding="utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def weakness(username: str, password: str) -> str | None:
    """The reason ``password`` is refused for ``username``, or None."""
    if len(password) > MAX_LENGTH:
        return TOO_LONG
    if len(password.strip()) < MIN_LENGTH:  # eight spaces are not a password
        return TOO_SHORT
    folded = password.strip().lower()
    if folded in common_passwords():
        return COMMON
    name = username.strip().lower()
    if name and (name in folded or folded in name):
        return NAME
    return None


MESSAGES = {
    TOO_SHORT: f"a password has at least {MIN_LENGTH} characters besides spaces",
    TOO_LONG: f"a password has at most {MAX_LENGTH} characters",
    COMMON: "this password is one of the most common ones: choose another",
    NAME: "a password must not contain the username",
}
