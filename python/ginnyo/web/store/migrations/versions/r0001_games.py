"""The games, their seats' token hashes and their actions (the schema of ginnyo's SQLite file before
Alembic, its user_version 1).

Revision ID: 0001
Revises: -
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("names", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("think", sa.Float, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("rematch_of", sa.Text),
        sa.Column("rematch", sa.Text),
        sa.Column("game", sa.Text, nullable=False, server_default="ginny-o"))
    op.create_table(
        "tokens",
        sa.Column("hash", sa.Text, primary_key=True),
        sa.Column("game", sa.Text, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False))
    op.create_table(
        "actions",
        sa.Column("game", sa.Text, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False))


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("tokens")
    op.drop_table("games")
