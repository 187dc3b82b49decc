"""The club's accounts (a name unique without regard to case, the password's Argon2id hash) and their
sessions (only the token's SHA-256 kept).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("name_key", sa.Text, nullable=False),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("name_key", name="accounts_name_key"))
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.Text, primary_key=True),
        sa.Column("account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False))
    op.create_index("sessions_account", "sessions", ["account"])


def downgrade() -> None:
    op.drop_index("sessions_account", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
