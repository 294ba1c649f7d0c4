"""Schema migrations (herna.hall.schema, Alembic): a database an earlier Herna wrote opens
and keeps every record; the migrations and the models describe the same schema; a new
database gets every table; a database from a newer Herna is refused; several processes
opening one database at once do not trip over each other."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from herna.hall.db import Base, DatabaseUnavailable, make_engine, normalise_url
from herna.hall.identity import Identity, ReservedNames
from herna.hall.people import People
from herna.hall.records import MatchRecord, PlayerResult, RecordStore
from herna.hall.schema import BASELINE, HEAD, alembic_config, current, scripts_head
from herna.hall.tournament_store import TournamentStore

EARLIER = Path(__file__).with_name("data") / "schema-before-migrations.sql"
"""A database written by ``herna serve`` of main 7780c7a (the last Herna without migrations):
house bots' mariáš, Mia, Onitama and tile games, a round-robin tournament (`herna
tournament run`), a signed-up person (Alice, password "correct horse battery") and a
reserved bot name (fixturebot), dumped with sqlite3 ``.dump``."""

TABLES = (
    "matches",
    "match_players",
    "match_events",
    "match_keys",
    "counters",
    "standings",
    "ratings",
    "rating_points",
    "reserved_names",
    "people",
    "hall_keys",
    "tournaments",
    "tournament_games",
)


def _counts(url: str) -> dict[str, int]:
    engine = create_engine(normalise_url(url))
    with engine.connect() as conn:
        counts = {t: int(conn.scalar(text(f"SELECT count(*) FROM {t}")) or 0) for t in TABLES}
    engine.dispose()
    return counts


def _revision(url: str) -> str | None:
    engine = create_engine(normalise_url(url))
    with engine.connect() as conn:
        revision = current(conn)
    engine.dispose()
    return revision


def test_a_database_written_before_migrations_keeps_every_record(tmp_path: Path) -> None:
    path = tmp_path / "herna.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(EARLIER.read_text())
    url = f"sqlite:///{path}"
    before = _counts(url)
    assert before["matches"] > 20 and before["tournament_games"] == 6, before
    assert _revision(url) is None

    store = RecordStore(url)
    try:
        assert _revision(url) == HEAD
        assert _counts(url) == before
        # The records read back through the public API, events included.
        games = {m.game for m in store.matches(limit=100)}
        assert games == {"marias", "mia", "onitama", "tiles"}
        onitama = store.matches(game="onitama", limit=1)[0]
        stored = store.get(onitama.id)
        assert stored is not None and stored.events
        tour = TournamentStore(store.engine).get(1)
        assert tour is not None and tour.standings()[0].name == "greedy"
        identity = Identity(ReservedNames(store.engine))
        assert identity.is_reserved("fixturebot") and identity.is_reserved("Alice")
        assert People(store.engine, identity).check("Alice", "correct horse battery") == "Alice"
        # And it takes new records.
        onitama = store.count("onitama")
        store.start_writing()
        store.submit(
            MatchRecord(
                "onitama",
                "t-after",
                [PlayerResult(0, "a", 1.0, True), PlayerResult(1, "b", 0.0, False)],
                {"winner": "a"},
            )
        )
        store.flush()
        assert store.count("onitama") == onitama + 1
    finally:
        store.close()


def test_the_baseline_schema_upgrades_on_both_databases(database_url: str) -> None:
    """An earlier Herna's tables (the baseline revision, no alembic_version) with rows in
    them: opening brings them to the newest revision and keeps the rows."""
    engine = create_engine(normalise_url(database_url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), BASELINE)
        conn.execute(text("DROP TABLE alembic_version"))
        conn.execute(
            text(
                "INSERT INTO matches (game, table_id, status, started_at, finished_at, result,"
                " meta) VALUES ('mia', 'r1', 'finished', :t, :t, '{}', '{}')"
            ),
            {"t": "2026-01-01 12:00:00+00:00"},
        )
        conn.execute(text("INSERT INTO counters (name, value) VALUES ('mia.round', 700)"))
    engine.dispose()

    store = RecordStore(database_url)
    try:
        assert _revision(database_url) == HEAD
        assert store.count("mia") == 1
        # The counter goes on above what the earlier Herna handed out.
        assert store.allocate("mia.round") > 700
    finally:
        store.close()


def test_the_migrations_and_the_models_describe_one_schema(database_url: str) -> None:
    """Running every migration from nothing gives what the models declare (so a new database,
    made from the models, and an upgraded one are the same)."""
    engine = create_engine(normalise_url(database_url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "head")
        differences = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert differences == []


def test_a_new_database_has_every_table_at_the_newest_revision(database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.connect() as conn:
        assert current(conn) == HEAD
        assert set(TABLES) <= set(inspect(conn).get_table_names())
    engine.dispose()


def test_a_database_from_a_newer_herna_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'herna.db'}"
    make_engine(url).dispose()
    with sqlite3.connect(tmp_path / "herna.db") as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dface'")
    with pytest.raises(DatabaseUnavailable, match="newer Herna"):
        make_engine(url)


def test_opening_one_database_from_many_threads_at_once(database_url: str) -> None:
    """The record writer, worker processes and other processes open the database together:
    each open takes the schema lock, so exactly one creates the tables."""
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def open_it() -> None:
        start.wait()
        try:
            make_engine(database_url).dispose()
        except BaseException as exc:  # collected for the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert _revision(database_url) == HEAD


def test_tournaments_get_started_at_from_the_revision_before(database_url: str) -> None:
    """Migration 0002: a tournament ``herna tournament run`` played started when it was
    created; a live one's start was never written (it stays empty), nor one still taking
    entrants."""
    engine = create_engine(normalise_url(database_url))
    created = "2026-03-01 10:00:00+00:00"
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")
        for name, status, settings in (
            ("cli", "finished", "{}"),
            ("live", "finished", '{"live": true}'),
            ("open", "entry", '{"live": true}'),
        ):
            conn.execute(
                text(
                    "INSERT INTO tournaments (name, game, format, status, created_at, entrants,"
                    " settings) VALUES (:n, 'onitama', 'swiss', :s, :t, '[]', :j)"
                ),
                {"n": name, "s": status, "t": created, "j": settings},
            )
    engine.dispose()

    store = TournamentStore(make_engine(database_url))
    started = {t.name: t.started_at for t in store.recent()}
    assert started["live"] is None and started["open"] is None
    assert started["cli"] is not None and started["cli"].isoformat().startswith("2026-03-01T10")
    # From now on a live tournament's start is written when it starts.
    live = next(t.id for t in store.recent() if t.name == "open")
    store.set_status(live, "running")
    tour = store.get(live)
    assert tour is not None and tour.started_at is not None
    assert tour.started_at > tour.created_at


def test_head_is_the_newest_migration_script() -> None:
    """HEAD, which lets an up-to-date database open without Alembic, names the newest script
    (a new migration that forgets to move it fails here)."""
    assert scripts_head() == HEAD


def test_opening_an_up_to_date_database_does_not_import_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'herna.db'}"
    RecordStore(url).close()  # created and stamped at HEAD (this process imports Alembic)
    probe = (
        "import sys; from herna.hall.records import RecordStore; "
        f"RecordStore({url!r}).close(); print('alembic' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "False", out.stderr
