"""Submitted bots of every game (herna.clients.sandboxed_wires): the Python starter kit of
mariáš (CGML documents), Mia (UDP datagrams as lines) and the tile games (JSON lines),
uploaded with ``herna submit``, is played by ``herna serve --ladder`` in the real sandbox over
the game's real server to the end of a game, its log kept with the run. Two submitted
Onitama bots play each other on the ladder. A contest's final goes on, with its locked bots,
after ``herna serve`` stops and starts again on the same database."""

from __future__ import annotations

import asyncio
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from herna.cli import main
from herna.cli.serve import start_hall, start_ladder
from herna.hall.contests import Contests
from herna.hall.hall import Hall
from herna.hall.submissions import Submissions
from herna.hall.tournament_store import TournamentStore
from herna.servers.contest import SandboxedBots
from herna.servers.ladder import Ladder
from herna.starters import starter
from tests.live_tournaments import finished
from tests.serve import serve_args

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is missing")


def kit(game: str) -> bytes:
    found = starter(game, "python")
    assert found is not None
    return found[1]


async def serve(tmp_path: Path, only: str, **options: object) -> tuple[Hall, Ladder | None]:
    """``herna serve --only ONLY --ladder`` on the SQLite file in ``tmp_path``."""
    args = serve_args(tmp_path, only, ladder=True, **options)
    hall = await start_hall(args, {})
    return hall, await start_ladder(hall, args)


async def stop(hall: Hall, ladder: Ladder | None) -> None:
    """What ``herna serve`` does on Ctrl-C."""
    if isinstance(hall.submitted, SandboxedBots):
        await hall.submitted.stop()
    if ladder is not None:
        await ladder.stop()
    await hall.stop()
    hall.records.close()


# What each starter kit writes to its log during a game, and how its run may end.
GAMES = {
    "marias": ("I am kit-marias playing with house-", "in the deal's money"),
    "mia": ("order ", "of its 20 rounds (the others"),
    "tiles": ("the game begins: kit-tiles", ""),
}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_the_starter_kit_is_submitted_and_plays_a_ladder_game(
    tmp_path: Path, game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'herna.db'}"
    hall, ladder = await serve(tmp_path, game, database_url=url, ladder_concurrency=1)
    try:
        assert ladder is not None
        name = f"kit-{game}"
        assert main(["bots", "add", name, "--database-url", url]) == 0
        token = capsys.readouterr().out.strip().splitlines()[-1]
        source = tmp_path / f"{game}-starter.py"
        source.write_bytes(kit(game))
        command = ["submit", game, str(source), "--name", name, "--token", token]
        assert main([*command, "--database-url", url]) == 0
        book = Submissions(hall.records.engine, hall.identity)
        async with asyncio.timeout(120):
            while not book.runs(name):
                await asyncio.sleep(0.2)
        (run, *_) = book.runs(name)
        logged, why = GAMES[game]
        assert run.outcome in ("won", "lost", "draw"), run
        assert why in run.reason and "house-" in run.opponent, run
        assert logged in run.log, run.log
        if game != "mia":  # a Mia session is many rounds, each its own record
            assert run.match_id is not None
            record = hall.records.get(run.match_id)
            assert record is not None and record.game == game
            assert name in [p.name for p in record.players]
            assert record.status == "finished"
    finally:
        await stop(hall, ladder)


async def test_two_submitted_bots_play_each_other_on_the_ladder(tmp_path: Path) -> None:
    hall, ladder = await serve(
        tmp_path, "onitama", ladder_concurrency=2, onitama_house_bot_delay=0.02
    )
    try:
        assert ladder is not None
        book = Submissions(hall.records.engine, hall.identity)
        book.submit("ada", "onitama", "bot.py", kit("onitama"), person="pupil-a")
        book.submit("bea", "onitama", "bot.py", kit("onitama"), person="pupil-b")
        async with asyncio.timeout(120):
            while True:
                runs = book.runs("ada", limit=50)
                if any(r.opponent == "bea" and r.match_id is not None for r in runs):
                    break
                await asyncio.sleep(0.2)
        (mine,) = [r for r in runs if r.opponent == "bea"][:1]
        theirs = [r for r in book.runs("bea", limit=50) if r.match_id == mine.match_id]
        assert len(theirs) == 1 and theirs[0].opponent == "ada"
        assert {mine.outcome, theirs[0].outcome} in ({"won", "lost"}, {"draw"})
        record = hall.records.get(mine.match_id or 0)
        assert record is not None and {p.name for p in record.players} == {"ada", "bea"}
        # And the house bots too, in between.
        async with asyncio.timeout(120):
            while not any(r.opponent.startswith("house-") for r in book.runs("ada", limit=50)):
                await asyncio.sleep(0.2)
    finally:
        await stop(hall, ladder)


async def test_a_contest_final_goes_on_after_herna_serve_restarts(tmp_path: Path) -> None:
    options = {"onitama_house_bot_delay": 0.02, "ladder_concurrency": 1}
    hall, ladder = await serve(tmp_path, "onitama", **options)
    try:
        assert ladder is not None and isinstance(hall.submitted, SandboxedBots)
        engine = hall.records.engine
        book = Submissions(engine, hall.identity)
        contests = Contests(engine, book)
        deadline = datetime.now(UTC) + timedelta(seconds=2)
        contest, _ = contests.create("Class 3B", "onitama", deadline, games_per_pairing=4)
        for name, author in (("ada", "pupil-a"), ("bea", "pupil-b")):
            book.submit(name, "onitama", "bot.py", kit("onitama"), person=author)
            contests.enter(contest.id, name, author)
        while datetime.now(UTC) < deadline:
            await asyncio.sleep(0.2)
        tid = await hall.submitted.start_final(contest.id)
        store = TournamentStore(engine)
        async with asyncio.timeout(120):  # the first game of the final ends
            while not _games(store, tid):
                await asyncio.sleep(0.2)
    finally:
        await stop(hall, ladder)
    stopped = datetime.now(UTC)

    hall, ladder = await serve(tmp_path, "onitama", **options)
    try:
        assert ladder is not None
        book = Submissions(hall.records.engine, hall.identity)
        tour = await finished(TournamentStore(hall.records.engine), tid, timeout=240)
        assert tour.status == "finished", tour.status
        played = [g for g in tour.games if not g.board.bye]
        assert len(played) == 4 and all(g.forfeit is None for g in played), played
        for name in ("ada", "bea"):  # each bot played again after the restart
            later = [r for r in book.runs(name, limit=20) if _utc(r.started_at) > stopped]
            assert later and all(r.opponent in ("ada", "bea") for r in later), later
    finally:
        await stop(hall, ladder)


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _games(store: TournamentStore, tid: int) -> list[object]:
    """The games of tournament ``tid`` finished so far."""
    tour = store.get(tid)
    assert tour is not None
    return [g for g in tour.games if not g.board.bye]
