"""Small builders shared by the service tests (cheap: no Argon2 per user)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from tavern.services import taverns
from tavern.store.models import TableConfig, Tavern, User, Village

#: A precomputed Argon2 hash: hashing for every test user would be slow.
_HASH = "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG"


def make_user(session: Session, name: str, *, level: int = 1, role: str = "player") -> User:
    user = User(username=name, password_hash=_HASH, level=level, role=role)
    session.add(user)
    session.flush()
    return user


def make_tavern(session: Session, owner: User, name: str = "Au Lapin Agile") -> Tavern:
    village = session.query(Village).filter_by(name="Montmartre").one_or_none()
    if village is None:
        village = taverns.create_village(session, "Montmartre")
    return taverns.create_tavern(session, village.id, owner.id, name)


def make_table(session: Session, owner: User, tavern: Tavern | None = None) -> TableConfig:
    """A Ramponneau 1/2 table inserted directly (deck rules tested elsewhere)."""
    tavern = tavern or make_tavern(session, owner)
    table = TableConfig(
        tavern_id=tavern.id, name="t", game="ramponneau", variant="", stakes={"small_blind": 1, "big_blind": 2},
        options={}, buy_in_min=20, buy_in_max=200, rake_percent=5, rake_cap=None,
        no_flop_no_drop=True, seats=9, action_timer_seconds=30, status="open",
    )
    session.add(table)
    session.flush()
    return table
