#!/usr/bin/env python3
"""The web hall's cost over the size of the record (issue 28): fills a SQLite database with
10,000, 100,000 and 1,000,000 matches (bulk inserts into the records' own schema, made by
``RecordStore`` and its migrations; not one game at a time), starts a real ``herna serve
--only web`` on each, and prints the server's CPU per request of the pages a visitor opens
first: ``/``, ``/history``, one game's history, a house bot's page (in every game it plays,
so its record grows with the hall's), a person's page (20 games at every size) and
``/api/live``. Flat means the last column stays near 1.

    .venv/bin/python bench/web_flat.py                         # 10k, 100k, 1M; ~4 minutes
    .venv/bin/python bench/web_flat.py --sizes 10000 100000 --seconds 2
    .venv/bin/python bench/web_flat.py --against main          # main's code on the same files

The databases are kept under ``--cache`` (default ``/tmp/herna-web-flat``) and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from serving import cpu_seconds, export_ref, serving, source_env  # noqa: E402

from herna.hall.writer import keeps_rating_point  # noqa: E402

PERSON = "anna"
"""A person with the same 20 games at every size (her page should cost the same)."""
HOUSE = "house-prob"
"""A house bot at every Mia round: its page is the record's worst case."""
PATHS = (
    "/",
    "/history",
    "/history?game=onitama",
    f"/players/{HOUSE}",
    f"/players/{PERSON}",
    "/api/live",
)
GAMES = (("mia", 70), ("onitama", 15), ("marias", 10), ("tiles", 5))
"""The record's mix, per cent (Mia's house bots play the most rounds by far)."""
HOUSE_OF = {"mia": HOUSE, "onitama": "house-1", "marias": "house-search", "tiles": "house-tiles"}
SEATS = {"mia": 2, "onitama": 2, "marias": 3, "tiles": 3}
PEOPLE = 2000


