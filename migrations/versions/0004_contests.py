"""contests: the contest, its entries and moves; contest tables and deals;
the contest's ledger accounts

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD = "owner_kind IN ('user', 'tavern', 'table', 'house', 'pot')"
_NEW = "owner_kind IN ('user', 'tavern', 'table', 'house', 'pot', 'contest')"


def _owner_kinds(condition: str) -> None:
    # SQLite cannot alter a constraint: batch mode rebuilds the table.
    with op.batch_alter_table("ledger_accounts", recreate="auto") as batch:
        batch.drop_constraint(op.f("ck_ledger_accounts_owner_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_ledger_accounts_owner_kind"), condition)


def upgrade() -> None:
    op.create_table(
        "contests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("house_prize", sa.BigInteger(), nullable=False),
        sa.Column("starting_chips", sa.BigInteger(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("min_players", sa.Integer(), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("structure", sa.JSON(), nullable=False),
        sa.Column("late_levels", sa.Integer(), nullable=False),
        sa.Column("action_timer_seconds", sa.Integer(), nullable=False),
        sa.Column("payouts", sa.JSON(), nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancelled_reason", sa.String(length=200), nullable=True),
        sa.Column("prize_pool", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("status IN ('registering', 'running', 'finished', 'cancelled')",
                           name=op.f("ck_contests_status")),
        sa.CheckConstraint("fee >= 0 AND house_prize >= 0", name=op.f("ck_contests_money")),
        sa.CheckConstraint("seats >= 2 AND seats <= 10", name=op.f("ck_contests_seats")),
        sa.CheckConstraint("min_players >= 2 AND max_players >= min_players", name=op.f("ck_contests_players")),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], name=op.f("fk_contests_created_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_contests")),
    )
    with op.batch_alter_table("contests") as batch:
        batch.create_index(batch.f("ix_contests_status"), ["status"], unique=False)
        batch.create_index(batch.f("ix_contests_starts_at"), ["starts_at"], unique=False)
    op.create_table(
        "contest_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("contest_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("fee_paid", sa.BigInteger(), nullable=False),
        sa.Column("registered", sa.DateTime(timezone=True), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("tie_order", sa.Integer(), nullable=False),
        sa.Column("out_stack", sa.BigInteger(), nullable=True),
        sa.Column("prize", sa.BigInteger(), nullable=True),
        sa.Column("out_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["contest_id"], ["contests.id"], name=op.f("fk_contest_entries_contest_id_contests")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_contest_entries_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_contest_entries")),
        sa.UniqueConstraint("contest_id", "user_id", name=op.f("uq_contest_entries_contest_id_user_id")),
    )
    with op.batch_alter_table("contest_entries") as batch:
        batch.create_index(batch.f("ix_contest_entries_contest_id"), ["contest_id"], unique=False)
        batch.create_index(batch.f("ix_contest_entries_user_id"), ["user_id"], unique=False)
    with op.batch_alter_table("table_configs", recreate="auto") as batch:
        batch.alter_column("tavern_id", existing_type=sa.Integer(), nullable=True)
        batch.add_column(sa.Column("contest_id", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_table_configs_contest_id"), ["contest_id"], unique=False)
        batch.create_foreign_key(batch.f("fk_table_configs_contest_id_contests"), "contests", ["contest_id"], ["id"])
    with op.batch_alter_table("archived_hands", recreate="auto") as batch:
        batch.add_column(sa.Column("contest_id", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_archived_hands_contest_id"), ["contest_id"], unique=False)
        batch.create_foreign_key(batch.f("fk_archived_hands_contest_id_contests"), "contests", ["contest_id"], ["id"])
    op.create_table(
        "contest_moves",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("contest_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("from_table_id", sa.Integer(), nullable=True),
        sa.Column("from_seat", sa.Integer(), nullable=True),
        sa.Column("to_table_id", sa.Integer(), nullable=False),
        sa.Column("to_seat", sa.Integer(), nullable=False),
        sa.Column("chips", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=10), nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["contest_id"], ["contests.id"], name=op.f("fk_contest_moves_contest_id_contests")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_contest_moves_user_id_users")),
        sa.ForeignKeyConstraint(["from_table_id"], ["table_configs.id"],
                                name=op.f("fk_contest_moves_from_table_id_table_configs")),
        sa.ForeignKeyConstraint(["to_table_id"], ["table_configs.id"],
                                name=op.f("fk_contest_moves_to_table_id_table_configs")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_contest_moves")),
    )
    with op.batch_alter_table("contest_moves") as batch:
        batch.create_index(batch.f("ix_contest_moves_contest_id"), ["contest_id"], unique=False)
    _owner_kinds(_NEW)


def downgrade() -> None:
    _owner_kinds(_OLD)
    op.drop_table("contest_moves")
    with op.batch_alter_table("archived_hands", recreate="auto") as batch:
        batch.drop_constraint(batch.f("fk_archived_hands_contest_id_contests"), type_="foreignkey")
        batch.drop_index(batch.f("ix_archived_hands_contest_id"))
        batch.drop_column("contest_id")
    with op.batch_alter_table("table_configs", recreate="auto") as batch:
        batch.drop_constraint(batch.f("fk_table_configs_contest_id_contests"), type_="foreignkey")
        batch.drop_index(batch.f("ix_table_configs_contest_id"))
        batch.drop_column("contest_id")
        batch.alter_column("tavern_id", existing_type=sa.Integer(), nullable=False)
    op.drop_table("contest_entries")
    op.drop_table("contests")
