"""Duplicate match: the mariáš search bot (PIMC) against the rule-based bot.

Every deal is played four times: once with three rule bots (the baseline) and once with the
search bot in each seat and rule bots in the other two. The search bot's margin on a deal is
its money minus the rule bot's money in the same seat of the baseline, averaged over the three
seats; the summary gives the mean margin in money (tariff units) per deal with a 95 %
confidence interval. Bots only ever see their own view.

    .venv/bin/python bench/marias_bots.py                      # a small run (< 1 minute)
    .venv/bin/python bench/marias_bots.py --deals 1000 --workers 2

The last line of output is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from herna.games.marias import MariasState, RuleBot, SearchBot, new_game
from herna.games.marias.bots.base import Bot
from herna.games.marias.log import deal_actions, play_actions


def play_deal(bots: list[Bot], deal_seed: int, dealer: int, bot_seed: int) -> MariasState:
    state = play_actions(new_game(dealer), deal_actions(random.Random(deal_seed)))
    rng = random.Random(bot_seed)
    while not state.is_terminal():
        seat = state.current_player()
        view = state.view(seat)
        state = state.apply(bots[seat].choose(view, state.legal_actions(), rng))
    return state


def run_deal(args: tuple[int, int, int]) -> dict[str, Any]:
    index, seed, iterations = args
    deal_seed = seed * 1_000_003 + index
    dealer = index % 3
    rule: Bot = RuleBot()
    search: Bot = SearchBot(iterations=iterations)
    started = time.process_time()
    base = play_deal([rule, rule, rule], deal_seed, dealer, deal_seed)
    base_money = base.settlement().money
    margins = []
    contracts = []
    for seat in range(3):
        bots = [rule, rule, rule]
        bots[seat] = search
        game = play_deal(bots, deal_seed, dealer, deal_seed * 7 + seat)
        margins.append(game.settlement().money[seat] - base_money[seat])
        contracts.append(game.contract.code)
    return {
        "deal": index,
        "margin": sum(margins) / 3,
        "seat_margins": margins,
        "baseline": base.contract.code,
        "search_games": contracts,
        "cpu": time.process_time() - started,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Duplicate match of the mariáš search bot against the rule-based bot: "
        "each deal is played from every seat; prints the margin in money per deal with a "
        "95%% confidence interval, and a JSON line last."
    )
    parser.add_argument("--deals", type=int, default=6, help="number of deals (default 6)")
    parser.add_argument(
        "--iterations", type=int, default=8, help="search bot worlds per decision (default 8)"
    )
    parser.add_argument("--seed", type=int, default=2024, help="seed of the deals")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--start", type=int, default=0, help="first deal index (to resume)")
    parser.add_argument(
        "--progress", type=Path, default=None, help="append one JSON line per deal to this file"
    )
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    args = parser.parse_args(argv)

    jobs = [(i, args.seed, args.iterations) for i in range(args.start, args.start + args.deals)]
    results: list[dict[str, Any]] = []
    wall = time.perf_counter()
    out = args.progress.open("a") if args.progress else None

    def record(r: dict[str, Any]) -> None:
        results.append(r)
        if out is not None:
            out.write(json.dumps(r) + "\n")
            out.flush()
        if not args.quiet:
            print(
                f"deal {r['deal']:4d}  margin {r['margin']:+7.2f}  baseline {r['baseline']:5s}"
                f"  search {' '.join(r['search_games'])}",
                flush=True,
            )

    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for r in pool.map(run_deal, jobs):
                record(r)
    else:
        for job in jobs:
            record(run_deal(job))
    if out is not None:
        out.close()
    elapsed = time.perf_counter() - wall
    margins = [r["margin"] for r in results]
    n = len(margins)
    mean = statistics.mean(margins) if n else 0.0
    sd = statistics.stdev(margins) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else float("inf")
    print(
        f"\n{n} deals x 4 games (duplicate seating), search iterations {args.iterations}: "
        f"search bot margin {mean:+.3f} money/deal, 95% CI [{mean - half:+.3f}, "
        f"{mean + half:+.3f}] (sd {sd:.2f}); {elapsed:.1f} s wall, "
        f"{sum(r['cpu'] for r in results):.1f} s CPU. The machine is shared: times vary."
    )
    print(
        json.dumps(
            {
                "bench": "marias_bots",
                "deals": n,
                "iterations": args.iterations,
                "seed": args.seed,
                "margin_per_deal": round(mean, 4),
                "ci95_low": round(mean - half, 4) if n > 1 else None,
                "ci95_high": round(mean + half, 4) if n > 1 else None,
                "sd": round(sd, 4),
                "wall_seconds": round(elapsed, 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
