"""table visits: a client without a browser cookie is noted as NULL, not "-"
(issue 33: every pair of cookieless clients was flagged « même navigateur »)

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_visits") as batch:
        batch.alter_column("browser", existing_type=sa.String(length=64), nullable=True)
    # The rows written so far said "no cookie" with "-": absent too.
    op.execute("UPDATE table_visits SET browser = NULL WHERE browser = '-'")


def downgrade() -> None:
    # Two absent browsers of one player at one address become the same "-"
    # row again: keep one of them.
    op.execute("DELETE FROM table_visits WHERE browser IS NULL AND id NOT IN ("
               "SELECT MIN(id) FROM table_visits WHERE browser IS NULL GROUP BY table_id, user_id, address)")
    op.execute("UPDATE table_visits SET browser = '-' WHERE browser IS NULL")
    with op.batch_alter_table("table_visits") as batch:
        batch.alter_column("browser", existing_type=sa.String(length=64), nullable=False)
