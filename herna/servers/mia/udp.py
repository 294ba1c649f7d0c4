"""The UDP transport of the Mia server: a socket and a reader; :func:`serve_table` seats a
hall's table behind one (the bots' table, the people's table and a tournament's session).

It reads *every* datagram waiting on the socket each time the loop reports it readable, so
an answer that arrived before a deadline is always handled before that deadline's timer
fires (asyncio runs I/O callbacks before due timers in the same loop iteration).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Sequence

from herna.hall.hall import Hall
from herna.servers.mia.seats import Addr
from herna.servers.mia.table import MiaSettings, MiaTable

log = logging.getLogger("herna.mia.udp")

READ_SIZE = 2048  # larger than MAX_DATAGRAM so oversized datagrams are seen and counted


class MiaUdpServer:
    def __init__(self, host: str, port: int) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        for opt in (socket.SO_RCVBUF, socket.SO_SNDBUF):
            with contextlib.suppress(OSError):
                self.sock.setsockopt(socket.SOL_SOCKET, opt, 4 * 1024 * 1024)
        self.sock.bind((host, port))
        self.sock.setblocking(False)
        self.table: MiaTable | None = None
        self.send_errors = 0
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def address(self) -> Addr:
        host, port = self.sock.getsockname()[:2]
        return host, port

    def send(self, data: bytes, addr: Addr) -> None:
        try:
            self.sock.sendto(data, addr)
        except (BlockingIOError, OSError):
            # UDP is lossy by contract; a full buffer or an unreachable peer loses a datagram.
            self.send_errors += 1

    def send_many(self, data: bytes, addrs: Sequence[Addr]) -> None:
        """Send the same datagram to each address: a broadcast in one loop, without two
        Python calls per datagram (with 500 players a round is thousands of datagrams)."""
        sendto = self.sock.sendto
        for addr in addrs:
            try:
                sendto(data, addr)
            except OSError:  # as in send(): one datagram lost, the others still go out
                self.send_errors += 1

    def attach(self, table: MiaTable) -> None:
        self.table = table
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self.sock.fileno(), self._read_ready)

    def _read_ready(self) -> None:
        table = self.table
        assert table is not None
        recv = self.sock.recvfrom
        while True:
            try:
                data, addr = recv(READ_SIZE)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # e.g. ICMP port unreachable reported on the socket
                continue
            try:
                table.receive(data, (addr[0], addr[1]))
            except Exception:  # a bug must not take the server down for everyone
                log.exception("error handling a datagram from %s:%s", addr[0], addr[1])

    def close(self) -> None:
        if self._loop is not None:
            self._loop.remove_reader(self.sock.fileno())
        self.sock.close()


def serve_table(
    hall: Hall, host: str, port: int, settings: MiaSettings
) -> tuple[MiaUdpServer, MiaTable]:
    """Bind a UDP socket on ``host:port`` (0: a free port), seat a started Mia table of the
    hall behind it (its clock, events, records and names; rounds pause while the hall's
    lobby is closed for new games)."""
    server = MiaUdpServer(host, port)
    table = MiaTable(
        server.send,
        hall.clock,
        settings,
        bus=hall.bus,
        records=hall.records,
        identity=hall.identity,
        send_many=server.send_many,
        closed=lambda: hall.lobby.closed,
    )
    server.attach(table)
    table.start()
    return server, table
