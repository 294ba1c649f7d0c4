"""The ``herna`` command: ``serve``, ``bots``, ``match``, ``bot``, ``play``, ``watch``, ``rules``,
``replay``.

Each game adds its own ``bot``/``play``/``watch`` subcommands from a module listed in
:data:`GAME_COMMANDS` that defines ``register(commands: GameCommands)``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from herna import __version__
from herna.hall.db import DatabaseUnavailable

GAME_COMMANDS: list[str] = [
    "herna.cli.mia",
    "herna.cli.onitama",
    "herna.cli.marias",
    "herna.cli.tiles",
    "herna.cli.balance",
]


@dataclass
class GameCommands:
    """Subparser groups a game module adds its commands to (``herna bot mia`` ...)."""

    bot: argparse._SubParsersAction[argparse.ArgumentParser]
    play: argparse._SubParsersAction[argparse.ArgumentParser]
    watch: argparse._SubParsersAction[argparse.ArgumentParser]
    rules: argparse._SubParsersAction[argparse.ArgumentParser]


def build_parser() -> argparse.ArgumentParser:
    from herna.cli import bots, contest, match, replay, serve, submit, tournament

    parser = argparse.ArgumentParser(
        prog="herna",
        description="Herna: a game hall where bots and people play turn-based games "
        "(Mia dice, licitovaný mariáš over CGML, Onitama, tile/path games).",
    )
    parser.add_argument("--version", action="version", version=f"herna {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    serve.register(sub)
    replay.register(sub)
    bots.register(sub)
    submit.register(sub)
    contest.register(sub)
    match.register(sub)
    tournament.register(sub)

    def group(name: str, help_text: str) -> argparse._SubParsersAction[argparse.ArgumentParser]:
        p = sub.add_parser(name, help=help_text, description=help_text)
        return p.add_subparsers(dest="game", metavar="GAME", required=True)

    commands = GameCommands(
        bot=group("bot", "run a reference bot against a server"),
        play=group("play", "play a game yourself in the terminal"),
        watch=group("watch", "watch a server live in the terminal"),
        rules=group("rules", "check, show or balance-test a tile-game rules file"),
    )
    for path in GAME_COMMANDS:
        importlib.import_module(path).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
    except KeyboardInterrupt:
        code = 130
    except DatabaseUnavailable as exc:
        # Expected at start-up (wrong URL, damaged or locked file, server down): the message
        # says what to do; a traceback would bury it.
        print(f"herna {args.command}: {exc}", file=sys.stderr)
        code = 1
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
