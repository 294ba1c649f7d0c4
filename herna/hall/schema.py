"""Bring a database to the schema this Herna expects, with Alembic migrations.

Every change to the tables is a migration under ``herna/hall/migrations/versions/``, so a
database written by an earlier Herna opens and keeps every record. Opening a database
(:func:`herna.hall.db.make_engine`) calls :func:`upgrade`, which:

- on an empty database creates the tables from the models and marks them as the newest
  revision (Alembic's "create from scratch" recipe: one ``CREATE`` per table instead of
  replaying every migration; a test checks that the two give the same schema);
- on a database an Herna before migrations wrote (tables, but no ``alembic_version``) marks
  it as the first revision, :data:`BASELINE` (that revision *is* that schema), then upgrades;
- on a database behind the newest revision runs the missing migrations;
- refuses a database *ahead* of this Herna (a newer Herna wrote it): downgrading code would
  otherwise write rows the newer schema does not expect.

Several processes open one database at once (the record writer, worker processes, other
``herna serve`` processes on one PostgreSQL), so the check and the migrations run under a
lock: PostgreSQL's advisory lock, or a lock file beside a SQLite file. The fast path, a
database already at the newest revision, is one ``SELECT`` under that lock.
"""

from __future__ import annotations

import fcntl
import functools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Connection, Engine, MetaData, inspect, text

BASELINE = "0001"
"""The schema as Herna wrote it before it had migrations (every table ``create_all`` made)."""

MIGRATIONS = Path(__file__).with_name("migrations")
_ADVISORY_LOCK = 0x4865726E61  # "Herna": the PostgreSQL advisory lock of schema changes


class SchemaTooNew(Exception):
    """The database was written by a newer Herna (its revision is unknown here)."""


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for Herna's migrations (no ``alembic.ini``: the scripts are
    part of the package)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


@functools.cache
def head() -> str:
    """The newest revision (read once per process: the scripts do not change under it)."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None, "no migrations in herna/hall/migrations/versions"
    return revision


def current(connection: Connection) -> str | None:
    """The revision a database is at (``None``: never marked)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, metadata: MetaData) -> None:
    """Bring ``engine``'s database to :func:`head` (see the module's doc); idempotent."""
    with _schema_lock(engine), engine.begin() as connection:
        revision = current(connection)
        if revision == head():
            return
        config = alembic_config(connection)
        if revision is None:
            if not inspect(connection).has_table("matches"):
                metadata.create_all(connection)
                command.stamp(config, "head")
                return
            command.stamp(config, BASELINE)
        elif not _known(config, revision):
            raise SchemaTooNew(
                f"the database is at schema revision {revision}, which this Herna does not "
                f"know (its newest is {head()}): a newer Herna wrote it"
            )
        command.upgrade(config, "head")


def _known(config: Config, revision: str) -> bool:
    try:
        return ScriptDirectory.from_config(config).get_revision(revision) is not None
    except CommandError:
        return False


@contextmanager
def _schema_lock(engine: Engine) -> Iterator[None]:
    if engine.dialect.name == "postgresql":
        with engine.connect() as lock:
            lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _ADVISORY_LOCK})
            try:
                yield
            finally:
                lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _ADVISORY_LOCK})
        return
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        yield
        return
    # A file of its own: SQLite's POSIX locks on the database file would be dropped when
    # this process closed any other descriptor of that file.
    fd = os.open(f"{database}-schema.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
