"""ledger accounts for the chips a table carries between deals

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD = "owner_kind IN ('user', 'tavern', 'table', 'house')"
_NEW = "owner_kind IN ('user', 'tavern', 'table', 'house', 'pot')"


def _replace(condition: str) -> None:
    # SQLite cannot alter a constraint: batch mode rebuilds the table.
    with op.batch_alter_table("ledger_accounts", recreate="auto") as batch:
        batch.drop_constraint(op.f("ck_ledger_accounts_owner_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_ledger_accounts_owner_kind"), condition)


def upgrade() -> None:
    _replace(_NEW)


def downgrade() -> None:
    _replace(_OLD)
