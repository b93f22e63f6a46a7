"""player stats and weeks: each player's figures per game and his net per
game and week, kept current as deals settle; users' house and off_boards
flags for the leaderboards (issue 31 §1-2, docs/statistics.md)

Revision ID: 0008
Revises: 0007

The tables start empty: ``tavern stats-rebuild`` (server stopped) counts
the deals settled before them from the archive.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_COUNTS = ("deals", "won", "chips_won", "chips_lost", "biggest_pot", "vpip", "pfr", "showdowns", "showdowns_won",
           "matches_won", "rams_made")


def upgrade() -> None:
    op.create_table(
        "player_stats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=30), nullable=False),
        sa.Column("practice", sa.Boolean(), nullable=False),
        *(sa.Column(name, sa.BigInteger(), nullable=False) for name in _COUNTS),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_player_stats_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_stats")),
        sa.UniqueConstraint("user_id", "game", "practice", name=op.f("uq_player_stats_user_id_game_practice")),
    )
    with op.batch_alter_table("player_stats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_stats_user_id"), ["user_id"], unique=False)
    op.create_table(
        "player_weeks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=30), nullable=False),
        sa.Column("week", sa.Date(), nullable=False),
        sa.Column("deals", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_player_weeks_user_id_users"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_weeks")),
        sa.UniqueConstraint("user_id", "game", "week", name=op.f("uq_player_weeks_user_id_game_week")),
    )
    with op.batch_alter_table("player_weeks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_weeks_user_id"), ["user_id"], unique=False)
        batch_op.create_index("ix_player_weeks_game_week", ["game", "week"], unique=False)
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("house", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column("off_boards", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("off_boards")
        batch_op.drop_column("house")
    with op.batch_alter_table("player_weeks", schema=None) as batch_op:
        batch_op.drop_index("ix_player_weeks_game_week")
        batch_op.drop_index(batch_op.f("ix_player_weeks_user_id"))
    op.drop_table("player_weeks")
    with op.batch_alter_table("player_stats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_stats_user_id"))
    op.drop_table("player_stats")
