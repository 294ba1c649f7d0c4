"""``/ws/tiles``, ``/ws/onitama``: a game server's own protocol over WebSocket, on the web
hall's port.

The web hall's HTTP routes stay read-only. This endpoint is not a write to the hall: it is a
second transport of a game server that runs in the same ``herna serve``. Each client text
frame carries exactly one message of the game's protocol (the JSON object of a TCP line,
without the newline) and each server message goes out as one text frame. Frames go to the
**same hub** as the game's TCP server (found as ``hall.service(game).hub``, looked up for each
connection), so a WebSocket player and a TCP player can sit at the same table.

* The hub answers frames exactly as it answers the same bytes on a TCP line
  (:meth:`herna.servers.tiles.hub.TilesHub.receive_frame`,
  :meth:`herna.servers.onitama.hub.OnitamaHub.receive_frame`: one line of the line dialect
  per frame, ``ERROR|LINE_TOO_LONG`` over 1024 bytes, 100 bad lines in a row close ``1008``).
  For tiles: binary frames are taken as the
  bytes of one message, text over the protocol's line limit is ``TOO_LARGE`` (then close
  ``1009``), 50 bad messages in a row end the connection (close ``1008``).
* :class:`WebSocketPeer` is the hub's :class:`~herna.servers.tcp.Peer` for one connection.
  The hub never waits for it: ``send`` only queues. A client that does not read makes its
  queue grow (TCP back-pressure stalls the sender task); past ``write_limit`` bytes it is
  dropped — close code ``4001``, reason ``too slow``, as ``/ws/live`` does for slow browsers.
* Without the game server in this hall the endpoint accepts and closes at once with code
  ``4004`` and a reason saying so.

Close codes: ``1001`` the server is stopping, ``1008`` a fatal protocol error (the error
message comes first), ``1009`` a message over the size limit, ``1011`` an internal error,
``4001`` too slow, ``4004`` the game server is not running. See docs/protocols/tiles.md,
"Transports".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from starlette.types import Receive, Scope, Send

from herna.hall.hall import Hall
from herna.protocols.tiles import MAX_LINE_BYTES

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = MAX_LINE_BYTES + 64 * 1024
"""uvicorn's ``ws_max_size`` for the whole web hall. Above the tiles protocol's 1 MiB line
limit, so that a message a little over it still reaches the hub and gets the protocol's own
``TOO_LARGE`` answer; a frame larger than this is refused by the WebSocket layer itself
(close ``1009``) without being read. No connection holds more than this."""

WRITE_LIMIT = 4 << 20
"""Bytes queued for a WebSocket client that does not read before it is dropped (as much as
the TCP transport lets queue up)."""

FLUSH_TIMEOUT = 2.0
"""Seconds to deliver what was queued before the server closes a connection (the error that
explains the close), before closing anyway."""

CLOSE_TIMEOUT = 1.0
"""Seconds to wait for a close frame to go out (a client too slow to read may never take it)."""

CLOSE_NOT_RUNNING = 4004
CLOSE_TOO_SLOW = 4001


@runtime_checkable
class FrameHub(Protocol):
    """What a game server's hub offers a message-framed transport (``TilesHub`` does)."""

    closing: bool

    def connect(self, peer: Any) -> Any: ...

    def receive_frame(self, client: Any, data: str | bytes) -> None: ...

    def disconnect(self, client: Any) -> None: ...


@dataclass
class SocketSettings:
    write_limit: int = WRITE_LIMIT
    flush_timeout: float = FLUSH_TIMEOUT


def _close_reason(text: str) -> str:
    """A close reason fits in 123 bytes of UTF-8."""
    data = text.encode("utf-8")
    if len(data) <= 123:
        return text
    return data[:120].decode("utf-8", "ignore") + "..."


