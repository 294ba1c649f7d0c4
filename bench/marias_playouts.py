"""Random mariáš games from the deal to the settlement, per second, on one core.

Two paths through the same rules code are measured:

* ``playout``: :func:`herna.games.marias.playout.random_game` — the whole deck dealt at once
  (same distribution as 32 chance actions), then uniformly random legal actions applied in
  place on one private state (what search bots use).
* ``api``: the public :class:`~herna.core.game.GameState` API — 32 chance ``Deal`` actions and
  every move through ``legal_actions()`` + ``apply()``, which copies the state each time.

Anchor (issue 3): OpenSpiel's Skat, driven from Python through its C++ core, runs about 6,000
random games/s on this machine. Rates are given per CPU second (``time.process_time``) and
per wall second; the machine is shared, so wall rates vary with the load.

    .venv/bin/python bench/marias_playouts.py              # ~15 s
    .venv/bin/python bench/marias_playouts.py --seconds 10 --repeats 5

The last line of output is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections import Counter

from herna.core.game import CHANCE
from herna.games.marias import new_game
from herna.games.marias.playout import random_game

TARGET = 6000


def api_game(rng: random.Random, dealer: int) -> None:
    state = new_game(dealer)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])


def measure(kind: str, seconds: float, seed: int) -> tuple[float, float, int, Counter[str]]:
    """(games per CPU second, games per wall second, games, contracts played)."""
    rng = random.Random(seed)
    contracts: Counter[str] = Counter()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    games = 0
    while time.process_time() - cpu0 < seconds:
        for _ in range(50):
            if kind == "playout":
                contracts[random_game(rng, games % 3).contract.code] += 1
            else:
                api_game(rng, games % 3)
            games += 1
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    return games / cpu, games / wall, games, contracts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Random mariáš games (deal to settlement) per second on one core, through "
        "the fast in-place playout and through the public apply() API. Prints a summary and, "
        "last, one JSON line."
    )
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="CPU seconds per repeat (default 3)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="repeats; the best counts")
    parser.add_argument(
        "--api-seconds", type=float, default=2.0, help="CPU seconds for the API path (0: skip)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    runs = [measure("playout", args.seconds, args.seed + i) for i in range(args.repeats)]
    best = max(runs, key=lambda r: r[0])
    contracts: Counter[str] = Counter()
    for r in runs:
        contracts.update(r[3])
    api = measure("api", args.api_seconds, args.seed) if args.api_seconds > 0 else None
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    print("Random mariáš games, deal to settlement, one core, pure Python")
    print(
        f"  playout (in place): best {best[0]:,.0f} games/CPU-s ({best[1]:,.0f} games/wall-s); "
        f"repeats: {', '.join(f'{r[0]:,.0f}' for r in runs)}"
    )
    if api is not None:
        print(f"  public apply() API: {api[0]:,.0f} games/CPU-s ({api[1]:,.0f} games/wall-s)")
    print(f"  target (OpenSpiel Skat via C++): {TARGET:,} games/s")
    print(f"  load average at the end: {load:.2f} (the machine is shared; rates vary)")
    top = ", ".join(f"{k} {v * 100 / sum(contracts.values()):.0f}%" for k, v in
                    contracts.most_common(5))  # fmt: skip
    print(f"  contracts in random games: {top}")
    print(
        json.dumps(
            {
                "bench": "marias_playouts",
                "games_per_cpu_s": round(best[0], 1),
                "games_per_wall_s": round(best[1], 1),
                "api_games_per_cpu_s": round(api[0], 1) if api else None,
                "api_games_per_wall_s": round(api[1], 1) if api else None,
                "target": TARGET,
                "meets_target": best[0] >= TARGET,
                "games": sum(r[2] for r in runs),
                "load_average": round(load, 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
