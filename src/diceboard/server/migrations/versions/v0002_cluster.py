"""Several server processes on one database: who is alive, and who owns each game's timers.

``server_processes`` holds one row per running ``diceboard serve`` process, refreshed by its
heartbeat. ``leases`` names the one process that runs a game's clock flag and computer turns,
until ``expires`` (epoch seconds); the holder's heartbeat pushes ``expires`` on, and once it
passes another process takes the game over.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the process and lease tables."""
    op.create_table(
        "server_processes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "leases",
        sa.Column(
            "game_id",
            sa.String(24),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("holder", sa.String(32), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )
    op.create_index("ix_leases_holder", "leases", ["holder"])
    op.create_index("ix_leases_expires", "leases", ["expires"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_leases_expires", "leases")
    op.drop_index("ix_leases_holder", "leases")
    op.drop_table("leases")
    op.drop_table("server_processes")
