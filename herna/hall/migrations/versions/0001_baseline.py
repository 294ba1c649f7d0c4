"""The baseline: every table as Herna created them before it had migrations.

A database written by such a Herna has exactly these tables and no ``alembic_version``:
:func:`herna.hall.schema.upgrade` marks it as this revision and runs the ones after it.

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "counters",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "hall_keys",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("meta", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_matches_finished_at"), ["finished_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_matches_game"), ["game"], unique=False)

    op.create_table(
        "people",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "person_sessions",
        sa.Column("sid_sha256", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("sid_sha256"),
    )
    with op.batch_alter_table("person_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_person_sessions_name"), ["name"], unique=False)

    op.create_table(
        "rating_points",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("rating_points", schema=None) as batch_op:
        batch_op.create_index("ix_rating_points_player", ["name", "game", "games"], unique=False)

    op.create_table(
        "ratings",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game", "name"),
    )
    op.create_table(
        "reserved_names",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("token_sha256", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "standings",
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game", "name"),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("entrants", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournaments_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_tournaments_game"), ["game"], unique=False)

    op.create_table(
        "match_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("match_events", schema=None) as batch_op:
        batch_op.create_index("ix_match_events_match", ["match_id", "seq"], unique=False)

    op.create_table(
        "match_keys",
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("key"),
    )
    with op.batch_alter_table("match_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_keys_match_id"), ["match_id"], unique=False)

    op.create_table(
        "match_players",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("match_players", schema=None) as batch_op:
        batch_op.create_index("ix_match_players_match", ["match_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_match_players_name"), ["name"], unique=False)

    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("ranks", sa.JSON(), nullable=False),
        sa.Column("forfeit", sa.String(length=16), nullable=True),
        sa.Column("table_id", sa.String(length=64), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("tournament_games", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_games_tournament_id"), ["tournament_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_games_tournament_id"))

    op.drop_table("tournament_games")
    with op.batch_alter_table("match_players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_players_name"))
        batch_op.drop_index("ix_match_players_match")

    op.drop_table("match_players")
    with op.batch_alter_table("match_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_keys_match_id"))

    op.drop_table("match_keys")
    with op.batch_alter_table("match_events", schema=None) as batch_op:
        batch_op.drop_index("ix_match_events_match")

    op.drop_table("match_events")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_game"))
        batch_op.drop_index(batch_op.f("ix_tournaments_created_at"))

    op.drop_table("tournaments")
    op.drop_table("standings")
    op.drop_table("reserved_names")
    op.drop_table("ratings")
    with op.batch_alter_table("rating_points", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_points_player")

    op.drop_table("rating_points")
    with op.batch_alter_table("person_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_person_sessions_name"))

    op.drop_table("person_sessions")
    op.drop_table("people")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_matches_game"))
        batch_op.drop_index(batch_op.f("ix_matches_finished_at"))

    op.drop_table("matches")
    op.drop_table("hall_keys")
    op.drop_table("counters")
