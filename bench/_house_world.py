"""The house seats' part of the capacity bench (issue 29 §2,
``bench_capacity.py --house-seats N``): tables of the same tavern where one
registered bot sits alone and the house players sit beside him
(``table_configs.house_seats``), and the house's purse funded as the admin
would (a ledger entry from the house's issuance)."""

from __future__ import annotations

from sqlalchemy.pool import NullPool

#: House players per table: a 6-max table, one human bot and five of the house.
PER_TABLE = 5
#: The purse: caves for every house seat many times over.
PURSE = 10_000_000


def seed_house_tables(db_url: str, table_ids: list[int], house_seats: int) -> None:
    """Give ``table_ids`` (seeded by _tables_world.seed_tables) ``house_seats``
    each, and fund the house's purse once."""
    from tavern.services import house_seats as house
    from tavern.store.db import make_engine, session_factory
    from tavern.store.models import TableConfig, User

    engine = make_engine(db_url, poolclass=NullPool)
    with session_factory(engine)() as s, s.begin():
        for table in s.query(TableConfig).filter(TableConfig.id.in_(table_ids)):
            table.house_seats = house_seats
        if house.purse(s).balance < PURSE:
            admin = s.query(User).filter(User.username == "patron").one()
            house.fund(s, PURSE, admin.id)
    engine.dispose()
