"""The TCP transport shared by the line servers (Onitama, tile games): bytes in, bytes out.

A :class:`TcpPeer` hands every chunk it reads to its hub and writes whatever the hub sends.
The hub (a socket-free object that owns the protocol state machines and the tables) decides
everything else; a bug in the hub closes only that connection, and a peer that does not read
is cut off once ``write_limit`` bytes are waiting for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar, cast

from herna.servers.conncap import ConnectionCap

log = logging.getLogger(__name__)

READ_BUFFER = 16 * 1024
"""Bytes read per ``recv`` (a preallocated buffer: asyncio's default 256 KiB ``recv`` costs
an allocation per message)."""

C = TypeVar("C")


class Peer(Protocol):
    """One connection as a hub sees it: a :class:`TcpPeer`, or a house bot in the process."""

    kind: str
    """``"unknown"`` for network clients, ``"house-bot"`` for the server's own bots."""

    def send(self, data: bytes) -> None: ...

    def close(self) -> None: ...

    def describe(self) -> str: ...


class Hub(Protocol[C]):
    """What a server's hub offers its transport."""

    def connect(self, peer: TcpPeer[C]) -> C: ...

    def receive(self, client: C, data: bytes) -> None: ...

    def disconnect(self, client: C) -> None: ...


class TcpPeer(asyncio.BufferedProtocol, Generic[C]):
    kind = "unknown"
    """Who is on the other end, as records say it (``"human"``, ``"bot"`` ...); a TCP peer
    is ``"unknown"`` until it tells."""

    def __init__(
        self,
        hub: Hub[C],
        write_limit: int,
        adopt: Callable[[TcpPeer[C]], C] | None = None,
        cap: ConnectionCap | None = None,
    ) -> None:
        self.hub = hub
        self.cap = cap
        """The listening port's per-address cap (:mod:`herna.servers.conncap`)."""
        self.write_limit = write_limit
        self.adopt = adopt
        """For a connection that comes from another process in mid-session
        (:mod:`herna.servers.handoff`): makes its client instead of ``hub.connect``."""
        self.transport: asyncio.Transport | None = None
        self.client: C | None = None
        self.address = "?"
        self._buffer = memoryview(bytearray(READ_BUFFER))

    def describe(self) -> str:
        return self.address

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream transport (uvloop's are not subclasses of asyncio.Transport).
        if self.cap is not None and not self.cap.admit(transport):
            return  # reset: no client is made, nothing is logged per connection
        self.transport = cast(asyncio.Transport, transport)
        peername = transport.get_extra_info("peername")
        if isinstance(peername, tuple) and len(peername) >= 2:
            self.address = f"{peername[0]}:{peername[1]}"
        self.client = self.adopt(self) if self.adopt is not None else self.hub.connect(self)

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._buffer

    def buffer_updated(self, nbytes: int) -> None:
        if self.client is None:
            return
        data = bytes(self._buffer[:nbytes])
        try:
            self.hub.receive(self.client, data)
        except Exception:
            # A bug in Herna, not the peer's fault: keep the server (and other tables) up.
            log.exception("internal error handling %s; closing that connection", self.address)
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.cap is not None and self.transport is not None:
            self.cap.release(self.transport)
        if self.client is not None:
            try:
                self.hub.disconnect(self.client)
            except Exception:
                log.exception("internal error after %s disconnected", self.address)

    def send(self, data: bytes) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        transport.write(data)
        if transport.get_write_buffer_size() > self.write_limit:
            log.info("%s does not read; cutting it off", self.address)
            transport.abort()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()
