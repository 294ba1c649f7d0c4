#!/usr/bin/env python3
"""A crowd at the web hall while the house bots play (issue 28): ``wrk`` loads ``/`` and
``/api/live`` of a real ``herna serve`` and this prints requests/s, p50/p99 latency, the
server's CPU per request, and what the crowd costs the tables (Mia rounds/s with and without
it: with no rest between rounds, where Mia's table alone keeps a core busy, and at the
default rest, as ``herna serve`` runs), and what it costs an Onitama move (4 games of bots
thinking 50 ms, a move's MAKE_MOVE to MOVE_WAS_MADE). Then the same with the web hall
apart: the game servers in one ``herna serve --only mia,onitama,marias,tiles`` and the web
hall in a second process, ``herna serve --only web``, on the same SQLite file
(``--no-apart`` skips it). With ``--against REF`` the same runs go against git ``REF`` of
this repository (e.g. main before the change) in the same session,
runs interleaved, so the two sets of figures are comparable.

    .venv/bin/python bench/web_crowd.py                       # this checkout, 3 runs
    .venv/bin/python bench/web_crowd.py --against main        # and main beside it
    .venv/bin/python bench/web_crowd.py --seconds 20 --connections 50 --runs 3

Needs ``wrk`` (Debian package ``wrk``; ``make bench`` installs it).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from onitama_probe import OnitamaProbe, summary
from serving import Served, cpu_seconds, export_ref, serving

PATHS = ("/", "/api/live")
APART = "/ (web apart)"
"""The home page served by a ``herna serve --only web`` of its own."""
GAMES = "mia,onitama,marias,tiles"
APART_KEYS = ("apart idle", "apart crowd")
DEFAULT_KEYS = ("default idle", "default crowd")
"""Mia's house table at its default rest between rounds (what ``herna serve`` runs)."""


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


def warm_up(served: Served, paths: tuple[str, ...]) -> None:
    """One request to each path first: what a process does once (finding the scripts'
    messages, compiling templates) is not what a crowd costs."""
    for path in paths:
        with urllib.request.urlopen(served.url(path), timeout=30) as answer:
            answer.read()


def load(
    served: Served, path: str, seconds: float, connections: int, f: Figures, mia: Served
) -> float:
    """wrk on ``path`` of ``served``; its figures go to ``f``; Mia rounds/s meanwhile (the
    rounds are counted in ``mia``'s database, which may be another process's)."""
    cpu = cpu_seconds(served.process.pid)
    started = mia_round(mia)
    rps, p50, p99 = wrk(served.url(path), seconds, connections)
    f.rps.append(rps)
    f.p50.append(p50)
    f.p99.append(p99)
    f.cpu_ms.append(1000 * (cpu_seconds(served.process.pid) - cpu) / (rps * seconds))
    return (mia_round(mia) - started) / seconds


# Mia's house table rests a second between rounds by default: without the rest its rounds/s
# is what the crowd can take from it.
NO_REST = ("--mia-house-round-pause", "0")


def one_run(
    source: Path | None, seconds: float, connections: int, figures: dict[str, Figures],
    play: dict[str, list[float]], moves: dict[str, list[list[float]]],
) -> None:  # fmt: skip
    """Everything in one ``herna serve``, as by default."""
    with serving(source, NO_REST) as served, OnitamaProbe(served.ports["onitama"]) as probe:
        time.sleep(5.0)  # house bots sit down and the first records are written
        warm_up(served, PATHS)
        probe.window()
        play["idle"].append(mia_rate(served, seconds))
        moves["idle"].append(probe.window())
        for path in PATHS:
            rate = load(served, path, seconds, connections, figures[path], served)
            if path == "/":
                play["crowd"].append(rate)
                moves["crowd"].append(probe.window())


def default_run(
    source: Path | None, seconds: float, connections: int, play: dict[str, list[float]]
) -> None:
    """As ``herna serve`` runs by default, Mia's house table resting between rounds: its
    rounds/s with and without the crowd on ``/`` (the page figures are ``one_run``'s)."""
    with serving(source) as served:
        time.sleep(5.0)
        warm_up(served, ("/",))
        play["default idle"].append(mia_rate(served, seconds))
        started = mia_round(served)
        clock = time.monotonic()
        wrk(served.url("/"), seconds, connections)
        play["default crowd"].append((mia_round(served) - started) / (time.monotonic() - clock))


def apart_run(
    source: Path | None, seconds: float, connections: int, figures: dict[str, Figures],
    play: dict[str, list[float]], moves: dict[str, list[list[float]]],
) -> None:  # fmt: skip
    """The game servers in one process, the web hall in another on the same database."""
    with (
        serving(source, ("--only", GAMES, *NO_REST), web=False) as games,
        serving(source, ("--only", "web"), database_url=games.database_url) as web,
        OnitamaProbe(games.ports["onitama"]) as probe,
    ):
        time.sleep(5.0)
        warm_up(web, ("/",))
        probe.window()
        play["apart idle"].append(mia_rate(games, seconds))
        moves["apart idle"].append(probe.window())
        rate = load(web, "/", seconds, connections, figures[APART], games)
        play["apart crowd"].append(rate)
        moves["apart crowd"].append(probe.window())


