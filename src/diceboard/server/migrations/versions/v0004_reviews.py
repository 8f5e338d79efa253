"""Finished game reviews: one row per game and review agent, so that a review survives a
restart of the server (read by :mod:`diceboard.server.storage.reviews`).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the reviews table."""
    op.create_table(
        "reviews",
        sa.Column(
            "game_id",
            sa.String(24),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("agent", sa.String(120), primary_key=True),
        sa.Column("job_id", sa.String(24), nullable=False, unique=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    """Drop the reviews table."""
    op.drop_table("reviews")
