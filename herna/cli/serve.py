"""``herna serve``: start every server (or those named by ``--only``) in one process."""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import gc
import logging
import resource
import signal
import sys
import tomllib
from pathlib import Path
from typing import Any

from herna.cli.logs import LOG_FORMATS, LOG_LEVELS, setup_logging
from herna.hall.bridge import is_postgres
from herna.hall.db import shown_url
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.hall.writer import MIN_KEEP
from herna.servers.conncap import DEFAULT_PER_ADDRESS
from herna.servers.conncap import configure as configure_caps
from herna.servers.contest import SandboxedBots
from herna.servers.ladder import DEFAULT_CONCURRENCY as LADDER_CONCURRENCY
from herna.servers.ladder import DEFAULT_GAME_SECONDS as LADDER_GAME_SECONDS
from herna.servers.ladder import DEFAULT_MOVE_SECONDS as LADDER_MOVE_SECONDS
from herna.servers.ladder import Ladder, LadderSettings
from herna.servers.registry import ServerPlugin, load_plugins, option

log = logging.getLogger("herna.serve")

DEFAULT_DATABASE = "sqlite:///var/herna.db"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    plugins = load_plugins()
    p = sub.add_parser(
        "serve",
        help="start the game servers (all of them by default)",
        description="Start Herna's game servers in one process. With no arguments: every "
        "server, a SQLite database under ./var/, and house bots playing so there is always "
        "a live game. Options given here override the file named by --config.",
    )
    p.add_argument(
        "--config",
        type=Path,
        help="TOML file with a [serve] section and one "
        "section per server ([mia], [onitama] ...); see herna.example.toml",
    )
    p.add_argument(
        "--only", help="comma-separated servers to start: " + ",".join(pl.name for pl in plugins)
    )
    p.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--database-url", help=f"SQLAlchemy URL or postgresql://… (default {DEFAULT_DATABASE})"
    )
    p.add_argument(
        "--no-house-bots", action="store_true", default=None, help="do not start the house bots"
    )
    p.add_argument(
        "--shared-events",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with a PostgreSQL database: exchange live game events with every other Herna "
        "process on it (LISTEN/NOTIFY), so each web hall shows all their tables (default on "
        "for PostgreSQL; SQLite has no such channel). See docs/scaling.md",
    )
    p.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="game worker processes for Onitama and for tiles (N each): the lobby stays in "
        "this process and each game of network clients (and house bots) runs in one of the "
        "workers, which read and write its sockets themselves (default 0: every game in this "
        "process). Needs a database file or PostgreSQL. See docs/scaling.md",
    )
    p.add_argument(
        "--log-level",
        default=None,
        type=str.upper,
        choices=LOG_LEVELS,
        help="INFO (default): one line per finished game or deal, a Mia summary per minute, "
        "players arriving and leaving; WARNING: only refusals and errors; DEBUG: every round",
    )
    p.add_argument(
        "--log-format",
        default=None,
        choices=LOG_FORMATS,
        help="text (default) or json: one JSON object per line with the fields of each game "
        "line (game, table, players, result, seconds) for log shippers",
    )
    p.add_argument(
        "--log-json",
        dest="log_format",
        action="store_const",
        const="json",
        help="same as --log-format json (kept for existing scripts)",
    )
    p.add_argument(
        "--max-connections-per-address",
        type=int,
        metavar="N",
        help="TCP connections one IP address may hold open on each port (every game server "
        f"and the web hall); more are reset at once (default {DEFAULT_PER_ADDRESS}; 0: no "
        "cap, e.g. behind a reverse proxy that connects from one address)",
    )
    ladder = p.add_argument_group("ladder: submitted bots played in the sandbox (docs/bots.md)")
    ladder.add_argument(
        "--ladder",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="keep playing the newest version of every submitted bot (herna submit, the web "
        "hall's /bots) against the house bots, each in the sandbox; needs bubblewrap "
        "(default off)",
    )
    ladder.add_argument(
        "--ladder-concurrency",
        type=int,
        metavar="N",
        help=f"ladder games at once (default {LADDER_CONCURRENCY})",
    )
    ladder.add_argument(
        "--ladder-move-seconds",
        type=float,
        metavar="SECONDS",
        help=f"time a submitted bot has for each move (default {LADDER_MOVE_SECONDS:g})",
    )
    ladder.add_argument(
        "--ladder-game-seconds",
        type=float,
        metavar="SECONDS",
        help=f"time a ladder game may take in all (default {LADDER_GAME_SECONDS:g})",
    )
    for plugin in plugins:
        plugin.add_arguments(p.add_argument_group(f"{plugin.name}: {plugin.help}"))
    p.set_defaults(func=run)


