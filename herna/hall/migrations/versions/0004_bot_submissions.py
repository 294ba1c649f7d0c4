"""Submitted bots (``bot_submissions``: every version of a bot's source) and their runs in
the sandbox (``bot_runs``: how each game ended for the bot, with its log). New tables, so the
rows written before need nothing.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_submissions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("filename", sa.String(length=100), nullable=False),
        sa.Column("source", sa.LargeBinary(), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name", "game", "version", name="uq_bot_version"),
    )
    op.create_index("ix_bot_submissions_name", "bot_submissions", ["name"])
    op.create_index("ix_bot_submissions_owner", "bot_submissions", ["owner"])
    op.create_table(
        "bot_runs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("submission_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("opponent", sa.String(length=64), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=300), nullable=False),
        sa.Column("log", sa.Text(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["submission_id"], ["bot_submissions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_bot_runs_submission_id", "bot_runs", ["submission_id"])
    op.create_index("ix_bot_runs_finished_at", "bot_runs", ["finished_at"])


def downgrade() -> None:
    op.drop_table("bot_runs")
    op.drop_table("bot_submissions")
