"""Totals kept as records are written (issue 28: no page counts the whole record): records per
game (``game_totals``) and per player and game (``player_totals``), filled here from the
records already stored; and the index of a player's games by name and match, which finds a
player's newest games at the end of their part of it (it replaces the index on the name).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_totals",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("matches", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("game"),
    )
    op.create_table(
        "player_totals",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("matches", sa.BigInteger(), nullable=False),
        sa.Column("unfinished", sa.BigInteger(), nullable=False),
        sa.Column("score_sum", sa.Float(), nullable=False),
        sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", "game"),
    )
    op.execute(
        "INSERT INTO game_totals (game, matches) SELECT game, count(*) FROM matches GROUP BY game"
    )
    op.execute(
        "INSERT INTO player_totals (name, game, matches, unfinished, score_sum, first_at, last_at)"
        " SELECT p.name, m.game, count(*),"
        " sum(CASE WHEN m.status <> 'finished' THEN 1 ELSE 0 END),"
        " coalesce(sum(p.score), 0), min(m.finished_at), max(m.finished_at)"
        " FROM match_players p JOIN matches m ON m.id = p.match_id GROUP BY p.name, m.game"
    )
    op.create_index("ix_match_players_name_match", "match_players", ["name", "match_id"])
    op.drop_index("ix_match_players_name", table_name="match_players")


def downgrade() -> None:
    op.create_index("ix_match_players_name", "match_players", ["name"])
    op.drop_index("ix_match_players_name_match", table_name="match_players")
    op.drop_table("player_totals")
    op.drop_table("game_totals")
