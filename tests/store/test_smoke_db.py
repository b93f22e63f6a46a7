import pytest
from sqlalchemy import select

from tavern.store.models import User

pytestmark = pytest.mark.db


def test_fixture_gives_an_empty_migrated_database(session):
    assert session.scalars(select(User)).all() == []
