"""Python client for Herna's tile-game server (``herna-tiles/1``, see docs/protocols/tiles.md).

:class:`TilesClient` is a thin asyncio wrapper over :class:`herna.protocols.tiles.ClientConnection`;
:func:`run_bot` plays whole games with a bot strategy (``herna bot tiles``, tests, house bots
run elsewhere in-process).

The address picks the transport; the messages and all protocol handling are the same:

    client = await TilesClient.connect("127.0.0.1", 7200)              # TCP, one line each
    client = await TilesClient.connect("tcp://127.0.0.1:7200")         # the same, as a URL
    client = await TilesClient.connect("ws://127.0.0.1:8080/ws/tiles") # WebSocket (web hall)
    await client.join("ann", "labyrinth")
    await client.start()
    async for message in client:
        ...
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection as WebSocketConnection
from websockets.asyncio.client import connect as websocket_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from herna.core.errors import HernaError, ProtocolError
from herna.games.tiles.bots import TilesBot, make_bot
from herna.games.tiles.rules import Rules, load_rules
from herna.protocols.tiles import ClientConnection

log = logging.getLogger("herna.tiles.client")

DEFAULT_PORT = 7200
"""The tile server's TCP port (``tcp://HOST`` without a port)."""
SCHEMES = ("tcp", "ws", "wss")


