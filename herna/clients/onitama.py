"""Python client for the Onitama server (seed 003): used by bots, ``herna play onitama``,
the tests and the benchmarks.

>>> # async with await OnitamaClient.connect("127.0.0.1", 7100) as client:
>>> #     await client.login("eva")
>>> #     await play(client, make_strategy("greedy"), games=1)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType

from herna.games.onitama.bots import RandomBot, Strategy
from herna.games.onitama.state import PlayerAction
from herna.protocols import onitama as proto
from herna.protocols.onitama import ClientGame, Garbage, ServerMessage

log = logging.getLogger("herna.onitama.client")

READ_LIMIT = 64 * 1024


class ClientError(Exception):
    """The server said no (``LOGIN_FAILED``) or broke the protocol."""


class OnitamaClient:
    """One TCP connection to an Onitama server; :attr:`game` follows the current game."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.game = ClientGame()
        self.sent = 0
        self.received = 0

    @classmethod
    async def connect(cls, host: str, port: int) -> OnitamaClient:
        reader, writer = await asyncio.open_connection(host, port, limit=READ_LIMIT)
        return cls(reader, writer)

    async def __aenter__(self) -> OnitamaClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def send_raw(self, data: bytes) -> None:
        """Send bytes as they are (tests use this for junk)."""
        self.writer.write(data)
        await self.writer.drain()
        self.sent += 1

    async def recv(self) -> ServerMessage | Garbage | None:
        """The next server message (None when the server closed the connection)."""
        try:
            line = await self.reader.readline()
        except (ConnectionError, asyncio.LimitOverrunError, ValueError):
            return None
        if not line:
            return None
        self.received += 1
        msg = proto.parse_server(line)
        self.game.feed(msg)
        return msg

    async def expect(self, *types: type, timeout: float = 10.0) -> ServerMessage:
        """Read until a message of one of ``types`` arrives (others are skipped)."""

        async def wait() -> ServerMessage:
            while True:
                msg = await self.recv()
                if msg is None:
                    raise ClientError("connection closed")
                if isinstance(msg, types):
                    return msg  # type: ignore[return-value]

        return await asyncio.wait_for(wait(), timeout)

    async def login(self, name: str, timeout: float = 10.0) -> proto.LoginOk:
        """Log in; raises :class:`ClientError` with the reason on ``LOGIN_FAILED``."""
        self.game.name = name
        await self.send_raw(proto.login_line(name))
        msg = await self.expect(proto.LoginOk, proto.LoginFailed, proto.Error, timeout=timeout)
        if isinstance(msg, proto.LoginFailed):
            raise ClientError(
                f"login refused: {msg.reason}" + (f" ({msg.text})" if msg.text else "")
            )
        if not isinstance(msg, proto.LoginOk):
            raise ClientError(f"login refused: {msg}")
        return msg

    async def send_action(self, action: PlayerAction) -> None:
        await self.send_raw(proto.action_line(action))

    async def close(self) -> None:
        if not self.writer.is_closing():
            self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


@dataclass
class PlayResult:
    games: int = 0
    wins: int = 0
    losses: int = 0
    moves: int = 0
    invalid: int = 0
    results: list[proto.GameOver] = field(default_factory=list)


async def play(
    client: OnitamaClient,
    strategy: Strategy,
    games: int | None = None,
    on_message: Callable[[ServerMessage | Garbage], None] | None = None,
) -> PlayResult:
    """Play with ``strategy`` until ``games`` games are over (None: until the server closes).

    A move the server refuses (``INVALID_MOVE``) is replaced by a random legal one, so a
    buggy strategy cannot stall a game.
    """
    result = PlayResult()
    fallback = RandomBot()
    waiting = False  # a move was sent and its answer has not come yet
    retry = False
    while True:
        game = client.game
        if game.my_turn() and not waiting and game.state is not None:
            chooser: Strategy = fallback if retry else strategy
            action = chooser.choose(game.state)
            await client.send_action(action)
            result.moves += 1
            waiting = True
        msg = await client.recv()
        if msg is None:
            break
        if on_message is not None:
            on_message(msg)
        if isinstance(msg, proto.InvalidMove):
            result.invalid += 1
            retry = True
            waiting = False
        elif isinstance(
            msg, proto.MoveWasMade | proto.StalemateCard | proto.Start | proto.Reconnect
        ):
            waiting = False
            retry = False
        elif isinstance(msg, proto.GameOver):
            waiting = False
            result.games += 1
            result.results.append(msg)
            if game.name is not None and proto.name_key(msg.winner) == proto.name_key(game.name):
                result.wins += 1
            else:
                result.losses += 1
            if games is not None and result.games >= games:
                break
    return result


async def run_bot(
    host: str,
    port: int,
    name: str,
    strategy: Strategy,
    games: int | None = None,
    on_message: Callable[[ServerMessage | Garbage], None] | None = None,
) -> PlayResult:
    """Connect, log in as ``name`` and play (see :func:`play`)."""
    async with await OnitamaClient.connect(host, port) as client:
        await client.login(name)
        return await play(client, strategy, games, on_message)


def monotonic() -> float:
    """The clock bots use for their time budget."""
    return time.monotonic()
