"""The club's seeks (a game asked for in the lobby), the accounts seated in the games they made, the
rated games, and the ratings of the club's games with each game's changes.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("maker", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game_kind", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("clock_initial", sa.Float, nullable=False),
        sa.Column("clock_increment", sa.Float, nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("bots", sa.Text, nullable=False),
        sa.Column("seated", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("game", sa.Text),
        sa.Column("created", sa.Float, nullable=False))
    op.create_index("seeks_status", "seeks", ["status"])
    op.create_table(
        "game_accounts",
        sa.Column("game", sa.Text, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False))
    op.create_index("game_accounts_account", "game_accounts", ["account"])
    op.create_table(
        "rated_games",
        sa.Column("game", sa.Text, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("game_kind", sa.Text, nullable=False))
    op.create_table(
        "ratings",
        sa.Column("player", sa.Text, primary_key=True),
        sa.Column("game_kind", sa.Text, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False))
    op.create_table(
        "rating_changes",
        sa.Column("game", sa.Text, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("player", sa.Text, primary_key=True),
        sa.Column("game_kind", sa.Text, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("before", sa.Integer, nullable=False),
        sa.Column("after", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False))
    op.create_index("rating_changes_player", "rating_changes", ["player"])


def downgrade() -> None:
    op.drop_index("rating_changes_player", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_table("rated_games")
    op.drop_index("game_accounts_account", "game_accounts")
    op.drop_table("game_accounts")
    op.drop_index("seeks_status", "seeks")
    op.drop_table("seeks")
