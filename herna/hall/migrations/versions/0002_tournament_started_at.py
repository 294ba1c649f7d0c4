"""Tournaments keep when play began (``started_at``), apart from when they were created.

A live tournament takes entrants between the two, and its pages showed the creation time as
"started". Rows written before: a tournament that ``herna tournament run`` played started when
it was created, so it gets ``created_at``; a live one's start was never written, so it stays
empty (the pages then show only "created").

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_tournaments = sa.table(
    "tournaments",
    sa.column("id", sa.Integer),
    sa.column("status", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("started_at", sa.DateTime(timezone=True)),
    sa.column("settings", sa.JSON),
)


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(_tournaments.c.id, _tournaments.c.status, _tournaments.c.settings)
    ).all()
    played_at_once = [
        row.id for row in rows if row.status != "entry" and not (row.settings or {}).get("live")
    ]
    if played_at_once:
        bind.execute(
            _tournaments.update()
            .where(_tournaments.c.id.in_(played_at_once))
            .values(started_at=_tournaments.c.created_at)
        )


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("started_at")
