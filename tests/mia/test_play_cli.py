"""``herna play mia``: a person at the people's table in a terminal (a real pty, a real
``herna`` process, a real hall with house bots)."""

from __future__ import annotations

import asyncio
import os
import pty
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from herna.cli import build_parser
from herna.servers.mia import MiaService
from tests.serve import serving

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
KEYWORDS = ("CAUGHT_BLUFFING", "SEE_FAILED", "ANNOUNCED_LOSING_DICE", "DID_NOT_TAKE_TURN")


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["play", "mia", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--name" in out and "--port" in out and "people's table" in out
    assert "--language {en,cs}" in out


class Terminal:
    """A ``herna`` process on a pty: what it printed (colours stripped) and typing."""

    def __init__(self, argv: list[str]) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "110", "LINES": "50", "TERM": "xterm"}
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.text = ""
        os.set_blocking(self.master, False)

    def read(self) -> str:
        try:
            while True:
                data = os.read(self.master, 65536)
                if not data:
                    break
                self.text += ANSI.sub("", data.decode("utf-8", "replace")).replace("\r", "")
        except (BlockingIOError, OSError):
            pass
        return self.text

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


async def test_a_person_plays_rounds_in_the_terminal(tmp_path: Path) -> None:
    async with serving(
        tmp_path, "mia", mia_people_timeout=12.0, mia_people_round_pause=0.2, mia_people_think=0.2
    ) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        port = service.people.port
        argv = ["play", "mia", "--name", "tess", "--port", str(port), "--rounds", "4"]
        term = Terminal([sys.executable, "-m", "herna.cli", *argv, "--window", "12"])
        try:
            turns = 0
            typed_nonsense = False
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 150
            while term.proc.poll() is None and loop.time() < deadline:
                await asyncio.sleep(0.1)
                text = term.read()
                if text.count("Your turn:") <= turns:
                    continue
                turns += 1
                panel = text[text.rindex("Your turn:") :]
                if not typed_nonsense:
                    typed_nonsense = True
                    term.type("banana")
                if "Roll or see?" in panel:
                    term.type("s" if "See:" in panel and turns % 3 == 0 else "r")
                else:
                    truth = re.search(r"(\d+)\) ([^│\n]*?) ← the truth", panel)
                    if truth and turns % 2:
                        term.type(truth.group(1))
                    else:
                        term.type("1")  # the lowest throw above the last announcement
            await asyncio.sleep(0.3)
            text = term.read()
            assert term.proc.wait(timeout=10) == 0, text[-3000:]
        finally:
            term.close()
    assert "You played 4 rounds" in text, text[-3000:]
    assert "You sat down" in text
    assert "Type a number from the list" in text  # the nonsense was answered in words
    assert "You rolled" in text and "(only you see it)" in text
    assert re.search(r"\d+\) [^\n]*(double \ds \(pasch\)|Mia)", text)  # dice in words
    assert "Scores: " in text and "tess" in text
    assert re.search(r"(caught bluffing|looked and lost|had Mia|announced Mia)", text)
    assert not any(k in text for k in KEYWORDS)


async def test_a_bad_name_or_no_server_is_told_in_words() -> None:
    from rich.console import Console

    from herna.cli.mia_play import play_terminal

    async def never() -> str | None:
        await asyncio.sleep(60)
        return None

    console = Console(record=True, width=100, color_system=None)
    assert await play_terminal("127.0.0.1", 9, "bad;name", never, console) == 1
    assert "a name is 1-20 characters without blanks" in console.export_text()
    # Nobody answers on the port: three attempts of 2 s, then the words.
    free = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    assert await play_terminal("127.0.0.1", port, "tess", never, console) == 1
    assert f"Cannot sit at 127.0.0.1:{port}: no answer from" in console.export_text()


async def test_a_round_in_czech(tmp_path: Path) -> None:
    """``herna play mia --language cs`` at a real people's table: the terminal's own lines,
    the dice and the table's story in Czech, the choices typed as in English."""
    from rich.console import Console

    from herna.cli.mia_play import play_terminal

    async with serving(
        tmp_path, "mia", mia_people_timeout=12.0, mia_people_round_pause=0.2, mia_people_think=0.1
    ) as hall:
        service = hall.service("mia")
        assert isinstance(service, MiaService) and service.people is not None
        args = build_parser().parse_args(
            [
                "play",
                "mia",
                "--name",
                "tess",
                "--port",
                str(service.people.port),
                "--language",
                "cs",
            ]
        )
        console = Console(record=True, width=110, color_system=None)
        answered = 0
        leaving: list[str] = []

        async def person() -> str | None:
            # Answers each turn panel once: "r" to roll, then the first announcement offered;
            # after announcing, leaves the table (q, then y to confirm). The person may sit
            # out a round's turn (someone loses before it comes), so rounds are not counted.
            nonlocal answered
            while True:
                text = console.export_text(clear=False)
                if leaving and "Ohlásil(a) jsi " in text:  # the table told the announcement
                    return leaving.pop(0)
                if not leaving and text.count("Jsi na tahu:") > answered:
                    answered += 1
                    panel = text[text.rindex("Jsi na tahu:") :]
                    if "Hodit, nebo odkrýt?" in panel:
                        return "r"
                    leaving.extend(["q", "y"])
                    return "1"
                await asyncio.sleep(0.05)

        code = await asyncio.wait_for(
            play_terminal(
                "127.0.0.1",
                service.people.port,
                "tess",
                person,
                console,
                window=12.0,
                lang=args.language,
            ),
            60,
        )
    text = console.export_text()
    assert code == 0, text
    assert "Napiš q a odejdeš od stolu." in text
    assert "Hodit, nebo odkrýt?" in text and "Na odpověď máš 12 s" in text
    assert "Hodil(a) jsi" in text and "(vidíš to jen ty)" in text
    assert "Kolo 1: " in text and "Ohlásil(a) jsi " in text
    assert "Odejít od stolu? " in text and "Odcházíš od stolu (odehraných kol: " in text
    for english in ("Your turn", "You rolled", "Scores:", "Type q", "Bye."):
        assert english not in text, english
    assert not any(k in text for k in KEYWORDS)
