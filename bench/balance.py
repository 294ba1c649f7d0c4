#!/usr/bin/env python3
"""Games per second of a balance report, through its public command ``herna rules balance``.

Each run is one ``herna rules balance FILE --games N --level L --json --quiet`` in a process
of its own (worker processes included, one per core unless ``--workers``); games per second is
N over the report's own time (the ``seconds`` of its JSON: from the first batch sent to the
workers to the summary, so not the command's start-up), and also over the command's whole
wall time. Several runs per file give the median and the spread (lowest–highest). The games
are the same in every run (game i has seed i); only the time differs. Other people share
this machine, so the load average is printed with the figures.

The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def one_run(name: str, games: int, level: str, workers: int | None) -> tuple[float, float]:
    """(report seconds, wall seconds) of one ``herna rules balance``."""
    command = [sys.executable, "-m", "herna.cli", "rules", "balance", name]
    command += ["--games", str(games), "--level", level, "--json", "--quiet"]
    if workers:
        command += ["--workers", str(workers)]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"herna rules balance {name} failed:\n{done.stderr}")
    report = json.loads(done.stdout)
    return float(report["seconds"]), wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", default="tsuro,labyrinth", help="shipped rules files")
    parser.add_argument("--games", type=int, default=40, help="games per report (default 40)")
    parser.add_argument("--runs", type=int, default=3, help="reports per file (default 3)")
    parser.add_argument("--level", default="medium", help="house bots (default medium)")
    parser.add_argument("--workers", type=int, default=None, help="default: one per core")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {
        "bench": "balance",
        "games": args.games,
        "level": args.level,
        "cores": os.cpu_count(),
        "load_before": os.getloadavg()[0],
        "files": {},
    }
    for name in args.files.split(","):
        report_rates, wall_rates = [], []
        for _ in range(args.runs):
            seconds, wall = one_run(name, args.games, args.level, args.workers)
            report_rates.append(args.games / seconds)
            wall_rates.append(args.games / wall)
        med = statistics.median(report_rates)
        print(
            f"{name:10s} {args.level}: {med:6.2f} games/s (runs {min(report_rates):.2f}–"
            f"{max(report_rates):.2f}); with the command's start-up "
            f"{statistics.median(wall_rates):.2f} games/s; {args.games} games a run, "
            f"{args.runs} runs"
        )
        out["files"][name] = {
            "games_per_second": round(med, 3),
            "low": round(min(report_rates), 3),
            "high": round(max(report_rates), 3),
            "with_start_up": round(statistics.median(wall_rates), 3),
        }
    out["load_after"] = os.getloadavg()[0]
    print(f"load average {out['load_before']:.1f} before, {out['load_after']:.1f} after")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
