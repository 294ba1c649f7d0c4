#!/usr/bin/env python3
"""How long the engine review of a 40-ply Onitama game takes (herna.games.onitama.review).

A game of 40 plies is played once by two engine bots (level ``easy``, so it has mistakes and
lasts; a fixed seed, the same game every run), then reviewed ``--runs`` times with the
review's default settings (a search of at most ``BUDGET`` s and depth ``MAX_DEPTH`` per
position), each run with a fresh search memory, as the worker process does for each game. The
compile (or the load from numba's cache) is paid before the first run and not counted.

Prints each run, the median and the spread (min-max), and, as its last line, one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from herna.core.rng import SeededRng
from herna.games.onitama.engine import EngineBot, warm_up
from herna.games.onitama.notation import format_position
from herna.games.onitama.review import BUDGET, MAX_DEPTH, Settings, review_game
from herna.games.onitama.state import ACTION_CODEC, OnitamaState


def forty_plies(
    seed: int, plies: int
) -> tuple[dict[str, str], list[tuple[str, dict[str, object]]]]:
    """A game of exactly ``plies`` plies (tries seeds from ``seed`` until one lasts)."""
    for attempt in range(seed, seed + 100):
        start = OnitamaState.setup(["Tiger", "Crab"], ["Ox", "Boar"], "Eel")
        bots = [
            EngineBot("easy", rng=SeededRng(attempt)),
            EngineBot("easy", rng=SeededRng(attempt + 7)),
        ]
        state, events = start, []
        while not state.is_terminal() and len(events) < plies:
            action = bots[state.to_move].choose(state)
            events.append(("action", {"action": ACTION_CODEC.encode(action)}))
            state = state.apply(action)
        if len(events) == plies:
            return {"start": format_position(start), "rule": "stalemate"}, events
    raise SystemExit("no game of that length")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="reviews to time (default 7)")
    parser.add_argument("--plies", type=int, default=40, help="plies of the game (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=BUDGET, help="seconds per position at most")
    parser.add_argument("--depth", type=int, default=MAX_DEPTH, help="search depth per position")
    args = parser.parse_args()
    compile_s = warm_up()
    meta, events = forty_plies(args.seed, args.plies)
    settings = Settings(args.budget, args.depth)
    times = []
    for run in range(args.runs):
        start = time.perf_counter()
        review = review_game(meta, events, settings)
        times.append(time.perf_counter() - start)
        counts = {c: {k: v for k, v in n.items() if v} for c, n in review["counts"].items()}
        print(f"run {run + 1}: {times[-1]:.2f} s  {counts}")
    median = statistics.median(times)
    print(
        f"review of a {args.plies}-ply game (depth {args.depth}, at most {args.budget} s per "
        f"position): median {median:.2f} s, min {min(times):.2f} s, max {max(times):.2f} s "
        f"over {args.runs} runs ({median / args.plies * 1000:.0f} ms per ply); compile/load "
        f"{compile_s:.1f} s before"
    )
    print(json.dumps({
        "bench": "onitama_review", "plies": args.plies, "runs": args.runs,
        "median_s": round(median, 3), "min_s": round(min(times), 3),
        "max_s": round(max(times), 3), "depth": args.depth, "budget_s": args.budget,
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