def fill(path: Path, matches: int, source: Path | None) -> None:
    """A database of ``matches`` finished games: the schema from ``RecordStore`` of
    ``source`` (its migrations; the oldest source measured, so that the newer one migrates
    the file as a hall would), then rows inserted in bulk, as the records writer would have
    left them (matches, their players, standings, ratings and the thinned rating points)."""
    make = "import sys; from herna.hall.records import RecordStore as R; R(sys.argv[1]).close()"
    subprocess.run(
        [sys.executable, "-c", make, f"sqlite:///{path}"],
        env=source_env(source), cwd=path.parent, check=True,
    )  # fmt: skip
    rnd = random.Random(matches)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    kinds = [g for g, share in GAMES for _ in range(share)]
    anna_every = max(1, matches // 20)
    played: dict[tuple[str, str], list[int]] = {}
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    chunk = 50_000
    for low in range(1, matches + 1, chunk):
        rows, seats = [], []
        for mid in range(low, min(low + chunk, matches + 1)):
            game = kinds[mid % len(kinds)]
            names = [HOUSE_OF[game]]
            while len(names) < SEATS[game]:
                name = f"player-{rnd.randrange(PEOPLE):04d}"
                if name not in names:
                    names.append(name)
            if mid % anna_every == 0 and mid // anna_every <= 20:
                names[-1] = PERSON
            when = start + timedelta(seconds=mid * 3)
            text = when.strftime("%Y-%m-%d %H:%M:%S.%f")
            winner = rnd.randrange(len(names))
            result = {"returns": [1.0 if i == winner else 0.0 for i in range(len(names))],
                      "winners": [winner]}  # fmt: skip
            if game == "mia":
                losers = [n for i, n in enumerate(names) if i != winner]
                result.update(reason="SEE_FAILED", round=mid, order=names,
                              details={"losers": losers})  # fmt: skip
            table = f"round-{mid}" if game == "mia" else f"g{mid}"
            rows.append((mid, game, table, mid, "finished", text, text, json.dumps(result),
                         json.dumps({"round": mid} if game == "mia" else {})))  # fmt: skip
            for seat, name in enumerate(names):
                kind = "house-bot" if name == HOUSE_OF[game] else "person"
                score = 1.0 if seat == winner else 0.0
                seats.append((mid, seat, name, kind, score, int(seat == winner)))
                played.setdefault((game, name), []).append(int(seat == winner))
        db.executemany("INSERT INTO matches VALUES (?,?,?,?,?,?,?,?,?)", rows)
        db.executemany(
            "INSERT INTO match_players (match_id, seat, name, kind, score, winner) "
            "VALUES (?,?,?,?,?,?)",
            seats,
        )
    last = (start + timedelta(seconds=matches * 3)).strftime("%Y-%m-%d %H:%M:%S.%f")
    db.executemany(
        "INSERT INTO standings VALUES (?,?,?,?,?)",
        [(g, n, float(sum(w)), len(w), sum(w)) for (g, n), w in played.items()],
    )
    db.executemany(
        "INSERT INTO ratings VALUES (?,?,?,?,?)",
        [(g, n, 25.0 + sum(w) / len(w), 2.0, len(w)) for (g, n), w in played.items()],
    )
    db.executemany(
        "INSERT INTO rating_points (game, name, games, mu, sigma, at) VALUES (?,?,?,?,?,?)",
        [
            (g, n, k, 25.0, 8.0 / k**0.5, last)
            for (g, n), w in played.items()
            for k in range(1, len(w) + 1)
            if keeps_rating_point(k)
        ],
    )
    db.commit()
    db.execute("ANALYZE")  # what a long-running hall's SQLite would know of its tables
    db.close()


def database(cache: Path, matches: int, schema: str, source: Path | None) -> Path:
    path = cache / f"record-{matches}-{schema}.db"
    if not path.exists():
        began = time.perf_counter()
        partial = path.with_suffix(".partial")
        for leftover in cache.glob(partial.name + "*"):
            leftover.unlink()
        fill(partial, matches, source)
        partial.rename(path)
        _tidy(partial)
        print(f"  filled {matches:,} matches in {time.perf_counter() - began:.0f} s")
    return path


def _tidy(db: Path) -> None:
    """What a hall leaves beside a SQLite file: its schema lock and records journal."""
    for extra in db.parent.glob(db.name + "*"):
        if extra.is_dir():
            shutil.rmtree(extra, ignore_errors=True)
        elif extra != db:
            extra.unlink(missing_ok=True)


def measure(url: str, pid: int, seconds: float) -> dict[str, tuple[float, float]]:
    """CPU ms of the server per request and p50 ms, requests one after another on one
    connection (the server's own cost, not a queue's)."""
    with httpx.Client(base_url=url, timeout=60) as client:
        # Warm up for a while: a hall that has just started (and migrated a large file) does
        # its own start-up work for some seconds, which the first page measured would pay.
        for path in PATHS:
            warm = time.monotonic() + 1.5
            while time.monotonic() < warm:
                client.get(path).raise_for_status()
        out = {}
        for path in PATHS:
            times: list[float] = []
            cpu = cpu_seconds(pid)
            ends = time.monotonic() + seconds
            while time.monotonic() < ends or len(times) < 3:
                began = time.perf_counter()
                client.get(path).raise_for_status()
                times.append(time.perf_counter() - began)
            out[path] = (
                1000 * (cpu_seconds(pid) - cpu) / len(times),
                1000 * statistics.median(times),
            )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--seconds", type=float, default=3.0, help="per path and size")
    cache = Path(tempfile.gettempdir()) / "herna-web-flat"
    parser.add_argument("--cache", type=Path, default=cache, help="where the databases are kept")
    parser.add_argument("--against", metavar="REF", help="also measure git REF on the same files")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    print(f"web flat: CPU ms per request of `herna serve --only web` over the record's size "
          f"(load {os.getloadavg()[0]:.1f})")  # fmt: skip
    sources: list[tuple[str, Path | None]] = [("this checkout", None)]
    if args.against:
        sources.append((args.against, export_ref(args.against, args.cache / "against")))
    results: dict[tuple[str, int], dict[str, tuple[float, float]]] = {}
    schema, oldest = sources[-1][0], sources[-1][1]
    schema = "".join(c if c.isalnum() else "-" for c in schema)
    for size in args.sizes:
        path = database(args.cache, size, schema, oldest)
        for label, source in sources:
            # A copy per run: the served hall migrates and writes its keys into the file.
            run = args.cache / f"run-{size}.db"
            shutil.copyfile(path, run)
            url = f"sqlite:///{run}"
            with serving(source, ("--only", "web"), database_url=url, start_timeout=900) as served:
                if size == args.sizes[0]:
                    print(f"  {label}: {served.package}")  # which code answers
                results[(label, size)] = measure(served.url(), served.process.pid, args.seconds)
            run.unlink()
            _tidy(run)
    for label, _ in sources:
        head = "".join(f"{size:>12,}" for size in args.sizes)
        print(f"\n{label}: CPU ms per request (p50 ms) by matches on record")
        print(f"{'path':<24}{head}   largest/smallest")
        for p in PATHS:
            cells = [results[(label, s)][p] for s in args.sizes]
            row = "".join(f"{c:>6.2f} ({m:>4.0f})" for c, m in cells)
            ratio = cells[-1][0] / cells[0][0] if cells[0][0] else float("nan")
            print(f"{p:<24}{row}   {ratio:.1f}×")
        growth = {p: results[(label, args.sizes[-1])][p][0] / results[(label, args.sizes[0])][p][0]
                  for p in PATHS if results[(label, args.sizes[0])][p][0]}  # fmt: skip
        worst = max(growth, key=lambda p: growth[p])
        print(f"flat ({label}): {args.sizes[0]:,} → {args.sizes[-1]:,} matches, CPU per request "
              f"grows at most {growth[worst]:.1f}× ({worst})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
