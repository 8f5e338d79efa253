"""The first schema: games, seats, moves and server metadata.

Revision ID: 0001
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("start_position", sa.Text(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("move_count", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("winner", sa.String(1), nullable=True),
        sa.Column("reason", sa.String(32), nullable=True),
        sa.Column("initial_ms", sa.BigInteger(), nullable=True),
        sa.Column("increment_ms", sa.BigInteger(), nullable=True),
        sa.Column("clock_first_ms", sa.BigInteger(), nullable=True),
        sa.Column("clock_second_ms", sa.BigInteger(), nullable=True),
        sa.Column("clock_running", sa.String(1), nullable=True),
        sa.Column("clock_since", sa.Float(), nullable=True),
        sa.Column("draw_offer", sa.String(1), nullable=True),
        sa.Column("takeback_offer", sa.String(1), nullable=True),
        sa.Column("rematch_offer", sa.String(1), nullable=True),
        sa.Column("rematch_game", sa.String(24), nullable=True),
        sa.Column("rematch_of", sa.String(24), nullable=True),
        sa.Column("invite_code", sa.String(64), nullable=True),
        sa.Column("tags", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_created_at", "games", ["created_at"])
    op.create_table(
        "seats",
        sa.Column(
            "game_id",
            sa.String(24),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.String(1), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("rematch_hash", sa.String(64), nullable=True),
        sa.Column("agent", sa.String(64), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
    )
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"])
    op.create_table(
        "moves",
        sa.Column(
            "game_id",
            sa.String(24),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("notation", sa.String(64), nullable=False),
        sa.Column("seat", sa.String(1), nullable=True),
        sa.Column("played_at", sa.Float(), nullable=False),
        sa.Column("clock_ms", sa.BigInteger(), nullable=True),
    )
    op.create_table(
        "server_meta",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    """Drop every table."""
    op.drop_table("server_meta")
    op.drop_table("moves")
    op.drop_index("ix_seats_token_hash", "seats")
    op.drop_table("seats")
    op.drop_index("ix_games_created_at", "games")
    op.drop_index("ix_games_status", "games")
    op.drop_table("games")
