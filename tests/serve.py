"""Start ``herna serve`` inside a test: the options the command line would give, and a hall
that is always stopped again.

    async with serving(tmp_path, "tiles,web", tiles_no_showcase=True) as hall:
        web = hall.service("web")
"""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from herna.cli.serve import register, start_hall
from herna.hall.hall import Hall


def serve_args(tmp_path: Path, only: str, **options: object) -> argparse.Namespace:
    """The options of ``herna serve --only <only>`` as its parser leaves them, for a test.

    Every option of every server starts at its command-line default (``None``: the config or
    the server's own default decides), the database is a SQLite file in ``tmp_path`` and every
    ``*_port`` is 0, so each server listens on a free port. ``options`` override any of that
    by attribute name (``no_house_bots=True``, ``tiles_bot_delay=0.01``); a name that
    ``herna serve`` does not have is a ``TypeError``, so a typo cannot pass silently.
    """
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["serve"])
    for name in vars(args):
        if name.endswith("_port"):
            setattr(args, name, 0)
    args.only = only
    args.database_url = f"sqlite:///{tmp_path / 'herna.db'}"
    for name, value in options.items():
        if not hasattr(args, name):
            raise TypeError(f"herna serve has no option {name!r}")
        setattr(args, name, value)
    return args


@asynccontextmanager
async def serving(
    tmp_path: Path, only: str, *, config: dict[str, Any] | None = None, **options: object
) -> AsyncIterator[Hall]:
    """Start the servers named by ``only`` as :func:`serve_args` describes them and yield the
    running hall; afterwards, whatever happened, stop it and close its record store.

    ``config`` stands for the parsed ``herna.toml`` (``{"onitama": {"house_bot_depth": 1}}``).
    """
    hall = await start_hall(serve_args(tmp_path, only, **options), config or {})
    try:
        yield hall
    finally:
        await hall.stop()
        hall.records.close()
