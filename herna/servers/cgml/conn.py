"""One CGML TCP connection on the server side: bytes to messages and back, nothing else.

Bad input is answered in CGML's own terms (spec-notes, "Errors"): a fatal error (not XML,
too large, DTD, unknown version) gets ``<disconnect>reason</disconnect>`` and the connection
closes; a well-formed document that is not a valid message gets Herna's ``<error>``. A peer
that sends part of a message and then stalls is disconnected after ``stall_timeout``; a
peer that does not read what we send (write buffer over :data:`MAX_WRITE_BUFFER`) is dropped.
A peer that never identifies itself is closed by its server (:func:`close_for_login_timeout`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
from collections.abc import Callable
from typing import Any

from herna.core.clock import Clock, TimerHandle
from herna.protocols.cgml.codec import CgmlError, Decoder, encode
from herna.protocols.cgml.messages import Disconnect, Error, Message
from herna.servers.conncap import ConnectionCap
from herna.servers.deadlines import LOGIN_TIMEOUT
from herna.servers.gamelog import refused

log = logging.getLogger("herna.cgml.conn")

MAX_WRITE_BUFFER = 1 << 20
"""Bytes we are willing to queue for a peer that does not read."""

STALL_TIMEOUT = 10.0
"""Default seconds a half-received message may wait for the rest."""

_keys = itertools.count(1)


class CgmlConnection(asyncio.Protocol):
    """A server-side connection; ``handler(conn, message)`` gets every valid message."""

    def __init__(
        self,
        handler: Callable[[CgmlConnection, Message], None],
        on_close: Callable[[CgmlConnection], None],
        clock: Clock,
        stall_timeout: float = STALL_TIMEOUT,
        name: str = "cgml",
    ) -> None:
        self.key = next(_keys)
        self.handler = handler
        self.on_close = on_close
        self.clock = clock
        self.stall_timeout = stall_timeout
        self.name = name
        self.decoder = Decoder()
        self.transport: asyncio.Transport | None = None
        self.peer = "?"
        self.closed = False
        self._reported = False
        self._out: list[bytes] | None = None
        self._stall_mark = 0
        self._stall: TimerHandle | None = None
        self.received = 0
        self.sent = 0
        self.bad_input = 0
        self.context: Any = None
        """Whatever the server attaches (the player's seat, the group ...)."""
        self.cap: ConnectionCap | None = None
        """The listening port's connection cap (:mod:`herna.servers.conncap`); None for
        connections this process opens."""

    # -- asyncio.Protocol ------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        if self.cap is not None and not self.cap.admit(transport):
            return  # reset already; connection_lost tidies up as for any closed connection
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            self.peer = f"{peer[0]}:{peer[1]}"

    def data_received(self, data: bytes) -> None:
        if self.closed:
            return
        for item in self.decoder.feed(data):
            if self.closed:
                return
            if isinstance(item, CgmlError):
                self._bad(item)
                continue
            self.received += 1
            try:
                self.handler(self, item)
            except Exception:  # a bug must not take the server down for everyone
                log.exception("%s: error handling %r from %s", self.name, item, self.peer)
                self.send(Error("internal error while handling this message", "INTERNAL"))
        self._watch_stall()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self._cancel_stall()
        if self.cap is not None and self.transport is not None:
            self.cap.release(self.transport)
        self.transport = None
        if not self._reported:
            self._reported = True
            try:
                self.on_close(self)
            except Exception:
                log.exception("%s: error while closing %s", self.name, self.peer)

    # -- helpers ---------------------------------------------------------------------------
    def _bad(self, error: CgmlError) -> None:
        self.bad_input += 1
        if error.fatal:
            log.warning("%s: fatal input from %s: %s", self.name, self.peer, error.reason)
            self.disconnect(error.reason)
        else:
            refused(log, "mariáš", "", str(self.peer), error.code, f"{self.name}: {error.reason}")
            self.send(Error(error.reason, error.code))

    def _watch_stall(self) -> None:
        if self.closed:
            return
        if self.decoder.pending == 0:
            self._cancel_stall()
        elif self._stall is None:
            self._stall_mark = self.decoder.messages
            self._stall = self.clock.call_later(self.stall_timeout, self._stalled)

    def _cancel_stall(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def _stalled(self) -> None:
        self._stall = None
        if self.closed or not self.decoder.pending:
            return
        if self.decoder.messages != self._stall_mark:
            # Whole messages arrived meanwhile: a busy peer, not a stalled one.
            self._watch_stall()
            return
        if self.decoder.pending:
            log.warning("%s: %s sent half a message and stalled", self.name, self.peer)
            self.disconnect("Timeout: incomplete message")

    def send(self, message: Message) -> None:
        self.send_bytes(encode(message))

    def send_bytes(self, data: bytes) -> None:
        """Queue ``data``; everything queued while handling one read goes out in one write
        (fewer system calls: an info and the next ask to the same player travel together)."""
        if self.closed or self.transport is None:
            return
        self.sent += 1
        if self._out is None:
            self._out = [data]
            asyncio.get_running_loop().call_soon(self._flush)
        else:
            self._out.append(data)

    def flush(self) -> None:
        """Write what is queued now instead of at the end of this loop iteration (a message
        that must reach the socket before something else happens)."""
        self._flush()

    def _flush(self) -> None:
        out, self._out = self._out, None
        transport = self.transport
        if not out or transport is None or transport.is_closing():
            return
        transport.write(out[0] if len(out) == 1 else b"".join(out))
        if transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            log.warning("%s: %s does not read; dropping it", self.name, self.peer)
            self.closed = True
            transport.abort()

    def disconnect(self, reason: str) -> None:
        """Send ``<disconnect>`` and close after it is written."""
        if self.closed:
            return
        self.send(Disconnect(reason))
        self.close()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._flush()
            self.transport.close()
        self.closed = True
        self._cancel_stall()


def close_for_login_timeout(conn: CgmlConnection, expected: str, timeout: float) -> None:
    """``conn`` sent no valid ``expected`` within ``timeout`` seconds of connecting: Herna's
    ``<error code="LOGIN_TIMEOUT">``, then close (the expiry of a server's
    :class:`~herna.servers.deadlines.LoginDeadlines`)."""
    if conn.closed:
        return
    log.info(
        "%s: %s sent no valid %s within %g s; closing", conn.name, conn.peer, expected, timeout
    )
    conn.send(Error(f"no valid {expected} within {timeout:g} s of connecting", LOGIN_TIMEOUT))
    conn.close()