def embedded_args(only: str, database_url: str, **options: object) -> argparse.Namespace:
    """The options of ``herna serve --only <only>`` as its parser leaves them, for a hall
    started inside another program (tests, benchmarks): every option at its command-line
    default, every ``*_port`` 0 (a free port each), ``options`` set by attribute name (a name
    ``herna serve`` does not have is a ``TypeError``, so a typo cannot pass silently)."""
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["serve"])
    for name in vars(args):
        if name.endswith("_port"):
            setattr(args, name, 0)
    args.only = only
    args.database_url = database_url
    # Tests and benchmarks connect thousands of clients from 127.0.0.1: no cap unless asked.
    args.max_connections_per_address = 0
    for name, value in options.items():
        if not hasattr(args, name):
            raise TypeError(f"herna serve has no option {name!r}")
        setattr(args, name, value)
    return args


def load_config(path: Path | None) -> dict[str, Any]:
    if path is None:
        default = Path("herna.toml")
        if not default.exists():
            return {}
        path = default
    with path.open("rb") as f:
        return tomllib.load(f)


def resolve_common(args: argparse.Namespace, config: dict[str, Any]) -> None:
    """Fill the common options from ``[serve]`` in the config, then built-in defaults."""
    serve = config.get("serve", {})
    defaults: dict[str, Any] = {
        "host": "127.0.0.1",
        "database_url": DEFAULT_DATABASE,
        "no_house_bots": False,
        "shared_events": True,
        "log_level": "INFO",
        "log_format": "text",
        "only": None,
        "workers": 0,
        "max_connections_per_address": DEFAULT_PER_ADDRESS,
        "ladder": False,
        "ladder_concurrency": LADDER_CONCURRENCY,
        "ladder_move_seconds": LADDER_MOVE_SECONDS,
        "ladder_game_seconds": LADDER_GAME_SECONDS,
    }
    old_json = serve.get("log-json", serve.get("log_json"))  # the key before log-format
    if getattr(args, "log_format", None) is None and "log-format" not in serve and old_json:
        args.log_format = "json"
    for name, default in defaults.items():
        if getattr(args, name, None) is None:
            setattr(args, name, serve.get(name.replace("_", "-"), serve.get(name, default)))
    if isinstance(args.only, list):
        args.only = ",".join(args.only)


def selected(plugins: list[ServerPlugin], only: str | None) -> list[ServerPlugin]:
    if not only:
        return plugins
    names = {n.strip() for n in only.split(",") if n.strip()}
    unknown = names - {p.name for p in plugins}
    if unknown:
        raise SystemExit(f"herna serve: unknown server(s) in --only: {', '.join(sorted(unknown))}")
    return [p for p in plugins if p.name in names]


def retention(args: argparse.Namespace, config: dict[str, Any]) -> dict[str, int]:
    """``--mia-keep-rounds`` (alias ``--keep-mia-rounds``; ``keep_rounds`` in ``[mia]``): how
    many Mia round records the database keeps; unset keeps all. The store needs it before any
    server starts (its writer process is started by :meth:`RecordStore.recover`)."""
    keep = option(args, config.get("mia", {}), "mia_keep_rounds", None)
    if keep is None:
        return {}
    if int(keep) < MIN_KEEP:
        raise SystemExit(
            f"herna serve: --mia-keep-rounds must be at least {MIN_KEEP} (records still in "
            "the journal must not be deleted)"
        )
    return {"mia": int(keep)}


async def start_hall(args: argparse.Namespace, config: dict[str, Any]) -> Hall:
    """Start the selected servers; returns the running hall (used by tests too)."""
    resolve_common(args, config)
    configure_caps(int(args.max_connections_per_address))
    records = RecordStore(args.database_url, keep=retention(args, config))
    # Before any server reads scores or round numbers: write what a killed run left behind.
    replayed = records.recover()
    if replayed:
        log.warning("%d records of an earlier run were recovered from the journal", replayed)
    hall = Hall(records=records)
    # A deleted database file is noticed within a second or two: no new games from then on.
    hall.watch_database()
    director = hall.hold_tournaments()
    if args.shared_events and is_postgres(args.database_url):
        await hall.share_events()
    plugins = selected(load_plugins(), args.only)
    if any(p.name == "onitama" for p in plugins):
        # The engine compiles for ~15 s on a first start (then loads from numba's cache):
        # before any port opens, so that none is "listening" without answering, and in a
        # thread, so that the loop stays free.
        from herna.games.onitama.engine import warm_up

        log.info("Onitama engine ready in %.1f s", await asyncio.to_thread(warm_up))
    for plugin in plugins:
        service = await plugin.start(hall, args, config.get(plugin.name, {}))
        hall.add(service)
        log.info("%s listening on %s", service.protocol, ", ".join(service.endpoints()))
    # Once the game servers run (they seat the tournaments' house bots): live tournaments
    # an earlier run of this hall left go on.
    director.take_over_orphans()
    return hall


GC_THRESHOLDS = (20_000, 20, 20)
"""Collector thresholds of a running hall (CPython's default is (700, 10, 10))."""