def spread(values: list[float], digits: int = 0) -> str:
    med = statistics.median(values)
    return f"{med:.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each load")
    parser.add_argument("--connections", type=int, default=50, help="wrk's open connections")
    parser.add_argument("--runs", type=int, default=3, help="fresh servers per source")
    parser.add_argument("--against", metavar="REF", help="also measure git REF (e.g. main)")
    parser.add_argument(
        "--no-apart", action="store_true", help="skip the web hall in a process of its own"
    )
    parser.add_argument(
        "--no-default",
        action="store_true",
        help="skip Mia at its default rest between rounds (one more server per run)",
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed (Debian: apt-get install wrk; `make bench` does it)")
        return 2
    sources: list[tuple[str, Path | None]] = [("this checkout", None)]
    temp = Path(tempfile.mkdtemp(prefix="herna-crowd-"))
    if args.against:
        sources.append((args.against, export_ref(args.against, temp / "against")))
    print(f"load average at the start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        f"web crowd: wrk -t2 -c{args.connections} -d{args.seconds:g}s on each path, "
        f"{args.runs} fresh servers per source, house bots playing; median [min–max]"
    )
    shown = (*PATHS, *(() if args.no_apart else (APART,)))
    keys = ("idle", "crowd", *APART_KEYS, *DEFAULT_KEYS)
    rows: list[tuple[str, dict[str, Figures], dict[str, list[float]]]] = [
        (label, {p: Figures() for p in shown}, {k: [] for k in keys}) for label, _ in sources
    ]
    timed: list[dict[str, list[list[float]]]] = [{k: [] for k in keys} for _ in sources]
    try:
        # Runs interleaved (this, REF, this, REF …): the machine's load drifts, and each
        # source should meet the same drift.
        for run in range(args.runs):
            for (_, source), (label, figures, play), moves in zip(
                sources, rows, timed, strict=True
            ):
                one_run(source, args.seconds, args.connections, figures, play, moves)
                if not args.no_default:
                    default_run(source, args.seconds, args.connections, play)
                if not args.no_apart:
                    apart_run(source, args.seconds, args.connections, figures, play, moves)
                # Each run as it ends (a long session on a busy machine shows its progress).
                said = ", ".join(f"{p} {f.rps[-1]:.0f}/s" for p, f in figures.items())
                rounds = ", ".join(f"{k} {v[-1]:.1f}" for k, v in play.items() if v)
                print(f"  run {run + 1}, {label}: {said}; Mia rounds/s {rounds}", flush=True)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    print(f"{'source':<16} {'path':<14} {'requests/s':>20} {'p50 ms':>18} {'p99 ms':>20} "
          f"{'CPU ms/request':>18}")  # fmt: skip
    for label, figures, _ in rows:
        for path, f in figures.items():
            print(f"{label:<16} {path:<14} {spread(f.rps):>20} {spread(f.p50, 1):>18} "
                  f"{spread(f.p99, 1):>20} {spread(f.cpu_ms, 2):>18}")  # fmt: skip
    for label, _, play in rows:
        for idle, crowd, where in (
            ("idle", "crowd", "in one process, no rest between rounds"),
            (*APART_KEYS, "apart, no rest between rounds"),
            (*DEFAULT_KEYS, "in one process, the default rest between rounds"),
        ):
            if not play[idle]:
                continue
            cost = 100 * (1 - statistics.median(play[crowd]) / statistics.median(play[idle]))
            digits = 2 if statistics.median(play[idle]) < 10 else 1  # a round a second
            print(f"{label}: Mia rounds/s, web hall {where}: without the crowd "
                  f"{spread(play[idle], digits)}, while {args.connections} connections load / "
                  f"{spread(play[crowd], digits)} (cost to play {cost:.0f} %)")  # fmt: skip
    # Onitama moves (4 games of bots that think 50 ms, MAKE_MOVE to MOVE_WAS_MADE), every
    # run's moves of a window together.
    for (label, _, _), moves in zip(rows, timed, strict=True):
        for idle, crowd, where in (("idle", "crowd", "in one process"), (*APART_KEYS, "apart")):
            if not moves[idle]:
                continue
            alone = summary([x for w in moves[idle] for x in w])
            loaded = summary([x for w in moves[crowd] for x in w])
            print(f"{label}: Onitama move latency, web hall {where}: without the crowd "
                  f"p50 {alone[0]:.1f} ms, p99 {alone[1]:.1f} ms ({alone[2]} moves); while "
                  f"{args.connections} connections load / p50 {loaded[0]:.1f} ms, "
                  f"p99 {loaded[1]:.1f} ms ({loaded[2]} moves)")  # fmt: skip
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
