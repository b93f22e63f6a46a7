"""the house players' level at a tavern's table (issue 37 §2): the owner
chooses « débutant », « habitué » or « fort » for his house seats

Revision ID: 0015
Revises: 0014

``table_configs.house_level``: the level's name (tavern.bots.levels), checked
by the service; the tables that had house seats keep the level they played
at, « habitué ».
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_configs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("house_level", sa.String(length=20), nullable=False, server_default="habitué"))


def downgrade() -> None:
    with op.batch_alter_table("table_configs", schema=None) as batch_op:
        batch_op.drop_column("house_level")
