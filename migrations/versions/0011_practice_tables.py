"""practice tables (issue 29): a table opened by a player against the house
players, and the deals played there

Revision ID: 0011
Revises: 0010

``table_configs.practice_user_id``: the player who opened a practice table
(None: a tavern's or a contest's table). ``archived_hands.practice``: a deal
played with practice chips — listed in « Mes donnes » as « entraînement »,
never in the surveillance report, the figures or the leaderboards.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_configs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("practice_user_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(op.f("fk_table_configs_practice_user_id_users"), "users",
                                    ["practice_user_id"], ["id"], ondelete="CASCADE")
        batch_op.create_index(batch_op.f("ix_table_configs_practice_user_id"), ["practice_user_id"], unique=False)
    with op.batch_alter_table("archived_hands", schema=None) as batch_op:
        batch_op.add_column(sa.Column("practice", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("archived_hands", schema=None) as batch_op:
        batch_op.drop_column("practice")
    with op.batch_alter_table("table_configs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_table_configs_practice_user_id"))
        batch_op.drop_constraint(op.f("fk_table_configs_practice_user_id_users"), type_="foreignkey")
        batch_op.drop_column("practice_user_id")
