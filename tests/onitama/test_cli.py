"""``herna bot onitama``, ``herna play onitama`` and ``herna serve`` with the Onitama server."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from herna.cli import build_parser, main
from herna.cli.onitama import play_terminal, read_choice, render_state
from herna.games.onitama.cards import CARD_NAMES
from herna.games.onitama.state import Move, OnitamaState
from tests.onitama.wire import real_clock, running

HERNA = [sys.executable, "-m", "herna.cli"]


def test_help_texts(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    for argv in (["bot", "onitama", "--help"], ["play", "onitama", "--help"], ["serve", "--help"]):
        with pytest.raises(SystemExit) as done:
            parser.parse_args(argv)
        assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--strategy {random,greedy,alphabeta,engine}" in out
    assert "--level {easy,medium,hard,strongest}" in out and "--onitama-house-level" in out
    assert "legal moves are listed" in out
    assert "--onitama-port" in out and "--onitama-reconnect-window" in out
    assert "--onitama-move-clock" in out
    assert "--language {en,cs}" in out


def test_local_series(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "bot",
            "onitama",
            "--strategy",
            "alphabeta",
            "--depth",
            "2",
            "--versus",
            "random",
            "--games",
            "6",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "alphabeta vs random: won" in out and "of 6 games" in out


def test_board_rendering_and_menu() -> None:
    state = OnitamaState.setup(["Ox", "Boar"], ["Horse", "Elephant"], "Crab")
    state = state.apply(Move("Ox", 2, 7))
    console = Console(width=100, record=True, color_system=None)
    console.print(render_state(state, ("ann", "bob"), me=1))
    text = console.export_text()
    for word in (
        "ann (white)",
        "bob (black)",
        "Crab",
        "Boar",
        "Horse",
        "Elephant",
        "Ox",
        "spare",
        "bob (black) to move",
    ):
        assert word in text
    actions = state.legal_actions()
    assert read_choice("1", actions) == actions[0]  # type: ignore[arg-type]
    assert read_choice("horse c5c4", actions) == Move("Horse", 22, 17)  # type: ignore[arg-type]
    assert read_choice("99", actions) is None  # type: ignore[arg-type]
    # a Czech menu names the card in Czech; typed either way, it is the same move
    assert read_choice("kůň  c5c4", actions, "cs") == Move("Horse", 22, 17)  # type: ignore[arg-type]
    assert read_choice("Horse c5c4", actions, "cs") == Move("Horse", 22, 17)  # type: ignore[arg-type]
    assert read_choice("Tiger c5c3", actions) is None  # type: ignore[arg-type]


async def test_play_a_game_in_the_terminal_against_a_house_bot(tmp_path: Path) -> None:
    async with running(
        tmp_path, clock=real_clock(), house_bots=1, house_bot_delay=0.0, house_bot_depth=1
    ) as server:
        answers = iter(["nonsense", "0"])
        asked: list[str] = []

        async def ask(prompt: str) -> str | None:
            asked.append(prompt)
            return next(answers, "1")

        console = Console(width=110, record=True, color_system=None)
        code = await play_terminal("127.0.0.1", server.port, "eva", ask, console, games=1)
        assert code == 0
        text = console.export_text()
        assert "Logged in as eva" in text
        assert "New game against house-1" in text
        assert "Type a number from the list" in text
        assert "Game over:" in text
        assert asked and all(p == "your move> " for p in asked)
        server.hall.records.flush()
        [match] = server.hall.records.matches(game="onitama")
        assert {p.name for p in match.players} == {"eva", "house-1"}
        # a house bot's name is refused politely
        async with running(tmp_path / "second", house_bots=1) as other:
            code = await play_terminal("127.0.0.1", other.port, "house-1", ask, console)
            assert code == 1
            assert "login refused: HOUSE_BOT_NAME ('house-1' is the name of one of" in (
                console.export_text()
            )


async def test_in_czech_a_few_moves_on_a_server_then_quit(tmp_path: Path) -> None:
    """``herna play onitama --language cs`` against a house bot on a real server: the login,
    the board, the moves and the prompts in Czech (the cards by the Czech edition's names);
    the person quits after three moves."""
    async with running(
        tmp_path, clock=real_clock(), house_bots=1, house_bot_delay=0.0, house_bot_strategy="greedy"
    ) as server:
        args = build_parser().parse_args(
            ["play", "onitama", "--name", "eva", "--port", str(server.port), "--language", "cs"]
        )
        answers = iter(["nonsense", "1", "1", "1", "q"])
        asked: list[str] = []

        async def ask(prompt: str) -> str | None:
            asked.append(prompt)
            return next(answers, "q")

        console = Console(width=110, record=True, color_system=None)
        code = await play_terminal(
            "127.0.0.1", server.port, "eva", ask, console, lang=args.language
        )
    text = console.export_text()
    assert code == 0, text
    assert "Přihlášen(a) jako eva; čekáš na soupeře…" in text
    assert "Nová hra proti house-1: hraješ za " in text
    assert "Napiš číslo ze seznamu nebo tah jako" in text
    assert "(bílý)" in text and "(černý)" in text and "volná karta" in text
    assert re.search(r"\((bílý|černý)\) zahrál\(a\) kartu \w+ [a-e][1-5]→[a-e][1-5]", text), text
    english_card = re.compile(r"\b(" + "|".join(CARD_NAMES) + r")\b")
    assert english_card.search(text) is None, english_card.search(text)
    assert "Na shledanou." in text
    assert set(asked) == {"tvůj tah> "}
    for english in ("Logged in", "New game", "played", "white", "black", "spare", "Bye"):
        assert english not in text, english


async def test_play_locally_against_the_engine_and_quit() -> None:
    from herna.cli.onitama import play_local

    answers = iter(["nonsense"])

    async def ask(prompt: str) -> str | None:
        return next(answers, "1")

    console = Console(width=110, record=True, color_system=None)
    assert await play_local("easy", ask, console, seed=7) == 0
    text = console.export_text()
    assert "Type a number from the list" in text
    assert "You won" in text or "The engine won" in text

    async def quit_at_once(prompt: str) -> str | None:
        return "q"

    console = Console(width=110, record=True, color_system=None)
    assert await play_local("easy", quit_at_once, console, seed=8) == 0
    assert "Bye." in console.export_text()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_herna_serve_and_herna_bot_end_to_end(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    serve = subprocess.Popen(
        [
            *HERNA,
            "serve",
            "--only",
            "onitama",
            "--onitama-port",
            str(port),
            "--database-url",
            f"sqlite:///{tmp_path / 'h.db'}",
            "--onitama-house-bots",
            "1",
            "--onitama-house-bot-delay",
            "0",
            "--onitama-house-bot-strategy",
            "greedy",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        bot = subprocess.run(
            [
                *HERNA,
                "bot",
                "onitama",
                "--port",
                str(port),
                "--games",
                "2",
                "--strategy",
                "alphabeta",
                "--depth",
                "2",
                "--name",
                "tester",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
        assert bot.returncode == 0, bot.stdout + bot.stderr
        assert "tester played 2 games" in bot.stdout
    finally:
        serve.terminate()
        out, _ = serve.communicate(timeout=30)
    assert "Onitama TCP (seed 003; line and NUL dialects) listening on tcp://127.0.0.1:" in out
    assert serve.returncode == 0
    from herna.hall.records import RecordStore

    store = RecordStore(f"sqlite:///{tmp_path / 'h.db'}")
    try:
        names = {p.name for m in store.matches(game="onitama") for p in m.players}
        assert {"tester", "house-1"} <= names
    finally:
        store.close()


async def test_in_the_terminal_resign_then_rematch_then_quit(tmp_path: Path) -> None:
    async with running(
        tmp_path, clock=real_clock(), house_bots=1, house_bot_delay=0.0, house_bot_depth=1
    ) as server:
        # resign at the first move (after changing one's mind once), a rematch, resign, quit
        answers = iter(["accept", "resign", "n", "resign", "y", "r", "resign", "yes", "q"])
        asked: list[str] = []

        async def ask(prompt: str) -> str | None:
            asked.append(prompt)
            return next(answers, "q")

        console = Console(width=110, record=True, color_system=None)
        code = await play_terminal("127.0.0.1", server.port, "eva", ask, console)
        assert code == 0
        text = console.export_text()
        assert "The server says: your opponent has not offered a draw." in text
        assert text.count("Game over: you resigned; house-1 wins.") == 2
        assert "Asking for a rematch…" in text
        assert asked.count("Resign this game? You lose it. [y/N] ") == 3
        assert asked.count("Next: [p]lay again (a new opponent), [r]ematch, [q]uit? ") == 2
        server.hall.records.flush()
        matches = server.hall.records.matches(game="onitama")
        assert len(matches) == 2 and all(m.result["reason"] == "resigned" for m in matches)
        # colours swapped in the rematch
        seats = [[p.name for p in m.players] for m in matches]
        assert seats[0] == seats[1][::-1]


async def test_in_the_terminal_a_game_clock_and_a_loss_on_time(tmp_path: Path) -> None:
    async with running(
        tmp_path, clock=real_clock(), house_bots=1, house_bot_delay=0.0, house_bot_depth=1
    ) as server:
        asked: list[str] = []

        async def ask(prompt: str) -> str | None:
            asked.append(prompt)
            if prompt == "your move> ":
                await asyncio.sleep(4)  # longer than the 3 s on the clock
                return "1"
            return "q"

        console = Console(width=110, record=True, color_system=None)
        code = await play_terminal("127.0.0.1", server.port, "eva", ask, console, clock="0.05+1")
        assert code == 0
        text = console.export_text()
        assert "Clock: white 0:03, black 0:03." in text
        assert "Game over: house-1 wins on time." in text
        server.hall.records.flush()
        [match] = server.hall.records.matches(game="onitama")
        assert match.result["reason"] == "out_of_time"
        # a clock the lobby does not take is refused in words
        code = await play_terminal("127.0.0.1", server.port, "ida", ask, console, clock="5+x")
        assert code == 1
        assert "login refused: BAD_SEEK (clock=5+x: a clock is MINUTES+SECONDS" in (
            console.export_text()
        )
