"""The Mäxchen (Mia) UDP server of seed 002, plugged into `herna serve` as ``mia``."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from herna.clients.mia import house_bot_names, run_house_bots
from herna.hall.hall import Hall
from herna.servers.mia.people import (
    DEFAULT_PEOPLE_BOTS,
    DEFAULT_PEOPLE_ROUND_PAUSE,
    DEFAULT_PEOPLE_THINK,
    DEFAULT_PEOPLE_TIMEOUT,
    PeopleTable,
    parse_strategies,
    start_people_table,
)
from herna.servers.mia.summary import DEFAULT_SUMMARY_SECONDS
from herna.servers.mia.table import MiaSettings, MiaTable
from herna.servers.mia.udp import MiaUdpServer, serve_table
from herna.servers.registry import ServerPlugin, option

DEFAULT_PORT = 9000
DEFAULT_HOUSE_BOTS = 3
DEFAULT_HOUSE_ROUND_PAUSE = 1.0


class MiaService:
    game = "mia"
    protocol = "Mia UDP (seed 002)"
    doc = "docs/protocols/mia.md"

    def __init__(self, server: MiaUdpServer, table: MiaTable, host: str) -> None:
        self.server = server
        self.table = table
        self.host = host
        self.house_bots: list[asyncio.Task[None]] = []
        self.people: PeopleTable | None = None
        """The people's table (its own port, a person's answer window)."""

    def endpoints(self) -> list[str]:
        out = [f"udp://{self.host}:{self.server.address[1]}"]
        if self.people is not None:
            out.append(f"udp://{self.host}:{self.people.port} (the people's table)")
        return out

    def snapshot(self) -> dict[str, Any]:
        snap = self.table.snapshot()
        if self.people is not None:
            snap["people_table"] = {
                "port": self.people.port,
                "answer_window": self.people.answer_window,
                **self.people.table.snapshot(),
            }
        return snap

    async def stop(self) -> None:
        if self.people is not None:
            await self.people.stop()
        for task in self.house_bots:
            task.cancel()
        await asyncio.gather(*self.house_bots, return_exceptions=True)
        self.table.stop()
        self.server.close()


def add_arguments(group: argparse._ArgumentGroup) -> None:
    group.add_argument("--mia-port", type=int, help=f"UDP port (default {DEFAULT_PORT})")
    group.add_argument(
        "--mia-answer-window", type=float, help="seconds a client has to answer (default 0.25)"
    )
    group.add_argument(
        "--mia-start-early",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="start a round as soon as every active player joined (default on)",
    )
    group.add_argument("--mia-round-pause", type=float, help="seconds between rounds (default 0)")
    group.add_argument(
        "--mia-names-per-address",
        type=int,
        metavar="N",
        help="names one IP address may hold registered at once; more get "
        "REJECTED;TOO_MANY_NAMES (default 32; 0: no limit)",
    )
    group.add_argument(
        "--mia-house-bots",
        type=int,
        help=f"how many house bots play (default {DEFAULT_HOUSE_BOTS})",
    )
    group.add_argument(
        "--mia-house-round-pause",
        type=float,
        metavar="SECONDS",
        help="seconds between rounds that only house bots played (or one player alone), so an "
        "empty hall does not "
        f"play hundreds of rounds a second (default {DEFAULT_HOUSE_ROUND_PAUSE:g}; anyone else "
        "at the table means full speed)",
    )
    group.add_argument(
        "--mia-log-every",
        type=float,
        metavar="SECONDS",
        help="the log gets one INFO line per stretch of rounds by the same players (rounds, "
        f"points per player) at least this often (default {DEFAULT_SUMMARY_SECONDS:g}); "
        "--log-level DEBUG adds a line per round",
    )
    group.add_argument(
        "--mia-keep-rounds",
        "--keep-mia-rounds",
        dest="mia_keep_rounds",
        type=int,
        metavar="N",
        help="keep only the newest N Mia round records in the database (at least 1000; "
        "default: keep all). Standings and ratings still count every round; at about 500 "
        "bytes a round, 1,000,000 rounds are about 0.5 GB",
    )
    group.add_argument(
        "--mia-people-port",
        type=int,
        metavar="PORT",
        help="UDP port of the people's table, where people play (the web page /play/mia, "
        "herna play mia) with house bots at a person's pace (default: the Mia port + 1; "
        "-1: no people's table)",
    )
    group.add_argument(
        "--mia-people-timeout",
        type=float,
        metavar="SECONDS",
        help="seconds a player has to answer at the people's table "
        f"(default {DEFAULT_PEOPLE_TIMEOUT:g}; the bots' table keeps --mia-answer-window)",
    )
    group.add_argument(
        "--mia-people-think",
        type=float,
        metavar="SECONDS",
        help="the longest a house bot at the people's table thinks before it answers "
        f"(default {DEFAULT_PEOPLE_THINK:g}: between 40 %% of it and all of it, and never "
        "more than a sixth of --mia-people-timeout)",
    )
    group.add_argument(
        "--mia-people-bots",
        metavar="STRATEGIES",
        help="the house bots at the people's table, by strategy, comma-separated "
        f"(default {','.join(DEFAULT_PEOPLE_BOTS)}; choose from random, honest, probability)",
    )
    group.add_argument(
        "--mia-people-round-pause",
        type=float,
        metavar="SECONDS",
        help="seconds between rounds at the people's table, to read the result "
        f"(default {DEFAULT_PEOPLE_ROUND_PAUSE:g})",
    )
    group.add_argument(
        "--mia-seed",
        type=int,
        metavar="N",
        help="derive every round's seed from N, so a run can be repeated (default: each round's "
        "seed comes from the secrets module and published seeds predict nothing)",
    )


async def start(hall: Hall, args: argparse.Namespace, config: dict[str, Any]) -> MiaService:
    host = str(getattr(args, "host", None) or "127.0.0.1")
    port = int(option(args, config, "mia_port", DEFAULT_PORT))
    bots = (
        0
        if getattr(args, "no_house_bots", False)
        else int(option(args, config, "mia_house_bots", DEFAULT_HOUSE_BOTS))
    )
    house = house_bot_names(bots)
    settings = MiaSettings(
        answer_window=float(option(args, config, "mia_answer_window", 0.25)),
        start_early=bool(option(args, config, "mia_start_early", True)),
        round_pause=float(option(args, config, "mia_round_pause", 0.0)),
        house_names=frozenset(name for name, _ in house),
        house_round_pause=float(
            option(args, config, "mia_house_round_pause", DEFAULT_HOUSE_ROUND_PAUSE)
        ),
        seed=_optional_int(option(args, config, "mia_seed", None)),
        names_per_address=int(option(args, config, "mia_names_per_address", 32)),
        log_summary_seconds=float(option(args, config, "mia_log_every", DEFAULT_SUMMARY_SECONDS)),
    )
    # The people's table's options are checked before anything starts.
    people_port = int(option(args, config, "mia_people_port", port + 1 if port else 0))
    strategies = parse_strategies(
        option(args, config, "mia_people_bots", ",".join(DEFAULT_PEOPLE_BOTS))
    )
    window = float(option(args, config, "mia_people_timeout", DEFAULT_PEOPLE_TIMEOUT))
    if window <= 0:
        raise ValueError(f"--mia-people-timeout must be more than 0 seconds, not {window:g}")
    people_pause = float(option(args, config, "mia_people_round_pause", DEFAULT_PEOPLE_ROUND_PAUSE))
    think = float(option(args, config, "mia_people_think", DEFAULT_PEOPLE_THINK))
    if think < 0:
        raise ValueError(f"--mia-people-think must be 0 seconds or more, not {think:g}")
    # House bot names are reserved before the first datagram is read: nobody can register
    # one (and UNREGISTER it), and the bots present their tokens like any other client.
    tokens = {name: hall.identity.reserve_house_bot(name) for name, _ in house}
    server, table = serve_table(hall, host, port, settings)
    service = MiaService(server, table, host)
    if hall.tournaments is not None:
        hall.tournaments.sessions["mia"] = table.proven_points
    if bots:
        service.house_bots = run_house_bots(host, server.address[1], house, tokens)
    if people_port >= 0:
        try:
            service.people = start_people_table(
                hall,
                host,
                people_port,
                window,
                () if getattr(args, "no_house_bots", False) else strategies,
                people_pause,
                settings.seed,
                think,
            )
        except BaseException:
            await service.stop()  # the bots' table is up already: no half-started server
            raise
    return service


def _optional_int(value: object) -> int | None:
    return None if value is None else int(str(value))


PLUGIN = ServerPlugin(
    name="mia",
    help="Mäxchen dice game over UDP (seed 002)",
    add_arguments=add_arguments,
    start=start,
)
