"""Contests of submitted bots (herna.hall.contests, herna.servers.contest, migration 0005):
a teacher's contest from creation through the deadline to the final and its CSV, with real
bots in the real sandbox over real sockets, a real SQLite file (the schema also on
PostgreSQL); a version uploaded after the deadline is not the one that plays."""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import inspect

from herna.cli import main
from herna.hall.contests import ContestRefused, Contests, ranking, ranking_csv, wilson
from herna.hall.db import make_engine
from herna.hall.identity import Identity, ReservedNames
from herna.hall.schema import HEAD, current
from herna.hall.submissions import Submissions
from herna.hall.tournament.model import Board, Game
from herna.hall.tournament_store import TournamentStore
from herna.servers.contest import SandboxedBots
from herna.starters import starter
from tests.live_tournaments import finished
from tests.sandbox.helpers import contest_hall, written_at

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is missing")

found = starter("onitama", "python")
assert found is not None
STARTER = found[1]
CRASHER = b"import sys\nprint('version two crashes', file=sys.stderr)\nraise SystemExit(3)\n"


def test_contests_upgrade_from_the_previous_schema(database_url: str) -> None:
    written_at(
        database_url,
        "0004",
        "INSERT INTO bot_submissions (name, game, version, language, filename, source, owner,"
        " created_at) VALUES ('zora', 'onitama', 1, 'python', 'bot.py', :s, 'eva', :t)",
        s=STARTER,
        t="2026-01-01 12:00:00+00:00",
    )
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            assert current(conn) == HEAD
            assert {"bot_contests", "bot_contest_entries"} <= set(inspect(conn).get_table_names())
        contests = Contests(engine, Submissions(engine, Identity(ReservedNames(engine))))
        contest, token = contests.create(
            "Class 3B", "onitama", datetime.now(UTC) + timedelta(hours=1)
        )
        assert contests.authorised(contest.id, token)
        assert not contests.authorised(contest.id, token + "x")
        contests.enter(contest.id, "zora", "eva")  # the row written before the upgrade
        (entry,) = contests.entries(contest.id)
        assert (entry.name, entry.version and entry.version.version) == ("zora", 1)
        with pytest.raises(ContestRefused, match="you have no onitama bot named 'zora'"):
            contests.enter(contest.id, "zora", "somebody-else")
        with pytest.raises(ContestRefused, match="versions are not locked yet"):
            contests.lock(contest.id)
    finally:
        engine.dispose()


def test_the_wilson_interval() -> None:
    low, high = wilson(8, 10)
    assert round(low, 3) == 0.490 and round(high, 3) == 0.943
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 5)
    assert low == 0.0 and 0.4 < high < 0.45
    # A bot that lost (won) every game is inside its interval, whatever the rounding.
    assert all(wilson(0, n)[0] == 0.0 and wilson(n, n)[1] == 1.0 for n in range(1, 50))


async def test_a_contest_from_creation_through_the_deadline_to_the_final(tmp_path: Path) -> None:
    async with contest_hall(tmp_path, "onitama", onitama_house_bot_delay=0.02) as held:
        hall, bots, contests = held.hall, held.bots, held.contests
        engine = hall.records.engine
        assert isinstance(hall.submitted, SandboxedBots)
        contest = held.open_contest("onitama", STARTER, 2, ("easy",))
        with pytest.raises(ContestRefused, match="versions are not locked yet"):
            await hall.submitted.start_final(contest.id)
        await held.close_entries(contest)
        with pytest.raises(ContestRefused, match="the deadline has passed"):
            bots.submit("dora", "onitama", "bot.py", STARTER, person="pupil-d")
            contests.enter(contest.id, "dora", "pupil-d")
        # After the deadline ada uploads a version that crashes: it must not play.
        late, _ = bots.submit("ada", "onitama", "bot.py", CRASHER, person="pupil-a")
        assert late.version == 2
        assert {e.name: e.version.version for e in contests.entries(contest.id) if e.version} == {
            "ada": 1,
            "bea": 1,
            "cyril": 1,
        }

        tid = await hall.submitted.start_final(contest.id)
        with pytest.raises(ContestRefused, match="has started already"):
            await hall.submitted.start_final(contest.id)
        store = TournamentStore(engine)
        tour = await finished(store, tid, timeout=240)
        assert tour.status == "finished", tour.status
        played = [g for g in tour.games if not g.board.bye]
        # Four players (three bots, one house bot), every pairing twice: 12 games.
        assert len(played) == 12
        pairs: dict[frozenset[str], list[tuple[str, ...]]] = {}
        for game in played:
            pairs.setdefault(frozenset(game.seats), []).append(game.seats)
            assert game.forfeit is None, game  # no crash, no no-show: v1 played
        assert len(pairs) == 6
        for seatings in pairs.values():
            assert len(seatings) == 2 and seatings[0] == seatings[1][::-1]  # colours swapped

        # Every run of ada in the final is of version 1, and the crasher never ran.
        # (the last game's run is kept as the relay finds its record: a moment after)
        for _ in range(100):
            runs = [r for r in bots.runs("ada", limit=50) if r.match_id is not None]
            if len(runs) >= 6:
                break
            await asyncio.sleep(0.1)
        assert len(runs) == 6 and {r.version for r in runs} == {1}
        assert len({r.match_id for r in runs}) == 6  # each run has its own game's record
        assert not any("version two crashes" in r.log for r in bots.runs("ada", limit=50))
        (final,) = [c for c in contests.all() if c.id == contest.id]
        assert final.tournament_id == tid

        versions = {e.name: e.version.version for e in contests.entries(contest.id) if e.version}
        table = ranking(tour.games, versions)
        assert sum(r.points for r in table) == 12
        ranks = [r.rank for r in table]
        assert ranks[0] == 1 and ranks == sorted(ranks) and len(table) == 4
        for a, b in itertools.pairwise(table):  # a shared place only for a tie
            assert (a.rank == b.rank) == ((a.points, a.wins) == (b.points, b.wins))
        assert all(r.games == 6 and r.low <= r.points / 6 <= r.high for r in table)
        rows = list(csv.DictReader(io.StringIO(ranking_csv(table))))
        assert [r["bot"] for r in rows] == [r.name for r in table]
        assert {r["version"] for r in rows if r["bot"] == "ada"} == {"1"}
        house = [r for r in rows if r["bot"].startswith("house-")]
        assert len(house) == 1 and house[0]["version"] == ""


