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


RETRY_FIRST = 0.5
RETRY_MAX = 10.0
"""Backoff of a bot that lost its server: 0.5 s, doubling, at most 10 s between attempts."""


class ClientError(Exception):
    """The server said no (``LOGIN_FAILED``) or broke the protocol."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        """The ``LOGIN_FAILED`` reason, when that is what happened."""


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

    async def login(
        self,
        name: str,
        proof: str | None = None,
        timeout: float = 10.0,
        seek: str | None = None,
    ) -> proto.LoginOk:
        """Log in, presenting ``proof`` (the name's token, or the seat secret of a game to
        come back to) if given, and the hall lobby's ``seek`` words (e.g. ``tournament=3``;
        Herna extension) if given; raises :class:`ClientError` with the reason on
        ``LOGIN_FAILED``."""
        self.game.name = name
        await self.send_raw(proto.login_line(name, proof, seek))
        msg = await self.expect(proto.LoginOk, proto.LoginFailed, proto.Error, timeout=timeout)
        if isinstance(msg, proto.LoginFailed):
            text = f" ({msg.text})" if msg.text else ""
            raise ClientError(f"login refused: {msg.reason}{text}", msg.reason)
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

    def merge(self, other: PlayResult) -> None:
        self.games += other.games
        self.wins += other.wins
        self.losses += other.losses
        self.moves += other.moves
        self.invalid += other.invalid
        self.results += other.results


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
            try:
                await client.send_action(action)
            except (ConnectionError, OSError):
                break  # the server is gone; the caller decides whether to come back
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
    *,
    token: str | None = None,
    reconnect: bool = False,
    say: Callable[[str], None] | None = None,
    retry_first: float = RETRY_FIRST,
    retry_max: float = RETRY_MAX,
    seek: str | None = None,
) -> PlayResult:
    """Connect, log in as ``name`` (with the name's ``token`` if it is reserved, and the
    lobby's ``seek`` words if given: ``tournament=ID`` waits for that live tournament's
    games) and play (see :func:`play`).

    With ``reconnect`` a bot that loses its server connects and logs in again, waiting
    ``retry_first`` seconds and twice as long after each failed attempt (at most
    ``retry_max``), and goes on until ``games`` games are over: back at its seat with the seat
    secret if the server still holds its game, or as a new player of a restarted server.
    ``say`` hears what it does ("lost the server, reconnecting in 2 s", "logged in again").
    The first connection and login are not retried: a wrong address or name fails at once.
    """
    tell = say or log.info
    total = PlayResult()
    delay = retry_first
    secret: str | None = None  # the seat secret of the game in progress
    lost = False
    over = False  # the server said the tournament we came for is over

    def heard(msg: ServerMessage | Garbage) -> None:
        nonlocal over
        if isinstance(msg, proto.Error) and msg.reason == proto.TOURNAMENT_OVER:
            over = True
        if on_message is not None:
            on_message(msg)

    while True:
        try:
            client = await OnitamaClient.connect(host, port)
        except OSError as exc:
            if not lost:
                raise
            tell(f"cannot reach {host}:{port} ({exc.strerror or exc}); retrying in {delay:g} s")
            await asyncio.sleep(delay)
            delay = min(delay * 2, retry_max)
            continue
        async with client:
            try:
                await client.login(name, token or secret, seek=seek)
            except ClientError as exc:
                if not lost or exc.code not in (proto.NAME_IN_USE, proto.BAD_TOKEN) or token:
                    raise
                # Our old connection may not be noticed yet, or our seat secret belongs to
                # a game this server never saw: try again, with nothing but the name.
                secret = None
                tell(f"login refused ({exc.code}); retrying in {delay:g} s")
                await asyncio.sleep(delay)
                delay = min(delay * 2, retry_max)
                continue
            tell(
                f"logged in again as {name}" if lost else f"logged in as {name}; waiting for a game"
            )
            delay = retry_first
            client.game.secret = secret
            left = None if games is None else games - total.games
            result = await play(client, strategy, left, heard)
            total.merge(result)
            secret = client.game.secret if client.game.in_game else None
        if over:
            tell("the tournament is over")
            return total
        if not reconnect or (games is not None and total.games >= games):
            return total
        lost = True
        tell(f"lost the server, reconnecting in {delay:g} s")
        await asyncio.sleep(delay)
        delay = min(delay * 2, retry_max)


def monotonic() -> float:
    """The clock bots use for their time budget."""
    return time.monotonic()
