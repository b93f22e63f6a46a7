"""waiting list: the players in line for a full table, in order of arrival
(issue 30 §3, tables/waiting.py), kept so that a table changing worker
keeps its list

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "waiting_places",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
        sa.Column("offered_seat", sa.Integer(), nullable=True),
        sa.Column("offered_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["table_configs.id"],
                                name=op.f("fk_waiting_places_table_id_table_configs"), ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_waiting_places_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_waiting_places")),
        sa.UniqueConstraint("table_id", "user_id", name=op.f("uq_waiting_places_table_id_user_id")),
    )
    op.create_index(op.f("ix_waiting_places_table_id"), "waiting_places", ["table_id"])
    op.create_index(op.f("ix_waiting_places_user_id"), "waiting_places", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_waiting_places_user_id"), table_name="waiting_places")
    op.drop_index(op.f("ix_waiting_places_table_id"), table_name="waiting_places")
    op.drop_table("waiting_places")