class TilesServerError(HernaError):
    """The server answered with ``error`` where a reply was expected."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__(f"{message.get('code')}: {message.get('reason')}")
        self.message = message
        self.code = str(message.get("code"))
        self.problems: list[dict[str, str]] = list(message.get("problems") or [])


def check_address(host: str) -> None:
    """Raise ValueError unless ``host`` is a host name or a URL this client can connect to."""
    if "://" not in host:
        return
    try:
        parts = urlsplit(host)
        _ = parts.port  # raises ValueError for a port that is not a number
    except ValueError as exc:
        raise ValueError(f"bad server address {host!r}: {exc}") from None
    if parts.scheme.lower() not in SCHEMES or not parts.hostname:
        raise ValueError(
            f"bad server address {host!r}: use tcp://HOST:PORT, ws://HOST:PORT/ws/tiles "
            "or wss://HOST:PORT/ws/tiles"
        )


def describe_address(host: str, port: int) -> str:
    """The address as people read it in messages."""
    return host if "://" in host else f"{host}:{port}"


class Transport(Protocol):
    """How a :class:`TilesClient` moves encoded messages (newline-terminated lines)."""

    async def write(self, data: bytes) -> None:
        """Send encoded messages, one per line."""
        ...

    async def write_raw(self, data: bytes | str) -> None:
        """Send data as it is (tests of the server's error handling)."""
        ...

    async def read(self) -> bytes:
        """Received messages as newline-terminated lines; ``b""`` once the server closed."""
        ...

    def closed_because(self) -> str:
        """Why the server closed, if it said ("" otherwise)."""
        ...

    async def close(self) -> None: ...


class TcpTransport:
    """JSON lines over TCP: bytes as they are."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, host: str, port: int) -> TcpTransport:
        return cls(*await asyncio.open_connection(host, port))

    async def write(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def write_raw(self, data: bytes | str) -> None:
        await self.write(data.encode("utf-8") if isinstance(data, str) else data)

    async def read(self) -> bytes:
        return await self.reader.read(65536)

    def closed_because(self) -> str:
        return ""

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


class WebSocketTransport:
    """The same messages over WebSocket: one text frame per message, without the newline."""

    def __init__(self, ws: WebSocketConnection) -> None:
        self.ws = ws

    @classmethod
    async def open(cls, url: str, max_size: int, timeout: float) -> WebSocketTransport:
        try:
            ws = await websocket_connect(
                url, max_size=max_size, open_timeout=timeout, compression=None
            )
        except InvalidHandshake as exc:
            raise ConnectionError(
                f"no WebSocket at {url}: {exc} (the web hall serves the tile protocol at "
                "ws://HOST:PORT/ws/tiles)"
            ) from exc
        except InvalidURI as exc:
            raise ValueError(f"bad server address {url!r}: {exc}") from exc
        return cls(ws)

    async def write(self, data: bytes) -> None:
        try:
            for line in data.split(b"\n"):
                if line:
                    await self.ws.send(line.decode("utf-8"))
        except ConnectionClosed as exc:
            raise ConnectionError(f"the server closed the connection ({exc})") from exc

    async def write_raw(self, data: bytes | str) -> None:
        """One frame: text for ``str``, binary for ``bytes``."""
        try:
            await self.ws.send(data)
        except ConnectionClosed as exc:
            raise ConnectionError(f"the server closed the connection ({exc})") from exc

    async def read(self) -> bytes:
        try:
            frame = await self.ws.recv()
        except ConnectionClosed:
            return b""
        data = frame.encode("utf-8") if isinstance(frame, str) else frame
        return data + b"\n"

    def closed_because(self) -> str:
        code, reason = self.ws.close_code, self.ws.close_reason
        if code is None:
            return ""
        return f"close code {code}" + (f": {reason}" if reason else "")

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()


class TilesClient:
    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.conn = ClientConnection()
        self._inbox: deque[dict[str, Any]] = deque()
        self.welcome: dict[str, Any] | None = None

    @classmethod
    async def connect(
        cls, host: str = "127.0.0.1", port: int = DEFAULT_PORT, timeout: float = 10.0
    ) -> TilesClient:
        """Connect and wait for the server's ``welcome``.

        ``host`` is a host name (TCP to ``host:port``) or a URL, which picks the transport:
        ``tcp://HOST:PORT`` (JSON lines), ``ws://HOST:PORT/ws/tiles`` or ``wss://…``
        (WebSocket through the web hall); ``port`` is then ignored. Raises ValueError for an
        address it cannot use and ConnectionError (an OSError) when there is no server."""
        check_address(host)
        transport: Transport
        if "://" not in host:
            transport = await asyncio.wait_for(TcpTransport.open(host, port), timeout)
        else:
            parts = urlsplit(host)
            if parts.scheme.lower() == "tcp":
                address = (parts.hostname or "127.0.0.1", parts.port or DEFAULT_PORT)
                transport = await asyncio.wait_for(TcpTransport.open(*address), timeout)
            else:
                transport = await WebSocketTransport.open(host, cls.max_message(), timeout)
        client = cls(transport)
        try:
            client.welcome = await client.expect("welcome", timeout=timeout)
        except BaseException:
            await transport.close()
            raise
        return client

    @staticmethod
    def max_message() -> int:
        """Longest server message accepted (as over TCP)."""
        return ClientConnection().framer.limit

    async def send(self, message: dict[str, Any]) -> None:
        await self.transport.write(self.conn.send(message))

    async def send_raw(self, data: bytes | str) -> None:
        """Data as it is (tests of the server's error handling): over TCP the bytes (or the
        UTF-8 of the text), over WebSocket one frame (binary for bytes, text for str)."""
        await self.transport.write_raw(data)

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next server message; raises ConnectionError when the server hangs up."""
        while not self._inbox:
            data = await asyncio.wait_for(self.transport.read(), timeout)
            if not data:
                why = self.transport.closed_because()
                raise ConnectionError(
                    "the server closed the connection" + (f" ({why})" if why else "")
                )
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
        token: str | None = None,
        seek: str | None = None,
    ) -> dict[str, Any]:
        """Sit down; returns the ``joined`` message (raises :class:`TilesServerError`).

        ``token`` proves a reserved name (``herna bots add NAME``); ``seek`` is the hall
        lobby's seek (Herna extension, docs/protocols/tiles.md "The lobby"). A tournament's
        seek (``tournament=ID``) waits for its booked table as long as it takes."""
        await self.transport.write(self.conn.join(name, rules, table, kind, token, seek))
        waits = seek is not None and "tournament=" in seek
        return await self.expect("joined", timeout=None if waits else 30.0)

    async def start(self) -> None:
        await self.send({"type": "start"})

    async def act(self, action: dict[str, Any]) -> None:
        await self.transport.write(self.conn.act(action))

    async def close(self) -> None:
        await self.transport.close()

    def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            try:
                yield await self.recv()
            except ConnectionError:
                return


DEFAULT_MAX_BACKOFF = 30.0
"""Longest wait between two attempts to reach a lost server again (seconds)."""
FIRST_BACKOFF = 0.5
TOURNAMENT_OVER = "TOURNAMENT_OVER"
RETRYABLE_REFUSALS = ("NAME_TAKEN",)
"""Refusals of a rejoin that pass by themselves: the server may not have noticed yet that the
bot's old connection is gone."""


@dataclass
class BotRun:
    """What :func:`run_bot` saw: one ``game_over`` message per finished game, and errors."""

    games: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    actions: int = 0
    aborted: int = 0
    """Games that ended without a result (the server stopped or lost them)."""
    reconnects: int = 0
    """Times the bot found the server again after losing it."""
    seated: bool = False
    """At a table right now (a game lost with the connection counts as aborted)."""


