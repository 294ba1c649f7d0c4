"""The web hall as a ``herna serve`` plugin: uvicorn serving :class:`~herna.web.app.WebApp`
inside the same process and event loop as the game servers.

It is the last entry of ``PLUGIN_PATHS`` so that it starts after (and stops before) every
game server. Options: ``--web-port`` (default 8080; 0 picks a free port), ``--web-host``
(default: ``--host``), ``--web-interval``, ``--web-send-budget``, ``--web-max-spectators``,
``--web-history``, ``--web-request-timeout``, ``--web-ping`` and ``--web-seek-grace``; in
``herna.toml`` the ``[web]`` section takes ``port``, ``host``, ``interval``, ``send-budget``,
``max-spectators``, ``history``, ``request_timeout``, ``ping`` and ``seek_grace``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import socket
from collections.abc import Iterator
from typing import Any

import uvicorn

from herna.hall.hall import Hall
from herna.servers.conncap import ConnectionCap
from herna.servers.registry import ServerPlugin, option
from herna.web.app import WEB_GAME, WebApp, WebSettings
from herna.web.http import DEFAULT_REQUEST_TIMEOUT, websocket_protocol, with_request_timeout
from herna.web.i18n import script_message_ids
from herna.web.live import LiveHub, LiveSettings
from herna.web.play import MAX_FRAME_BYTES
from herna.web.play_marias import GRACE, MOVE_CLOCK, SEEK_GRACE, MariasPlaySettings

log = logging.getLogger(__name__)

DEFAULT_PORT = 8080
DEFAULT_PING = 10.0
"""Seconds between WebSocket pings to every page and bot on the web hall's sockets; one that
has not answered a ping after as many seconds again is dropped (see ``WebHall``)."""


class _EmbeddedServer(uvicorn.Server):
    """uvicorn without its own signal handling: ``herna serve`` owns SIGINT/SIGTERM."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def _listen(host: str, port: int) -> socket.socket:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


