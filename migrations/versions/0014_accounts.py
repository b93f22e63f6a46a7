"""accounts a player can trust (issue 39): an e-mail address, links sent by
mail, the outbox of mails

Revision ID: 0014
Revises: 0013

``users.email``: the confirmed address (unique, lower-cased); ``account_tokens``:
the hashes of the links sent by mail (confirm an address, set a new password);
``outbox``: the mails waiting for the mailer, sent, or given up;
``users.totp_*`` and ``recovery_codes``: two-factor sign-in;
``web_sessions.user_agent/network/last_seen``: « Mes sessions »;
``admin_actions``: the admin log.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("email", sa.String(length=254), nullable=True))
        batch_op.create_unique_constraint(op.f("uq_users_email"), ["email"])
        batch_op.add_column(sa.Column("totp_secret", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("totp_pending", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("totp_last_step", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("web_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("user_agent", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("network", sa.String(length=50), nullable=True))
        batch_op.add_column(sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "recovery_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("salt", sa.String(length=32), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_recovery_codes_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recovery_codes")),
    )
    op.create_index(op.f("ix_recovery_codes_user_id"), "recovery_codes", ["user_id"])
    op.create_table(
        "admin_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("admin_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=30), nullable=False),
        sa.Column("detail", sa.String(length=300), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.ForeignKeyConstraint(["admin_id"], ["users.id"], name=op.f("fk_admin_actions_admin_id_users"),
                                ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_admin_actions_user_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_actions")),
    )
    op.create_index(op.f("ix_admin_actions_created"), "admin_actions", ["created"])
    op.create_index(op.f("ix_admin_actions_admin_id"), "admin_actions", ["admin_id"])
    op.create_index(op.f("ix_admin_actions_user_id"), "admin_actions", ["user_id"])
    op.create_table(
        "account_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(length=10), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("purpose IN ('email', 'reset')", name=op.f("ck_account_tokens_purpose")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_account_tokens_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_account_tokens")),
    )
    op.create_index(op.f("ix_account_tokens_user_id"), "account_tokens", ["user_id"])
    op.create_index(op.f("ix_account_tokens_expires"), "account_tokens", ["expires"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("to_addr", sa.String(length=254), nullable=False),
        sa.Column("subject", sa.String(length=200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("html", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_try", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("sent", sa.DateTime(timezone=True), nullable=True),
        sa.Column("via", sa.String(length=10), nullable=True),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.Column("given_up", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_outbox_user_id_users"),
                                ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
    )
    op.create_index(op.f("ix_outbox_user_id"), "outbox", ["user_id"])
    op.create_index(op.f("ix_outbox_next_try"), "outbox", ["next_try"])


def downgrade() -> None:
    for index in ("ix_admin_actions_user_id", "ix_admin_actions_admin_id", "ix_admin_actions_created"):
        op.drop_index(op.f(index), table_name="admin_actions")
    op.drop_table("admin_actions")
    op.drop_index(op.f("ix_recovery_codes_user_id"), table_name="recovery_codes")
    op.drop_table("recovery_codes")
    with op.batch_alter_table("web_sessions", schema=None) as batch_op:
        for column in ("last_seen", "network", "user_agent"):
            batch_op.drop_column(column)
    op.drop_index(op.f("ix_outbox_next_try"), table_name="outbox")
    op.drop_index(op.f("ix_outbox_user_id"), table_name="outbox")
    op.drop_table("outbox")
    op.drop_index(op.f("ix_account_tokens_expires"), table_name="account_tokens")
    op.drop_index(op.f("ix_account_tokens_user_id"), table_name="account_tokens")
    op.drop_table("account_tokens")
    with op.batch_alter_table("users", schema=None) as batch_op:
        for column in ("totp_last_step", "totp_pending", "totp_secret"):
            batch_op.drop_column(column)
        batch_op.drop_constraint(op.f("uq_users_email"), type_="unique")
        batch_op.drop_column("email")
