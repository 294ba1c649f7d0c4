"""Tune the Onitama engine's evaluation weights by self-play (coordinate descent).

    python bench/onitama_tune.py --deals 30 --ms 20 --rounds 1

For each weight in ``engine_core.DEFAULT_PARAMS`` in turn, the current vector plays a
candidate with that weight scaled up and down by ``--step``; every deal is played from both
sides (the rules engine referees, official pass rule) and a candidate that scores more than
``--accept`` of the points replaces the current vector. Prints each match and the final
vector, to be copied into ``DEFAULT_PARAMS`` after confirming it at full time control with
``bench/onitama_strength.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from onitama_strength import play, wilson

from herna.core.rng import SeededRng
from herna.games.onitama import engine_core as core
from herna.games.onitama.cards import BLACK, WHITE
from herna.games.onitama.engine import EngineBot, warm_up

NAMES = [
    "material",
    "center",
    "advance",
    "master_dist",
    "mobility",
    "tempo",
    "attack",
    "hanging",
    "master_zone",
] + [f"p{i}" for i in range(9, 32)]


def match(a: np.ndarray, b: np.ndarray, deals: int, budget: float, first_seed: int) -> float:
    """``a``'s share of the points against ``b``."""
    score = 0.0
    for seed in range(first_seed, first_seed + deals):
        for a_color in (WHITE, BLACK):
            bot_a = EngineBot("strongest", budget=budget, rng=SeededRng(seed), params=a)
            bot_b = EngineBot("strongest", budget=budget, rng=SeededRng(seed), params=b)
            white, black = (bot_a, bot_b) if a_color == WHITE else (bot_b, bot_a)
            final = play(white, black, seed, "pass", ([], []))
            if final.winner is None:
                score += 0.5
            elif final.winner == a_color:
                score += 1
    return score / (2 * deals)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--ms", type=float, default=20)
    parser.add_argument("--step", type=float, default=0.5, help="relative change tried")
    parser.add_argument("--accept", type=float, default=0.55)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", help="comma-separated weight indices to try")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    warm_up()
    current = core.DEFAULT_PARAMS.copy()
    indices = [int(i) for i in args.only.split(",")] if args.only else range(len(current))
    seed = args.seed
    for _ in range(args.rounds):
        for i in indices:
            for factor in (1 + args.step, 1 - args.step):
                cand = current.copy()
                cand[i] = max(0, round(current[i] * factor)) if current[i] else 4
                if cand[i] == current[i]:
                    continue
                started = time.perf_counter()
                share = match(cand, current, args.deals, args.ms / 1000, seed)
                seed += args.deals
                low, high = wilson(share * 2 * args.deals, 2 * args.deals)
                verdict = share > args.accept
                print(
                    f"{NAMES[i]:>12} {current[i]:>5} -> {cand[i]:>5}: {100 * share:5.1f} % "
                    f"[{100 * low:4.1f}-{100 * high:5.1f}] {'ACCEPT' if verdict else ''} "
                    f"({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )
                if verdict:
                    current = cand
                    break
    print("params", ",".join(map(str, current.tolist())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
