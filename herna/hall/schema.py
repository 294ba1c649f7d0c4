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
database already at the newest revision, is one ``SELECT`` under that lock, and does not
import Alembic (a quarter of a second of every ``herna`` command's start-up).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, MetaData, inspect, text

if TYPE_CHECKING:
    from alembic.config import Config

HEAD = "0007"
"""The newest revision, the last script under ``migrations/versions/``: a new migration
changes it (``tests/hall/test_schema.py`` checks it against Alembic's reading of the
scripts). Known here so that the fast path needs no Alembic."""
BASELINE = "0001"
"""The schema as Herna wrote it before it had migrations (every table ``create_all`` made)."""

MIGRATIONS = Path(__file__).with_name("migrations")
_ADVISORY_LOCK = 0x4865726E61  # "Herna": the PostgreSQL advisory lock of schema changes


class SchemaTooNew(Exception):
    """The database was written by a newer Herna (its revision is unknown here)."""


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for Herna's migrations (no ``alembic.ini``: the scripts are
    part of the package)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def scripts_head() -> str:
    """The newest revision as Alembic reads it from the scripts (what :data:`HEAD` says)."""
    from alembic.script import ScriptDirectory

    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None, "no migrations in herna/hall/migrations/versions"
    return revision


def current(connection: Connection) -> str | None:
    """The revision a database is at (``None``: never marked): Alembic's own table, read
    as Alembic reads it (the migrations are one line, so it holds one row)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine, metadata: MetaData) -> None:
    """Bring ``engine``'s database to :data:`HEAD` (see the module's doc); idempotent."""
    with _schema_lock(engine), engine.begin() as connection:
        revision = current(connection)
        if revision == HEAD:
            return
        from alembic import command

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
                f"know (its newest is {HEAD}): a newer Herna wrote it"
            )
        command.upgrade(config, "head")


def _known(config: Config, revision: str) -> bool:
    from alembic.script import ScriptDirectory
    from alembic.util.exc import CommandError

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
