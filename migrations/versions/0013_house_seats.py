"""house seats at real tables (issue 29 §2): how many house players may sit
at a tavern's table while humans are too few

Revision ID: 0013
Revises: 0011

``table_configs.house_seats``: the owner's « Joueurs de la maison » (0: none),
never above 0 at a contest's table (a check constraint).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_configs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("house_seats", sa.Integer(), nullable=False, server_default="0"))
        batch_op.create_check_constraint(
            op.f("ck_table_configs_house_seats"), "house_seats >= 0 AND (house_seats = 0 OR contest_id IS NULL)")


def downgrade() -> None:
    with op.batch_alter_table("table_configs", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_table_configs_house_seats"), type_="check")
        batch_op.drop_column("house_seats")
