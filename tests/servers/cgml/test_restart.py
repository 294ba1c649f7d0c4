"""Bots outlive their servers (issue 14): when the CGML servers stop and new ones start on the
same ports, `herna bot marias` says so, logs in again with backoff and plays again."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from herna.cli import build_parser
from herna.cli.marias import bot_main
from herna.clients.cgml import Backoff, login
from herna.protocols.cgml import messages as m
from herna.servers.cgml.seats import GroupSettings
from tests.servers.cgml.helpers import HOST, OPEN_STORES, System, make_system


async def test_herna_bot_marias_plays_again_after_the_servers_restart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = await make_system(tmp_path, GroupSettings())  # games until the server stops
    assert first.login is not None
    ports = (first.login.player_address[1], first.login.server_address[1])
    game_port = first.games[0].address[1]
    args = build_parser().parse_args(
        ["bot", "marias", "--port", str(ports[0]), "--name", "phoenix", "--groups", "2"]
    )
    bot = asyncio.create_task(bot_main(args))
    second: System | None = None
    first_running = True
    try:
        await first.until(lambda: first.games[0].games_finished >= 1)
        await first.stop()
        first_running = False
        printed = ""

        def said() -> str:
            nonlocal printed
            printed += capsys.readouterr().out
            return printed

        # Nobody answers on the login port now: the bot says so and keeps trying.
        await System.until(lambda: said().count("logging in again in") >= 2)
        assert not bot.done()

        second = System(first.records)
        await second.start_login(player_port=ports[0], server_port=ports[1])
        await second.add_game_server(GroupSettings(max_games=1), port=game_port)
        await second.add_bot_server()
        assert await asyncio.wait_for(bot, 30) == 0
        said()
        # (The first group ends with an <abort>: the stopping hall's bots left first.)
        assert f"phoenix: no game from the login server 127.0.0.1:{ports[0]}" in printed
        lines = [line for line in printed.splitlines() if "games, money" in line]
        assert len(lines) == 2 and "1 games" in lines[1], printed
        assert second.games[0].games_finished == 1
    finally:
        bot.cancel()
        await asyncio.gather(bot, return_exceptions=True)
        if second is not None:
            await second.stop()
        if first_running:
            await first.stop()


def test_backoff_grows_to_its_cap_with_jitter_and_resets() -> None:
    waits = Backoff(first=0.5, cap=4.0)
    got = [waits.next() for _ in range(6)]
    for wait, base in zip(got, [0.5, 1.0, 2.0, 4.0, 4.0, 4.0], strict=True):
        assert 0.75 * base <= wait <= 1.25 * base
    waits.reset()
    assert waits.next() <= 0.625


async def test_stopping_a_bot_server_while_its_bots_connect_is_prompt(tmp_path: Path) -> None:
    """The bot server is stopped just as it starts the bots of a new group: on Python 3.11,
    asyncio.wait_for could swallow the cancellation of a bot whose connection was completing,
    and stopping then waited for that bot's group to time out (60 s)."""
    for i in range(4):
        (tmp_path / str(i)).mkdir()
        system = await make_system(tmp_path / str(i))
        # (Exactly this timing hit the race on the old code: login returns as the bot server
        # gets its connect complete, and the stop starts within a loop iteration or two.)
        await login(HOST, system.login_port, m.PlayerRef("alice"))
        for _ in range(i % 2):
            await asyncio.sleep(0)
        t0 = time.monotonic()
        await asyncio.wait_for(system.stop(), 10)
        assert time.monotonic() - t0 < 5
        OPEN_STORES.remove(system.records)
        system.records.close()
