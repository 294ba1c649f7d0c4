#!/usr/bin/env python3
"""Run every benchmark under bench/ with settings that fit in about ten minutes together,
and print one summary table: each bench's headline lines, its exit status and its time.

This is what ``make bench`` runs. Each bench's own ``--help`` gives the longer runs behind
the figures in the docs; this runner uses short, fixed settings so that the table can be
compared from one commit to the next on the same machine. The machine's load average is
printed with the table: figures from a loaded machine are not comparable.

    .venv/bin/python bench/run_all.py              # everything, ~10 minutes
    .venv/bin/python bench/run_all.py --only mia_rounds marias_playouts
    .venv/bin/python bench/run_all.py --list

Benches that need something that is not installed say so in their line (e.g. OpenSpiel for
the mariáš anchor: ``pip install open_spiel``) and the table still prints.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Bench:
    name: str
    args: tuple[str, ...]
    headline: str
    """A regular expression: output lines matching it go into the summary table."""
    timeout: float = 180.0
    label: str = ""
    """The name in the table when one bench runs twice with different settings."""

    @property
    def title(self) -> str:
        return self.label or self.name


BENCHES = (
    # main beside this checkout; the web hall in the serving process and in one of its own.
    Bench(
        "web_crowd",
        ("--seconds", "4", "--runs", "1", "--against", "main"),
        r"^(this checkout|main) +/ +\d|cost to play|Onitama move latency",
        300.0,
    ),
    Bench("web_flat", ("--sizes", "10000", "100000", "--seconds", "1"), r"^flat", 400.0),
    Bench("onitama_perft", ("--depth", "6"), r"^(perft's own counter|server's path)"),
    Bench("onitama_hub", (), r"µs|us per action|actions/s"),
    Bench("onitama_games", (), r"^(Herna server|anchor relay|ratio to the anchor)"),
    Bench("onitama_ws_roundtrip", (), r"round trip|µs"),
    Bench("onitama_strength", ("--deals", "3"), r"score|vs"),
    Bench("mia_rounds", ("--bots", "10", "50", "--seconds", "4", "--repeat", "3"), r"median"),
    Bench("mia_bots", (), r"best|points"),
    Bench("marias_playouts", ("--runs", "5", "--seconds", "1.5"), r"median|OpenSpiel|anchor"),
    Bench("marias_bots", (), r"margin|per deal"),
    Bench("marias_review", ("--deals", "4"), r"^review of a mariáš deal", timeout=240.0),
    Bench("cgml_tables", ("--tables", "100", "--duration", "10"), r"tables|p99"),
    Bench("cgml_processes", ("--rounds", "1", "--seconds", "8"), r"median"),
    Bench("tiles_turns", (), r"turns/s|per turn|validation"),
    Bench("web_spectators", ("--repeat", "2"), r"^(Rounds/s|Staleness|Delivery)"),
    # The live tier of docs/scaling.md: 5,000 spectators on a web process of its own.
    Bench(
        "web_spectators",
        ("--web-process", "--spectators", "5000", "--repeat", "1", "--seconds", "3"),
        r"^(Rounds/s|Staleness)",
        label="web_spectators 5000",
    ),
    Bench("log_volume", ("--seconds", "20"), r"lines/min|per hour|bytes per"),
    Bench("durability", ("--runs", "1", "--seconds", "3"), r"stored|lost|missing"),
    Bench("live_tournament", ("--bots", "8", "--repeat", "3"), r"^live round robin"),
    Bench("sandbox_overhead", ("--starts", "10", "--lines", "1000"), r"^(start to|one line)"),
    Bench("ladder_rate", ("--seconds", "20", "--runs", "1"), r"^ladder ", timeout=600.0),
    Bench(
        "workers",
        ("--rounds", "1", "--seconds", "3", "--warmup", "1.5"),
        r"^(onitama|tiles) ",
        timeout=240.0,
    ),
)


def run(bench: Bench, python: str) -> tuple[int | None, float, list[str]]:
    """(exit status or None on timeout, seconds, headline lines)."""
    start = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    try:
        proc = subprocess.run(
            [python, str(ROOT / "bench" / f"{bench.name}.py"), *bench.args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=bench.timeout,
        )
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - start, [f"timed out after {bench.timeout:g} s"]
    seconds = time.perf_counter() - start
    lines = [ln.strip() for ln in proc.stdout.splitlines() if ln.strip()]
    text = [ln for ln in lines if not ln.startswith("{")]
    pattern = re.compile(bench.headline, re.IGNORECASE)
    picked = [ln for ln in text if pattern.search(ln)][:4]
    if not picked and text:
        picked = text[-2:]
    if proc.returncode != 0:
        err = [ln for ln in proc.stderr.splitlines() if ln.strip()]
        last = err[-1] if err else "no message"
        picked.append(f"exit {proc.returncode}: {last}")
    return proc.returncode, seconds, picked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="run only these benches (names as in --list)")
    parser.add_argument("--list", action="store_true", help="list the benches and their args")
    args = parser.parse_args(argv)
    if args.list:
        for b in BENCHES:
            print(f"{b.title:22s} {' '.join(b.args)}")
        return 0
    chosen = [b for b in BENCHES if not args.only or {b.name, b.title} & set(args.only)]
    unknown = set(args.only or ()) - {b.name for b in BENCHES} - {b.title for b in BENCHES}
    if unknown:
        parser.error(f"unknown bench: {', '.join(sorted(unknown))} (see --list)")
    console = Console(width=200)
    table = Table(title="Herna benchmarks (bench/run_all.py)", show_lines=True)
    table.add_column("bench")
    table.add_column("headline figures", overflow="fold")
    table.add_column("s", justify="right")
    table.add_column("ok")
    results = []
    total = time.perf_counter()
    for bench in chosen:
        console.print(f"running {bench.title}: {bench.name} {' '.join(bench.args)} …")
        status, seconds, lines = run(bench, sys.executable)
        ok = status == 0
        table.add_row(bench.title, "\n".join(lines), f"{seconds:.0f}", "yes" if ok else "NO")
        results.append(
            {"bench": bench.title, "ok": ok, "seconds": round(seconds, 1), "lines": lines}
        )
    console.print(table)
    load = os.getloadavg()[0]
    elapsed = time.perf_counter() - total
    console.print(
        f"{len(chosen)} benches in {elapsed / 60:.1f} min; "
        f"load average {load:.2f} on {os.cpu_count()} CPUs"
    )
    print(json.dumps({"benchmark": "all", "seconds": round(elapsed, 1), "results": results}))
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
