#!/usr/bin/env python3
"""A live Onitama tournament in ``herna serve``, as a club runs one: the Onitama server (its
own code path, default settings but for the ports and no house bots) holds a round robin
between N bot programs, each a separate ``herna bot onitama --tournament ID`` process under a
reserved name with its token. Prints the tournament's wall time, games per second and the
**booking delay** of each board: from the moment the last of its two entrants was waiting (or
the board became due, whichever is later) to the server's ``game_started`` for it, read from
the hall's event bus — the cost of the director's booking, the figure this adds to a game.

    .venv/bin/python bench/live_tournament.py                   # 8 random bots
    .venv/bin/python bench/live_tournament.py --bots 12 --strategy greedy --repeat 3

The last line of output is one JSON object with the figures (median and range of the runs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from herna.cli.serve import embedded_args, start_hall, tune_gc  # noqa: E402
from herna.hall.identity import ReservedNames  # noqa: E402
from herna.hall.tournament_live import LiveOptions  # noqa: E402
from herna.hall.tournament_store import TournamentStore  # noqa: E402
from herna.servers.onitama import OnitamaService  # noqa: E402


async def one_run(bots: int, strategy: str, folder: Path) -> dict[str, float]:
    db = f"sqlite:///{folder / 'herna.db'}"
    hall = await start_hall(embedded_args("onitama", db, onitama_house_bots=0), {})
    tune_gc()  # as `herna serve` does once it has started: what users run
    procs: list[subprocess.Popen[bytes]] = []
    try:
        director = hall.tournaments
        service = hall.service("onitama")
        assert director is not None and isinstance(service, OnitamaService)
        book = ReservedNames(hall.records.engine)
        names = [f"bench{i}" for i in range(bots)]
        tokens = {n: book.add(n) for n in names}
        hall.identity.reload()
        tid, _ = director.create(LiveOptions("bench", "onitama", "round-robin"))
        for name in names:
            procs.append(
                subprocess.Popen(
                    [
                        *(sys.executable, "-m", "herna.cli", "bot", "onitama"),
                        *("--strategy", strategy, "--name", name, "--token", tokens[name]),
                        *("--port", str(service.port), "--tournament", str(tid), "--quiet"),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env={**os.environ, "PYTHONPATH": str(ROOT)},
                )
            )
        while len(director.waiting(tid)) < bots:
            await asyncio.sleep(0.05)
        waiting_since: dict[str, float] = {}
        delays: list[float] = []
        sub = hall.bus.subscribe(lambda e: e.game == "onitama" and "tournament" in e.data)

        async def watch() -> None:
            async for event in sub:
                now = time.monotonic()
                names_at = (event.data["white"], event.data["black"])
                if event.kind == "game_started":
                    ready = max(waiting_since.get(n, now) for n in names_at)
                    delays.append(now - ready)
                elif event.kind == "game_over":
                    for n in names_at:
                        waiting_since[n] = now  # back in the lobby at once

        watcher = asyncio.create_task(watch())
        started = time.monotonic()
        for n in names:
            waiting_since[n] = started
        director.begin(tid)
        store = TournamentStore(hall.records.engine)
        while True:
            tour = store.get(tid)
            assert tour is not None
            if tour.status != "running":
                break
            await asyncio.sleep(0.1)
        wall = time.monotonic() - started
        watcher.cancel()
        sub.close()
        games = sum(1 for g in tour.games if not g.board.bye)
        assert tour.status == "finished" and games == bots * (bots - 1) // 2, tour.status
        delays.sort()
        return {
            "games": games,
            "seconds": wall,
            "games_per_s": games / wall,
            "booking_p50_ms": 1000 * delays[len(delays) // 2],
            "booking_p99_ms": 1000 * delays[min(len(delays) - 1, int(len(delays) * 0.99))],
        }
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)
        await hall.stop()
        hall.records.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", type=int, default=8, help="entrants (default 8)")
    parser.add_argument("--strategy", default="random", help="the bots' strategy (random)")
    parser.add_argument("--repeat", type=int, default=3, help="runs (default 3)")
    args = parser.parse_args()
    runs = []
    for i in range(args.repeat):
        with tempfile.TemporaryDirectory() as folder:
            run = asyncio.run(one_run(args.bots, args.strategy, Path(folder)))
        runs.append(run)
        print(
            f"run {i + 1}: {run['games']:.0f} games in {run['seconds']:.2f} s "
            f"({run['games_per_s']:.1f} games/s), booking delay p50 "
            f"{run['booking_p50_ms']:.1f} ms, p99 {run['booking_p99_ms']:.1f} ms",
            flush=True,
        )
    medians = {}
    summary: dict[str, object] = {
        "bots": args.bots,
        "strategy": args.strategy,
        "load": os.getloadavg()[0],
    }
    for key in ("games_per_s", "booking_p50_ms", "booking_p99_ms"):
        values = [r[key] for r in runs]
        medians[key] = statistics.median(values)
        summary[key] = {"median": medians[key], "min": min(values), "max": max(values)}
    print(
        f"live round robin of {args.bots} {args.strategy} bots: "
        f"{medians['games_per_s']:.1f} games/s (median of {args.repeat}), booking delay p50 "
        f"{medians['booking_p50_ms']:.1f} ms, p99 {medians['booking_p99_ms']:.1f} ms"
    )
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
