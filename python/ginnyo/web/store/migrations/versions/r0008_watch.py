"""Games open to watchers (``games.watchable``) and the tables' chat (``chat``: a game's players' and
watchers' rooms, docs/CLUB.md "Watching and chat").

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("watchable", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.Text, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("room", sa.Text, nullable=False),
        sa.Column("sender", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False))
    op.create_index("chat_game", "chat", ["game", "room", "id"])


def downgrade() -> None:
    op.drop_index("chat_game", "chat")
    op.drop_table("chat")
    with op.batch_alter_table("games") as games:
        games.drop_column("watchable")
