"""Python client library for the Mia UDP server, and the loop that lets a bot play.

>>> # async with MiaClient("127.0.0.1", 9000, "alice") as client:
>>> #     await client.register()
>>> #     await play(client, make_bot("probability"))

:func:`run_bot` is what ``herna bot mia`` and the house bots run: it registers, plays, and
when the server falls silent (no datagram for a few seconds, though a registered client gets
``HEARTBEAT`` every 2 s) registers again with backoff, so a server restart or a lost
registration does not end the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Callable, Mapping
from types import TracebackType

from herna.games.mia.bots import STRATEGIES, MiaBot, RoundSummary, TurnView, make_bot
from herna.games.mia.dice import Dice, InvalidDice
from herna.protocols.mia import (
    NAME_ALREADY_TAKEN,
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


DEFAULT_SILENCE = 6.0
"""Seconds without any datagram after which a bot takes the server for lost: three missed
heartbeats."""

MAX_BACKOFF = 30.0
"""Longest wait between two attempts to register again."""


class MiaError(Exception):
    pass


class MiaRejected(MiaError):
    """The server answered ``REJECTED;reason``."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"registration of {name!r} rejected: {reason}")
        self.reason = reason


class ServerSilent(MiaError):
    """Nothing came from the server for ``seconds``; ``rounds`` ended before that."""

    def __init__(self, seconds: float, rounds: int) -> None:
        super().__init__(f"no message from the server for {seconds:g} s")
        self.seconds = seconds
        self.rounds = rounds


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
        self,
        host: str,
        port: int,
        name: str,
        spectator: bool = False,
        transcript: bool = False,
        token: str | None = None,
    ) -> None:
        self.host, self.port, self.name, self.spectator = host, port, name, spectator
        self.token = token
        """A reserved name's token, sent as ``REGISTER;name;token``."""
        self.seat: tuple[str, ...] = ()
        """Fields after the token (the people's table: ``person``, ``bots=LEVEL``)."""
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

    def registration(self) -> str:
        """The REGISTER line: ``REGISTER;name`` or, with a token, ``REGISTER;name;token``."""
        command = "REGISTER_SPECTATOR" if self.spectator else "REGISTER"
        line = f"{command};{self.name}" + (f";{self.token}" if self.token else "")
        if self.seat:  # after the token field, empty when there is none
            line += ("" if self.token else ";") + "".join(f";{f}" for f in self.seat)
        return line

    async def register(self, timeout: float = 2.0, attempts: int = 3) -> None:
        """REGISTER (or REGISTER_SPECTATOR); raises :class:`MiaRejected` if rejected and
        :class:`MiaError` if the server does not answer."""
        for _ in range(attempts):
            self.send(self.registration())
            try:
                async with asyncio.timeout(timeout):
                    while True:
                        msg = await self.receive()
                        if isinstance(msg, Registered):
                            return
                        if isinstance(msg, Rejected):
                            raise MiaRejected(self.name, msg.reason)
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


async def play(
    client: MiaClient,
    bot: MiaBot,
    rounds: int | None = None,
    silence: float | None = None,
    on_round: Callable[[tuple[str, ...], tuple[str, ...]], None] | None = None,
    think: Callable[[], float] | None = None,
) -> int:
    """Answer the server for ``bot`` until ``rounds`` rounds ended (forever if None).
    Returns the number of rounds seen end. With ``silence``, raises :class:`ServerSilent`
    when no datagram came for that many seconds. ``on_round`` hears each finished round's
    players and losers. ``think`` gives the seconds to wait before each ROLL, SEE or
    ANNOUNCE (the people's table: a bot answering in a millisecond is hard to follow)."""
    players: tuple[str, ...] = ()
    announcements: list[tuple[str, Dice]] = []
    revealed: Dice | None = None
    finished = 0

    def view() -> TurnView:
        return TurnView(client.name, players, tuple(announcements))

    while True:
        try:
            async with asyncio.timeout(silence):
                msg = await client.receive()
        except TimeoutError:
            assert silence is not None
            raise ServerSilent(silence, finished) from None
        if isinstance(msg, RoundStarting):
            client.send(f"JOIN;{msg.token}")
        elif isinstance(msg, RoundStarted):
            players, announcements, revealed = msg.players, [], None
        elif isinstance(msg, YourTurn):
            if think is not None:
                await asyncio.sleep(think())
            client.send(f"{bot.decide(view())};{msg.token}")
        elif isinstance(msg, Rolled):
            try:
                rolled = Dice.parse(msg.dice)
            except InvalidDice:
                continue
            if think is not None:
                await asyncio.sleep(think())
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
            if on_round is not None:
                on_round(players, msg.names)
            if rounds is not None and finished >= rounds:
                return finished