def test_equal_points_and_wins_share_a_place() -> None:
    games = [
        Game(Board(1, 1, ("a", "b")), (1.0, 0.0)),
        Game(Board(2, 1, ("b", "c")), (1.0, 0.0)),
        Game(Board(3, 1, ("c", "a")), (1.0, 0.0)),
        Game(Board(4, 1, ("a", "d")), (1.0, 0.0)),
    ]
    table = ranking(games, {"a": 1, "b": 2, "c": 1, "d": 3})
    assert [(r.rank, r.name, r.points) for r in table] == [
        (1, "a", 2.0),
        (2, "b", 1.0),
        (2, "c", 1.0),
        (4, "d", 0.0),
    ]


def test_herna_contest_creates_and_shows_a_contest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'herna.db'}"
    assert main(["contest", "create", "Class 3B", "--deadline", "2h", "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "contest 1: Class 3B, submissions close" in out and "admin token" in out
    engine = make_engine(url)
    try:
        bots = Submissions(engine, Identity(ReservedNames(engine)))
        bots.submit("zora", "onitama", "bot.py", STARTER, person="eva")
        Contests(engine, bots).enter(1, "zora", "eva")
    finally:
        engine.dispose()
    assert main(["contest", "show", "1", "--database-url", url]) == 0
    assert "  zora by eva: v1" in capsys.readouterr().out
    assert main(["contest", "show", "1", "--csv", "--database-url", url]) == 1
    assert "the final has not begun" in capsys.readouterr().err
    assert (
        main(["contest", "create", "Late", "--deadline", "2001-01-01T00:00", "--database-url", url])
        == 1
    )
    assert "the submission deadline is in the past" in capsys.readouterr().err
    tiles = ["contest", "create", "Tiles", "--game", "tiles", "--deadline", "2h"]
    assert main([*tiles, "--database-url", url]) == 1
    assert "a tile contest names its rules file" in capsys.readouterr().err
    assert main([*tiles, "--rules", "tsuro", "--database-url", url]) == 0
    assert "contest 2: Tiles" in capsys.readouterr().out
    assert main(["contest", "show", "2", "--database-url", url]) == 0
    assert "contest 2: Tiles (tiles, rules tsuro)" in capsys.readouterr().out


def test_contests_keep_a_tile_contests_rules_from_revision_0007(database_url: str) -> None:
    """A contest written at revision 0006 (an Onitama one: the only game then) opens after
    the upgrade without rules; a tile contest made afterwards keeps its rules file."""
    written_at(
        database_url,
        "0006",
        "INSERT INTO bot_contests (title, game, deadline, games_per_pairing, house,"
        " admin_digest, created_at) VALUES ('Class 3B', 'onitama', :d, 2, '', 'x', :t)",
        d="2099-01-01 12:00:00+00:00",
        t="2026-01-01 12:00:00+00:00",
    )
    engine = make_engine(database_url)
    try:
        contests = Contests(engine, Submissions(engine, Identity(ReservedNames(engine))))
        (old,) = contests.all()
        assert (old.title, old.game, old.rules) == ("Class 3B", "onitama", None)
        tiles, _ = contests.create(
            "Dlaždice", "tiles", datetime.now(UTC) + timedelta(hours=1), rules="gold_rush"
        )
        made = contests.get(tiles.id)
        assert made is not None and (made.game, made.rules) == ("tiles", "gold_rush")
        marias, _ = contests.create(
            "Mariáš", "marias", datetime.now(UTC) + timedelta(hours=1), rules="gold_rush"
        )
        assert marias.rules is None  # only a tile contest names rules
    finally:
        engine.dispose()
