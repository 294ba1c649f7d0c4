"""The tile/path game server (Herna's ``herna-tiles/1`` protocol), plugged into ``herna serve``
as ``tiles``.

* :mod:`herna.servers.tiles.hub` — :class:`TilesHub`, the server without I/O: connections,
  tables, games, house bots, timeouts, records and spectator events.
* :mod:`herna.servers.tiles.tcp` — the TCP listener (newline-delimited JSON, port 7200).
* :mod:`herna.servers.tiles.tables` — what the hub keeps: settings, connections, tables, seats.
* :mod:`herna.servers.tiles.names` — which connection plays under which name (with the hall's
  :class:`~herna.hall.identity.Identity`: reserved names need their token, house bots' names
  are the server's own).
* :mod:`herna.servers.tiles.checker` — checks the rules objects players send in a worker
  process, so a huge one never stalls the event loop every server shares.
* The same hub also serves WebSocket clients: the web hall's ``/ws/tiles``
  (:mod:`herna.web.play`, same port as the web pages) finds it as ``hall.service("tiles").hub``
  and hands it one message per frame, so WebSocket and TCP players sit at the same tables.

The protocol is documented in ``docs/protocols/tiles.md``, the game in ``docs/games/tiles.md``.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
from typing import Any

from herna.clients.tiles import run_bot
from herna.games.tiles.bots import STRATEGIES
from herna.games.tiles.engine import DEFAULT_MAX_ROUNDS
from herna.hall.hall import Hall
from herna.servers.deadlines import DEFAULT_LOGIN_TIMEOUT
from herna.servers.registry import ServerPlugin, option
from herna.servers.tiles.checker import ProcessRulesChecker
from herna.servers.tiles.hub import (
    DEFAULT_BOT_DELAY,
    DEFAULT_HOUSE_STRATEGY,
    DEFAULT_LOBBY_WAIT,
    DEFAULT_RECONNECT_WINDOW,
    DEFAULT_SHOWCASE_PAUSE,
    DEFAULT_TURN_TIMEOUT,
    Client,
    HubStats,
    SeatSlot,
    Table,
    TilesHub,
    TilesSettings,
    log,
)
from herna.servers.tiles.tcp import WRITE_BUFFER_LIMIT, listen
from herna.servers.tiles.workers import TilesFront
from herna.servers.workers import shared_with_workers, worker_count, worker_log_args

__all__ = [
    "DEFAULT_BOT_DELAY",
    "DEFAULT_HOUSE_STRATEGY",
    "DEFAULT_LOBBY_WAIT",
    "DEFAULT_LOGIN_TIMEOUT",
    "DEFAULT_PORT",
    "DEFAULT_SHOWCASE_PAUSE",
    "DEFAULT_TURN_TIMEOUT",
    "PLUGIN",
    "WEBSOCKET_PATH",
    "WRITE_BUFFER_LIMIT",
    "Client",
    "HubStats",
    "SeatSlot",
    "Table",
    "TilesHub",
    "TilesService",
    "TilesSettings",
    "add_arguments",
    "log",
    "serve",
    "start",
]

DEFAULT_PORT = 7200
WEBSOCKET_PATH = "/ws/tiles"
"""Where the web hall serves this protocol over WebSocket (when it runs in the same hall)."""


# -- the service --------------------------------------------------------------------------------
class TilesService:
    game = "tiles"
    protocol = "Herna tiles JSON: lines over TCP, frames over WebSocket (herna-tiles/1)"
    doc = "docs/protocols/tiles.md"

    def __init__(
        self, hub: TilesHub, server: asyncio.Server, host: str, hall: Hall | None = None
    ) -> None:
        self.hub = hub
        """The hub every transport feeds: TCP here, WebSocket in the web hall."""
        self.server = server
        self.host = host
        self.hall = hall
        self.entrants: set[asyncio.Task[Any]] = set()
        """House bots playing live tournaments (:meth:`enter_house_bot`)."""
        if hall is not None and hall.tournaments is not None:
            hall.tournaments.house_seats["tiles"] = self.enter_house_bot

    def enter_house_bot(self, name: str, level: str, seek: str) -> None:
        """A house bot of ``level`` that waits with ``seek`` (``tournament=ID``: a live
        tournament's entrant over TCP, which plays its games and leaves when it is over)."""
        if self.hall is None:
            return
        words = dict(w.partition("=")[::2] for w in seek.split(",") if w)
        tid = words.get("tournament", "")
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        task = asyncio.create_task(
            run_bot(
                host,
                self.port,
                name,
                None,
                level,
                token=self.hall.identity.reserve_house_bot(name),
                reconnect=False,
                tournament=int(tid) if tid.isdigit() else None,
            ),
            name=f"tiles-house-{name}",
        )
        self.entrants.add(task)
        task.add_done_callback(self.entrants.discard)

    @property
    def port(self) -> int:
        sockets = self.server.sockets
        return int(sockets[0].getsockname()[1]) if sockets else 0

    def endpoints(self) -> list[str]:
        out = [f"tcp://{self.host}:{self.port}"]
        web = self.hall.service("web") if self.hall is not None else None
        url = getattr(web, "url", None)  # the web hall serves WEBSOCKET_PATH while it runs
        if isinstance(url, str) and url.startswith("http"):
            out.append("ws" + url[len("http") :] + WEBSOCKET_PATH)
        return out

    def snapshot(self) -> dict[str, Any]:
        snap = self.hub.snapshot()
        snap["endpoints"] = self.endpoints()
        if self.hub.elsewhere is not None:
            snap["workers"] = self.hub.elsewhere.snapshot()
        return snap

    async def stop(self) -> None:
        for task in list(self.entrants):
            task.cancel()
        await asyncio.gather(*self.entrants, return_exceptions=True)
        self.server.close()
        self.hub.shutdown()
        if self.hub.elsewhere is not None:
            await self.hub.elsewhere.stop()
        await self.server.wait_closed()


async def serve(
    hall: Hall,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    settings: TilesSettings | None = None,
    workers: int = 0,
    worker_log: Sequence[str] = (),
) -> TilesService:
    """Start the server on ``host:port`` (0 = any free port); used by the plugin and tests.
    ``workers`` game worker processes run the games whose seats are all network clients or
    house bots (:mod:`~herna.servers.tiles.workers`)."""
    settings = settings or TilesSettings()
    hub = TilesHub(
        hall.bus,
        hall.records,
        hall.clock,
        settings,
        ProcessRulesChecker(),
        hall.identity,
        hall.lobby,
    )
    if shared_with_workers(hall.records.url, workers, "tiles"):
        await TilesFront(hub, workers, hall.records.url, worker_log).start()
    server = await listen(hub, host, port)
    if settings.house_bots and settings.showcase:
        hub.start_showcase()
    return TilesService(hub, server, host, hall)


def add_arguments(group: argparse._ArgumentGroup) -> None:
    group.add_argument("--tiles-port", type=int, help=f"TCP port (default {DEFAULT_PORT})")
    group.add_argument(
        "--tiles-turn-timeout",
        type=float,
        metavar="SECONDS",
        help="time a player has to act; then a bot's seat gets a random legal action, and a "
        "person's seat the grace period (the reconnect window) and then a stand-in house bot "
        f"(default {DEFAULT_TURN_TIMEOUT:g}; 0 = wait forever)",
    )
    group.add_argument(
        "--tiles-login-timeout",
        type=float,
        metavar="SECONDS",
        help="time a new connection has to join a table before it gets LOGIN_TIMEOUT and is "
        f"closed (default {DEFAULT_LOGIN_TIMEOUT:g}; 0 = no limit)",
    )
    group.add_argument(
        "--tiles-lobby-wait",
        type=float,
        metavar="SECONDS",
        help="time a table waits for more players before house bots take the "
        f"empty seats (default {DEFAULT_LOBBY_WAIT:g}; 0 = only on 'start')",
    )
    group.add_argument(
        "--tiles-reconnect-window",
        type=float,
        metavar="SECONDS",
        help="time the seat of a player whose connection dropped mid-game waits for it to "
        "come back with its seat secret before a house bot plays it "
        f"(default {DEFAULT_RECONNECT_WINDOW:g}; 0 = a house bot at once)",
    )
    group.add_argument(
        "--tiles-bot-delay",
        type=float,
        metavar="SECONDS",
        help=f"house bots' pause before each action (default {DEFAULT_BOT_DELAY:g})",
    )
    group.add_argument(
        "--tiles-bot-strategy",
        choices=STRATEGIES,
        help="how house bots play: random, goal, search, or a level (easy, medium = goal, hard, "
        f"strongest = search) (default {DEFAULT_HOUSE_STRATEGY}); a player opening a table may "
        "ask for a level of its own (docs/games/tiles.md measures each level)",
    )
    group.add_argument(
        "--tiles-max-rounds",
        type=int,
        metavar="N",
        help=f"rounds after which a game is a draw (default {DEFAULT_MAX_ROUNDS})",
    )
    group.add_argument(
        "--tiles-no-showcase",
        action="store_true",
        default=None,
        help="no house-bot table playing the shipped rules files in turn",
    )
    group.add_argument(
        "--tiles-seed",
        type=int,
        help="fix the sequence of game seeds (default: each game's seed is drawn from secrets)",
    )


async def start(hall: Hall, args: argparse.Namespace, config: dict[str, Any]) -> TilesService:
    host = str(getattr(args, "host", None) or "127.0.0.1")
    port = int(option(args, config, "tiles_port", DEFAULT_PORT))
    seed = option(args, config, "tiles_seed", None)
    house = not bool(getattr(args, "no_house_bots", False))
    settings = TilesSettings(
        house_bots=house,
        house_strategy=str(option(args, config, "tiles_bot_strategy", DEFAULT_HOUSE_STRATEGY)),
        bot_delay=float(option(args, config, "tiles_bot_delay", DEFAULT_BOT_DELAY)),
        turn_timeout=float(option(args, config, "tiles_turn_timeout", DEFAULT_TURN_TIMEOUT)),
        lobby_wait=float(option(args, config, "tiles_lobby_wait", DEFAULT_LOBBY_WAIT)),
        max_rounds=int(option(args, config, "tiles_max_rounds", DEFAULT_MAX_ROUNDS)),
        showcase=house and not bool(option(args, config, "tiles_no_showcase", False)),
        seed=None if seed is None else int(seed),
        login_timeout=float(option(args, config, "tiles_login_timeout", DEFAULT_LOGIN_TIMEOUT)),
        reconnect_window=float(
            option(args, config, "tiles_reconnect_window", DEFAULT_RECONNECT_WINDOW)
        ),
    )
    return await serve(hall, host, port, settings, worker_count(args), worker_log_args(args))


PLUGIN = ServerPlugin(
    name="tiles",
    help="tile/path games from rules.json (seed 004), Herna JSON lines over TCP "
    f"(and over WebSocket at the web hall's {WEBSOCKET_PATH})",
    add_arguments=add_arguments,
    start=start,
)
