"""``python -m herna.cli.worker GAME``: one game worker process of ``herna serve --workers N``.

``herna serve`` starts these itself (:mod:`herna.servers.onitama.workers`); there is no reason
to run one by hand except to read this help. A worker takes no connections of its own: it runs
the games whose sockets the serving process hands it over the control socket, and stops when
told to or when that socket closes.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import socket
import sys

from herna.cli.logs import setup_logging

GAMES = ("onitama", "tiles")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m herna.cli.worker",
        description="A game worker of herna serve --workers N: it runs the games whose "
        "connections the serving process hands it over its control socket.",
    )
    parser.add_argument("game", choices=GAMES, help="whose games it runs")
    parser.add_argument("--control-fd", type=int, required=True, help="the control socket")
    parser.add_argument("--database-url", required=True, help="where its records go")
    parser.add_argument("--index", type=int, default=0, help="the worker's number (for logs)")
    parser.add_argument("--log-level", default="INFO")
    parser.add_argument("--log-format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    setup_logging(args.log_level, args.log_format == "json")
    # Stopped by its control socket only: a Ctrl-C in the terminal of herna serve reaches
    # herna serve, which ends the games here properly.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    from herna.servers.onitama.workers import OnitamaWorker
    from herna.servers.tiles.workers import TilesWorker

    kind = {"onitama": OnitamaWorker, "tiles": TilesWorker}[args.game]

    async def run() -> None:
        worker = kind(socket.socket(fileno=args.control_fd), args.database_url)
        await worker.run()

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
