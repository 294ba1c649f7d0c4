#!/usr/bin/env python3
"""Onitama perft speed: count move paths from the initial position of the four published
card sets (onitama-rules.md §8) and check every count against the published figure.

Perft counts leaves with bulk counting at the last ply, so "nodes/s" is leaves per second.
Default: depth 6 for every row (a few seconds); --depth 7 takes about a minute on an idle
core, --depth 8 much longer. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from herna.games.onitama.perft import perft
from herna.games.onitama.state import OnitamaState

PUBLISHED = [
    (
        ("Ox", "Boar"),
        ("Horse", "Elephant"),
        "Crab",
        [10, 130, 1989, 28509, 487780, 7748422, 137281607, 2353802670],
    ),
    (
        ("Rooster", "Tiger"),
        ("Rabbit", "Cobra"),
        "Frog",
        [9, 72, 880, 10374, 138879, 1781181, 24489752, 324013378],
    ),
    (
        ("Goose", "Dragon"),
        ("Mantis", "Eel"),
        "Crane",
        [10, 120, 1272, 16445, 211643, 2793554, 39359208, 537916817],
    ),
    (
        ("Crab", "Dragon"),
        ("Monkey", "Tiger"),
        "Mantis",
        [11, 143, 1807, 23949, 325011, 4619275, 64873385, 949933361, 13734198945],
    ),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Onitama perft from the four published start positions: checks the counts "
        "and reports leaves per second."
    )
    parser.add_argument(
        "--depth",
        type=int,
        default=6,
        help="deepest perft per row (default 6; published up to 8 or 9)",
    )
    parser.add_argument(
        "--rows",
        default="1,2,3,4",
        help="which published rows to run, e.g. 2 or 1,3 (default all four)",
    )
    args = parser.parse_args(argv)
    rows = [int(r) for r in args.rows.split(",") if r.strip()]
    load = os.getloadavg()[0]
    print(f"Onitama perft to depth {args.depth} (load average {load:.2f} on {os.cpu_count()} CPUs)")
    results = []
    total_nodes = 0
    total_time = 0.0
    all_ok = True
    for row in rows:
        white, black, spare, counts = PUBLISHED[row - 1]
        state = OnitamaState.setup(list(white), list(black), spare, rule="pass")
        label = f"{'+'.join(white)} / {'+'.join(black)} / {spare}"
        for depth in range(1, args.depth + 1):
            start = time.perf_counter()
            nodes = perft(state, depth)
            elapsed = time.perf_counter() - start
            expected = counts[depth - 1] if depth <= len(counts) else None
            ok = expected is None or nodes == expected
            all_ok &= ok
            if depth == args.depth:
                total_nodes += nodes
                total_time += elapsed
                results.append(
                    {
                        "row": row,
                        "cards": label,
                        "depth": depth,
                        "nodes": nodes,
                        "expected": expected,
                        "ok": ok,
                        "seconds": round(elapsed, 3),
                        "nodes_per_second": round(nodes / elapsed) if elapsed else None,
                    }
                )
            mark = "ok" if ok and expected is not None else ("?" if expected is None else "WRONG")
            rate = nodes / elapsed if elapsed > 0 else 0.0
            print(
                f"  row {row} {label:34s} depth {depth}: {nodes:>12,d} {mark:5s} "
                f"{elapsed:7.2f} s {rate / 1e6:6.2f} M/s"
            )
    rate = total_nodes / total_time if total_time else 0.0
    print(
        f"depth {args.depth}: {total_nodes:,d} leaves in {total_time:.2f} s = "
        f"{rate / 1e6:.2f} M leaves/s; all counts match: {all_ok}"
    )
    print(
        json.dumps(
            {
                "benchmark": "onitama_perft",
                "depth": args.depth,
                "rows": results,
                "nodes": total_nodes,
                "seconds": round(total_time, 3),
                "nodes_per_second": round(rate),
                "all_match": all_ok,
                "load_average": round(load, 2),
            }
        )
    )
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
