"""The leases: which process does a game's timed work (its bot's move, a clock's timeout) until when,
so that with many processes on one database it is done once (ginnyo.web.live.leases).

Revision ID: 0007
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("owner", sa.Text, nullable=False),
        sa.Column("until", sa.Float, nullable=False))
    op.create_index("leases_owner", "leases", ["owner"])


def downgrade() -> None:
    op.drop_index("leases_owner", "leases")
    op.drop_table("leases")
