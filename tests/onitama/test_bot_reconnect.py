"""``herna bot onitama`` comes back after losing its server (real sockets, real time)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from herna.clients.onitama import run_bot
from herna.games.onitama.bots import make_strategy
from tests.onitama.wire import Server, real_clock, running


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def until(check: Callable[[], bool], timeout: float = 20.0) -> None:
    async def wait() -> None:
        while not check():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), timeout)


def finished_by(server: Server, name: str) -> int:
    server.hall.records.flush()
    matches = server.hall.records.matches(game="onitama")
    return sum(1 for m in matches if m.status == "finished" and name in {p.name for p in m.players})


async def test_the_bot_logs_in_again_after_a_server_restart(tmp_path: Path) -> None:
    port = free_port()
    said: list[str] = []

    def serve(path: Path) -> AbstractAsyncContextManager[Server]:
        return running(
            path,
            clock=real_clock(),
            port=port,
            house_bots=1,
            house_bot_delay=0.0,
            house_bot_depth=1,
        )

    async with serve(tmp_path / "first") as first:
        bot = asyncio.create_task(
            run_bot(
                "127.0.0.1",
                port,
                "rex",
                make_strategy("random", seed=3),
                reconnect=True,
                say=said.append,
            )
        )
        await until(lambda: finished_by(first, "rex") >= 1)
    # the first server is gone; a new one comes up on the same port
    async with serve(tmp_path / "second") as second:
        await until(lambda: finished_by(second, "rex") >= 2)
        bot.cancel()
    assert said[0] == "logged in as rex; waiting for a game"
    assert said[1] == "lost the server, reconnecting in 0.5 s"
    assert "logged in again as rex" in said


async def test_the_bot_takes_its_seat_back_when_its_connection_drops(tmp_path: Path) -> None:
    said: list[str] = []
    async with running(
        tmp_path, clock=real_clock(), house_bots=1, house_bot_delay=0.2, house_bot_depth=1
    ) as server:
        hub = server.service.hub
        bot = asyncio.create_task(
            run_bot(
                "127.0.0.1",
                server.port,
                "rex",
                make_strategy("random", seed=4),
                games=1,
                reconnect=True,
                say=said.append,
            )
        )
        await until(lambda: any(t.moves >= 2 for t in hub.tables.values()))
        rex = hub.players["rex"]
        assert rex.client is not None
        rex.client.peer.transport.abort()  # type: ignore[attr-defined]  # the network fails
        result = await asyncio.wait_for(bot, 30)
        assert result.games == 1
        assert hub.stats.reconnects == 1
        assert said == [
            "logged in as rex; waiting for a game",
            "lost the server, reconnecting in 0.5 s",
            "logged in again as rex",
        ]
        server.hall.records.flush()
        [match] = server.hall.records.matches(game="onitama")
        assert match.status == "finished" and match.result["reason"] != "forfeit"
