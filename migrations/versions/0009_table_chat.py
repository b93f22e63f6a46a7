"""table chat: its messages, hides, reports and mutes, and each table's chat
setting (issue 30 §1, services/chat.py)

Revision ID: 0009
Revises: 0008

Every table opened before keeps an open chat (the default).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _users_fk(table: str, column: str, ondelete: str = "CASCADE") -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], ["users.id"], name=op.f(f"fk_{table}_{column}_users"), ondelete=ondelete)


def upgrade() -> None:
    with op.batch_alter_table("table_configs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("chat", sa.String(length=10), nullable=False, server_default="open"))
        batch_op.create_check_constraint(op.f("ck_table_configs_chat"), "chat IN ('open', 'players', 'off')")
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=300), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(["table_id"], ["table_configs.id"],
                                name=op.f("fk_chat_messages_table_id_table_configs"), ondelete="CASCADE"),
        _users_fk("chat_messages", "user_id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.create_index("ix_chat_messages_table_id_id", ["table_id", "id"], unique=False)
        batch_op.create_index(batch_op.f("ix_chat_messages_user_id"), ["user_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_chat_messages_created"), ["created"], unique=False)
    op.create_table(
        "chat_hides",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=False),
        _users_fk("chat_hides", "user_id"),
        _users_fk("chat_hides", "author_id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_hides")),
        sa.UniqueConstraint("user_id", "author_id", name=op.f("uq_chat_hides_user_id_author_id")),
    )
    with op.batch_alter_table("chat_hides", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_hides_user_id"), ["user_id"], unique=False)
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("handled", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(["message_id"], ["chat_messages.id"],
                                name=op.f("fk_chat_reports_message_id_chat_messages"), ondelete="CASCADE"),
        _users_fk("chat_reports", "reporter_id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_reports")),
        sa.UniqueConstraint("message_id", "reporter_id", name=op.f("uq_chat_reports_message_id_reporter_id")),
    )
    with op.batch_alter_table("chat_reports", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_reports_message_id"), ["message_id"], unique=False)
    op.create_table(
        "chat_mutes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("tavern_id", sa.Integer(), nullable=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by_id", sa.Integer(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        _users_fk("chat_mutes", "user_id"),
        _users_fk("chat_mutes", "by_id", "SET NULL"),
        sa.ForeignKeyConstraint(["tavern_id"], ["taverns.id"], name=op.f("fk_chat_mutes_tavern_id_taverns"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_mutes")),
    )
    with op.batch_alter_table("chat_mutes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_mutes_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("chat_mutes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_mutes_user_id"))
    op.drop_table("chat_mutes")
    with op.batch_alter_table("chat_reports", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_reports_message_id"))
    op.drop_table("chat_reports")
    with op.batch_alter_table("chat_hides", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_hides_user_id"))
    op.drop_table("chat_hides")
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_messages_created"))
        batch_op.drop_index(batch_op.f("ix_chat_messages_user_id"))
        batch_op.drop_index("ix_chat_messages_table_id_id")
    op.drop_table("chat_messages")
    with op.batch_alter_table("table_configs", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_table_configs_chat"), type_="check")
        batch_op.drop_column("chat")
