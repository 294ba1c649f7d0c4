"""Moving live TCP connections between ``herna serve`` and its game worker processes.

A game server that runs its games in worker processes keeps one authority per table: the
serving process (the *front*) owns logins, names and the lobby, and when two players are
paired it hands both connections — the sockets themselves, passed with ``SCM_RIGHTS`` — to the
worker that will run their game; when the game is over the worker hands them back. Nothing is
relayed: after a hand-off the worker reads and writes the client's socket directly, so the
front pays nothing per move.

This module has the two generic parts:

* :func:`detach` takes the socket out of an asyncio transport without closing the
  connection (the client sees nothing), and :func:`attach` gives a received socket a new
  transport and protocol;
* :class:`Channel` is the front↔worker control link: one ``AF_UNIX``/``SOCK_SEQPACKET``
  socket pair, each message one pickled object plus the file descriptors that travel with it.
  Both ends are Herna's own processes (the worker is a child of the front), so pickle is safe
  here; nothing from a client is ever unpickled.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import logging
import os
import pickle
import socket
import sys
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger("herna.handoff")

MAX_MESSAGE = 1 << 20
"""Largest control message (bytes) where the kernel allows it; see :attr:`Channel.limit`."""
BUFFER = 4 << 20
"""Socket buffer asked for: the kernel caps it at ``net.core.wmem_max`` (212,992 bytes on a
stock Debian), and a datagram of a ``SOCK_SEQPACKET`` socket must fit in it."""
MAX_FDS = 16
"""Most descriptors one message carries (a table hands over two)."""

Received = Callable[[Any, list[socket.socket]], None]


def detach(transport: asyncio.BaseTransport) -> socket.socket | None:
    """Take the connection out of ``transport``: returns a duplicate of its socket (blocking
    mode off) and aborts the transport, which closes only its own descriptor — the connection
    stays open because the duplicate still refers to it. ``None`` when the transport has no
    socket any more, or has bytes it could not write yet (they would be lost)."""
    if transport.is_closing():
        return None
    assert isinstance(transport, asyncio.Transport)
    if transport.get_write_buffer_size():
        return None
    sock = transport.get_extra_info("socket")
    if sock is None:
        return None
    transport.pause_reading()
    dup = socket.socket(fileno=os.dup(sock.fileno()))
    dup.setblocking(False)
    transport.abort()
    return dup


async def attach(
    sock: socket.socket, factory: Callable[[], asyncio.BufferedProtocol]
) -> asyncio.BufferedProtocol:
    """Serve a received connection with a new protocol instance on this event loop."""
    loop = asyncio.get_running_loop()
    _transport, protocol = await loop.connect_accepted_socket(factory, sock)
    return protocol


class Channel:
    """One end of a control link: send pickled objects with descriptors, receive them in
    order on the event loop. A message that cannot be written at once waits in a queue
    (the kernel's buffer is full), in order; ``closed`` is called once when the other end is
    gone."""

    def __init__(self, sock: socket.socket, received: Received, closed: Callable[[], None]):
        self.sock = sock
        self.sock.setblocking(False)
        for option in (socket.SO_SNDBUF, socket.SO_RCVBUF):
            with contextlib.suppress(OSError):
                self.sock.setsockopt(socket.SOL_SOCKET, option, BUFFER)
        # What the kernel granted (it reports twice the usable size) less room for its
        # bookkeeping: a longer message would be refused (EMSGSIZE).
        granted = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) // 2
        self.limit = min(MAX_MESSAGE, max(granted - 4096, 16_384))
        """Largest message this link carries (bytes): :meth:`pack` says None above it."""
        self._received = received
        self._closed = closed
        self._queue: deque[tuple[bytes, list[int]]] = deque()
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self.sock.fileno(), self._read)
        self._writing = False
        self.is_closed = False
        self.sent = 0
        self.received_messages = 0

    @staticmethod
    def pair() -> tuple[socket.socket, socket.socket]:
        return socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)

    def pack(self, obj: Any) -> bytes | None:
        """``obj`` as one message, or None when it is longer than this link carries."""
        data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        return data if len(data) <= self.limit else None

    def send(self, obj: Any, socks: Sequence[socket.socket] = ()) -> bool:
        """Queue ``obj`` (and the descriptors of ``socks``, duplicated: the caller may close
        its own) for the other end; False (and ``socks`` closed) when it is too long."""
        data = self.pack(obj)
        if data is None:
            log.error("a control message longer than %d bytes was not sent", self.limit)
            for s in socks:
                s.close()
            return False
        self.send_packed(data, socks)
        return True

    def send_packed(self, data: bytes, socks: Sequence[socket.socket] = ()) -> None:
        """Queue a message made by :meth:`pack` (see :meth:`send`)."""
        if self.is_closed:
            for s in socks:
                s.close()
            return
        fds = [os.dup(s.fileno()) for s in socks]
        for s in socks:
            s.close()
        self._queue.append((data, fds))
        if not self._writing:
            self._flush()

    def _flush(self) -> None:
        while self._queue:
            data, fds = self._queue[0]
            try:
                if fds:
                    self.sock.sendmsg(
                        [data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
                    )
                else:
                    self.sock.send(data)
            except (BlockingIOError, InterruptedError):
                if not self._writing:
                    self._writing = True
                    self._loop.add_writer(self.sock.fileno(), self._flush)
                return
            except OSError:
                self._queue.clear()
                for fd in fds:
                    os.close(fd)
                self.close()
                return
            self._queue.popleft()
            for fd in fds:
                os.close(fd)
            self.sent += 1
        if self._writing:
            self._writing = False
            self._loop.remove_writer(self.sock.fileno())

    def _read(self) -> None:
        for _ in range(64):  # then let the loop serve the sockets of the games too
            try:
                data, fds, flags, _addr = socket.recv_fds(self.sock, MAX_MESSAGE, MAX_FDS)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self.close()
                return
            if not data:
                self.close()
                return
            socks = [socket.socket(fileno=fd) for fd in fds]
            if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
                log.error("control message cut short; dropped")
                for s in socks:
                    s.close()
                continue
            self.received_messages += 1
            try:
                self._received(pickle.loads(data), socks)
            except Exception:
                log.exception("internal error handling a control message")

    def close(self) -> None:
        if self.is_closed:
            return
        self.is_closed = True
        self._loop.remove_reader(self.sock.fileno())
        if self._writing:
            self._loop.remove_writer(self.sock.fileno())
        self.sock.close()
        self._closed()


async def start_worker(
    module: str, args: Sequence[str]
) -> tuple[asyncio.subprocess.Process, socket.socket]:
    """Start ``python -m module args… --control-fd N`` with one end of a new control link;
    returns the process and this process's end.

    The worker runs in its own session, so a Ctrl-C meant for ``herna serve`` does not kill it
    in mid-game: it stops when told to, or when its control link closes (the front is gone,
    even by ``kill -9``)."""
    ours, theirs = Channel.pair()
    fd = theirs.fileno()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        *args,
        "--control-fd",
        str(fd),
        pass_fds=(fd,),
        start_new_session=True,
    )
    theirs.close()
    return proc, ours
