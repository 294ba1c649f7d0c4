"""The Onitama TCP server of seed 003, plugged into ``herna serve`` as ``onitama``.

Three layers, I/O only at the bottom:

* :mod:`herna.servers.onitama.hub` — :class:`OnitamaHub`, the server itself without any I/O:
  players, the lobby, one match per game, the reconnect window, records and spectator events.
* :mod:`herna.servers.onitama.house_bot` — :class:`HouseBot`, an in-process peer that plays
  with a bot strategy, so a lone person always finds an opponent in the lobby.
* :class:`~herna.servers.tcp.TcpPeer` is the asyncio transport: bytes in, bytes out, nothing
  else. This module wires them into a service and the ``herna serve`` plugin.

The wire protocol is documented in ``docs/protocols/onitama.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any

from herna.games.onitama.bots import LEVEL_NAMES, STRATEGIES, make_strategy
from herna.games.onitama.state import OnitamaState
from herna.hall.hall import Hall
from herna.hall.lobby import Seek
from herna.servers.conncap import ConnectionCap
from herna.servers.deadlines import DEFAULT_LOGIN_TIMEOUT
from herna.servers.onitama.house_bot import HouseBot
from herna.servers.onitama.hub import (
    DEFAULT_HOUSE_BOT_DELAY,
    DEFAULT_HOUSE_BOT_LEVEL,
    DEFAULT_HOUSE_BOT_STRATEGY,
    DEFAULT_MOVE_CLOCK,
    DEFAULT_RECONNECT_WINDOW,
    DEFAULT_START_PAUSE,
    OnitamaHub,
    OnitamaSettings,
)
from herna.servers.onitama.workers import OnitamaFront
from herna.servers.registry import ServerPlugin, option
from herna.servers.tcp import TcpPeer
from herna.servers.workers import shared_with_workers, worker_count, worker_log_args

__all__ = [
    "DEFAULT_PORT",
    "PLUGIN",
    "HouseBot",
    "OnitamaHub",
    "OnitamaService",
    "OnitamaSettings",
    "serve",
]

log = logging.getLogger("herna.onitama")

DEFAULT_PORT = 7100
DEFAULT_HOUSE_BOTS = 3
WRITE_BUFFER_LIMIT = 1 << 20
"""Bytes queued for a client that does not read before it is cut off (``SLOW_READER``)."""


class OnitamaService:
    game = "onitama"
    protocol = "Onitama TCP (seed 003; line and NUL dialects)"
    doc = "docs/protocols/onitama.md"

    def __init__(self, hub: OnitamaHub, server: asyncio.Server, host: str) -> None:
        self.hub = hub
        self.server = server
        self.host = host
        self.house_bots: list[HouseBot] = []
        self.summoned: list[HouseBot] = []
        """House bots seated for one person's seek each (see :meth:`summon_house_bot`)."""
        self._summoned = 0
        hub.summon = self.summon_house_bot

    @property
    def port(self) -> int:
        sockets = self.server.sockets
        return int(sockets[0].getsockname()[1]) if sockets else 0

    def endpoints(self) -> list[str]:
        return [f"tcp://{self.host}:{self.port}"]

    def snapshot(self) -> dict[str, Any]:
        snap = self.hub.snapshot()
        snap["endpoints"] = self.endpoints()
        snap["house_bots"] = [b.name for b in self.house_bots]
        if self.hub.elsewhere is not None:
            snap["workers"] = self.hub.elsewhere.snapshot()
        return snap

    def summon_house_bot(self, seek: Seek, level: str) -> None:
        """A house bot of ``level`` for one person's seek: it logs in accepting that seek,
        plays the one game and leaves (the hub's :attr:`~OnitamaHub.summon`). A rematch asks
        for the bot of the last game by name (:attr:`~OnitamaHub.bot_names`)."""
        self._summoned += 1
        name = self.hub.bot_names.pop(seek.id, None)
        if name is None or self.hub.logged_in(name):
            name = f"house-{level}-{self._summoned}"
        self._seat_house_bot(name, level, f"accept={seek.id}")

    def enter_house_bot(self, name: str, level: str, seek: str) -> None:
        """A house bot of ``level`` that waits with ``seek`` (a live tournament's entrant:
        it plays the tournament's games and leaves when it is over)."""
        self._seat_house_bot(name, level, seek)

    def _seat_house_bot(self, name: str, level: str, seek: str) -> None:
        settings = self.hub.settings
        strategy = make_strategy(
            settings.house_bot_strategy,
            seed=self.hub.seeds.next_seed() % 2**31,
            depth=settings.house_bot_depth,
            level=level,
        )
        token = self.hub.identity.reserve_house_bot(name)
        bot = HouseBot(
            self.hub,
            name,
            strategy,
            settings.house_bot_delay,
            token,
            off_loop=True,
            seek=seek,
        )
        self.summoned = [b for b in self.summoned if not b.closed] + [bot]

    def add_house_bots(self, count: int) -> None:
        """House bots ``house-1`` … : their names are reserved in the hall's identity and
        each bot logs in with its token, like any other client of a reserved name."""
        settings = self.hub.settings
        for i in range(count):
            name = f"house-{i + 1}"
            strategy = make_strategy(
                settings.house_bot_strategy,
                seed=self.hub.seeds.next_seed() % 2**31,
                depth=(
                    3
                    if settings.house_bot_depth is None
                    and settings.house_bot_strategy == "alphabeta"
                    else settings.house_bot_depth
                ),
                level=settings.house_bot_level,
            )
            token = self.hub.identity.reserve_house_bot(name)
            self.house_bots.append(
                HouseBot(self.hub, name, strategy, settings.house_bot_delay, token, off_loop=True)
            )

    async def stop(self) -> None:
        self.server.close()
        self.hub.shutdown()
        for bot in self.house_bots + self.summoned:
            bot.close()
        if self.hub.elsewhere is not None:
            await self.hub.elsewhere.stop()
        await self.server.wait_closed()


