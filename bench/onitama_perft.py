#!/usr/bin/env python3
"""Onitama perft speed: count move paths from the initial position of the four published
card sets (onitama-rules.md §8) and check every count against the published figure.

Two move generators are measured, and both must reproduce the published counts:

* **perft's own counter** (:func:`herna.games.onitama.perft.perft`): a separate bit-twiddling
  walk over :meth:`OnitamaState.mover_view`, with bulk counting at the last ply, so its
  "nodes/s" is leaves per second. It is *not* the code the server runs per move.
* **the server's path** (``--server-depth``, default 4): the public API the Onitama hub runs
  for every move — ``legal_actions()`` and ``apply()`` on :class:`OnitamaState`, a new state
  per move — walked without bulk counting, so its figure is moves generated and applied per
  second (every node is visited).

Default: depth 6 for perft's counter (a few seconds); --depth 7 takes about a minute on an
idle core, --depth 8 much longer. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from herna.games.onitama.perft import perft
from herna.games.onitama.state import OnitamaState


def server_perft(state: OnitamaState, depth: int) -> tuple[int, int]:
    """(leaves, states applied) ``depth`` plies below ``state`` through the public API the
    hub uses. Same counting rules as :func:`perft`: a won position is a leaf, a side without
    a move has the two official passes (``state`` must use ``rule="pass"``)."""
    if depth == 0 or state.is_terminal():
        return 1, 0
    leaves = applied = 0
    for action in state.legal_actions():
        child = state.apply(action)
        n, a = server_perft(child, depth - 1)
        leaves += n
        applied += a + 1
    return leaves, applied


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
    parser.add_argument(
        "--server-depth",
        type=int,
        default=4,
        help="depth for the server's own path, legal_actions()+apply() (default 4; 0: skip)",
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
        f"perft's own counter, depth {args.depth}: {total_nodes:,d} leaves in "
        f"{total_time:.2f} s = {rate / 1e6:.2f} M leaves/s; all counts match: {all_ok}"
    )
    server: dict[str, object] | None = None
    if args.server_depth > 0:
        applied_total = 0
        server_time = 0.0
        for row in rows:
            white, black, spare, counts = PUBLISHED[row - 1]
            state = OnitamaState.setup(list(white), list(black), spare, rule="pass")
            start = time.perf_counter()
            leaves, applied = server_perft(state, args.server_depth)
            server_time += time.perf_counter() - start
            applied_total += applied
            expected = counts[args.server_depth - 1] if args.server_depth <= len(counts) else None
            ok = expected is None or leaves == expected
            all_ok &= ok
            print(f"  row {row} server path depth {args.server_depth}: {leaves:>10,d} "
                  f"{'ok' if ok else 'WRONG'}")  # fmt: skip
        server_rate = applied_total / server_time if server_time else 0.0
        print(
            f"server's path (legal_actions + apply), depth {args.server_depth}: "
            f"{applied_total:,d} moves applied in {server_time:.2f} s = "
            f"{server_rate / 1e3:.1f} k moves/s; all counts match: {all_ok}"
        )
        server = {
            "depth": args.server_depth,
            "moves_applied": applied_total,
            "seconds": round(server_time, 3),
            "moves_per_second": round(server_rate),
        }
    print(
        json.dumps(
            {
                "benchmark": "onitama_perft",
                "depth": args.depth,
                "rows": results,
                "nodes": total_nodes,
                "seconds": round(total_time, 3),
                "nodes_per_second": round(rate),
                "server_path": server,
                "all_match": all_ok,
                "load_average": round(load, 2),
            }
        )
    )
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