async def run_bot(
    host: str,
    port: int,
    name: str,
    strategy: str,
    rounds: int | None = None,
    seed: int | None = None,
    token: str | None = None,
    silence: float = DEFAULT_SILENCE,
    report: Callable[[str], None] | None = None,
    on_round: Callable[[tuple[str, ...], tuple[str, ...]], None] | None = None,
    think: Callable[[], float] | None = None,
) -> int:
    """Register ``name`` (with ``token`` for a reserved name) and play with ``strategy``.

    A first registration that fails raises :class:`MiaError`. Afterwards, whenever the
    server stays silent for ``silence`` seconds (it restarted, or forgot this bot), the bot
    registers again with backoff. ``report`` hears every step (default: the log).
    """
    say = report or log.info
    bot = make_bot(strategy, random.Random(seed))
    async with MiaClient(host, port, name, token=token) as client:
        say(f"registering {name} at {host}:{port}")
        await client.register()
        say(f"{name} registered; playing")
        played = 0
        try:
            while True:
                left = None if rounds is None else rounds - played
                try:
                    return played + await play(client, bot, left, silence, on_round, think)
                except ServerSilent as exc:
                    played += exc.rounds
                    say(f"{exc}; registering {name} again")
                    await register_again(client, say)
        finally:
            client.unregister()


async def register_again(
    client: MiaClient, say: Callable[[str], None], max_backoff: float = MAX_BACKOFF
) -> None:
    """Register until the server answers REGISTERED, waiting 1, 2, 4 … ``max_backoff``
    seconds between attempts. ``NAME_ALREADY_TAKEN`` (someone else got the name while the
    server was away) is retried; any other rejection raises :class:`MiaRejected`."""
    delay, attempt = 1.0, 0
    while True:
        attempt += 1
        try:
            await client.register(timeout=2.0, attempts=1)
        except MiaRejected as exc:
            if exc.reason != NAME_ALREADY_TAKEN:
                raise
            say(f"attempt {attempt}: {exc}; next attempt in {delay:g} s")
        except MiaError as exc:
            say(f"attempt {attempt}: {exc}; next attempt in {delay:g} s")
        else:
            say(f"{client.name} registered again (attempt {attempt}); playing")
            return
        await asyncio.sleep(delay)
        delay = min(delay * 2, max_backoff)


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


def run_house_bots(
    host: str,
    port: int,
    house: list[tuple[str, str]],
    tokens: Mapping[str, str],
    silence: float = DEFAULT_SILENCE,
    think: Callable[[], float] | None = None,
) -> list[asyncio.Task[None]]:
    """Start the ``(name, strategy)`` house bots as background tasks. Each registers with its
    token from ``tokens`` (its name is reserved for it) and comes back by itself: a silent
    server makes it register again, anything else restarts it after a second. ``think``: as
    for :func:`play`."""

    async def keep_playing(name: str, strategy: str) -> None:
        while True:
            try:
                await run_bot(
                    host,
                    port,
                    name,
                    strategy,
                    token=tokens.get(name),
                    silence=silence,
                    think=think,
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a house bot must not die for good
                log.warning("house bot %s: %s; restarting", name, exc)
                await asyncio.sleep(1.0)

    return [
        asyncio.create_task(keep_playing(name, strategy), name=f"mia-{name}")
        for name, strategy in house
    ]


__all__ = [
    "STRATEGIES",
    "MiaClient",
    "MiaError",
    "MiaRejected",
    "ServerSilent",
    "house_bot_names",
    "play",
    "register_again",
    "run_bot",
    "run_house_bots",
]
