"""table visits: who opened a table from which address and browser (the
collusion report)

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "table_visits",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("browser", sa.String(length=64), nullable=False),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["table_configs.id"], name=op.f("fk_table_visits_table_id_table_configs")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_table_visits_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_visits")),
        sa.UniqueConstraint("table_id", "user_id", "address", "browser",
                            name=op.f("uq_table_visits_table_id_user_id_address_browser")),
    )
    with op.batch_alter_table("table_visits", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_table_visits_table_id"), ["table_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_table_visits_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("table_visits", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_table_visits_user_id"))
        batch_op.drop_index(batch_op.f("ix_table_visits_table_id"))
    op.drop_table("table_visits")