def backoff_delays(
    first: float = FIRST_BACKOFF, longest: float = DEFAULT_MAX_BACKOFF
) -> Iterator[float]:
    """Waits between attempts: ``first``, doubling up to ``longest``, each with up to 10 %
    jitter so that many bots of one lost server do not all knock again at the same moment.

    >>> from itertools import islice
    >>> [int(d) for d in islice(backoff_delays(1.0, 8.0), 6)]
    [1, 2, 4, 8, 8, 8]
    """
    delay = first
    while True:
        yield min(delay, longest) * (1 + random.random() / 10)
        delay = min(delay * 2, longest)


async def run_bot(
    host: str,
    port: int,
    name: str,
    rules: str | dict[str, Any] | None,
    strategy: str = "goal",
    games: int = 1,
    seed: int = 0,
    start: bool = True,
    on_message: Callable[[dict[str, Any]], None] | None = None,
    token: str | None = None,
    reconnect: bool = True,
    max_backoff: float = DEFAULT_MAX_BACKOFF,
    on_status: Callable[[str], None] | None = None,
    tournament: int | None = None,
) -> BotRun:
    """Connect, join a table for ``rules`` and play ``games`` games with ``strategy``.

    With ``tournament`` the bot waits for its games of that live tournament instead (the
    join's seek ``tournament=ID``; ``rules`` may then be None: the tournament's own), joins
    again after each game and returns when the server says the tournament is over
    (``games`` is then ignored).

    ``host`` may be a URL (``tcp://…``, ``ws://HOST:PORT/ws/tiles``): see
    :meth:`TilesClient.connect`. The first connection must succeed (a wrong address fails at
    once). Afterwards, with ``reconnect``, a lost server is knocked at again with growing
    pauses (up to ``max_backoff`` seconds) until it answers; the bot then joins a new table
    and plays on. The game it was playing is lost (counted in :attr:`BotRun.aborted`).
    ``on_status`` hears each of these events in a sentence."""

    def say(text: str) -> None:
        log.info("%s: %s", name, text)
        if on_status is not None:
            on_status(text)

    address = describe_address(host, port)
    run = BotRun()
    client: TilesClient | None = await TilesClient.connect(host, port)
    while True:
        try:
            if client is None:
                client = await _reconnect(host, port, name, max_backoff, say)
                run.reconnects += 1
            await _play(
                client,
                run,
                name,
                rules,
                strategy,
                games,
                seed,
                start,
                on_message,
                token,
                tournament,
            )
            return run
        except TilesServerError as exc:
            if tournament is not None and exc.code == TOURNAMENT_OVER:
                say("the tournament is over")
                return run
            if not (reconnect and run.reconnects and exc.code in RETRYABLE_REFUSALS):
                raise
            say(f"the server refused the rejoin ({exc}); trying again")
        except OSError as exc:  # ConnectionError, TimeoutError: the server is gone
            if run.seated:
                run.aborted += 1
                run.seated = False
            if not reconnect:
                raise
            say(f"lost the tile server at {address} ({exc or type(exc).__name__})")
        finally:
            if client is not None:
                await client.close()
                client = None


async def _reconnect(
    host: str, port: int, name: str, max_backoff: float, say: Callable[[str], None]
) -> TilesClient:
    """Knock at the server until it answers, waiting longer after each failure."""
    address = describe_address(host, port)
    for attempt, delay in enumerate(backoff_delays(FIRST_BACKOFF, max_backoff), 1):
        say(f"reconnecting to {address} in {delay:.1f} s (attempt {attempt})")
        await asyncio.sleep(delay)
        try:
            client = await TilesClient.connect(host, port)
        except OSError as exc:
            say(f"no tile server at {address} yet ({exc or type(exc).__name__})")
            continue
        say(f"reconnected to {address}; joining a table again as {name}")
        return client
    raise AssertionError("backoff_delays never ends")


async def _play(
    client: TilesClient,
    run: BotRun,
    name: str,
    rules: str | dict[str, Any] | None,
    strategy: str,
    games: int,
    seed: int,
    start: bool,
    on_message: Callable[[dict[str, Any]], None] | None,
    token: str | None,
    tournament: int | None = None,
) -> None:
    """Play on ``client`` until ``run`` holds ``games`` finished games (in a tournament:
    until the server says it is over)."""
    seek = f"tournament={tournament}" if tournament is not None else None
    while tournament is not None or len(run.games) < games:
        joined = await client.join(name, rules, kind="bot", token=token, seek=seek)
        run.seated = True
        parsed: Rules = load_rules(joined["rules"], str(joined.get("rules_name", "")))
        bot: TilesBot = make_bot(strategy, parsed, seed + len(run.games) + run.aborted)
        if start and tournament is None:
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
                run.seated = False
                if message["result"].get("returns") is None:
                    run.aborted += 1  # stopped without a result: not one of the games asked for
                else:
                    run.games.append(message)
                break
