#!/usr/bin/env python3
"""A crowd at the web hall while the house bots play (issue 28): ``wrk`` loads ``/`` and
``/api/live`` of a real ``herna serve`` and this prints requests/s, p50/p99 latency, the
server's CPU per request, and what the crowd costs the tables (Mia rounds/s with and without
it). With ``--against REF`` the same runs go against git ``REF`` of this repository (e.g.
main before the change) in the same session, so the two sets of figures are comparable.

    .venv/bin/python bench/web_crowd.py                       # this checkout, 3 runs
    .venv/bin/python bench/web_crowd.py --against 5c7dabb     # and that commit beside it
    .venv/bin/python bench/web_crowd.py --seconds 20 --connections 50 --runs 3

Needs ``wrk`` (Debian package ``wrk``; ``make bench`` installs it).
"""

from __future__ import annotations

import argparse
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serving import Served, cpu_seconds, export_ref, serving

PATHS = ("/", "/api/live")


@dataclass
class Figures:
    rps: list[float] = field(default_factory=list)
    p50: list[float] = field(default_factory=list)
    p99: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text.strip()).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def wrk(url: str, seconds: float, connections: int) -> tuple[float, float, float]:
    """requests/s, p50 ms, p99 ms of one wrk run."""
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds:g}s", "--latency", url],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"{url}: {errors.group(1)} error responses")
    return rps, p50, p99


def mia_round(served: Served) -> int:
    """The newest Mia round's record number (the house bots' rounds count up)."""
    path = served.database_url[len("sqlite:///") :]
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10) as db:
        row = db.execute("SELECT max(id) FROM matches WHERE game = 'mia'").fetchone()
    return int(row[0] or 0)


def mia_rate(served: Served, seconds: float) -> float:
    first = mia_round(served)
    time.sleep(seconds)
    return (mia_round(served) - first) / seconds


def one_run(
    source: Path | None, seconds: float, connections: int, figures: dict[str, Figures],
    play: dict[str, list[float]],
) -> str:  # fmt: skip
    # Mia's house table rests a second between rounds by default: without the rest its
    # rounds/s is what the crowd can take from it.
    with serving(source, ("--mia-house-round-pause", "0")) as served:
        time.sleep(5.0)  # house bots sit down and the first records are written
        play["idle"].append(mia_rate(served, seconds))
        for path in PATHS:
            cpu = cpu_seconds(served.process.pid)
            started = mia_round(served)
            rps, p50, p99 = wrk(served.url(path), seconds, connections)
            if path == "/":
                play["crowd"].append((mia_round(served) - started) / seconds)
            f = figures[path]
            f.rps.append(rps)
            f.p50.append(p50)
            f.p99.append(p99)
            f.cpu_ms.append(1000 * (cpu_seconds(served.process.pid) - cpu) / (rps * seconds))
        return served.package


def spread(values: list[float], digits: int = 0) -> str:
    med = statistics.median(values)
    return f"{med:.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each load")
    parser.add_argument("--connections", type=int, default=50, help="wrk's open connections")
    parser.add_argument("--runs", type=int, default=3, help="fresh servers per source")
    parser.add_argument("--against", metavar="REF", help="also measure git REF (e.g. main)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk; `make bench` does it)")
        return 2
    sources: list[tuple[str, Path | None]] = [("this checkout", None)]
    temp = Path(tempfile.mkdtemp(prefix="herna-crowd-"))
    if args.against:
        sources.append((args.against, export_ref(args.against, temp / "against")))
    print(
        f"web crowd: wrk -t2 -c{args.connections} -d{args.seconds:g}s on each path, "
        f"{args.runs} fresh servers per source, house bots playing; median [min–max]"
    )
    rows: list[tuple[str, dict[str, Figures], dict[str, list[float]]]] = [
        (label, {p: Figures() for p in PATHS}, {"idle": [], "crowd": []}) for label, _ in sources
    ]
    try:
        # Runs interleaved (this, REF, this, REF …): the machine's load drifts, and each
        # source should meet the same drift.
        for _ in range(args.runs):
            for (_, source), (_, figures, play) in zip(sources, rows, strict=True):
                one_run(source, args.seconds, args.connections, figures, play)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    print(f"{'source':<16} {'path':<10} {'requests/s':>20} {'p50 ms':>18} {'p99 ms':>18} "
          f"{'CPU ms/request':>18}")  # fmt: skip
    for label, figures, _ in rows:
        for path, f in figures.items():
            print(f"{label:<16} {path:<10} {spread(f.rps):>20} {spread(f.p50, 1):>18} "
                  f"{spread(f.p99, 1):>18} {spread(f.cpu_ms, 2):>18}")  # fmt: skip
    for label, _, play in rows:
        idle, crowd = statistics.median(play["idle"]), statistics.median(play["crowd"])
        loss = 100 * (1 - crowd / idle) if idle else float("nan")
        print(f"{label}: Mia rounds/s without the crowd {spread(play['idle'], 1)}, while "
              f"{args.connections} connections load / {spread(play['crowd'], 1)} "
              f"(cost to play {loss:.0f} %)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
