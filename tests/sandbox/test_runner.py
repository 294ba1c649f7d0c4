"""The runner (herna.clients.sandboxed): submitted bots play Onitama in the real sandbox,
relayed over a real TCP socket to a real server with house bots, and their games recorded.
Hostile bots are each contained, their authors told why they lost, and the hall goes on."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from herna.cli.serve import start_hall, start_ladder
from herna.clients.sandboxed import RunOutcome, RunSettings, play_game
from herna.core.sandbox import MIB, Limits
from herna.hall.submissions import Submission, Submissions
from herna.servers.ladder import Ladder, LadderSettings
from herna.starters import starter
from tests.onitama.wire import Server, real_clock, running
from tests.serve import serve_args


def _starter_source() -> bytes:
    found = starter("onitama", "python")
    assert found is not None
    return found[1]


STARTER = _starter_source()
FAST = RunSettings(
    move_seconds=2.0,
    game_seconds=60.0,
    limits=Limits(cpu_seconds=30, memory_bytes=256 * MIB, processes=16, wall_seconds=70),
)


def submit(server: Server, name: str, source: bytes) -> tuple[Submission, str]:
    """``source`` as bot ``name``'s newest version, and the name's token."""
    bots = Submissions(server.hall.records.engine, server.hall.identity)
    submission, token = bots.submit(name, "onitama", "bot.py", source, person=f"author-of-{name}")
    assert token is not None
    return submission, token


async def play(server: Server, name: str, source: bytes, **settings: object) -> RunOutcome:
    """One game of ``source`` as bot ``name`` against an easy house bot, as the ladder plays
    it (and keeps it as a run)."""
    submission, _ = submit(server, name, source)
    if server.hall.service("onitama") is None:
        server.hall.add(server.service)
    chosen = LadderSettings(
        **{  # type: ignore[arg-type]
            "move_seconds": FAST.move_seconds,
            "game_seconds": FAST.game_seconds,
            "limits": FAST.limits,
            **settings,
        }
    )
    return await Ladder(server.hall, "127.0.0.1", chosen).play_one(submission, "easy")


def recorded(server: Server, name: str) -> list[str]:
    """The reasons of ``name``'s recorded Onitama games, newest first."""
    store = server.hall.records
    store.flush()
    found = []
    for match in store.matches(game="onitama", limit=50):
        if name in [p.name for p in match.players]:
            full = store.get(match.id)
            assert full is not None
            found.append(str(full.result.get("reason", "")))
    return found


async def test_the_starter_kit_plays_a_whole_game_against_a_house_bot(tmp_path: Path) -> None:
    async with running(tmp_path, clock=real_clock(), house_bot_delay=0.02) as server:
        began = time.monotonic()
        outcome = await play(server, "starter", STARTER)
        assert outcome.outcome in ("won", "lost"), outcome
        assert outcome.opponent.startswith("house-easy") and outcome.moves >= 2
        assert outcome.reason in (
            "the master was captured (Way of the Stone)",
            "a master reached the temple arch (Way of the Stream)",
        )
        assert f"playing {outcome.opponent}" in outcome.log and "game over" in outcome.log
        assert recorded(server, "starter") and time.monotonic() - began < 45
        (run,) = Submissions(server.hall.records.engine, server.hall.identity).runs("starter")
        assert run.outcome == outcome.outcome and run.log == outcome.log
        assert run.match_id is not None and run.table_id  # the game's record: its replay


