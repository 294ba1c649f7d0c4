"""``herna bot tiles`` outlives its server: the server stops, a new one starts on the same port,
and the bot (TCP and WebSocket) says what happened, knocks again with backoff and plays on."""

from __future__ import annotations

import asyncio
import doctest
import itertools
from pathlib import Path
from typing import Any

import pytest

import herna.clients.tiles
from herna.cli import main
from herna.clients.tiles import backoff_delays, run_bot
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.tiles import TilesService, TilesSettings, serve
from herna.web.live import LiveSettings
from herna.web.plugin import WebHall
from tests.tiles.helpers import race

SLOW: dict[str, Any] = {"bot_delay": 0.2, "showcase": False, "lobby_wait": 0.0}
"""The first server's house bot takes its time, so the game is still on when it stops."""


async def start_tiles(db: Path, port: int, **settings: Any) -> tuple[Hall, TilesService]:
    hall = Hall(records=RecordStore(f"sqlite:///{db}"))
    service = await serve(hall, port=port, settings=TilesSettings(**{**SLOW, **settings}))
    hall.add(service)
    return hall, service


async def stop(hall: Hall) -> None:
    await hall.stop()
    hall.records.close()


async def until_playing(service: TilesService, name: str) -> None:
    for _ in range(500):
        if any(t.status == "playing" and name in t.names() for t in service.hub.tables.values()):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{name} never sat down at a game")


def finished_by(hall: Hall, name: str) -> list[str]:
    hall.records.flush()
    return [
        m.status for m in hall.records.matches(game="tiles") if name in {p.name for p in m.players}
    ]


def test_backoff_doubles_up_to_its_limit() -> None:
    delays = list(itertools.islice(backoff_delays(0.5, 3.0), 6))
    for delay, base in zip(delays, [0.5, 1.0, 2.0, 3.0, 3.0, 3.0], strict=True):
        assert base <= delay <= base * 1.1
    assert doctest.testmod(herna.clients.tiles).failed == 0


async def test_herna_bot_tiles_over_tcp_rejoins_a_restarted_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hall, service = await start_tiles(tmp_path / "one.db", 0)
    port = service.port
    argv = ["bot", "tiles", "--port", str(port), "--rules", "tsuro", "--name", "robo"]
    argv += ["--strategy", "random", "--max-backoff", "0.3"]
    bot = asyncio.ensure_future(asyncio.to_thread(main, argv))
    try:
        await until_playing(service, "robo")
        await stop(hall)  # the game in progress is aborted, the connection closed
        await asyncio.sleep(0.8)  # the bot knocks at least once in vain
        hall, service = await start_tiles(tmp_path / "two.db", port, bot_delay=0.0, max_rounds=8)
        assert await asyncio.wait_for(bot, 30) == 0
        assert finished_by(hall, "robo") == ["finished"]
    finally:
        bot.cancel()
        await stop(hall)
    out = capsys.readouterr().out
    address = f"127.0.0.1:{port}"
    assert f"robo: lost the tile server at {address}" in out
    assert f"robo: reconnecting to {address} in " in out
    assert f"robo: no tile server at {address} yet" in out
    assert f"robo: reconnected to {address}; joining a table again as robo" in out
    assert "robo: 1 game(s)" in out and "1 aborted, 1 reconnect(s)" in out


async def test_a_websocket_bot_rejoins_a_restarted_web_hall(tmp_path: Path) -> None:
    hall, service = await start_tiles(tmp_path / "one.db", 0)
    web = WebHall(hall, LiveSettings(interval=0.05))
    await web.start("127.0.0.1", 0)
    hall.add(web)
    url = f"ws://127.0.0.1:{web.port}/ws/tiles"
    said: list[str] = []
    bot = asyncio.ensure_future(
        run_bot(url, 0, "robo", race(), "random", 2, max_backoff=0.3, on_status=said.append)
    )
    try:
        await until_playing(service, "robo")
        await stop(hall)
        await asyncio.sleep(0.8)
        hall, service = await start_tiles(tmp_path / "two.db", 0, bot_delay=0.0)
        web2 = WebHall(hall, LiveSettings(interval=0.05))
        await web2.start("127.0.0.1", web.port)
        hall.add(web2)
        run = await asyncio.wait_for(bot, 30)
        assert finished_by(hall, "robo") == ["finished", "finished"]
    finally:
        bot.cancel()
        await stop(hall)
    assert len(run.games) == 2 and run.aborted == 1 and run.reconnects == 1
    assert said[0].startswith(f"lost the tile server at {url}")
    assert any(s.startswith(f"no tile server at {url} yet") for s in said)
    assert said[-1] == f"reconnected to {url}; joining a table again as robo"


async def test_without_reconnect_the_bot_stops_when_the_server_goes(tmp_path: Path) -> None:
    hall, service = await start_tiles(tmp_path / "one.db", 0)
    bot = asyncio.ensure_future(
        run_bot("127.0.0.1", service.port, "robo", race(), "random", reconnect=False)
    )
    try:
        await until_playing(service, "robo")
    finally:
        await stop(hall)
    with pytest.raises(ConnectionError):
        await asyncio.wait_for(bot, 10)
