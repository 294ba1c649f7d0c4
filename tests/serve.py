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

from herna.cli.serve import embedded_args, start_hall
from herna.hall.hall import Hall


def serve_args(tmp_path: Path, only: str, **options: object) -> argparse.Namespace:
    """The options of ``herna serve --only <only>`` for a test: the database is a SQLite file
    in ``tmp_path`` (unless ``database_url`` is given), every port free
    (:func:`herna.cli.serve.embedded_args`)."""
    database_url = str(options.pop("database_url", f"sqlite:///{tmp_path / 'herna.db'}"))
    # A review of a mariáš deal takes seconds of CPU: only the tests of reviews ask for them.
    options.setdefault("web_review_people", False)
    return embedded_args(only, database_url, **options)


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
