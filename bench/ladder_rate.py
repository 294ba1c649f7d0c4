#!/usr/bin/env python3
"""How many games the ladder of submitted bots sustains on this machine (issue 30):
``herna serve --only GAME --ladder`` with its default settings (two sandboxed bots at once,
the house bots' default pace), the Python starter kit of the game submitted as ``--bots``
bots, and the ladder's finished games counted for ``--seconds`` after the first one ended
(the first sandbox starts, the compilation of a C bot and the engine's warm-up are not
counted). Each run is a new hall on a new SQLite file; the median and range of the runs are
printed per game, with the load average (a loaded machine's figures are not comparable).

What the sandbox costs per game and per move, next to the same program started directly, is
``bench/sandbox_overhead.py``'s.

    .venv/bin/python bench/ladder_rate.py                          # onitama, tiles, marias
    .venv/bin/python bench/ladder_rate.py --games onitama --seconds 60 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from herna.cli.serve import embedded_args, start_hall, start_ladder, stop_hall
from herna.hall.db import BotRunRow
from herna.hall.submissions import Submissions
from herna.starters import starter

GAMES = ("onitama", "tiles", "marias")


def finished_games(engine: Engine, since: datetime) -> int:
    """Ladder games that ended after ``since``: a game between two submitted bots is one game
    (two runs, one match)."""
    with Session(engine) as session:
        matches = session.scalar(
            select(func.count(func.distinct(BotRunRow.match_id))).where(
                BotRunRow.finished_at > since, BotRunRow.match_id.is_not(None)
            )
        )
        unmatched = session.scalar(
            select(func.count()).where(BotRunRow.finished_at > since, BotRunRow.match_id.is_(None))
        )
    return int(matches or 0) + int(unmatched or 0)


async def one_run(game: str, bots: int, seconds: float) -> float:
    """Games per minute of one hall's ladder."""
    found = starter(game, "python")
    assert found is not None
    with tempfile.TemporaryDirectory(prefix="herna-ladder-") as tmp:
        args = embedded_args(
            game, f"sqlite:///{Path(tmp) / 'herna.db'}", ladder=True, web_review_people=False
        )
        if game == "tiles":
            args.tiles_no_showcase = True
        hall = await start_hall(args, {})
        ladder = await start_ladder(hall, args)
        try:
            if ladder is None:
                raise SystemExit("the ladder did not start (is bubblewrap installed?)")
            book = Submissions(hall.records.engine, hall.identity)
            for i in range(bots):
                book.submit(f"kit{i}", game, "bot.py", found[1], person=f"author{i}")
            engine = hall.records.engine
            start = datetime.now(UTC)
            deadline = time.monotonic() + 180
            while finished_games(engine, start) == 0:  # the first game ends: now measure
                if time.monotonic() > deadline:
                    raise SystemExit(f"{game}: no ladder game ended in 180 s")
                hall.records.flush()
                await asyncio.sleep(0.5)
            begin = datetime.now(UTC)
            await asyncio.sleep(seconds)
            hall.records.flush()
            return finished_games(engine, begin) * 60.0 / seconds
        finally:
            await stop_hall(hall, ladder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--bots", type=int, default=4, help="starter kits submitted (default 4)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured per run")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("bwrap") is None:
        print("ladder: bubblewrap is missing (scripts/ensure-system-deps.sh installs it)")
        return 1
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for game in args.games:
        rates = []
        for _ in range(args.runs):
            rates.append(asyncio.run(one_run(game, args.bots, args.seconds)))
            print(f"  {game} run: {rates[-1]:.1f} games/min", file=sys.stderr, flush=True)
        print(
            f"ladder {game}: {statistics.median(rates):.1f} games/min "
            f"[{min(rates):.1f}–{max(rates):.1f}] over {args.runs} runs of {args.seconds:g} s, "
            f"{args.bots} starter kits, default concurrency"
        )
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
