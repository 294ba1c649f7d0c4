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

**A reload keeps a seek** (``--web-seek-grace``, 15 s, the same grace as a mariáš seat's): a
play page names itself in the socket's URL with a random id of its tab
(``/ws/onitama?page=ID``). When such a connection goes while its player is still waiting for
a game (the hub's ``seeking(client)``: an Onitama seek, a tile table not started), the hub is
not told at once: the connection is *held* for the grace, its seek stays in the lobby (and may
be paired meanwhile: what the server sends is kept). A page that comes back within it opens
``/ws/onitama?resume=ID`` and gets the same connection back: first every message sent to it
since it began to wait (from its login, or from the request that opened its last seek), then
the rest as usual, so it sees exactly what a page that never left would have seen. A page may
come back before the server has read its old socket's close (a busy machine): it waits for
that up to ``RESUME_WAIT``. Without a held connection of that id the socket closes with
``4010`` and the page starts afresh.
After the grace the hub hears of the disconnect as before (the seek ends); a page that leaves
on purpose (Cancel, another opponent) closes with ``1000`` and is not held. The hub never
knows: for it the connection was slow for a few seconds. Network clients (TCP, or a
WebSocket without ``page``) are not held.

Close codes: ``1001`` the server is stopping, ``1008`` a fatal protocol error (the error
message comes first), ``1009`` a message over the size limit, ``1011`` an internal error,
``4001`` too slow, ``4004`` the game server is not running, ``4010`` nothing to resume. See
docs/protocols/tiles.md, "Transports".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable
from urllib.parse import parse_qs

from starlette.types import Receive, Scope, Send

from herna.hall.hall import Hall
from herna.protocols.tiles import MAX_LINE_BYTES
from herna.web.play_marias import SEEK_GRACE  # one grace for every play page's seek

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

TRANSCRIPT_LIMIT = 1 << 20
"""Bytes of messages a held connection keeps for its page since it began to wait; a longer
wait is not held (a tile table's ``joined`` carries its rules object)."""

CLOSE_NOT_RUNNING = 4004
CLOSE_TOO_SLOW = 4001
CLOSE_NOTHING_TO_RESUME = 4010
RESUME_WAIT = 5.0
"""Seconds a page that comes back waits for its old connection to end: a reload may open the
new socket before the server has read the old one's close (a busy machine), and the old one
is held only then."""
LEAVING = 1000
"""The close code of a page that leaves on purpose (its seek ends at once)."""

MAX_PAGE_ID = 64
"""Longest page id taken from a socket's URL (a page sends 32 hex digits)."""


@runtime_checkable
class FrameHub(Protocol):
    """What a game server's hub offers a message-framed transport (``TilesHub`` does)."""

    closing: bool

    def connect(self, peer: Any) -> Any: ...

    def receive_frame(self, client: Any, data: str | bytes) -> None: ...

    def disconnect(self, client: Any) -> None: ...


def seeking(hub: FrameHub, client: Any) -> bool:
    """Whether ``client``'s player waits for a game (hubs that cannot say: never)."""
    ask = getattr(hub, "seeking", None)
    return bool(ask(client)) if callable(ask) else False


@dataclass
class SocketSettings:
    write_limit: int = WRITE_LIMIT
    flush_timeout: float = FLUSH_TIMEOUT
    seek_grace: float = SEEK_GRACE


@dataclass
class _Held:
    """A play page's connection kept for a reload (see the module doc)."""

    hub: FrameHub
    client: Any
    peer: WebSocketPeer
    timer: asyncio.TimerHandle


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
        self.page: str | None = None
        """The play page's tab id (from the URL): only such a connection is held."""
        self.transcript: list[tuple[str, int]] | None = []
        """What was sent since its player began to wait (None: more than the limit)."""
        self.transcript_bytes = 0

    def describe(self) -> str:
        return self.address

    def send(self, data: bytes) -> None:
        """Queue encoded messages (one per line, as the protocol's codec makes them): one text
        frame each, without the newline."""
        if self.close_code is not None:
            return
        for line in data.split(b"\n"):
            if line:
                frame = (line.decode("utf-8"), len(line))
                self.frames.append(frame)
                self.queued += len(line)
                self._remember(frame)
        if self.queued > self.write_limit:
            log.info("%s does not read; dropping it", self.address)
            self.dropped = True
            self.frames.clear()
            self.queued = 0
            self.end(CLOSE_TOO_SLOW, "too slow")
            return
        self._wake.set()

    def _remember(self, frame: tuple[str, int]) -> None:
        if self.page is None or self.transcript is None:
            return
        self.transcript.append(frame)
        self.transcript_bytes += frame[1]
        if self.transcript_bytes > TRANSCRIPT_LIMIT:
            self.transcript = None

    def restart_transcript(self) -> None:
        """Its player does not wait for a game now: a page that comes back for a later wait
        needs only what is sent from here on (its next request opens that wait)."""
        self.transcript = []
        self.transcript_bytes = 0

    def resumed(self, address: str) -> None:
        """A page came back for this connection: it gets the transcript again, from the
        start, then whatever follows."""
        self.address = address
        self.frames = deque(self.transcript or ())
        self.queued = sum(size for _, size in self.frames)
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
        self.held: dict[str, _Held] = {}
        """Play pages' connections waiting for a reload, by page id."""
        self.serving: dict[str, asyncio.Event] = {}
        """Play pages' open connections, by page id: set once the connection has ended (and
        is held, or is gone)."""
        self.accepted = 0
        self.dropped = 0
        self.resumed = 0

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
            "held": len(self.held),
            "resumed": self.resumed,
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
        address = f"ws:{host}:{port}"
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        resume = _page_id(query.get("resume"))
        if resume is not None:
            ended = self.serving.get(resume)
            if ended is not None and resume not in self.held:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(RESUME_WAIT):
                        await ended.wait()
            held = self._take(resume, hub)
            if held is None:
                await _close_quietly(send, CLOSE_NOTHING_TO_RESUME, "nothing to resume")
                return
            peer, client = held.peer, held.client
            peer.resumed(address)
            self.resumed += 1
            log.info("%s: a page came back for its waiting connection", address)
        else:
            peer = WebSocketPeer(address, self.settings.write_limit)
            peer.page = _page_id(query.get("page"))
            try:
                client = hub.connect(peer)
            except Exception:
                log.exception("internal error connecting %s", peer.address)
                await _close_quietly(send, 1011, "internal error")
                return
            self.accepted += 1
        await self._serve(receive, send, hub, client, peer)

    async def _serve(
        self, receive: Receive, send: Send, hub: FrameHub, client: Any, peer: WebSocketPeer
    ) -> None:
        """Carry frames both ways until either side ends the connection."""
        self.peers.add(peer)
        ended = asyncio.Event()
        if peer.page is not None:
            self.serving[peer.page] = ended
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
            gone = reader.done() and not reader.cancelled() and reader.exception() is None
            # A page that leaves on purpose closes with 1000; a reload (1001), a lost
            # network (1006, or no answer to pings) may come back.
            on_purpose = gone and reader.result() == LEAVING
            if on_purpose or not self._hold(hub, client, peer):
                self._disconnect(hub, client, peer)
            ended.set()
            if peer.page is not None and self.serving.get(peer.page) is ended:
                del self.serving[peer.page]
        if gone or peer.close_code is None:
            return  # the client went away (or its connection broke under the sender)
        await _close_quietly(send, peer.close_code, peer.close_reason)

    @staticmethod
    def _disconnect(hub: FrameHub, client: Any, peer: WebSocketPeer) -> None:
        try:
            hub.disconnect(client)
        except Exception:
            log.exception("internal error after %s disconnected", peer.address)

    def _hold(self, hub: FrameHub, client: Any, peer: WebSocketPeer) -> bool:
        """Keep a play page's connection whose player waits for a game, for a reload."""
        grace = self.settings.seek_grace
        page = peer.page
        if (
            page is None
            or grace <= 0
            or peer.close_code is not None
            or peer.transcript is None
            or page in self.held
            or hub.closing
            or not seeking(hub, client)
        ):
            return False
        loop = asyncio.get_running_loop()
        timer = loop.call_later(grace, self._expire, page)
        self.held[page] = _Held(hub, client, peer, timer)
        log.info("%s: page gone while waiting; its seek stays %g s", peer.address, grace)
        return True

    def _take(self, page: str, hub: FrameHub) -> _Held | None:
        """The held connection of ``page``, taken for a page that came back (if it may)."""
        held = self.held.pop(page, None)
        if held is None:
            return None
        held.timer.cancel()
        if held.hub is not hub or held.peer.close_code is not None:
            self._disconnect(held.hub, held.client, held.peer)  # the server hung up meanwhile
            return None
        return held

    def _expire(self, page: str) -> None:
        """The page did not come back: the hub hears that the connection is gone."""
        held = self.held.pop(page, None)
        if held is not None:
            log.info("%s: no page came back; the connection ends", held.peer.address)
            self._disconnect(held.hub, held.client, held.peer)

    def release_all(self) -> None:
        """Every held connection ends now (the web hall stops)."""
        for page in list(self.held):
            held = self.held.pop(page)
            held.timer.cancel()
            self._disconnect(held.hub, held.client, held.peer)

    async def _read(self, receive: Receive, hub: FrameHub, client: Any, peer: WebSocketPeer) -> int:
        """Hand every received frame to the hub until the client disconnects; its close
        code."""
        while True:
            message = await receive()
            kind = message["type"]
            if kind == "websocket.disconnect":
                return int(message.get("code") or 1005)
            if kind != "websocket.receive" or peer.close_code is not None:
                continue  # closing: what the client still sends is not read
            text = message.get("text")
            data: str | bytes = text if text is not None else (message.get("bytes") or b"")
            if peer.page is not None and not seeking(hub, client):
                # Not waiting: a page that comes back later needs only what follows.
                peer.restart_transcript()
            try:
                hub.receive_frame(client, data)
            except Exception:
                # A bug in Herna, not the client's fault: close this connection only.
                log.exception("internal error handling %s; closing that connection", peer.address)
                peer.end(1011, "internal error")


def _page_id(values: list[str] | None) -> str | None:
    """A page id from the URL, if it is one (letters, digits, ``-``, at most 64)."""
    if not values:
        return None
    value = values[0]
    if 0 < len(value) <= MAX_PAGE_ID and all(c.isalnum() or c == "-" for c in value):
        return value
    return None


async def _close_quietly(send: Send, code: int, reason: str) -> None:
    # A client too slow to read may never take the close frame either: do not wait on it.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(
            send({"type": "websocket.close", "code": code, "reason": reason}),
            timeout=CLOSE_TIMEOUT,
        )
