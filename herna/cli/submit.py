"""``herna submit GAME FILE --name BOT --token TOKEN``: keep a program as the next version of a
submitted bot, which the hall then runs itself in its sandbox (docs/bots.md)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from rich.console import Console

from herna.cli.serve import DEFAULT_DATABASE
from herna.hall.db import make_engine
from herna.hall.identity import Identity, ReservedNames
from herna.hall.submissions import (
    GAMES,
    LANGUAGES,
    MAX_SOURCE_BYTES,
    SubmissionRefused,
    Submissions,
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "submit",
        help="upload a bot program for the hall to run in its sandbox",
        description="Keep FILE as the next version of bot NAME for GAME. The hall runs it "
        "in a sandbox and connects its standard input and output to the game's server under "
        "NAME (docs/bots.md). NAME must be reserved (herna bots add NAME, or the web hall's "
        "upload form) and TOKEN be its token. The language follows from the file name: "
        + ", ".join(f"{lang.label} ({lang.filename})" for lang in LANGUAGES.values())
        + f"; at most {MAX_SOURCE_BYTES // 1024} KiB.",
    )
    p.add_argument("game", metavar="GAME", choices=GAMES, help="the game: " + ", ".join(GAMES))
    p.add_argument("file", metavar="FILE", type=Path, help="the bot's source file")
    p.add_argument("--name", required=True, help="the bot's reserved name")
    p.add_argument(
        "--token",
        default=os.environ.get("HERNA_TOKEN"),
        help="the name's token (default: $HERNA_TOKEN)",
    )
    p.add_argument("--language", choices=sorted(LANGUAGES), help="override the file name's")
    p.add_argument(
        "--database-url", default=DEFAULT_DATABASE, help=f"the hall's database ({DEFAULT_DATABASE})"
    )
    p.set_defaults(func=run_submit)


def run_submit(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    if not args.token:
        console.print(f"herna submit: give the token of {args.name!r} (--token or HERNA_TOKEN)")
        return 2
    try:
        source = args.file.read_bytes()
    except OSError as exc:
        console.print(f"herna submit: cannot read {args.file}: {exc.strerror}")
        return 2
    engine = make_engine(args.database_url)
    book = Submissions(engine, Identity(ReservedNames(engine)))
    try:
        submission, _ = book.submit(
            args.name,
            args.game,
            args.file.name,
            source,
            token=args.token,
            language=args.language,
        )
    except SubmissionRefused as exc:
        console.print(f"herna submit: {exc.reason}")
        return 1
    language = LANGUAGES[submission.language].label
    console.print(
        f"{submission.name} version {submission.version} ({language}, {len(source)} bytes) "
        f"is kept for {submission.game}; the hall plays it with --ladder"
    )
    return 0
