"""``herna bot mia`` and ``herna watch mia``."""

from __future__ import annotations

import argparse
import asyncio
import time

from rich.console import Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from herna.cli import GameCommands
from herna.cli.botout import BotOutput, add_quiet
from herna.cli.mia_play import add_play_parser
from herna.cli.tokens import add_token_option
from herna.clients.mia import DEFAULT_SILENCE, MiaClient, MiaError, run_bot
from herna.clients.mia_watch import Scoreboard
from herna.games.mia.bots import STRATEGIES


def register(commands: GameCommands) -> None:
    bot = commands.bot.add_parser(
        "mia",
        help="run a Mia bot",
        description="Register a bot on a Mia server and play until interrupted. When the "
        "server falls silent (it sends HEARTBEAT every 2 s), the bot registers again with "
        "backoff (1, 2, 4 ... 30 s) and says so, so it survives a server restart.",
    )
    bot.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="probability",
        help="random, honest (never bluffs) or probability (default)",
    )
    bot.add_argument("--name", required=True, help="player name (max 20 chars, no blanks or ;:,)")
    bot.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    bot.add_argument("--port", type=int, default=9000, help="server UDP port (default 9000)")
    bot.add_argument("--rounds", type=int, help="stop after this many rounds")
    add_token_option(bot, "REGISTER;name;token")
    bot.add_argument(
        "--lost-after",
        type=float,
        default=DEFAULT_SILENCE,
        metavar="SECONDS",
        help="register again after this many seconds without a message from the server "
        f"(default {DEFAULT_SILENCE:g})",
    )
    add_quiet(bot)
    bot.set_defaults(func=run_bot_command)

    add_play_parser(commands)

    watch = commands.watch.add_parser(
        "mia",
        help="live scoreboard of a Mia server",
        description="Register as a spectator and show the score table with points per "
        "minute, updated live. Ctrl-C stops.",
    )
    watch.add_argument("--name", default="watcher", help="spectator name (default watcher)")
    watch.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    watch.add_argument("--port", type=int, default=9000, help="server UDP port (default 9000)")
    add_token_option(watch, "REGISTER_SPECTATOR;name;token")
    watch.set_defaults(func=run_watch_command)


def run_bot_command(args: argparse.Namespace) -> int:
    out = BotOutput(args.name, args.rounds, args.quiet, unit="rounds")

    def on_round(players: tuple[str, ...], losers: tuple[str, ...]) -> None:
        # A round it sat out (did not join) is no point either way.
        out.tally(args.name not in losers if args.name in players else None)

    try:
        with out:
            rounds = asyncio.run(
                run_bot(
                    args.host,
                    args.port,
                    args.name,
                    args.strategy,
                    args.rounds,
                    token=args.token,
                    silence=args.lost_after,
                    report=lambda text: out.say(text.removeprefix(f"{args.name} ")),
                    on_round=on_round,
                )
            )
    except MiaError as exc:
        print(f"herna bot mia: {exc}")
        return 1
    if not args.quiet:
        print(f"{args.name} played {rounds} rounds; {out.summary()}")
    return 0


def render(board: Scoreboard, now: float, server: str) -> Group:
    table = Table(
        title=f"Mia at {server}",
        caption=f"{board.rounds_seen} rounds seen, {board.canceled} canceled",
    )
    table.add_column("#", justify="right")
    table.add_column("player")
    table.add_column("points", justify="right")
    table.add_column("points/min", justify="right")
    for i, (name, points, ppm) in enumerate(board.rows(now), 1):
        table.add_row(str(i), name, str(points), f"{ppm:.1f}")
    status = Text(
        f"round {board.current_round}: {', '.join(board.current_players)}\n"
        f"{' > '.join(board.last_announcements[-6:])}\n{board.last_result}"
    )
    return Group(table, status)


async def watch(args: argparse.Namespace) -> None:
    board = Scoreboard()
    server = f"{args.host}:{args.port}"
    async with MiaClient(
        args.host, args.port, args.name, spectator=True, token=args.token
    ) as client:
        await client.register()
        try:
            with Live(render(board, time.monotonic(), server), refresh_per_second=4) as live:
                last = 0.0
                async for msg in client.messages():
                    now = time.monotonic()
                    board.update(msg, now)
                    if now - last > 0.25:
                        live.update(render(board, now, server))
                        last = now
        finally:
            client.unregister()


def run_watch_command(args: argparse.Namespace) -> int:
    try:
        asyncio.run(watch(args))
    except MiaError as exc:
        print(f"herna watch mia: {exc}")
        return 1
    return 0
