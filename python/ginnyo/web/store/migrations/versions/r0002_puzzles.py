"""The puzzles' current ratings, the players' puzzle ratings and their attempts (docs/PUZZLES.md,
"The page and its API").

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle", sa.Text, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False))
    op.create_table(
        "player_ratings",
        sa.Column("player", sa.Text, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False))
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("puzzle", sa.Text, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("correct", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False))
    op.create_index("ix_puzzle_attempts_player", "puzzle_attempts", ["player"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_attempts_player", "puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("player_ratings")
    op.drop_table("puzzle_ratings")
