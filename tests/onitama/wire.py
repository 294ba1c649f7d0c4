"""A raw line client and server fixtures for the Onitama server tests (real TCP sockets)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from herna.core.clock import Clock, FakeClock, MonotonicClock
from herna.games.onitama.state import Move, OnitamaState
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.servers.onitama import OnitamaService, OnitamaSettings, serve

TIMEOUT = 10.0


class Wire:
    """One TCP connection speaking raw lines."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.secret: str | None = None
        """The seat secret of this connection's last START (its fifth field)."""

    @classmethod
    async def open(cls, port: int) -> Wire:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def send(self, data: str | bytes) -> None:
        if isinstance(data, str):
            data = (data if data.endswith("\n") else data + "\n").encode()
        self.writer.write(data)
        await self.writer.drain()

    async def line(self, timeout: float = TIMEOUT) -> str:
        """The next line without its newline; '' at end of stream."""
        raw = await asyncio.wait_for(self.reader.readline(), timeout)
        return raw.decode().rstrip("\n")

    async def lines(self, n: int) -> list[str]:
        return [await self.line() for _ in range(n)]

    async def login(self, name: str) -> str:
        await self.send(f"LOGIN|{name}")
        return await self.line()

    async def quiet(self, seconds: float = 0.15) -> bool:
        """True if nothing arrives for ``seconds``."""
        try:
            raw = await asyncio.wait_for(self.reader.readline(), seconds)
        except TimeoutError:
            return True
        raise AssertionError(f"unexpected line {raw!r}")

    async def eof(self, timeout: float = TIMEOUT) -> bool:
        """Read until the server closes the connection."""
        while True:
            raw = await asyncio.wait_for(self.reader.readline(), timeout)
            if not raw:
                return True

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


class Server:
    """A running Onitama server on an ephemeral port with its own hall and database."""

    def __init__(self, hall: Hall, service: OnitamaService) -> None:
        self.hall = hall
        self.service = service
        self.port = service.port
        self.wires: list[Wire] = []

    @property
    def clock(self) -> FakeClock:
        assert isinstance(self.hall.clock, FakeClock)
        return self.hall.clock

    async def wire(self) -> Wire:
        wire = await Wire.open(self.port)
        self.wires.append(wire)
        return wire

    async def pair(self, a: str = "ann", b: str = "bob") -> tuple[Wire, Wire, list[str]]:
        """Two logged-in players in a game: (white wire, black wire, the START fields both
        got; each wire's own seat secret is in ``wire.secret``)."""
        wa, wb = await self.wire(), await self.wire()
        assert await wa.login(a) == f"LOGIN_OK|{a}"
        assert await wb.login(b) == f"LOGIN_OK|{b}"
        start_a, start_b = (await wa.line()).split("|"), (await wb.line()).split("|")
        assert start_a[0] == "START" and start_a[:4] == start_b[:4]
        assert len(start_a) == len(start_b) == 5 and start_a[4] != start_b[4]
        wa.secret, wb.secret = start_a[4], start_b[4]
        fields = start_a[:4]
        white = wa if fields[1] == a else wb
        black = wb if white is wa else wa
        return white, black, fields

    async def take_black_seat_back(
        self, white: Wire, name: str, secret: str, login_as: str | None = None
    ) -> Wire:
        """Black (``name``; logging in as ``login_as``, another spelling) comes back with its
        seat ``secret`` after ``MAKE_MOVE|Ox|c1|c2`` from :func:`fixed_start`: both players
        are told the whole game, and black's next move reaches both. Returns black's new
        connection."""
        back = await self.wire()
        await back.send(f"LOGIN|{login_as or name}|{secret}")
        assert await back.line() == f"LOGIN_OK|{name}"
        board = fixed_start().apply(Move("Ox", 2, 7)).board
        reconnect = f"RECONNECT|{name}|black|{board}|Crab,Boar,Horse,Elephant,Ox|black"
        assert await back.line() == reconnect
        assert await white.line() == reconnect
        await back.send("MAKE_MOVE|Horse|c5|c4")
        assert await back.line() == "MOVE_WAS_MADE|Horse|c5|c4"
        assert await white.line() == "MOVE_WAS_MADE|Horse|c5|c4"
        return back

    async def settle(self) -> None:
        """Let the server process what is in flight."""
        for _ in range(5):
            await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path,
    clock: Clock | None = None,
    initial_state: Callable[[], OnitamaState] | None = None,
    house_bots: int = 0,
    port: int = 0,
    workers: int = 0,
    **settings: object,
) -> AsyncIterator[Server]:
    """A server with its own SQLite file; ``workers`` game worker processes run on the real
    clock (pass ``clock=real_clock()``)."""
    store = RecordStore(f"sqlite:///{tmp_path / 'onitama.db'}")
    hall = Hall(records=store, clock=clock if clock is not None else FakeClock())
    opts = OnitamaSettings(**{"seed": 1, **settings})  # type: ignore[arg-type]
    service = await serve(
        hall,
        "127.0.0.1",
        port,
        opts,
        house_bots=house_bots,
        initial_state=initial_state,
        workers=workers,
    )
    server = Server(hall, service)
    try:
        yield server
    finally:
        for wire in server.wires:
            await wire.close()
        await service.stop()
        store.close()


def fixed_start() -> OnitamaState:
    """White Ox and Boar, Black Horse and Elephant, Crab spare: White may open Ox c1-c2."""
    return OnitamaState.setup(["Ox", "Boar"], ["Horse", "Elephant"], "Crab")


def real_clock() -> MonotonicClock:
    return MonotonicClock()
