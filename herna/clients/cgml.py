"""Python client library for CGML (seed 001): connections, the login step and the loop that
plays a group at a super game server, for bots, the terminal client, bot servers and tests.

>>> # complete = await login("127.0.0.1", 7001, PlayerRef("6533", "Wampaire", "human"))
>>> # summary = await play_group(complete, PlayerRef("6533", "Wampaire", "human"),
>>> #                            BotDecider("heuristic"))
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Protocol, cast

from herna.games.marias import make_bot
from herna.games.marias.bots import BotRng
from herna.protocols.cgml.codec import CgmlError, Decoder, encode
from herna.protocols.cgml.messages import (
    GAME_MARIAS,
    ConnectComplete,
    ConnectPlayer,
    Disconnect,
    Error,
    Message,
    NewGroupAnswer,
    PlayerRef,
    Result,
)
from herna.protocols.cgml.player import Decision, PlayerTracker

log = logging.getLogger("herna.cgml.client")

READ_SIZE = 65536


class CgmlClientError(Exception):
    """The server refused us (``<error>``), disconnected, or sent garbage."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        """The ``<error code>`` of a refusal (``ID_IN_USE``, ``RESERVED_NAME`` ...), if any."""


FINAL_REFUSALS = frozenset(
    {
        "RESERVED_NAME",
        "BAD_TOKEN",
        "HOUSE_BOT_NAME",
        "BAD_MESSAGE",
        "NOT_VERIFIED",
        "NO_SUCH_TOURNAMENT",
        "NOT_ENTERED",
        "NOT_FOR_YOU",
        "WRONG_GAME",
    }
)
"""Login refusals that trying again cannot cure: the name needs another token, the message
is wrong, or a tournament will not take the player. Anything else (a server that is gone, an
id still seated) may pass."""


@dataclass
class Backoff:
    """Growing waits between attempts to reach a server: ``first``, doubling up to ``cap``,
    each with ±25 % jitter so that many bots cut off at once do not return at once."""

    first: float = 0.5
    cap: float = 30.0
    _next: float = 0.0

    def next(self) -> float:
        base = self._next or self.first
        self._next = min(self.cap, base * 2)
        return base * (0.75 + random.random() / 2)

    def reset(self) -> None:
        self._next = 0.0


def parse_url(url: str, default_port: int = 7002) -> tuple[str, int]:
    """``"192.168.0.1:7002"`` → ``("192.168.0.1", 7002)`` (a ``cgml://`` prefix is allowed)."""
    text = url.strip()
    if "://" in text:
        text = text.split("://", 1)[1]
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, default_port
    return host.strip("[]") or "127.0.0.1", int(port)


class CgmlClient:
    """One TCP connection speaking CGML (asyncio streams)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = Decoder()
        self._ready: list[Message | CgmlError] = []
        self.closed = False
        self.transcript: list[Message] | None = None
        self.last_sent = 0.0

    @classmethod
    async def connect(cls, host: str, port: int, timeout: float = 10.0) -> CgmlClient:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
        # that arrives as the connection completes, and a bot server stopping its bots then
        # waited for such a bot until its group timed out.
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def __aenter__(self) -> CgmlClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def send(self, message: Message) -> None:
        await self.send_bytes(encode(message))

    def send_nowait(self, message: Message) -> None:
        """Queue a message without waiting for the socket (for callbacks)."""
        if self.closed or self.writer.is_closing():
            return
        self.writer.write(encode(message))
        self.last_sent = time.perf_counter()

    async def send_bytes(self, data: bytes) -> None:
        if self.closed:
            raise CgmlClientError("connection closed")
        self.writer.write(data)
        self.last_sent = time.perf_counter()
        await self.writer.drain()

    async def recv(self, timeout: float | None = None) -> Message | None:
        """The next message, or None when the server closed the connection.

        Raises :class:`CgmlClientError` on garbage from the server and
        :class:`TimeoutError` after ``timeout`` seconds.
        """
        while not self._ready:
            if self.closed:
                return None
            try:
                async with asyncio.timeout(timeout):  # see connect() for why not wait_for
                    data = await self.reader.read(READ_SIZE)
            except TimeoutError:
                raise  # a subclass of OSError, but the connection is still open
            except (ConnectionError, OSError):
                data = b""
            if not data:
                self.closed = True
                return None
            self._ready.extend(self.decoder.feed(data))
        item = self._ready.pop(0)
        if isinstance(item, CgmlError):
            raise CgmlClientError(f"bad message from the server: {item.reason}")
        if self.transcript is not None:
            self.transcript.append(item)
        return item

    async def expect(self, kind: type[Message], timeout: float | None = 10.0) -> Message:
        """The next message, which must be of type ``kind``."""
        message = await self.recv(timeout)
        if message is None:
            raise CgmlClientError(f"connection closed while waiting for {kind.__name__}")
        if not isinstance(message, kind):
            raise CgmlClientError(f"expected {kind.__name__}, got {message!r}")
        return message

    async def close(self) -> None:
        if not self.writer.is_closing():
            self.writer.close()
        self.closed = True
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


# -- login ------------------------------------------------------------------------------------

TOURNAMENT_OVER = "TOURNAMENT_OVER"
"""The login server's refusal of a tournament that is over (or its end, while waiting)."""


async def login(
    host: str,
    port: int,
    player: PlayerRef,
    status: str = "active",
    opponents: Sequence[PlayerRef] = (),
    timeout: float | None = None,
    game: str = GAME_MARIAS,
    token: str | None = None,
    fill: int | None = None,
    tournament: str | None = None,
) -> ConnectComplete:
    """Connect to the login server and wait for ``connect status="complete"``.

    ``token`` is the token of a reserved name (``herna bots add``; Herna extension);
    ``fill`` the seconds to wait for people before bots fill the group (Herna extension);
    ``tournament`` the live tournament whose next group to wait for (Herna extension).
    """
    async with await CgmlClient.connect(host, port) as client:
        await client.send(
            ConnectPlayer(status, player, game, tuple(opponents), token, fill, tournament)
        )
        while True:
            message = await client.recv(timeout)
            if message is None:
                raise CgmlClientError("the login server closed the connection")
            if isinstance(message, ConnectComplete):
                return message
            if isinstance(message, Error):
                raise CgmlClientError(
                    f"login refused: {message.reason} ({message.code})", message.code
                )
            if isinstance(message, Disconnect):
                raise CgmlClientError(f"login server disconnected: {message.reason}")


async def decline(complete: ConnectComplete, player: PlayerRef) -> None:
    """Say no to the group of ``complete`` (``newgroup status="reject"``): the super game
    server calls it off before it starts and tells the others; nothing is recorded."""
    me = PlayerRef(complete.playerid or player.id, player.name, player.race)
    host, port = parse_url(complete.url)
    with contextlib.suppress(CgmlClientError, OSError):
        async with await CgmlClient.connect(host, port) as client:
            await client.send(NewGroupAnswer(False, complete.group, complete.game, me))
            await client.recv(2.0)


# -- playing a group -----------------------------------------------------------------------------


class Decider(Protocol):
    """Answers the server's questions; returns the CGML message to send."""

    async def decide(self, tracker: PlayerTracker, decision: Decision) -> Message: ...


@dataclass
class BotDecider:
    """A decider backed by one of the engine's bots (``random``, ``heuristic``,
    ``sampling-search``, or a level ``easy``/``medium``/``hard``/``strongest``; the old names
    ``rule`` and ``search`` still work)."""

    strategy: str = "heuristic"
    games: int | None = None
    """Accept this many games of the group, then reject (None: accept every game)."""
    delay: float = 0.0
    """Seconds to "think" before each answer (makes bot games watchable)."""
    seed: int | None = None

    def __post_init__(self) -> None:
        self.bot = make_bot(self.strategy, served=True)
        self.rng = random.Random(self.seed)

    async def decide(self, tracker: PlayerTracker, decision: Decision) -> Message:
        if self.delay > 0:
            await asyncio.sleep(self.delay * (0.5 + self.rng.random()))
        if decision.kind == "newgame":
            return tracker.newgame_answer(self.games is None or tracker.games < self.games)
        rng = cast(BotRng, self.rng)  # random.Random has everything a bot needs
        action = self.bot.choose(tracker.view(), tracker.legal_actions(), rng)
        return tracker.answer(action)


@dataclass
class GroupSummary:
    """How a group went for one player."""

    group: str
    games: int = 0
    results: list[Result] = field(default_factory=list)
    money: int = 0
    ended: str = ""
    """Why the group ended: the last control message (``abort``, ``cancelgame`` ...)."""
    reactions: list[float] = field(default_factory=list)
    """Seconds between each of our game answers and the server's next message."""
    errors: list[Error] = field(default_factory=list)


async def play_group(
    complete: ConnectComplete,
    player: PlayerRef,
    decider: Decider,
    on_message: Callable[[Message, PlayerTracker], Awaitable[None] | None] | None = None,
    tracker: PlayerTracker | None = None,
    measure: bool = False,
    on_connect: Callable[[CgmlClient], None] | None = None,
) -> GroupSummary:
    """Join the group announced by ``complete`` and play until the server ends it.

    ``on_message`` sees every message after the tracker; ``on_connect`` gets the connection
    to the super game server (to send control messages such as ``pause``).
    """
    pid = complete.playerid or player.id or ""
    me = PlayerRef(pid, player.name, player.race)
    host, port = parse_url(complete.url)
    tracker = tracker or PlayerTracker(pid)
    summary = GroupSummary(complete.group)
    async with await CgmlClient.connect(host, port) as client:
        if on_connect is not None:
            on_connect(client)
        await client.send(NewGroupAnswer(True, complete.group, complete.game, me))
        waiting_since: float | None = None
        while True:
            message = await client.recv()
            if message is None:
                break
            if waiting_since is not None:
                summary.reactions.append(time.perf_counter() - waiting_since)
                waiting_since = None
            decision = tracker.feed(message)
            if isinstance(message, Result):
                summary.results.append(message)
                summary.money += message.money().get(pid, 0)
                summary.games += 1
            elif isinstance(message, Error):
                summary.errors.append(message)
                log.info("%s: server error %s: %s", pid, message.code, message.reason)
            elif message.tag in ("abort", "cancelgame", "disconnect"):
                summary.ended = message.tag
            if on_message is not None:
                maybe = on_message(message, tracker)
                if maybe is not None:
                    await maybe
            if decision is not None:
                if isinstance(message, Error) and len(summary.errors) > 20:
                    raise CgmlClientError(f"the server keeps refusing: {message.reason}")
                answer = await decider.decide(tracker, decision)
                await client.send(answer)
                tracker.sent(decision)
                if measure and decision.kind != "newgame":
                    waiting_since = client.last_sent
    return summary


async def run_player(
    login_host: str,
    login_port: int,
    player: PlayerRef,
    decider: Decider,
    groups: int | None = 1,
    status: str = "active",
    opponents: Sequence[PlayerRef] = (),
    measure: bool = False,
    on_summary: Callable[[GroupSummary], None] | None = None,
    token: str | None = None,
    reconnect: bool = False,
    say: Callable[[str], None] | None = None,
    backoff: Backoff | None = None,
    on_message: Callable[[Message, PlayerTracker], Awaitable[None] | None] | None = None,
    tournament: str | None = None,
) -> list[GroupSummary]:
    """Log in, play a group, and repeat ``groups`` times (None: forever).

    With ``tournament`` the player waits for that live tournament's groups and returns when
    the login server says it is over (``TOURNAMENT_OVER``).

    With ``reconnect`` (bots), a lost or unreachable server is no reason to stop: the player
    says so through ``say`` (default: the log) and logs in again after a growing wait
    (``backoff``) until a server answers, e.g. a new one started on the same ports. Only a
    refusal that trying again cannot cure (:data:`FINAL_REFUSALS`) ends it.
    """
    out: list[GroupSummary] = []
    tell = say or log.warning
    waits = backoff or Backoff()
    while groups is None or len(out) < groups:
        try:
            complete = await login(
                login_host,
                login_port,
                player,
                status,
                opponents,
                token=token,
                tournament=tournament,
            )
        except (CgmlClientError, OSError) as e:
            over = isinstance(e, CgmlClientError) and e.code == TOURNAMENT_OVER
            if tournament is not None and over:
                tell(f"{player.id}: the tournament is over")
                return out
            if not reconnect or (isinstance(e, CgmlClientError) and e.code in FINAL_REFUSALS):
                raise
            delay = waits.next()
            tell(
                f"{player.id}: no game from the login server {login_host}:{login_port} ({e}); "
                f"logging in again in {delay:.1f} s"
            )
            await asyncio.sleep(delay)
            continue
        try:
            summary = await play_group(
                complete, player, decider, measure=measure, on_message=on_message
            )
        except (CgmlClientError, OSError) as e:
            if not reconnect:
                raise
            delay = waits.next()
            tell(
                f"{player.id}: lost the super game server ({e}); logging in again in {delay:.1f} s"
            )
            await asyncio.sleep(delay)
            continue
        waits.reset()
        out.append(summary)
        if on_summary is not None:
            on_summary(summary)
        if reconnect and summary.ended in ("", "disconnect"):
            # Not the end of a group by the rules: the server went away or shut down.
            tell(f"{player.id}: the super game server closed the connection; logging in again")
    return out
