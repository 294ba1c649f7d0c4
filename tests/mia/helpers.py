"""Real-socket helpers of the Mia end-to-end tests: a raw UDP peer that can sit on any
loopback address, scripted players, and what a spectator saw, round by round."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable

from herna.clients.mia import MiaClient
from herna.protocols.mia import Rolled, RoundStarting, YourTurn
from herna.servers.mia import MiaService

REPLIES = ("REGISTERED", "REJECTED", "UNREGISTERED")


class RawPeer:
    """A bare UDP socket on ``ip`` (any 127.x.y.z: Linux routes all of 127/8 to loopback, so
    a second "machine" is one bind away)."""

    def __init__(self, port: int, ip: str = "127.0.0.1") -> None:
        self.server = ("127.0.0.1", port)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((ip, 0))
        self.sock.setblocking(False)
        self.addr: tuple[str, int] = self.sock.getsockname()
        self.seen: list[str] = []

    def send(self, line: str) -> None:
        self.sock.sendto(line.encode(), self.server)

    async def recv(self, timeout: float = 2.0) -> str:
        loop = asyncio.get_running_loop()
        line = (await asyncio.wait_for(loop.sock_recv(self.sock, 4096), timeout)).decode()
        self.seen.append(line)
        return line

    async def ask(self, line: str) -> str:
        """Send ``line`` and return the server's REGISTERED/REJECTED/UNREGISTERED answer,
        skipping anything else that arrives meanwhile (heartbeats, rounds)."""
        self.send(line)
        while True:
            reply = await self.recv()
            if reply.startswith(REPLIES):
                return reply

    async def quiet_for(self, seconds: float) -> list[str]:
        """Everything received during ``seconds``."""
        got: list[str] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while (left := deadline - loop.time()) > 0:
            try:
                got.append(await self.recv(left))
            except TimeoutError:
                break
        return got

    def close(self) -> None:
        self.sock.close()


async def scripted(
    client: MiaClient, turn: Callable[[], str], announce: Callable[[str], str]
) -> None:
    """Play by script: JOIN every round, answer YOUR TURN with ``turn()`` (ROLL or SEE) and
    ROLLED with ``ANNOUNCE;announce(dice)``."""
    async for msg in client.messages():
        if isinstance(msg, RoundStarting):
            client.send(f"JOIN;{msg.token}")
        elif isinstance(msg, YourTurn):
            client.send(f"{turn()};{msg.token}")
        elif isinstance(msg, Rolled):
            client.send(f"ANNOUNCE;{announce(msg.dice)};{msg.token}")


def rounds_seen(transcript: list[str]) -> list[list[str]]:
    """A spectator's transcript cut into rounds: each from ``ROUND STARTED`` up to and
    including the ``SCORE`` that ends it, heartbeats left out. Only complete rounds."""
    out: list[list[str]] = []
    current: list[str] | None = None
    for line in transcript:
        if line == "HEARTBEAT":
            continue
        if line.startswith("ROUND STARTED;"):
            current = [line]
        elif current is not None:
            current.append(line)
            if line.startswith("SCORE;"):
                out.append(current)
                current = None
    return out


def scores_of(line: str) -> dict[str, int]:
    assert line.startswith("SCORE;"), line
    return {
        name: int(points)
        for name, _, points in (e.rpartition(":") for e in line[6:].split(",") if e)
    }


def port_of(service: object) -> int:
    assert isinstance(service, MiaService)
    return service.server.address[1]


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
