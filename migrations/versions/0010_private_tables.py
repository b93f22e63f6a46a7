"""private tables: a table among friends, reached by an invitation link
(issue 30 §2, services/private_tables.py): the table's private and
spectators flags, the hash of its invitation token, and the players who
opened the link (table_grants)

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_configs") as batch:
        batch.add_column(sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("spectators", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("invitation_hash", sa.String(length=64), nullable=True))
        batch.create_unique_constraint(op.f("uq_table_configs_invitation_hash"), ["invitation_hash"])
    op.create_table(
        "table_grants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("granted", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["table_configs.id"], name=op.f("fk_table_grants_table_id_table_configs"),
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_table_grants_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_grants")),
        sa.UniqueConstraint("table_id", "user_id", name=op.f("uq_table_grants_table_id_user_id")),
    )
    op.create_index(op.f("ix_table_grants_table_id"), "table_grants", ["table_id"])
    op.create_index(op.f("ix_table_grants_user_id"), "table_grants", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_table_grants_user_id"), table_name="table_grants")
    op.drop_index(op.f("ix_table_grants_table_id"), table_name="table_grants")
    op.drop_table("table_grants")
    with op.batch_alter_table("table_configs") as batch:
        batch.drop_constraint(op.f("uq_table_configs_invitation_hash"), type_="unique")
        batch.drop_column("invitation_hash")
        batch.drop_column("spectators")
        batch.drop_column("private")
