"""The one ``--token`` option of every client command (``herna bot|play|watch <game>``)."""

from __future__ import annotations

import argparse
import os

TOKEN_ENV = "HERNA_TOKEN"
"""Environment variable every client command reads a reserved name's token from: unlike a
command-line argument, other users of the machine cannot read it from the process list."""


def add_token_option(parser: argparse.ArgumentParser, sent_as: str) -> None:
    """``--token``: the token of a reserved name (``herna bots add NAME``), default
    ``$HERNA_TOKEN``; ``sent_as`` says where the protocol carries it."""
    parser.add_argument(
        "--token",
        default=os.environ.get(TOKEN_ENV) or None,
        help=f"token of a reserved name (from 'herna bots add NAME'), sent as {sent_as}; "
        f"default: the environment variable {TOKEN_ENV} (other users of the machine can read "
        "a command line, not your environment)",
    )
