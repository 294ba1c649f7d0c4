"""Submitted bots of every game (herna.clients.sandboxed_wires): the Python starter kit of
mariáš (CGML documents), Mia (UDP datagrams as lines) and the tile games (JSON lines),
uploaded with ``herna submit``, is played by ``herna serve --ladder`` in the real sandbox over
the game's real server to the end of a game, its log kept with the run; so is the C starter
kit of every game, compiled in the sandbox first. Two submitted
Onitama bots play each other on the ladder (test_serve_restart.py: after a restart)."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from herna.cli import main
from herna.cli.serve import start_hall, start_ladder, stop_hall
from herna.hall.hall import Hall
from herna.hall.submissions import Submissions
from herna.servers.ladder import Ladder
from herna.starters import starter
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
    await stop_hall(hall, ladder)


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


# Each C starter kit: the options of its server, a line its log has after a game, and a
# part of the reason its run ended with.
C_KITS: dict[str, tuple[dict[str, object], tuple[str, ...], str]] = {
    "marias": ({}, ("I am kit-c playing with",), "in the deal's money"),
    "mia": ({}, ("rolled ", "lost: "), "of its 20 rounds"),
    "onitama": ({"onitama_house_bot_delay": 0.02}, ("playing house-",), "(Way of the St"),
    "tiles": ({}, ("the game begins: kit-c", "my turn (move): "), ""),
}


@pytest.mark.parametrize("game", sorted(C_KITS))
async def test_the_c_starter_kit_is_compiled_in_the_sandbox_and_plays(
    tmp_path: Path, game: str
) -> None:
    options, logged, why = C_KITS[game]
    hall, ladder = await serve(tmp_path, game, ladder_concurrency=1, **options)
    try:
        assert ladder is not None
        found = starter(game, "c")
        assert found is not None and found[0] == f"{game}-starter.c"
        book = Submissions(hall.records.engine, hall.identity)
        submission, _ = book.submit("kit-c", game, found[0], found[1], person="Ota")
        assert submission.language == "c"
        async with asyncio.timeout(120):
            while not book.runs("kit-c"):
                await asyncio.sleep(0.2)
        (run, *_) = book.runs("kit-c")
        assert run.outcome in ("won", "lost", "draw") and why in run.reason, run
        assert "house-" in run.opponent, run
        assert any(line in run.log for line in logged), run.log
        assert "the server says" not in run.log, run.log  # no refused message
        if game != "mia":  # a Mia session is many rounds, each its own record
            record = hall.records.get(run.match_id or 0)
            assert record is not None and record.status == "finished", record
            assert "kit-c" in [p.name for p in record.players]
    finally:
        await stop(hall, ladder)


BROKEN = {
    "marias": (
        b"import sys\nfor line in sys.stdin:\n    if '<newgame' in line:\n"
        b"        print('not cgml </cgml>', flush=True)\n",
        "it wrote something that is not a CGML message",
    ),
    "mia": (
        b"import sys\nfor line in sys.stdin:\n    if line.startswith('ROUND STARTING'):\n"
        b"        print('JOIN;' + line.split(';')[1].strip(), flush=True)\n"
        b"    if line.startswith('YOUR TURN'):\n"
        b"        print('giving up', file=sys.stderr)\n        raise SystemExit(3)\n",
        "it ended with exit status 3 during the game; its log ends: giving up",
    ),
    "tiles": (
        b"import sys\nfor line in sys.stdin:\n    pass\n",
        "no move within 2 s (the move clock)",
    ),
}


@pytest.mark.parametrize("game", sorted(BROKEN))
async def test_a_broken_bot_loses_in_its_protocols_terms_and_the_game_ends(
    tmp_path: Path, game: str
) -> None:
    """Garbage, an exit and silence: the relay gives up for the bot (a mariáš deal is played
    out by the server's stand-in, a tile seat resigns, Mia unregisters), its author is told
    why, and the game ends for everyone as any game does."""
    hall, ladder = await serve(tmp_path, game, ladder_concurrency=1)
    try:
        assert ladder is not None
        source, why = BROKEN[game]
        book = Submissions(hall.records.engine, hall.identity)
        book.submit("broken", game, "bot.py", source, person="Ota")
        async with asyncio.timeout(120):
            while not book.runs("broken"):
                await asyncio.sleep(0.2)
        (run, *_) = book.runs("broken")
        assert (run.outcome, run.reason[: len(why)]) == ("lost", why), run
        if game != "mia":
            assert run.match_id is not None, run  # the game ended and was recorded
            record = hall.records.get(run.match_id)
            assert record is not None and record.status == "finished", record
    finally:
        await stop(hall, ladder)
