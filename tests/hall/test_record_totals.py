"""The totals the records writer keeps (issue 28): records per game and per player and game,
so that no page counts the whole record. They always equal what a count over the records
gives — as records are written, as old ones are pruned, and after migration 0006 filled them
from a database an earlier Herna wrote. SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from alembic import command
from sqlalchemy import create_engine, inspect, text

from herna.hall.db import make_engine, normalise_url
from herna.hall.records import MatchRecord, PlayerResult, RecordStore
from herna.hall.schema import HEAD, alembic_config
from herna.hall.writer import MIN_KEEP, prune, write_records
from herna.web.queries import player_stats

START = datetime(2026, 1, 1, tzinfo=UTC)


def _record(i: int) -> MatchRecord:
    """Game ``i``: Mia rounds mostly, some Onitama; every seventh aborted; the house bot at
    every table, a person at some."""
    game = "onitama" if i % 5 == 0 else "mia"
    names = ["house", f"p{i % 3}"] + (["anna"] if i % 4 == 0 else [])
    return MatchRecord(
        game=game,
        table_id=f"t{i}",
        players=[PlayerResult(s, n, score=float((i + s) % 2)) for s, n in enumerate(names)],
        result={},
        status="aborted" if i % 7 == 0 else "finished",
        finished_at=START + timedelta(minutes=i),
        rated=False,
    )


def _tally(conn: Any, games: str, players: str) -> tuple[dict[str, Any], dict[Any, Any]]:
    """Records per game and, per (player, game), (records, unfinished ones, score sum)."""
    by_game = dict(conn.execute(text(games)).all())
    by_player = {(row[0], row[1]): tuple(row[2:]) for row in conn.execute(text(players))}
    return by_game, by_player


def _counted(conn: Any) -> tuple[dict[str, Any], dict[Any, Any]]:
    """The totals as counting every record gives them."""
    return _tally(
        conn,
        "SELECT game, count(*) FROM matches GROUP BY game",
        "SELECT p.name, m.game, count(*), sum(CASE WHEN m.status <> 'finished' THEN 1 ELSE 0 END),"
        " sum(p.score) FROM match_players p JOIN matches m ON m.id = p.match_id"
        " GROUP BY p.name, m.game",
    )


def _kept(conn: Any) -> tuple[dict[str, Any], dict[Any, Any]]:
    """The totals the records writer kept."""
    return _tally(
        conn,
        "SELECT game, matches FROM game_totals WHERE matches > 0",
        "SELECT name, game, matches, unfinished, score_sum FROM player_totals WHERE matches > 0",
    )


def test_totals_follow_the_records_as_written_and_pruned(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        write_records(engine, [(f"k{i}", _record(i)) for i in range(1, 1301)])
        for i in range(1301, 1311):  # and one at a time, as the writer's batches may be
            write_records(engine, [(f"k{i}", _record(i))])
        with engine.connect() as conn:
            counted, kept = _counted(conn), _kept(conn)
        assert kept == counted
        assert kept[0]["mia"] == 1048 and kept[1][("anna", "onitama")][0] == 65
        # Pruning Mia's oldest rounds takes them off the totals too.
        assert prune(engine, {"mia": MIN_KEEP}) == 48
        with engine.connect() as conn:
            counted, kept = _counted(conn), _kept(conn)
            first = conn.execute(
                text("SELECT first_at FROM player_totals WHERE name = 'house' AND game = 'mia'")
            ).scalar_one()
        assert kept == counted and kept[0]["mia"] == MIN_KEEP
        # The first game a player played stays on the page: it was played.
        assert str(first).startswith("2026-01-01 00:01")
        # A record replayed from the journal (its key stored already) is not counted twice.
        write_records(engine, [("k5", _record(5))])
        with engine.connect() as conn:
            assert _kept(conn) == _counted(conn)
    finally:
        engine.dispose()


def test_migration_0006_fills_the_totals_from_the_records(database_url: str) -> None:
    """A database at revision 0005 with records in it: opening it fills the totals from
    them and swaps the player-name index for the one by name and match."""
    engine = create_engine(normalise_url(database_url))
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0005")
        for i in range(1, 200):  # as the writer of revision 0005 left them
            rec = _record(i)
            match_id = conn.execute(
                text(
                    "INSERT INTO matches (game, table_id, status, started_at, finished_at,"
                    " result, meta) VALUES (:g, :t, :s, :at, :at, '{}', '{}') RETURNING id"
                ),
                {"g": rec.game, "t": rec.table_id, "s": rec.status, "at": rec.finished_at},
            ).scalar_one()
            for p in rec.players:
                conn.execute(
                    text(
                        "INSERT INTO match_players (match_id, seat, name, kind, score, winner)"
                        " VALUES (:m, :seat, :n, 'bot', :score, false)"
                    ),
                    {"m": match_id, "seat": p.seat, "n": p.name, "score": p.score},
                )
        counted = _counted(conn)
    engine.dispose()

    store = RecordStore(database_url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
            assert _kept(conn) == counted
            indexes = {i["name"] for i in inspect(conn).get_indexes("match_players")}
        assert "ix_match_players_name_match" in indexes
        assert "ix_match_players_name" not in indexes
        # From here the writer keeps them.
        store.save(_record(500))
        with store.engine.connect() as conn:
            assert _kept(conn) == _counted(conn)
        assert [s.matches for s in player_stats(store, "anna")] == [40, 10]
    finally:
        store.close()
