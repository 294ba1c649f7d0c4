"""Connections that never log in are closed with ``ERROR|LOGIN_TIMEOUT`` (a Herna extension),
so silent clients cannot hold the server's descriptors forever; nobody else notices."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.onitama.wire import real_clock, running


async def test_a_silent_connection_is_closed_after_the_login_timeout(tmp_path: Path) -> None:
    async with running(tmp_path, login_timeout=60.0) as server:
        silent = await server.wire()
        bad_name = await server.wire()
        assert (await bad_name.login("no spaces allowed")).startswith("LOGIN_FAILED|")
        white, black, _ = await server.pair()
        gone = await server.wire()
        await gone.close()  # its timer must not fire on a closed connection
        await server.settle()
        server.clock.advance(59.9)
        assert await silent.quiet()
        server.clock.advance(0.2)
        assert await silent.line() == "ERROR|LOGIN_TIMEOUT"
        assert await silent.eof()
        assert await bad_name.line() == "ERROR|LOGIN_TIMEOUT"
        assert await bad_name.eof()
        # the players who logged in in time are untouched and keep playing
        assert await white.quiet()
        assert await black.quiet()
        await white.send("MAKE_MOVE|Ox|c1|c2")
        reply = await white.line()
        assert reply.startswith(("MOVE_WAS_MADE|", "INVALID_MOVE"))
        assert server.service.hub.deadlines.expired == 2
        assert server.service.snapshot()["connections"] == 2


async def test_logging_in_late_but_in_time_cancels_the_timer(tmp_path: Path) -> None:
    async with running(tmp_path, login_timeout=10.0) as server:
        wire = await server.wire()
        server.clock.advance(9.0)
        assert await wire.login("late") == "LOGIN_OK|late"
        server.clock.advance(3600.0)
        assert await wire.quiet()
        assert server.service.hub.deadlines.expired == 0


async def test_zero_disables_the_login_timeout(tmp_path: Path) -> None:
    async with running(tmp_path, login_timeout=0.0) as server:
        wire = await server.wire()
        server.clock.advance(1e6)
        assert await wire.quiet()
        assert await wire.login("patient") == "LOGIN_OK|patient"


async def test_silent_clients_are_dropped_while_house_bots_play_on(tmp_path: Path) -> None:
    async with running(
        tmp_path,
        clock=real_clock(),
        login_timeout=0.3,
        house_bots=2,
        house_bot_delay=0.0,
        house_bot_strategy="random",
    ) as server:
        hub = server.service.hub
        silent = [await server.wire() for _ in range(20)]
        for wire in silent:
            assert await wire.line(timeout=5) == "ERROR|LOGIN_TIMEOUT"
            assert await wire.eof()
        moves = hub.stats.moves
        finished = hub.stats.games_finished
        for _ in range(200):
            await asyncio.sleep(0.05)
            if hub.stats.moves > moves and hub.stats.games_finished > finished:
                break
        assert hub.stats.moves > moves, "the house bots' game stopped"
        assert hub.deadlines.expired == 20
        assert {p.kind for p in hub.players.values()} == {"house-bot"}
