"""uvicorn's HTTP/1.1 protocol (httptools' parser, which costs a fraction of h11's per request:
issue 28) with a deadline for the first request.

uvicorn closes idle keep-alive connections, but a connection that never completes its first
request (it says nothing, or trickles its headers in byte by byte) stays open for ever, and
a few thousand of them use up the descriptors every server of ``herna serve`` shares. The game
servers close such connections after their login timeout (``herna/servers/deadlines.py``);
this is the web hall's counterpart: ``408 Request Timeout``, then close.
"""

from __future__ import annotations

import asyncio
import logging

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from herna.servers.conncap import ConnectionCap

log = logging.getLogger("herna.web")

DEFAULT_REQUEST_TIMEOUT = 20.0
"""Seconds a new HTTP connection has to send its first request in full."""

TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def with_request_timeout(
    timeout: float, cap: ConnectionCap | None = None
) -> type[HttpToolsProtocol]:
    """The protocol class to hand ``uvicorn.Config(http=...)``; ``timeout`` <= 0: no limit.
    ``cap``: the web port's per-address connection cap (:mod:`herna.servers.conncap`)."""

    class HttpWithRequestTimeout(HttpToolsProtocol):
        _first_request: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if cap is not None and not cap.admit(transport):
                return  # reset; uvicorn tidies up in connection_lost
            if timeout > 0:
                self._first_request = self.loop.call_later(timeout, self._first_request_overdue)

        def connection_lost(self, exc: Exception | None) -> None:
            if cap is not None:
                cap.release(self.transport)
            if self._first_request is not None:
                self._first_request.cancel()
                self._first_request = None
            super().connection_lost(exc)

        def _first_request_overdue(self) -> None:
            self._first_request = None
            transport = self.transport
            # A request under way has its cycle; an upgraded WebSocket has another protocol.
            if self.cycle is not None or transport.is_closing():
                return
            if transport.get_protocol() is not self:
                return
            log.info("%s: no complete HTTP request within %g s; closing", self.client, timeout)
            transport.write(TIMED_OUT)
            transport.close()

    return HttpWithRequestTimeout


def websocket_protocol(cap: ConnectionCap | None) -> type[WebSocketsSansIOProtocol]:
    """The class to hand ``uvicorn.Config(ws=...)``: a connection upgraded to a WebSocket
    leaves the HTTP protocol without telling it, so the WebSocket gives its place in ``cap``
    back when it closes."""

    class CountedWebSocket(WebSocketsSansIOProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            if cap is not None:
                cap.release(self.transport)
            super().connection_lost(exc)

    return CountedWebSocket
