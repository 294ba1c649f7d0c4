"""Alembic's environment for Herna's schema: migrations run on the connection that
:func:`herna.hall.schema.upgrade` hands over (``config.attributes["connection"]``), never on
a URL of their own, so the caller's lock and transaction cover them."""

from __future__ import annotations

from alembic import context

from herna.hall.db import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite cannot ALTER most things: migrations there copy the table ("batch" mode).
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()