class WebSocketPeer:
    """One WebSocket connection as a hub sees it: a bounded queue of outgoing text frames.

    ``send``/``close`` are synchronous and never wait (the hub calls them); :meth:`run`, the
    connection's sender task, writes the frames. ``closing`` is set once the connection must
    end; ``close_code``/``close_reason`` say how.
    """

    kind = "unknown"
    """Who is on the other end, as records say it; ``"unknown"`` until the client tells."""

    def __init__(self, address: str, write_limit: int = WRITE_LIMIT) -> None:
        self.address = address
        self.write_limit = write_limit
        self.frames: deque[tuple[str, int]] = deque()
        self.queued = 0
        """Bytes in :attr:`frames`."""
        self.sent = 0
        self.dropped = False
        self.close_code: int | None = None
        self.close_reason = ""
        self.closing = asyncio.Event()
        self._wake = asyncio.Event()

    def describe(self) -> str:
        return self.address

    def send(self, data: bytes) -> None:
        """Queue encoded messages (one per line, as the protocol's codec makes them): one text
        frame each, without the newline."""
        if self.close_code is not None:
            return
        for line in data.split(b"\n"):
            if line:
                self.frames.append((line.decode("utf-8"), len(line)))
                self.queued += len(line)
        if self.queued > self.write_limit:
            log.info("%s does not read; dropping it", self.address)
            self.dropped = True
            self.frames.clear()
            self.queued = 0
            self.end(CLOSE_TOO_SLOW, "too slow")
            return
        self._wake.set()

    def close(self) -> None:
        """The hub hangs up without a protocol reason: the server is stopping."""
        self.end(1001, "server stopping")

    def close_with(self, code: str, reason: str) -> None:
        """The hub hangs up after a fatal protocol error (already queued for the client)."""
        self.end(1009 if code == "TOO_LARGE" else 1008, _close_reason(f"{code}: {reason}"))

    def end(self, code: int, reason: str) -> None:
        """Close with this WebSocket close code, after what is queued (first call wins)."""
        if self.close_code is None:
            self.close_code, self.close_reason = code, reason
            self.closing.set()
            self._wake.set()

    async def run(self, send: Send) -> None:
        """Send queued frames; return once the connection is closing and its queue is sent."""
        while True:
            while self.frames:
                text, size = self.frames.popleft()
                self.queued -= size
                await send({"type": "websocket.send", "text": text})
                self.sent += 1
            if self.close_code is not None:
                return
            self._wake.clear()
            await self._wake.wait()


class GameSocket:
    """The raw ASGI endpoint of ``/ws/<game>`` for one game server of the hall."""

    def __init__(self, hall: Hall, game: str, settings: SocketSettings | None = None) -> None:
        self.hall = hall
        self.game = game
        self.settings = settings or SocketSettings()
        self.peers: set[WebSocketPeer] = set()
        """Open connections."""
        self.accepted = 0
        self.dropped = 0

    def hub(self) -> FrameHub | None:
        """The running game server's hub, if this hall runs that server."""
        hub = getattr(self.hall.service(self.game), "hub", None)
        if isinstance(hub, FrameHub) and not hub.closing:
            return hub
        return None

    def stats(self) -> dict[str, int]:
        return {
            "open": len(self.peers),
            "accepted": self.accepted,
            "dropped": self.dropped,
            "queued_bytes": sum(p.queued for p in self.peers),
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            return
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        hub = self.hub()
        if hub is None:
            await _close_quietly(
                send,
                CLOSE_NOT_RUNNING,
                f"the {self.game} server is not running in this herna serve",
            )
            return
        host, port = scope.get("client") or ("?", 0)
        peer = WebSocketPeer(f"ws:{host}:{port}", self.settings.write_limit)
        try:
            client = hub.connect(peer)
        except Exception:
            log.exception("internal error connecting %s", peer.address)
            await _close_quietly(send, 1011, "internal error")
            return
        self.peers.add(peer)
        self.accepted += 1
        sender = asyncio.ensure_future(peer.run(send))
        reader = asyncio.ensure_future(self._read(receive, hub, client, peer))
        closing = asyncio.ensure_future(peer.closing.wait())
        tasks = (sender, reader, closing)
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            if peer.close_code is not None and not peer.dropped and not reader.done():
                # Deliver the error that explains the close first (briefly: it may not read).
                await asyncio.wait(
                    (sender, reader),
                    timeout=self.settings.flush_timeout,
                    return_when=asyncio.FIRST_COMPLETED,
                )
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.peers.discard(peer)
            if peer.dropped:
                self.dropped += 1
            try:
                hub.disconnect(client)
            except Exception:
                log.exception("internal error after %s disconnected", peer.address)
        gone = reader.done() and not reader.cancelled() and reader.exception() is None
        if gone or peer.close_code is None:
            return  # the client went away (or its connection broke under the sender)
        await _close_quietly(send, peer.close_code, peer.close_reason)

    async def _read(
        self, receive: Receive, hub: FrameHub, client: Any, peer: WebSocketPeer
    ) -> None:
        """Hand every received frame to the hub until the client disconnects."""
        while True:
            message = await receive()
            kind = message["type"]
            if kind == "websocket.disconnect":
                return
            if kind != "websocket.receive" or peer.close_code is not None:
                continue  # closing: what the client still sends is not read
            text = message.get("text")
            data: str | bytes = text if text is not None else (message.get("bytes") or b"")
            try:
                hub.receive_frame(client, data)
            except Exception:
                # A bug in Herna, not the client's fault: close this connection only.
                log.exception("internal error handling %s; closing that connection", peer.address)
                peer.end(1011, "internal error")


async def _close_quietly(send: Send, code: int, reason: str) -> None:
    # A client too slow to read may never take the close frame either: do not wait on it.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(
            send({"type": "websocket.close", "code": code, "reason": reason}),
            timeout=CLOSE_TIMEOUT,
        )