async def serve(
    hall: Hall,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    settings: OnitamaSettings | None = None,
    house_bots: int = 0,
    initial_state: Callable[[], OnitamaState] | None = None,
    workers: int = 0,
    worker_log: Sequence[str] = (),
) -> OnitamaService:
    """Start the server on ``host:port`` (0 = any free port) with the hall's bus, records and
    clock; used by the plugin, tests and benchmarks. ``workers`` game worker processes run the
    games between network clients (:mod:`~herna.servers.onitama.workers`)."""
    hub = OnitamaHub(
        hall.bus, hall.records, hall.clock, settings, initial_state, hall.identity, hall.lobby
    )
    if shared_with_workers(hall.records.url, workers, "onitama"):
        await OnitamaFront(hub, workers, hall.records.url, worker_log).start()
    loop = asyncio.get_running_loop()
    cap = ConnectionCap("onitama")
    server = await loop.create_server(
        lambda: TcpPeer(hub, WRITE_BUFFER_LIMIT, cap=cap), host, port, backlog=4096
    )
    service = OnitamaService(hub, server, host)
    if hall.tournaments is not None:
        hall.tournaments.house_seats["onitama"] = service.enter_house_bot
    if house_bots > 0:
        service.add_house_bots(house_bots)
    return service


def add_arguments(group: argparse._ArgumentGroup) -> None:
    group.add_argument("--onitama-port", type=int, help=f"TCP port (default {DEFAULT_PORT})")
    group.add_argument(
        "--onitama-reconnect-window",
        type=float,
        metavar="SECONDS",
        help="how long a dropped player may log in again before the opponent "
        f"wins (default {DEFAULT_RECONNECT_WINDOW:g})",
    )
    group.add_argument(
        "--onitama-move-clock",
        type=float,
        metavar="SECONDS",
        help="time a person (the play page) has for each move; when it runs out they get the "
        "reconnect window as grace, then the opponent wins (a bot at once, a person by "
        f"claiming it) (default {DEFAULT_MOVE_CLOCK:g}; 0: no clock)",
    )
    group.add_argument(
        "--onitama-login-timeout",
        type=float,
        metavar="SECONDS",
        help="close connections that have not logged in after this long with "
        f"ERROR|LOGIN_TIMEOUT (default {DEFAULT_LOGIN_TIMEOUT:g}; 0: never)",
    )
    group.add_argument(
        "--onitama-house-bots",
        type=int,
        metavar="N",
        help=f"house bots waiting in the lobby (default {DEFAULT_HOUSE_BOTS}: "
        "two play each other, one waits for a person)",
    )
    group.add_argument(
        "--onitama-house-bot-strategy",
        choices=STRATEGIES,
        help=f"how house bots play (default {DEFAULT_HOUSE_BOT_STRATEGY}: the compiled engine)",
    )
    group.add_argument(
        "--onitama-house-level",
        choices=LEVEL_NAMES,
        help=f"strength of engine house bots (default {DEFAULT_HOUSE_BOT_LEVEL}); "
        "docs/games/onitama.md gives each level's measured strength",
    )
    group.add_argument(
        "--onitama-house-bot-delay",
        type=float,
        metavar="SECONDS",
        help=f"house bots' pause before each move (default {DEFAULT_HOUSE_BOT_DELAY:g})",
    )
    group.add_argument(
        "--onitama-house-bot-depth",
        type=int,
        metavar="N",
        help="search depth cap of house bots (default: 3 for alphabeta, the level's own for "
        "the engine)",
    )
    group.add_argument(
        "--onitama-one-game",
        action="store_true",
        default=None,
        help="close each connection after its GAME_OVER instead of pairing it again",
    )
    group.add_argument(
        "--onitama-seed",
        type=int,
        help="derive every game's seed (colours and deal) from this number, for reproducible "
        "runs (default: each game's seed comes from the secrets module)",
    )
    group.add_argument(
        "--onitama-start-pause",
        type=float,
        metavar="SECONDS",
        help="after START or RECONNECT, hold other messages to a NUL-dialect client this long "
        f"(its published client drops what shares a read with START; default "
        f"{DEFAULT_START_PAUSE:g})",
    )


