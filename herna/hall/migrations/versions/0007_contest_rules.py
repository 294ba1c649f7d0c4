"""Contests of every game (issue 30): ``bot_contests.rules``, the shipped rules file a tile
contest's final plays (NULL for the other games). Contests written before are Onitama's, so
NULL is right for them.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("bot_contests") as batch:
        batch.add_column(sa.Column("rules", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bot_contests") as batch:
        batch.drop_column("rules")