HOSTILE = {
    "silent": (
        "import sys\nfor line in sys.stdin:\n    print('read', line.strip(), file=sys.stderr)\n",
        "no move within 2 s (the move clock)",
        "read START",
    ),
    "netbot": (
        "import socket, sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('START'):\n"
        "        socket.create_connection(('127.0.0.1', PORT), timeout=2)\n",
        "during the game; its log ends: ConnectionRefusedError",
        "ConnectionRefusedError",
    ),
    "snoop": (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('START'):\n"
        "        for path in ('/etc/passwd', DATABASE):\n"
        "            try:\n"
        "                open(path).read()\n"
        "                print('READ', path, file=sys.stderr)\n"
        "            except OSError as e:\n"
        "                print('cannot read', path, type(e).__name__, file=sys.stderr)\n",
        "no move within 2 s",
        "cannot read /etc/passwd FileNotFoundError",
    ),
    "forkbomb": (
        "import os, sys, time\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('START'):\n"
        "        n = 0\n"
        "        try:\n"
        "            while True:\n"
        "                if os.fork() == 0:\n"
        "                    time.sleep(600); os._exit(0)\n"
        "                n += 1\n"
        "        except OSError:\n"
        "            print('forks refused after', n, file=sys.stderr, flush=True)\n",
        "no move within 2 s",
        "forks refused after",
    ),
    "greedy": (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('START'):\n"
        "        hoard = bytearray(10 * 1024 ** 3)\n",
        "during the game; its log ends: MemoryError",
        "MemoryError",
    ),
    "chatty": (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.startswith('START'):\n"
        "        while True:\n"
        "            print('MAKE_MOVE|Tiger|a1|a3')\n",
        "it wrote over 20 lines without an answer between",
        "",
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
async def test_a_hostile_bot_is_contained_and_loses_with_the_reason(
    tmp_path: Path, name: str
) -> None:
    source, reason, log = HOSTILE[name]
    async with running(tmp_path, clock=real_clock(), house_bot_delay=0.02) as server:
        database = str(tmp_path / "onitama.db")
        code = source.replace("PORT", str(server.port)).replace("DATABASE", repr(database))
        began = time.monotonic()
        outcome = await play(server, name, code.encode())
        assert outcome.outcome == "lost", outcome
        assert reason in outcome.reason, outcome
        assert log in outcome.log, outcome
        assert "READ" not in outcome.log
        assert time.monotonic() - began < 45
        # The game server recorded the game (the relay resigned for the bot) ...
        assert recorded(server, name)[0] == "resigned"
        # ... and the hall goes on: the starter kit plays its whole game after it.
        after = await play(server, "starter", STARTER)
        assert after.outcome in ("won", "lost"), after


async def test_the_game_clock_ends_a_slow_game(tmp_path: Path) -> None:
    async with running(tmp_path, clock=real_clock(), house_bot_delay=0.02) as server:
        outcome = await play(server, "slowpoke", b"import time\ntime.sleep(30)\n", game_seconds=1.0)
        assert outcome.outcome in ("lost", "no game")
        assert outcome.reason == "the game took longer than 1 s (game clock)"


async def test_a_crash_before_the_game_is_told(tmp_path: Path) -> None:
    async with running(tmp_path, clock=real_clock(), house_bot_delay=0.02) as server:
        outcome = await play(server, "broken", b"import nosuchmodule\n")
        assert outcome.outcome in ("lost", "no game")
        assert "ModuleNotFoundError" in outcome.log, outcome


C_BOT = rb"""
#include <stdio.h>
#include <string.h>
/* Resigns at once: enough to show a C program compiled in the sandbox and relayed. */
int main(void) {
    char line[1100];
    while (fgets(line, sizeof line, stdin)) {
        fprintf(stderr, "read %s", line);
        if (strncmp(line, "START", 5) == 0) { puts("RESIGN"); fflush(stdout); }
    }
    return 0;
}
"""


async def test_a_c_bot_is_compiled_in_the_sandbox_and_plays(tmp_path: Path) -> None:
    async with running(tmp_path, clock=real_clock(), house_bot_delay=0.02) as server:
        bots = Submissions(server.hall.records.engine, server.hall.identity)
        submission, token = bots.submit("cbot", "onitama", "bot.c", C_BOT, person="Ota")
        assert token is not None and submission.language == "c"
        outcome = await play_game(submission, "127.0.0.1", server.port, token, FAST)
        assert (outcome.outcome, outcome.reason) == ("lost", "resigned"), outcome
        assert "read START|" in outcome.log


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        (b"int main(void) { return x; }\n", "it did not compile (it ended with exit status 1)"),
        (b'#include "/dev/zero"\nint main(void) { return 0; }\n', "it did not compile"),
    ],
)
async def test_a_c_bot_that_does_not_compile_is_told_why(
    tmp_path: Path, source: bytes, reason: str
) -> None:
    async with running(tmp_path, clock=real_clock(), house_bot_delay=0.02) as server:
        bots = Submissions(server.hall.records.engine, server.hall.identity)
        submission, token = bots.submit("broken-c", "onitama", "bot.c", source, person="Ota")
        assert token is not None
        began = time.monotonic()
        outcome = await play_game(submission, "127.0.0.1", server.port, token, FAST)
        assert outcome.outcome == "no game" and outcome.reason.startswith(reason), outcome
        assert time.monotonic() - began < 45


async def test_herna_serve_ladder_plays_a_submitted_bot(tmp_path: Path) -> None:
    """``herna serve --ladder`` (its options as the command line leaves them)."""
    args = serve_args(
        tmp_path, "onitama", ladder=True, ladder_concurrency=1, onitama_house_bot_delay=0.02
    )
    hall = await start_hall(args, {})
    ladder = await start_ladder(hall, args)
    try:
        assert ladder is not None and ladder.settings.move_seconds == 2.0
        book = Submissions(hall.records.engine, hall.identity)
        book.submit("kit", "onitama", "bot.py", STARTER, person="Ann")
        async with asyncio.timeout(60):
            while not book.runs("kit"):
                await asyncio.sleep(0.2)
        (run, *_) = book.runs("kit")
        assert run.outcome in ("won", "lost") and run.opponent.startswith("house-")
    finally:
        if ladder is not None:
            await ladder.stop()
        await hall.stop()
        hall.records.close()


async def test_a_challenge_nobody_answers_ends_and_frees_the_bot(tmp_path: Path) -> None:
    """A person who asks for a game with a bot and goes away holds it only for the wait."""
    async with running(tmp_path, clock=real_clock(), house_bot_delay=0.02) as server:
        submission, _ = submit(server, "waiter", STARTER)
        server.hall.add(server.service)
        settings = LadderSettings(limits=FAST.limits, challenge_wait=1.0)
        ladder = Ladder(server.hall, "127.0.0.1", settings)
        started = time.monotonic()
        outcome = await ladder.play_seeking(
            submission, "once,challenge=gone-away", 60.0, keep_no_game=False, start_seconds=1.0
        )
        assert time.monotonic() - started < 10
        assert (outcome.outcome, outcome.reason) == ("no game", "no game began within 1 s")
        assert Submissions(server.hall.records.engine, server.hall.identity).runs("waiter") == []
        # Through the hall's challenge: the bot's name is held, then freed.
        assert ladder.challenge(submission, "gone-away") is None
        assert "waiter" in ladder.playing
        await asyncio.gather(*ladder.challenges)
        assert "waiter" not in ladder.playing and not ladder.challenges
