"""The ``herna`` command: ``serve``, ``bots``, ``submit``, ``contest``, ``match``, ``tournament``,
``bot``, ``play``, ``watch``, ``rules``,
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

COMMANDS: dict[str, str] = {
    "serve": "herna.cli.serve",
    "replay": "herna.cli.replay",
    "bots": "herna.cli.bots",
    "submit": "herna.cli.submit",
    "contest": "herna.cli.contest",
    "match": "herna.cli.match",
    "tournament": "herna.cli.tournament",
}
"""Each top-level command by the module that defines ``register(subparsers)``."""

GAME_COMMANDS: dict[str, list[str]] = {
    "mia": ["herna.cli.mia"],
    "onitama": ["herna.cli.onitama"],
    "marias": ["herna.cli.marias"],
    "tiles": ["herna.cli.tiles"],
    "balance": ["herna.cli.balance"],
}
"""The modules that add a game's ``bot``/``play``/``watch``/``rules`` commands, by the word
that follows the group (``herna rules balance`` and ``herna rules check`` are the tile
modules')."""
GROUPS = {
    "bot": "run a reference bot against a server",
    "play": "play a game yourself in the terminal",
    "watch": "watch a server live in the terminal",
    "rules": "check, show or balance-test a tile-game rules file",
}
RULES_WORDS = {"check": "tiles", "show": "tiles", "balance": "balance"}


@dataclass
class GameCommands:
    """Subparser groups a game module adds its commands to (``herna bot mia`` ...)."""

    bot: argparse._SubParsersAction[argparse.ArgumentParser]
    play: argparse._SubParsersAction[argparse.ArgumentParser]
    watch: argparse._SubParsersAction[argparse.ArgumentParser]
    rules: argparse._SubParsersAction[argparse.ArgumentParser]


def _words(argv: Sequence[str]) -> list[str]:
    return [a for a in argv if not a.startswith("-")][:2]


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with ``argv`` only the part that parses it.

    Each command's module imports what it runs (the database layer, the servers, the web
    hall: seconds of start-up together), so ``herna bot mia`` should not pay for
    ``herna serve``. When the words of ``argv`` name a command (and a game), only its modules
    are imported; anything else (``herna --help``, a mistyped command) gets the whole parser
    and so argparse's usual help and errors."""
    words = _words(argv) if argv is not None else []
    command = words[0] if words else None
    game = words[1] if len(words) > 1 else None
    if command == "rules" and game is not None:
        game = RULES_WORDS.get(game)
    if command in COMMANDS:
        modules, games = [COMMANDS[command]], []
    elif command in GROUPS and game in GAME_COMMANDS:
        modules, games = [], GAME_COMMANDS[game]
    else:
        modules = list(COMMANDS.values())
        games = [m for ms in GAME_COMMANDS.values() for m in ms]

    parser = argparse.ArgumentParser(
        prog="herna",
        description="Herna: a game hall where bots and people play turn-based games "
        "(Mia dice, licitovaný mariáš over CGML, Onitama, tile/path games).",
    )
    parser.add_argument("--version", action="version", version=f"herna {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for path in modules:
        importlib.import_module(path).register(sub)
    if not games:
        return parser

    def group(name: str) -> argparse._SubParsersAction[argparse.ArgumentParser]:
        p = sub.add_parser(name, help=GROUPS[name], description=GROUPS[name])
        return p.add_subparsers(dest="game", metavar="GAME", required=True)

    commands = GameCommands(**{name: group(name) for name in GROUPS})
    for path in games:
        importlib.import_module(path).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
    except KeyboardInterrupt:
        code = 130
    except Exception as exc:
        # A database that cannot be used is expected at start-up (wrong URL, damaged or
        # locked file, server down): the message says what to do; a traceback would bury it.
        # The database layer is imported only by the commands that use it.
        db = sys.modules.get("herna.hall.db")
        if db is None or not isinstance(exc, db.DatabaseUnavailable):
            raise
        print(f"herna {args.command}: {exc}", file=sys.stderr)
        code = 1
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