def tune_gc() -> None:
    """Tune CPython's cyclic garbage collector for a long-running server.

    Measured with ``bench/onitama_games.py`` (``--default-gc`` for the other side): with the
    default thresholds the Onitama server spent 1.15 s of 11 s CPU in collections that found
    nothing to collect (game objects are freed by reference counting), and in 5 s of
    ``bench/mia_rounds.py`` one full collection stopped the Mia server for 48-65 ms. So:
    everything alive after start-up (modules, plugins, house bots) is frozen out of every
    later collection, and young collections run 30 times less often (0.25 s of 11 s; no
    collection at all in those 5 s of Mia).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


ADOPT_EVERY = 5.0
"""Seconds between looks for the journal of another Herna process that ended (see
:meth:`~herna.hall.records.RecordStore.adopt`)."""


async def adopt_orphans(records: RecordStore, every: float = ADOPT_EVERY) -> None:
    """While this hall runs, write what other processes on the same database and journal left
    when they ended (a killed super game server's last deals), instead of at the next start."""
    while True:
        await asyncio.sleep(every)
        try:
            found = await asyncio.to_thread(records.adopt)
        except Exception:  # the database may be down for a while; the journal keeps it all
            log.exception("could not replay another process's journal; trying again")
            continue
        if found:
            log.warning("%d records left by another Herna process that ended were written", found)


FILE_LIMIT = 65_536
"""Open files ``herna serve`` asks for (each TCP player and spectator is one)."""


def raise_file_limit() -> int:
    """Raise the soft limit on open files towards the hard limit (at most :data:`FILE_LIMIT`)
    and return it: Debian's default soft limit of 1,024 would refuse the 1,000th player."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = FILE_LIMIT if hard == resource.RLIM_INFINITY else min(hard, FILE_LIMIT)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        soft = want
    return soft


STOP_SECONDS = 45.0
"""How long a stop may take before the process ends anyway (the stack of each thread is
printed then, for the operator's bug report)."""


async def serve_forever(args: argparse.Namespace, config: dict[str, Any]) -> None:
    files = raise_file_limit()
    hall = await start_hall(args, config)
    tune_gc()
    log.info("up to %d open connections (RLIMIT_NOFILE)", files)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    log.info("Herna is running; database %s. Ctrl-C stops.", shown_url(args.database_url))
    adopting = asyncio.create_task(adopt_orphans(hall.records))
    ladder = await start_ladder(hall, args)
    await stop.wait()
    log.info("shutting down")
    # A stop that hangs (a stuck thread the exit would wait for) must not keep the port and
    # the process: after STOP_SECONDS every thread's stack goes to stderr and the process
    # ends. Records are safe either way: they are in the journal until committed.
    faulthandler.dump_traceback_later(STOP_SECONDS, exit=True)
    stuck = asyncio.create_task(_report_stuck_tasks(STOP_SECONDS - 5))
    adopting.cancel()
    await stop_hall(hall, ladder)
    stuck.cancel()
    log.info("stopped; %d records written", hall.records.written)


async def _report_stuck_tasks(after: float) -> None:
    """The stack of every task still running ``after`` seconds into a stop (what it waits
    for), in the log before the process is ended."""
    await asyncio.sleep(after)
    me = asyncio.current_task()
    for task in asyncio.all_tasks():
        if task is not me:
            log.error("still running at the stop: %r", task)
            task.print_stack(file=sys.stderr)


async def stop_hall(hall: Hall, ladder: Ladder | None) -> None:
    """Stop what :func:`start_hall` and :func:`start_ladder` started, as Ctrl-C does: the
    sandboxed bots first, then the ladder, the servers, and last the records (all committed)."""
    if isinstance(hall.submitted, SandboxedBots):
        await hall.submitted.stop()
    if ladder is not None:
        await ladder.stop()
    await hall.stop()
    hall.records.close()


async def start_ladder(hall: Hall, args: argparse.Namespace) -> Ladder | None:
    """``--ladder``: play submitted bots in the sandbox (None: off, or no sandbox here)."""
    if not args.ladder:
        return None
    settings = LadderSettings(
        concurrency=max(1, int(args.ladder_concurrency)),
        move_seconds=float(args.ladder_move_seconds),
        game_seconds=float(args.ladder_game_seconds),
    )
    ladder = Ladder(hall, str(args.host or "127.0.0.1"), settings)
    why = await ladder.probe()
    if why is not None:
        log.warning("no ladder: %s", why)
        return None
    # The web hall's "Play this bot" and contests' finals play through the same runner.
    bots = hall.submitted = SandboxedBots(ladder)
    # A contest's final the hall held when it stopped goes on with its locked bots, which
    # it holds before the ladder chooses its first bots (one connection per name).
    await bots.resume()
    ladder.run()
    log.info("ladder: submitted bots play, %d games at once", settings.concurrency)
    return ladder


def run(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    resolve_common(args, config)
    setup_logging(args.log_level, args.log_format == "json")
    asyncio.run(serve_forever(args, config))
    return 0
