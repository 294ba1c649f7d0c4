"""The CGML hall of seed 001 (licitovaný mariáš), plugged into `herna serve` as ``marias``.

`herna serve` starts, in one process: a login server (players, bots and bot servers on
7001, super game servers on 7003), one super game server (players on 7002) that registers
with it, one bot server that supplies bots on demand, and house players that play all the
time, so a person who connects as ``active`` gets a table with two bots at once. Extra bot
servers of other levels or strategies (``--cgml-bot-levels``, default ``easy,hard,strongest``;
the main bot server's ``heuristic`` is the level ``medium``) supply bots only to players who
name them as opponents (the web hall's level choice).

With ``--cgml-login HOST:PORT`` the process is one more super game server and nothing else:
it registers at that login server's server port, as the seed designed it, and the login
server balances new groups across every registered super game server (the one with the
fewest groups gets the next). Several such processes, on this machine or others, share the
hall's database (PostgreSQL when they run on several machines). See docs/scaling.md.

The bot server and the house players are house bots: their names are reserved in the hall's
identity (:meth:`~herna.hall.identity.Identity.reserve_house_bot`) and they log in with
their tokens like any other client, so nobody else can log in under their names.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from collections.abc import Callable
from typing import Any

from herna.clients.cgml import BotDecider, run_player
from herna.core.rng import SeedSource
from herna.games.marias import TARIFFS, Rules
from herna.games.marias.bots import STRATEGY_CHOICES, canonical, level_of
from herna.hall.bridge import is_postgres
from herna.hall.hall import Hall
from herna.protocols.cgml.lobby import LobbySettings
from herna.protocols.cgml.messages import PlayerRef
from herna.servers.cgml.botserver import BotServer
from herna.servers.cgml.gameserver import SuperGameServer
from herna.servers.cgml.login import LoginServer
from herna.servers.cgml.seats import GroupSettings
from herna.servers.deadlines import DEFAULT_LOGIN_TIMEOUT
from herna.servers.registry import ServerPlugin, option

log = logging.getLogger("herna.cgml")

DEFAULT_LOGIN_PORT = 7001
DEFAULT_LOGIN_SERVER_PORT = 7003
DEFAULT_GAME_PORT = 7002
DEFAULT_BOT_LEVELS = "easy,hard,strongest"
"""Extra bot servers by default: with the main ``heuristic`` (= medium) the web hall offers
all four mariáš levels."""


class CgmlService:
    game = "marias"
    protocol = "CGML over TCP (seed 001)"
    doc = "docs/protocols/cgml.md"

    def __init__(
        self,
        host: str,
        login: LoginServer | None,
        games: list[SuperGameServer],
        bots: list[BotServer],
    ) -> None:
        self.host = host
        self.login = login
        self.games = games
        self.bots = bots
        self.house: list[asyncio.Task[Any]] = []
        self.house_delay = 0.0
        """House players' pause before each answer (``--cgml-bot-delay``)."""
        self.reserve: Callable[[str], str] | None = None
        """The hall's way to reserve a house bot's name (its token)."""

    def enter_house_bot(self, name: str, level: str, seek: str) -> None:
        """A house bot of ``level`` that waits with ``seek`` (``tournament=ID``: a live
        tournament's entrant, which plays that tournament's groups and leaves when the login
        server says it is over)."""
        if self.login is None or self.reserve is None:
            return  # a super game server alone: the login server's process seats them
        words = dict(w.partition("=")[::2] for w in seek.split(",") if w)
        player = PlayerRef(name, name, "bot")
        token = self.reserve(name)
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        decider = BotDecider(level, delay=self.house_delay)
        task = asyncio.create_task(
            run_player(
                host,
                self.login.player_address[1],
                player,
                decider,
                groups=None,
                status="passive",
                token=token,
                tournament=words.get("tournament"),
            ),
            name=f"cgml-house-{name}",
        )
        self.house = [t for t in self.house if not t.done()] + [task]

    def endpoints(self) -> list[str]:
        out = []
        if self.login is not None:
            out += [
                f"tcp://{self.host}:{self.login.player_address[1]} (login: players, bots)",
                f"tcp://{self.host}:{self.login.server_address[1]} (login: super game servers)",
            ]
        out += [f"tcp://{g.url} (super game server)" for g in self.games]
        return out

    def snapshot(self) -> dict[str, Any]:
        return {
            "login": self.login.snapshot() if self.login is not None else None,
            "game_servers": [g.snapshot() for g in self.games],
            "bot_servers": [b.snapshot() for b in self.bots],
            "house_players": len(self.house),
        }

    async def stop(self) -> None:
        for task in self.house:
            task.cancel()
        await asyncio.gather(*self.house, return_exceptions=True)
        for bots in self.bots:
            await bots.stop()
        for game in self.games:
            await game.stop()
        if self.login is not None:
            await self.login.stop()


