"""``herna play onitama --tournament ID``: a person at a terminal enters a live tournament as
the browser does, plays each game as it is due and is told when it is over. The real command
(``python -m herna.cli``) in a subprocess with pipes for its keyboard and screen, against a
real ``herna serve`` (Onitama and the web hall) over real sockets, a real SQLite file."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from pathlib import Path

from herna.hall.tournament_live import LiveOptions
from herna.hall.tournament_store import TournamentStore
from tests.live_tournaments import entered, finished, onitama_entrant, reserve
from tests.serve import serving
from tests.web.test_people import ONITAMA, _onitama

HERNA = [sys.executable, "-m", "herna.cli"]


async def _play(port: int, name: str, tid: int, token: str | None) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if k != "HERNA_TOKEN"}
    if token is not None:
        env["HERNA_TOKEN"] = token  # as the help advises: not on the command line
    argv = [*HERNA, "play", "onitama", "--name", name, "--port", str(port)]
    return await asyncio.create_subprocess_exec(
        *argv,
        "--tournament",
        str(tid),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        env={**env, "COLUMNS": "120"},
    )


async def test_a_person_plays_a_live_tournament_from_the_terminal(tmp_path: Path) -> None:
    async with serving(tmp_path, "onitama,web", onitama_house_bots=0, **ONITAMA) as hall:
        port = _onitama(hall).port
        director = hall.tournaments
        assert director is not None
        tokens = reserve(hall, "eva", "robo")
        tid, _ = director.create(LiveOptions("Friday club", "onitama", "round-robin", cycles=2))

        # Without the token, or under a name nobody reserved, the hall says no, and the
        # terminal says what is missing.
        for who, code in (("eva", "RESERVED_NAME"), ("zoe", "NOT_VERIFIED")):
            refused = await _play(port, who, tid, None)
            out, _ = await asyncio.wait_for(refused.communicate(b""), 60)
            text = out.decode()
            assert refused.returncode == 1, text
            assert f"login refused: {code}" in text
            assert "A tournament needs your reserved name and its token" in text

        person = await _play(port, "eva", tid, tokens["eva"])
        assert person.stdin is not None and person.stdout is not None
        # The person's keyboard: the first move of every list, whenever a move is asked for.
        person.stdin.write(b"1\n" * 400)
        await person.stdin.drain()
        bot = onitama_entrant(port, "robo", tokens["robo"], tid)
        for _ in range(12):  # a fresh Python process takes its time on a busy machine
            with contextlib.suppress(AssertionError):
                await entered(director, tid, 2)
        assert sorted(await entered(director, tid, 2)) == ["eva", "robo"]
        tour = TournamentStore(hall.records.engine).get(tid)
        assert tour is not None and {(e.name, e.kind) for e in tour.entrants} == {
            ("eva", "person"),
            ("robo", "bot"),
        }
        director.begin(tid)
        out = await asyncio.wait_for(person.stdout.read(), 180)
        code = await asyncio.wait_for(person.wait(), 10)
        text = out.decode()
        assert code == 0, text[-2000:]
        await asyncio.wait_for(bot, 30)

        assert f"you are entered in tournament {tid}" in text
        assert text.count("New game against robo") == 2, text[-2000:]
        assert text.count("Game over:") == 2
        assert "Waiting for your next game of the tournament…" in text
        assert text.rstrip().endswith(
            f"Tournament {tid} is over: the final standings are on the hall's tournament page "
            f"(/tournaments/{tid})."
        )
        assert "Next: [p]lay again" not in text  # nothing is asked between games
        done = await finished(TournamentStore(hall.records.engine), tid)
        games = [g for g in done.games if not g.board.bye]
        assert done.status == "finished" and len(games) == 2
        assert all(g.forfeit is None for g in games)
        assert {tuple(g.board.seats) for g in games} == {("eva", "robo"), ("robo", "eva")}
