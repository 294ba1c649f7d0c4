"""``herna bots``: reserve names for bot authors (``add`` prints the token once)."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from herna.cli.serve import DEFAULT_DATABASE
from herna.hall.db import make_engine
from herna.hall.identity import NameTaken, ReservedNames, valid_name

NAME_HELP = (
    "the bot's name exactly as it logs in (Mia, Onitama, CGML and tiles share one book of names)"
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bots",
        help="reserve a name for a bot author, list or free reserved names",
        description="A reserved name can be used only by a client that presents its token "
        "(Mia: REGISTER;name;token, Onitama: LOGIN|name|token, CGML: the token attribute of "
        "<connect>, tiles: the token field of join). Unreserved names keep working as the "
        "seeds describe. Changes reach a running hall within two seconds.",
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--database-url", default=DEFAULT_DATABASE, help=f"the hall's database ({DEFAULT_DATABASE})"
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    add = verbs.add_parser(
        "add",
        parents=[common],
        help="reserve NAME and print its token (shown only this once)",
        description="Reserve NAME and print its token. Only a SHA-256 digest is stored, so "
        "a lost token cannot be shown again: run add --replace for a new one.",
    )
    add.add_argument("name", metavar="NAME", help=NAME_HELP)
    add.add_argument("--note", default="", help="who the name belongs to (shown by list)")
    add.add_argument("--replace", action="store_true", help="issue a new token for a reserved name")
    add.set_defaults(func=run_add)
    rm = verbs.add_parser(
        "remove", parents=[common], help="free a reserved name", description="Free NAME."
    )
    rm.add_argument("name", metavar="NAME", help=NAME_HELP)
    rm.set_defaults(func=run_remove)
    ls = verbs.add_parser(
        "list",
        parents=[common],
        help="list reserved names (bots' and people's)",
        description="List reserved names: bot names reserved with add, and people's names "
        "reserved by signing up in the web hall (kind person; remove frees the name and "
        "deletes the person's password).",
    )
    ls.set_defaults(func=run_list)


def _book(args: argparse.Namespace) -> ReservedNames:
    return ReservedNames(make_engine(args.database_url))


def run_add(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    if not valid_name(args.name):
        console.print(f"herna bots add: {args.name!r} is not a name every protocol can carry")
        return 2
    try:
        token = _book(args).add(args.name, note=args.note, replace=args.replace)
    except NameTaken:
        console.print(
            f"herna bots add: {args.name!r} is already reserved "
            "(--replace issues a new token and invalidates the old one)"
        )
        return 1
    console.print(f"reserved {args.name!r}; its token (shown only now):")
    print(token)
    return 0


def run_remove(args: argparse.Namespace) -> int:
    if _book(args).remove(args.name):
        Console(stderr=True).print(f"{args.name!r} is free again")
        return 0
    Console(stderr=True).print(f"herna bots remove: {args.name!r} is not reserved")
    return 1


def run_list(args: argparse.Namespace) -> int:
    table = Table("kind", "name", "reserved", "note")
    for entry in _book(args).list():
        kind = "person" if entry.person else "bot"
        table.add_row(kind, entry.name, entry.created_at.strftime("%Y-%m-%d %H:%M"), entry.note)
    Console().print(table)
    return 0