def login_address(value: str) -> tuple[str, int]:
    """``HOST:PORT`` of a login server's server port (``--cgml-login``)."""
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not HOST:PORT (the login server's port for super game servers, "
            f"default {DEFAULT_LOGIN_SERVER_PORT})"
        )
    return host.strip("[]"), int(port)


def add_arguments(group: argparse._ArgumentGroup) -> None:
    group.add_argument(
        "--cgml-login",
        type=login_address,
        metavar="HOST:PORT",
        help="run only a super game server that registers at this login server's port for "
        f"super game servers (e.g. 10.0.0.5:{DEFAULT_LOGIN_SERVER_PORT}); no login server, "
        "bot server or house players start here. Point every such process at the same "
        "--database-url (PostgreSQL across machines). See docs/scaling.md",
    )
    group.add_argument(
        "--cgml-login-port",
        type=int,
        help=f"login server port for players, bots and bot servers (default {DEFAULT_LOGIN_PORT})",
    )
    group.add_argument(
        "--cgml-login-server-port",
        type=int,
        help=f"login server port for super game servers (default {DEFAULT_LOGIN_SERVER_PORT})",
    )
    group.add_argument(
        "--cgml-game-port",
        type=int,
        help=f"super game server port for players and bots (default {DEFAULT_GAME_PORT})",
    )
    group.add_argument(
        "--cgml-public-host",
        help="host name players are sent to in connect complete (default: --host, or "
        "127.0.0.1 when listening on all addresses)",
    )
    group.add_argument(
        "--cgml-bot-strategy",
        choices=STRATEGY_CHOICES,
        help="strategy or level of the bot server's bots and the house players: random, "
        "heuristic (rules of thumb; the default, = level medium) or sampling-search (samples "
        "the unseen cards and searches, = strongest); levels easy, medium, hard, strongest; "
        "the old names rule and search still work",
    )
    group.add_argument(
        "--cgml-bot-levels",
        help="comma-separated levels or strategies of extra bot servers (house-<level>-bot) "
        "whose bots play only for players who name them as opponents, e.g. the web hall's "
        '"Play mariáš" level choice (default easy,hard,strongest; one that plays like '
        "--cgml-bot-strategy is left out; '' for none)",
    )
    group.add_argument(
        "--cgml-bot-capacity", type=int, help="bots the bot server runs at load 100 (default 100)"
    )
    group.add_argument(
        "--cgml-bot-delay",
        type=float,
        help="seconds a bot thinks before each answer (default 0.5; 0 for full speed)",
    )
    group.add_argument(
        "--cgml-house-tables",
        type=int,
        help="tables of house players that play all the time (default 1)",
    )
    group.add_argument(
        "--cgml-fill-wait",
        type=float,
        help="seconds an active player waits for other people before bots fill the table "
        "(default 0.5)",
    )
    group.add_argument(
        "--cgml-timeout", type=float, help="seconds a bot has to answer (default 30)"
    )
    group.add_argument(
        "--cgml-human-timeout", type=float, help="seconds a person has to answer (default 300)"
    )
    group.add_argument(
        "--cgml-join-timeout",
        type=float,
        help="seconds every member has to join a new group (default 60)",
    )
    group.add_argument(
        "--cgml-max-pause", type=float, help="longest pause in seconds (default 600)"
    )
    group.add_argument(
        "--cgml-stall-timeout",
        type=float,
        help="seconds a half-sent message may wait for its end (default 10)",
    )
    group.add_argument(
        "--cgml-login-timeout",
        type=float,
        metavar="SECONDS",
        help="close a connection to any CGML port that has not identified itself (login "
        "server: an accepted <connect>; super game server: joined its group) after this long, "
        f'with <error code="LOGIN_TIMEOUT"> (default {DEFAULT_LOGIN_TIMEOUT:g}; 0: never)',
    )
    group.add_argument(
        "--cgml-training",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="training mode: refuse a card against the rules with <renonc> to that player "
        "and ask again instead of ending the game (default off)",
    )
    group.add_argument(
        "--cgml-seed",
        type=int,
        help="fixed seed for the sequence of deal seeds, for tests and reproducible runs "
        "(default: every deal's seed comes from the system's secure random source)",
    )
    group.add_argument(
        "--cgml-tariff",
        choices=sorted(TARIFFS),
        help="money tariff: csm (default, ČSM competition rules), re, pub",
    )


