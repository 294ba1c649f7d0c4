#!/usr/bin/env python3
"""``herna serve --workers N``: games per second and server CPU with 0, 1, 2 … game workers.

What users run: ``herna serve --only <game> --workers N`` as its own process (the real command,
a SQLite file, default log level), and real clients — Herna's own bot library
(:func:`herna.clients.onitama.run_bot`, :func:`herna.clients.tiles.run_bot`, random
strategies) — in this process, ``--pairs`` games at a time, for ``--seconds`` after a warm-up.
The server's CPU is the sum over its whole process tree (the front, the workers and every
records writer, from /proc), so the figure says what the hand-offs cost as well as what they
spread. The settings are interleaved round by round (``--rounds``): median and range.

Mind the machine: the bots run on the same cores as the server. On a 2-core machine the
workers cannot make the wall-clock rate grow (the bots and the front already fill the cores);
what the figures show there is the CPU a move costs with and without hand-offs, and how the
server's CPU is shared out. The last line is one JSON object.

    .venv/bin/python bench/workers.py                       # both games, 0/1/2 workers
    .venv/bin/python bench/workers.py --game onitama --workers 0 2 --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.durability import descendants, tree_cpu  # noqa: E402
from herna.clients import onitama as onitama_client  # noqa: E402
from herna.clients import tiles as tiles_client  # noqa: E402
from herna.games.onitama.bots import make_strategy  # noqa: E402

TILES_RULES = "tsuro"
TILES_SEATS = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(game: str, workers: int, port: int, tmp: str) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        "herna.cli",
        "serve",
        "--only",
        game,
        "--no-house-bots",
        "--workers",
        str(workers),
        f"--{game}-port",
        str(port),
        "--database-url",
        f"sqlite:///{tmp}/bench.db",
    ]
    if game == "tiles":
        cmd += ["--tiles-bot-delay", "0", "--tiles-lobby-wait", "0", "--tiles-no-showcase"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        cmd, cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def wait_for(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise SystemExit(f"no server on port {port}")


class Count:
    def __init__(self) -> None:
        self.moves = 0
        self.games = 0
        self.on = False


async def onitama_bots(port: int, pairs: int, count: Count) -> None:
    def heard(msg: Any) -> None:
        if count.on:
            kind = type(msg).__name__
            if kind == "MoveWasMade":
                count.moves += 1
            elif kind == "GameOver":
                count.games += 1

    await asyncio.gather(
        *(
            onitama_client.run_bot(
                "127.0.0.1", port, f"b{i}", make_strategy("random", seed=i), None, heard
            )
            for i in range(2 * pairs)
        )
    )


async def tiles_bots(port: int, tables: int, count: Count) -> None:
    def heard(msg: dict[str, Any]) -> None:
        if count.on:
            if msg.get("type") == "your_turn":
                count.moves += 1  # one action follows
            elif msg.get("type") == "game_over":
                count.games += 1

    await asyncio.gather(
        *(
            tiles_client.run_bot(
                "127.0.0.1",
                port,
                f"b{i}",
                TILES_RULES,
                "random",
                games=10**9,
                seed=i,
                start=False,
                on_message=heard,
            )
            for i in range(TILES_SEATS * tables)
        )
    )


def one(game: str, workers: int, pairs: int, seconds: float, warmup: float) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(game, workers, port, tmp)
        try:
            wait_for(port)
            count = Count()

            async def run() -> tuple[float, float, float, float]:
                bots = onitama_bots if game == "onitama" else tiles_bots
                task = asyncio.create_task(bots(port, pairs, count))
                await asyncio.sleep(warmup)
                tree = [server.pid, *descendants(server.pid)]
                cpu0, front0, t0 = tree_cpu(tree), tree_cpu([server.pid]), time.monotonic()
                count.on = True
                await asyncio.sleep(seconds)
                count.on = False
                t1 = time.monotonic()
                cpu1, front1 = tree_cpu(tree), tree_cpu([server.pid])
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
                return cpu1 - cpu0, front1 - front0, t1 - t0, len(tree)

            cpu, front, elapsed, processes = asyncio.run(run())
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
    moves = count.moves // (1 if game == "tiles" else 2)  # each move is heard by both
    games = count.games // (TILES_SEATS if game == "tiles" else 2)
    return {
        "game": game,
        "workers": workers,
        "moves_per_s": moves / elapsed,
        "games_per_s": games / elapsed,
        "server_cpu_us_per_move": cpu / moves * 1e6 if moves else None,
        "front_cpu_us_per_move": front / moves * 1e6 if moves else None,
        "server_cores": cpu / elapsed,
        "processes": processes,
    }


def spread(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 1),
        "min": round(min(values), 1),
        "max": round(max(values), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="herna serve with 0, 1, 2 … game workers: moves/s, games/s and the "
        "server's CPU per move (front and workers), real bots over TCP."
    )
    parser.add_argument("--game", choices=("onitama", "tiles", "both"), default="both")
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument(
        "--pairs", type=int, default=50, help="games at a time (tables for tiles: /2)"
    )
    parser.add_argument("--seconds", type=float, default=4.0, help="measured per run")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3, help="runs per setting, interleaved")
    args = parser.parse_args(argv)
    games = ["onitama", "tiles"] if args.game == "both" else [args.game]
    runs: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for _ in range(args.rounds):
        for game in games:
            for w in args.workers:
                tables = args.pairs if game == "onitama" else max(1, args.pairs // 2)
                run = one(game, w, tables, args.seconds, args.warmup)
                runs.setdefault((game, w), []).append(run)
    print(
        f"herna serve --workers N, {args.rounds} interleaved runs of {args.seconds:g} s, "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}"
    )
    print(
        f"{'game':8} {'workers':>7} {'moves/s (min-max)':>24} {'games/s':>8} "
        f"{'server µs/move':>15} {'front µs/move':>14} {'cores':>6}"
    )
    out = []
    for (game, w), rs in runs.items():
        rate = spread([r["moves_per_s"] for r in rs])
        per_move = [r["server_cpu_us_per_move"] for r in rs if r["server_cpu_us_per_move"]]
        front = [r["front_cpu_us_per_move"] for r in rs if r["front_cpu_us_per_move"]]
        row = {
            "game": game,
            "workers": w,
            "moves_per_s": rate,
            "games_per_s": round(statistics.median(r["games_per_s"] for r in rs), 1),
            "server_cpu_us_per_move": round(statistics.median(per_move), 1) if per_move else None,
            "front_cpu_us_per_move": round(statistics.median(front), 1) if front else None,
            "server_cores": round(statistics.median(r["server_cores"] for r in rs), 2),
        }
        out.append(row)
        print(
            f"{game:8} {w:>7} {rate['median']:>10,.0f} ({rate['min']:,.0f}-{rate['max']:,.0f})"
            f" {row['games_per_s']:>8} {row['server_cpu_us_per_move']!s:>15} "
            f"{row['front_cpu_us_per_move']!s:>14} {row['server_cores']:>6}"
        )
    print(json.dumps({"bench": "workers", "runs": out, "load_average": os.getloadavg()[0]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
