"""Python client library for the Mia UDP server, and the loop that lets a bot play.

>>> # async with MiaClient("127.0.0.1", 9000, "alice") as client:
>>> #     await client.register()
>>> #     await play(client, make_bot("probability"))
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Callable
from types import TracebackType

from herna.games.mia.bots import STRATEGIES, MiaBot, RoundSummary, TurnView, make_bot
from herna.games.mia.dice import Dice, InvalidDice
from herna.protocols.mia import (
    ActualDice,
    Announced,
    PlayerLost,
    Registered,
    Rejected,
    Rolled,
    RoundStarted,
    RoundStarting,
    ServerMessage,
    YourTurn,
    parse_server,
)

log = logging.getLogger("herna.mia.client")


class MiaError(Exception):
    pass


class _Protocol(asyncio.DatagramProtocol):
    def __init__(
        self, queue: asyncio.Queue[ServerMessage | None], transcript: list[str] | None
    ) -> None:
        self.queue = queue
        self.transcript = transcript

    def datagram_received(self, data: bytes, addr: tuple[str | object, int]) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return
        if self.transcript is not None:
            self.transcript.append(text)
        self.queue.put_nowait(parse_server(text))

    def error_received(self, exc: Exception) -> None:
        log.debug("UDP error: %s", exc)

    def connection_lost(self, exc: Exception | None) -> None:
        self.queue.put_nowait(None)


class MiaClient:
    """One registered name on a Mia server (a player or a spectator)."""

    def __init__(
        self, host: str, port: int, name: str, spectator: bool = False, transcript: bool = False
    ) -> None:
        self.host, self.port, self.name, self.spectator = host, port, name, spectator
        self.transcript: list[str] | None = [] if transcript else None
        """Every line received, in order, when asked for (tests and tools use it)."""
        self.queue: asyncio.Queue[ServerMessage | None] = asyncio.Queue()
        self.transport: asyncio.DatagramTransport | None = None
        self.sent = 0
        self.on_send: Callable[[str], None] | None = None

    async def connect(self) -> None:
        loop = asyncio.get_running_loop()
        self.transport, _ = await loop.create_datagram_endpoint(
            lambda: _Protocol(self.queue, self.transcript), remote_addr=(self.host, self.port)
        )

    async def __aenter__(self) -> MiaClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object | type[BaseException] | TracebackType | None) -> None:
        self.close()

    def send(self, line: str) -> None:
        if self.transport is None:
            raise MiaError("not connected")
        self.transport.sendto(line.encode("utf-8"))
        self.sent += 1
        if self.on_send is not None:
            self.on_send(line)

    async def register(self, timeout: float = 2.0, attempts: int = 3) -> None:
        """REGISTER (or REGISTER_SPECTATOR); raises :class:`MiaError` if rejected."""
        command = "REGISTER_SPECTATOR" if self.spectator else "REGISTER"
        for _ in range(attempts):
            self.send(f"{command};{self.name}")
            try:
                async with asyncio.timeout(timeout):
                    while True:
                        msg = await self.receive()
                        if isinstance(msg, Registered):
                            return
                        if isinstance(msg, Rejected):
                            raise MiaError(f"registration of {self.name!r} rejected: {msg.reason}")
            except TimeoutError:
                continue
        raise MiaError(f"no answer from {self.host}:{self.port}")

    async def receive(self) -> ServerMessage:
        msg = await self.queue.get()
        if msg is None:
            raise MiaError("connection closed")
        return msg

    async def messages(self) -> AsyncIterator[ServerMessage]:
        while True:
            yield await self.receive()

    def unregister(self) -> None:
        self.send("UNREGISTER")

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
            self.transport = None


async def play(client: MiaClient, bot: MiaBot, rounds: int | None = None) -> int:
    """Answer the server for ``bot`` until ``rounds`` rounds ended (forever if None).
    Returns the number of rounds seen end."""
    players: tuple[str, ...] = ()
    announcements: list[tuple[str, Dice]] = []
    revealed: Dice | None = None
    finished = 0

    def view() -> TurnView:
        return TurnView(client.name, players, tuple(announcements))

    async for msg in client.messages():
        if isinstance(msg, RoundStarting):
            client.send(f"JOIN;{msg.token}")
        elif isinstance(msg, RoundStarted):
            players, announcements, revealed = msg.players, [], None
        elif isinstance(msg, YourTurn):
            client.send(f"{bot.decide(view())};{msg.token}")
        elif isinstance(msg, Rolled):
            try:
                rolled = Dice.parse(msg.dice)
            except InvalidDice:
                continue
            client.send(f"ANNOUNCE;{bot.announce(view(), rolled)};{msg.token}")
        elif isinstance(msg, Announced):
            with contextlib.suppress(InvalidDice):
                announcements.append((msg.name, Dice.parse(msg.dice)))
        elif isinstance(msg, ActualDice):
            with contextlib.suppress(InvalidDice):
                revealed = Dice.parse(msg.dice)
        elif isinstance(msg, PlayerLost):
            bot.round_over(
                RoundSummary(players, tuple(announcements), revealed, msg.names, msg.reason)
            )
            finished += 1
            if rounds is not None and finished >= rounds:
                return finished
    return finished


async def run_bot(
    host: str,
    port: int,
    name: str,
    strategy: str,
    rounds: int | None = None,
    seed: int | None = None,
) -> int:
    """Register ``name`` and play with ``strategy`` (re-registering after errors)."""
    bot = make_bot(strategy, random.Random(seed))
    async with MiaClient(host, port, name) as client:
        await client.register()
        try:
            return await play(client, bot, rounds)
        finally:
            client.unregister()


def house_bot_names(count: int) -> list[tuple[str, str]]:
    """``(name, strategy)`` of ``count`` house bots, cycling through the strategies:
    house-honest, house-prob, house-random, house-honest2 ..."""
    names = {"honest": "house-honest", "probability": "house-prob", "random": "house-random"}
    order = ["honest", "probability", "random"]
    out = []
    for i in range(count):
        strategy = order[i % len(order)]
        out.append(
            (names[strategy] + (str(i // len(order) + 1) if i >= len(order) else ""), strategy)
        )
    return out


def run_house_bots(host: str, port: int, count: int) -> list[asyncio.Task[None]]:
    """Start ``count`` house bots (see :func:`house_bot_names`) as background tasks."""

    async def keep_playing(name: str, strategy: str) -> None:
        while True:
            try:
                await run_bot(host, port, name, strategy)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a house bot must not die for good
                log.warning("house bot %s: %s; restarting", name, exc)
                await asyncio.sleep(1.0)

    return [
        asyncio.create_task(keep_playing(name, strategy), name=f"mia-{name}")
        for name, strategy in house_bot_names(count)
    ]


__all__ = [
    "STRATEGIES",
    "MiaClient",
    "MiaError",
    "house_bot_names",
    "play",
    "run_bot",
    "run_house_bots",
]