async def start(hall: Hall, args: argparse.Namespace, config: dict[str, Any]) -> CgmlService:
    host = str(getattr(args, "host", None) or "127.0.0.1")
    login_port = int(option(args, config, "cgml_login_port", DEFAULT_LOGIN_PORT))
    server_port = int(option(args, config, "cgml_login_server_port", DEFAULT_LOGIN_SERVER_PORT))
    game_port = int(option(args, config, "cgml_game_port", DEFAULT_GAME_PORT))
    public = option(args, config, "cgml_public_host", None)
    if public is None:
        public = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    strategy = canonical(str(option(args, config, "cgml_bot_strategy", "heuristic")))
    capacity = int(option(args, config, "cgml_bot_capacity", 100))
    delay = float(option(args, config, "cgml_bot_delay", 0.5))
    house_tables = int(option(args, config, "cgml_house_tables", 1))
    stall = float(option(args, config, "cgml_stall_timeout", 10.0))
    tariff = str(option(args, config, "cgml_tariff", "csm"))
    login_timeout = float(option(args, config, "cgml_login_timeout", DEFAULT_LOGIN_TIMEOUT))
    settings = GroupSettings(
        rules=Rules(tariff=TARIFFS[tariff]),
        bot_timeout=float(option(args, config, "cgml_timeout", 30.0)),
        human_timeout=float(option(args, config, "cgml_human_timeout", 300.0)),
        join_timeout=float(option(args, config, "cgml_join_timeout", 60.0)),
        max_pause=float(option(args, config, "cgml_max_pause", 600.0)),
        training=bool(option(args, config, "cgml_training", False)),
    )
    levels = [
        canonical(x.strip())
        for x in str(option(args, config, "cgml_bot_levels", DEFAULT_BOT_LEVELS)).split(",")
        if x.strip()
        and canonical(x.strip()) != strategy
        and (level_of(x.strip()) is None or level_of(x.strip()) != level_of(strategy))
    ]
    unknown = [x for x in levels if x not in STRATEGY_CHOICES]
    if unknown:
        raise SystemExit(
            f"herna serve: --cgml-bot-levels: unknown strategy {unknown[0]!r} "
            f"(choose from {', '.join(STRATEGY_CHOICES)})"
        )
    lobby = LobbySettings(
        fill_wait=float(option(args, config, "cgml_fill_wait", 0.5)),
        named_only=frozenset(f"house-{x}-bot" for x in levels),
    )
    house_names = frozenset(f"house-{i + 1}" for i in range(3 * house_tables))
    # The hall's own players, recorded as house bots: the house tables' players and the bots
    # of its bot servers (their reserved names: nobody else can log in with them).
    house_players = house_names | {f"house-{x}-bot" for x in (strategy, *levels)}
    seed = option(args, config, "cgml_seed", None)
    remote = option(args, config, "cgml_login", None)
    if remote is not None:
        remote_host, remote_port = (
            remote if isinstance(remote, tuple) else login_address(str(remote))
        )
        game = SuperGameServer(
            hall.clock,
            settings,
            bus=hall.bus,
            records=hall.records,
            stall_timeout=stall,
            house_names=house_players,
            login_timeout=login_timeout,
            seeds=SeedSource(None if seed is None else int(seed)),
            closed=lambda: hall.lobby.closed,
        )
        await game.start(host, game_port, remote_host, remote_port, str(public))
        if not is_postgres(hall.records.url):
            log.warning(
                "super game server only, on SQLite: every process must share this machine "
                "and working directory, and their live tables are not shown across "
                "processes; use a PostgreSQL --database-url to spread out (docs/scaling.md)"
            )
        log.info(
            "super game server %s only, registering at the login server %s:%s",
            game.url,
            remote_host,
            remote_port,
        )
        return CgmlService(host, None, [game], [])

    login = LoginServer(
        hall.clock, lobby, stall, login_timeout, names=hall.identity, hall_lobby=hall.lobby
    )
    await login.start(host, login_port, server_port)
    login_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    game = SuperGameServer(
        hall.clock,
        settings,
        bus=hall.bus,
        records=hall.records,
        stall_timeout=stall,
        house_names=house_players,
        login_timeout=login_timeout,
        seeds=SeedSource(None if seed is None else int(seed)),
        closed=lambda: hall.lobby.closed,
    )
    await game.start(host, game_port, login_host, login.server_address[1], str(public))
    # One name for the bot server's id and <name>, so that its one house token proves both.
    bots_name = f"house-{strategy}-bot"  # (one of house_players)
    bots_token = hall.identity.reserve_house_bot(bots_name)
    bots = BotServer(bots_name, bots_name, strategy, capacity, delay, token=bots_token)
    await bots.start(login_host, login.player_address[1])
    service = CgmlService(host, login, [game], [bots])
    service.house_delay = delay
    service.reserve = hall.identity.reserve_house_bot
    if hall.tournaments is not None:
        hall.tournaments.house_seats["marias"] = service.enter_house_bot
    for level in dict.fromkeys(levels):
        # Extra levels for people who ask for them by name (LobbySettings.named_only).
        name = f"house-{level}-bot"
        extra = BotServer(
            name, name, level, capacity, delay, token=hall.identity.reserve_house_bot(name)
        )
        await extra.start(login_host, login.player_address[1])
        service.bots.append(extra)
    if not getattr(args, "no_house_bots", False) and house_tables > 0:
        for name in sorted(house_names):
            player = PlayerRef(name, name, "bot")
            decider = BotDecider(strategy, delay=delay)
            token = hall.identity.reserve_house_bot(name)
            task = asyncio.create_task(
                _house_player(login_host, login.player_address[1], player, decider, token)
            )
            service.house.append(task)
    return service


async def _house_player(
    host: str, port: int, player: PlayerRef, decider: BotDecider, token: str
) -> None:
    """A house player: plays group after group, forever (until `herna serve` stops); a lost
    login server is waited for with backoff (:func:`~herna.clients.cgml.run_player`)."""
    while True:
        try:
            await run_player(
                host, port, player, decider, groups=None, token=token, reconnect=True, say=log.info
            )
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a refusal no retry cures; say so and keep trying slowly
            log.warning("house player %s: %s; again in a minute", player.id, e)
            await asyncio.sleep(60.0)


PLUGIN = ServerPlugin(
    name="marias",
    help="licitovaný mariáš over CGML: login server, super game server, bot server (seed 001)",
    add_arguments=add_arguments,
    start=start,
)
