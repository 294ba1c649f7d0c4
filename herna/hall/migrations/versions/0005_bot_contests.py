"""Contests of submitted bots (``bot_contests``: a deadline, the organiser's token digest,
the final's tournament; ``bot_contest_entries``: the bots entered and, once the final
started, the version each plays). New tables, so the rows written before need nothing.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_contests",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("title", sa.String(length=100), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("games_per_pairing", sa.Integer(), nullable=False),
        sa.Column("house", sa.String(length=100), nullable=False),
        sa.Column("admin_digest", sa.String(length=64), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "bot_contest_entries",
        sa.Column("contest_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["contest_id"], ["bot_contests.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["submission_id"], ["bot_submissions.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("contest_id", "name"),
    )


def downgrade() -> None:
    op.drop_table("bot_contest_entries")
    op.drop_table("bot_contests")