class WebHall:
    """The running web hall; also the :class:`~herna.hall.hall.Service` the hall lists."""

    game = WEB_GAME
    protocol = "HTTP + WebSocket (web hall)"
    doc = "docs/web.md"

    def __init__(
        self,
        hall: Hall,
        live: LiveSettings | None = None,
        settings: WebSettings | None = None,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
        ping: float = DEFAULT_PING,
    ) -> None:
        self.hall = hall
        self.request_timeout = request_timeout
        self.ping = ping
        """Protocol-level pings (uvicorn's keepalive): a page whose network went silent (a
        laptop asleep, a cable pulled) sends no close, so only an unanswered ping shows it is
        gone, and only then do its seat and its seek learn it. Browsers answer pings in their
        network stack, even in a background tab whose timers are throttled, so this cannot
        drop a living page as an application-level ping from JavaScript could. 0: none."""
        """Seconds a new connection has to send its first request (``408`` after that)."""
        self.hub = LiveHub(hall.bus, live)
        self.web = WebApp(hall, self.hub, settings)
        self.host = "127.0.0.1"
        self.port = 0
        self._server: _EmbeddedServer | None = None
        self._task: asyncio.Task[None] | None = None
        self._warm: asyncio.Future[object] | None = None
        self.cap = ConnectionCap("web")

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def start(self, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> None:
        sock = _listen(host, port)
        self.host, self.port = host, int(sock.getsockname()[1])
        config = uvicorn.Config(
            self.web.app,
            lifespan="off",
            log_config=None,
            access_log=False,
            http=with_request_timeout(self.request_timeout, self.cap),
            ws=websocket_protocol(self.cap),
            ws_max_size=MAX_FRAME_BYTES,  # /ws/tiles carries rules files; /ws/live reads nothing
            ws_per_message_deflate=False,  # compressing every frame for every client is CPU
            ws_ping_interval=self.ping if self.ping > 0 else None,
            ws_ping_timeout=self.ping if self.ping > 0 else None,
            timeout_graceful_shutdown=3,
            server_header=False,
            proxy_headers=False,
        )
        self._server = _EmbeddedServer(config)
        quiet = logging.getLogger("uvicorn.error")
        if quiet.level == logging.NOTSET:  # "Started server process" is noise inside herna
            quiet.setLevel(logging.WARNING)
        self.hub.start()
        # The scripts' messages are found by Babel's extractor once per process, a second
        # or two of CPU: in a worker thread now, not on the loop at the first page (which
        # would stall every table of this process meanwhile).
        self._warm = asyncio.get_running_loop().run_in_executor(None, script_message_ids)
        if self.web.settings.review_people:
            self.web.reviews.watch(self.hall.bus)
        self._task = asyncio.get_running_loop().create_task(
            self._server.serve(sockets=[sock]), name="herna-web"
        )
        while not self._server.started:
            if self._task.done():
                self._task.result()  # raises what went wrong
                raise RuntimeError("web hall stopped while starting")
            await asyncio.sleep(0.01)
        log.info("web hall on %s", self.url)

    # -- Service --------------------------------------------------------------------------
    def endpoints(self) -> list[str]:
        """The pages, the live WebSocket, and the game servers' WebSockets (those of games
        running in this hall: the others answer close code 4004)."""
        ws = "ws" + self.url[len("http") :]
        games = {s.game for s in self.hall.services}
        sockets = [f"{ws}/ws/{g}" for g in ("onitama", "tiles") if g in games]
        return [self.url + "/", f"{ws}/ws/live", *sockets]

    def snapshot(self) -> dict[str, Any]:
        return self.hub.stats()

    async def stop(self) -> None:
        await self.web.marias.stop()
        await self.web.mia.stop()
        for game_socket in (self.web.tiles_socket, self.web.onitama_socket):
            game_socket.release_all()
        await self.web.reviews.stop()
        self.web.balance.close()
        await self.hub.stop()
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._server = None
            self._task = None


def add_arguments(group: argparse._ArgumentGroup) -> None:
    group.add_argument(
        "--web-origin",
        action="append",
        default=None,
        metavar="URL",
        help="the public origin of the web hall behind a reverse proxy (https://herna.example); "
        "pages of other origins may not open the WebSockets that act for a signed-in person "
        "(default: only the origin the request names in Host; repeat for several)",
    )
    group.add_argument(
        "--web-port",
        type=int,
        default=None,
        metavar="PORT",
        help=f"HTTP port of the web hall (default {DEFAULT_PORT}; 0 picks a free port)",
    )
    group.add_argument(
        "--web-host", default=None, metavar="HOST", help="address of the web hall (default: --host)"
    )
    group.add_argument(
        "--web-interval",
        type=float,
        default=None,
        metavar="SECONDS",
        help="at most one live update per client this often (default 0.1)",
    )
    group.add_argument(
        "--web-send-budget",
        type=float,
        default=None,
        metavar="FRAMES",
        help="live frames per second to all spectators together; with many spectators "
        "each gets fewer (default 500; 10000 when the web hall is alone in its process)",
    )
    group.add_argument(
        "--web-max-spectators",
        type=int,
        default=None,
        metavar="N",
        help="live WebSocket spectators accepted at once (default 2000; 10000 when the web "
        "hall is alone in its process)",
    )
    group.add_argument(
        "--web-history",
        type=int,
        default=None,
        metavar="N",
        help="live events kept per table for browsers that reconnect and resume; a longer "
        "gap gets a fresh snapshot (default 200)",
    )
    group.add_argument(
        "--web-request-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="close connections whose first request is not complete after this long, with "
        f"408 (default {DEFAULT_REQUEST_TIMEOUT:g}; 0: never)",
    )
    group.add_argument(
        "--web-review-people",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="review every finished Onitama game and mariáš deal with a person in it in a "
        "worker process, without being asked (default on; a review page asks for its own "
        "either way)",
    )
    group.add_argument(
        "--web-ping",
        type=float,
        default=None,
        metavar="SECONDS",
        help="ping every WebSocket this often; one that does not answer within as many "
        f"seconds again is dropped, and its seat and seek learn it (default {DEFAULT_PING:g}; "
        "0: no pings)",
    )
    group.add_argument(
        "--web-seek-grace",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long a play page's seek (mariáš, Onitama, tiles) stays in the lobby after "
        f"its page is gone, for a reload to come back to it (default {SEEK_GRACE:g})",
    )
    group.add_argument(
        "--web-marias-grace",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long a browser mariáš seat waits for its page (a reload, a lost "
        f"connection) before a stand-in plays for the person, and the grace period after "
        f"a question's move clock (default {GRACE:g})",
    )
    group.add_argument(
        "--web-marias-clock",
        type=float,
        default=None,
        metavar="SECONDS",
        help="how long a person at a browser mariáš seat has for each question before the "
        f"grace period starts (default {MOVE_CLOCK:g}; 0: no clock)",
    )


async def start(hall: Hall, args: argparse.Namespace, config: dict[str, Any]) -> WebHall:
    port = int(option(args, config, "web_port", DEFAULT_PORT))
    host = str(option(args, config, "web_host", getattr(args, "host", None) or "127.0.0.1"))
    # The send budget keeps spectators from slowing the game servers on the same event
    # loop; a web hall alone in its process (a live tier of its own) may use more of it.
    alone = all(service.game == "web" for service in hall.services)
    live = LiveSettings.live_tier() if alone else LiveSettings()
    live.interval = float(option(args, config, "web_interval", live.interval))
    live.send_budget = float(
        option(args, config, "web_send_budget", config.get("send-budget", live.send_budget))
    )
    live.max_clients = int(
        option(args, config, "web_max_spectators", config.get("max-spectators", live.max_clients))
    )
    live.history = max(1, int(option(args, config, "web_history", live.history)))
    timeout = float(option(args, config, "web_request_timeout", DEFAULT_REQUEST_TIMEOUT))
    grace = float(option(args, config, "web_marias_grace", GRACE))
    clock = float(option(args, config, "web_marias_clock", MOVE_CLOCK))
    origin: str | list[str] = option(args, config, "web_origin", [])
    origins = [origin] if isinstance(origin, str) else list(origin)
    settings = WebSettings(
        marias=MariasPlaySettings(grace=grace, move_clock=clock),
        origins=tuple(origins),
        review_people=bool(option(args, config, "web_review_people", True)),
    )
    # One grace for every play page's seek: the mariáš seat's, and the Onitama and tile
    # pages' held connections (herna.web.play).
    settings.marias.seek_grace = float(option(args, config, "web_seek_grace", SEEK_GRACE))
    web = WebHall(hall, live, settings, request_timeout=timeout)
    web.ping = float(option(args, config, "web_ping", DEFAULT_PING))
    try:
        await web.start(host, port)
    except OSError as exc:
        raise SystemExit(
            f"herna serve: the web hall cannot listen on {host}:{port}: {exc}"
        ) from exc
    return web


PLUGIN = ServerPlugin(
    name="web",
    help="the web hall: live views, history, replays, statistics, JSON API",
    add_arguments=add_arguments,
    start=start,
)