async def start(hall: Hall, args: argparse.Namespace, config: dict[str, Any]) -> OnitamaService:
    host = str(getattr(args, "host", None) or "127.0.0.1")
    port = int(option(args, config, "onitama_port", DEFAULT_PORT))
    seed = option(args, config, "onitama_seed", None)
    depth = option(args, config, "onitama_house_bot_depth", None)
    settings = OnitamaSettings(
        reconnect_window=float(
            option(args, config, "onitama_reconnect_window", DEFAULT_RECONNECT_WINDOW)
        ),
        login_timeout=float(option(args, config, "onitama_login_timeout", DEFAULT_LOGIN_TIMEOUT)),
        move_clock=float(option(args, config, "onitama_move_clock", DEFAULT_MOVE_CLOCK)),
        requeue=not bool(option(args, config, "onitama_one_game", False)),
        house_bot_strategy=str(
            option(args, config, "onitama_house_bot_strategy", DEFAULT_HOUSE_BOT_STRATEGY)
        ),
        house_bot_delay=float(
            option(args, config, "onitama_house_bot_delay", DEFAULT_HOUSE_BOT_DELAY)
        ),
        house_bot_depth=None if depth is None else int(depth),
        house_bot_level=str(option(args, config, "onitama_house_level", DEFAULT_HOUSE_BOT_LEVEL)),
        seed=None if seed is None else int(seed),
        start_pause=float(option(args, config, "onitama_start_pause", DEFAULT_START_PAUSE)),
    )
    bots = (
        0
        if getattr(args, "no_house_bots", False)
        else int(option(args, config, "onitama_house_bots", DEFAULT_HOUSE_BOTS))
    )
    return await serve(
        hall,
        host,
        port,
        settings,
        house_bots=bots,
        workers=worker_count(args),
        worker_log=worker_log_args(args),
    )


PLUGIN = ServerPlugin(
    name="onitama",
    help="Onitama over TCP (seed 003; line and NUL dialects)",
    add_arguments=add_arguments,
    start=start,
)
