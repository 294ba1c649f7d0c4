"""Python client for Herna's tile-game server (``herna-tiles/1``, see docs/protocols/tiles.md).

:class:`TilesClient` is a thin asyncio wrapper over :class:`herna.protocols.tiles.ClientConnection`;
:func:`run_bot` plays whole games with a bot strategy (``herna bot tiles``, tests, house bots
run elsewhere in-process).

    client = await TilesClient.connect("127.0.0.1", 7200)
    await client.join("ann", "labyrinth")
    await client.start()
    async for message in client:
        ...
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from herna.core.errors import HernaError, ProtocolError
from herna.games.tiles.bots import TilesBot, make_bot
from herna.games.tiles.rules import Rules, load_rules
from herna.protocols.tiles import ClientConnection

log = logging.getLogger("herna.tiles.client")


class TilesServerError(HernaError):
    """The server answered with ``error`` where a reply was expected."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__(f"{message.get('code')}: {message.get('reason')}")
        self.message = message
        self.code = str(message.get("code"))
        self.problems: list[dict[str, str]] = list(message.get("problems") or [])


class TilesClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.conn = ClientConnection()
        self._inbox: deque[dict[str, Any]] = deque()
        self.welcome: dict[str, Any] | None = None

    @classmethod
    async def connect(
        cls, host: str = "127.0.0.1", port: int = 7200, timeout: float = 10.0
    ) -> TilesClient:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        client = cls(reader, writer)
        client.welcome = await client.expect("welcome", timeout=timeout)
        return client

    async def send(self, message: dict[str, Any]) -> None:
        self.writer.write(self.conn.send(message))
        await self.writer.drain()

    async def send_raw(self, data: bytes) -> None:
        """Bytes as they are (tests of the server's error handling)."""
        self.writer.write(data)
        await self.writer.drain()

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next server message; raises ConnectionError when the server hangs up."""
        while not self._inbox:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
            if not data:
                raise ConnectionError("the server closed the connection")
            for message in self.conn.receive_data(data):
                if isinstance(message, ProtocolError):
                    log.warning("unreadable message from the server: %s", message.reason)
                    continue
                self._inbox.append(message)
        return self._inbox.popleft()

    async def expect(self, *types: str, timeout: float | None = 30.0) -> dict[str, Any]:
        """The next message of one of ``types`` (others are skipped); an ``error`` raises."""
        while True:
            message = await self.recv(timeout)
            if message["type"] in types:
                return message
            if message["type"] == "error" and "error" not in types:
                raise TilesServerError(message)

    async def join(
        self,
        name: str,
        rules: str | dict[str, Any] | None = None,
        table: str | None = None,
        kind: str = "human",
    ) -> dict[str, Any]:
        """Sit down; returns the ``joined`` message (raises :class:`TilesServerError`)."""
        self.writer.write(self.conn.join(name, rules, table, kind))
        await self.writer.drain()
        return await self.expect("joined")

    async def start(self) -> None:
        await self.send({"type": "start"})

    async def act(self, action: dict[str, Any]) -> None:
        self.writer.write(self.conn.act(action))
        await self.writer.drain()

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()

    def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            try:
                yield await self.recv()
            except ConnectionError:
                return


@dataclass
class BotRun:
    """What :func:`run_bot` saw: one ``game_over`` message per game, and errors."""

    games: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    actions: int = 0


async def run_bot(
    host: str,
    port: int,
    name: str,
    rules: str | dict[str, Any],
    strategy: str = "goal",
    games: int = 1,
    seed: int = 0,
    start: bool = True,
    on_message: Callable[[dict[str, Any]], None] | None = None,
) -> BotRun:
    """Connect, join a table for ``rules`` and play ``games`` games with ``strategy``."""
    client = await TilesClient.connect(host, port)
    run = BotRun()
    try:
        while len(run.games) < games:
            joined = await client.join(name, rules, kind="bot")
            parsed: Rules = load_rules(joined["rules"], str(joined.get("rules_name", "")))
            bot: TilesBot = make_bot(strategy, parsed, seed + len(run.games))
            if start:
                await client.start()
            while True:
                message = await client.recv()
                if on_message is not None:
                    on_message(message)
                kind = message["type"]
                if kind == "your_turn":
                    choice = bot.choose(message["view"], message["actions"])
                    await client.act(dict(choice))
                    run.actions += 1
                elif kind == "error":
                    run.errors.append(message)
                    log.info(
                        "%s: server error %s: %s", name, message.get("code"), message.get("reason")
                    )
                elif kind == "game_over":
                    run.games.append(message)
                    break
    finally:
        await client.close()
    return run
