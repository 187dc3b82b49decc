"""A game's clock (docs/RULES.md "Timed play (the project's rule)"): the seconds each seat starts with
and those added a turn; both null for a game without a clock.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("clock_initial", sa.Integer))
    op.add_column("games", sa.Column("clock_increment", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("clock_increment")
        batch.drop_column("clock_initial")
