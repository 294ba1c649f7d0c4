"""Which pages may open the web hall's WebSockets that act for a person.

``/ws/lobby``, ``/ws/onitama``, ``/ws/tiles`` and ``/ws/marias`` carry the session cookie and
act as the signed-in person. A browser sends the cookie with a WebSocket handshake whichever
site's page opens it, and says which in ``Origin``; so a handshake whose ``Origin`` is not the
hall's own is refused (``403``) before the app sees it. Programs (bots) send no ``Origin`` and
are served as before. Behind a reverse proxy that changes the ``Host`` header, the public
origin is named with ``herna serve --web-origin``.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)

OPEN_SOCKETS = frozenset({"/ws/live"})
"""WebSockets that act for nobody (spectators' live frames): any page may open them."""

LOG_EVERY = 60.0
"""Seconds between two log lines about refused handshakes from one origin."""


def own_origin(scope: Scope) -> str:
    """The origin a page of this hall has, as the handshake reached it."""
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    host = ""
    for key, value in scope.get("headers", []):
        if key == b"host":
            host = value.decode("latin-1")
            break
    return f"{scheme}://{host}"


class OriginCheck:
    """ASGI wrapper: WebSocket handshakes to person sockets from another site's page get 403."""

    def __init__(self, app: ASGIApp, origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.origins = frozenset(o.rstrip("/").lower() for o in origins)
        """Origins besides the hall's own (a reverse proxy's public ``https://…``)."""
        self._logged: dict[str, float] = {}

    def allowed(self, scope: Scope) -> bool:
        origin = None
        for key, value in scope.get("headers", []):
            if key == b"origin":
                origin = value.decode("latin-1").rstrip("/").lower()
                break
        if origin is None:
            return True  # not a browser: a program speaking the game's protocol
        return origin == own_origin(scope).lower() or origin in self.origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "websocket"
            and scope["path"] not in OPEN_SOCKETS
            and not self.allowed(scope)
        ):
            self._note(scope)
            # Closing before accepting makes the server answer the handshake with 403.
            await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)

    def _note(self, scope: Scope) -> None:
        origin = dict(scope.get("headers", [])).get(b"origin", b"").decode("latin-1")[:100]
        now = time.monotonic()
        if now - self._logged.get(origin, -LOG_EVERY) >= LOG_EVERY:
            if len(self._logged) > 1000:
                self._logged.clear()
            self._logged[origin] = now
            log.warning(
                "web: refused a WebSocket to %s from a page of %r (not this hall's origin; "
                "--web-origin names a reverse proxy's)",
                scope["path"],
                origin,
            )
