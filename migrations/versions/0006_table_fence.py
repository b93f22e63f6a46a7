"""table fence: the highest lease fence that claimed a live table (several
workers, docs/architecture.md "Several workers")

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_configs") as batch:
        batch.add_column(sa.Column("owner_fence", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("table_configs") as batch:
        batch.drop_column("owner_fence")
