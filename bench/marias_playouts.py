"""Random mariáš games from the deal to the settlement, per second, through the public API.

The headline is what bots and servers run: the public :class:`~herna.core.game.GameState`
API — 32 chance ``Deal`` actions, then every move through ``legal_actions()`` +
``apply()`` until ``is_terminal()``, then ``outcome()`` — in wall-clock games per second
(one core), the **median of several runs with their min and max**.

The anchor is OpenSpiel's Skat (``pip install open_spiel``; a 32-card, three-player
trick-taking game with an auction) driven the same way from Python in the same run:
``legal_actions()`` / ``apply_action()`` / ``is_terminal()`` / ``returns()``, chance outcomes
drawn uniformly. The ratio Herna/OpenSpiel is printed; without OpenSpiel installed the anchor
is skipped and said so.

A second figure is the search bots' random playout
(:func:`herna.games.marias.playout.random_game`: the deck dealt at once, random legal choices
applied in place), for comparison only.

    .venv/bin/python bench/marias_playouts.py                 # 5 runs of 2 s per path, ~40 s
    .venv/bin/python bench/marias_playouts.py --runs 7 --seconds 3

The last line of output is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable

from herna.core.game import CHANCE
from herna.games.marias import new_game
from herna.games.marias.playout import random_game


def api_game(rng: random.Random, n: int) -> None:
    """One random game through the public API, dealer rotating."""
    state = new_game(n % 3)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
    state.outcome()


def playout_game(rng: random.Random, n: int) -> None:
    random_game(rng, n % 3)


def openspiel_game_factory() -> Callable[[random.Random, int], None] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("skat")

    def one(rng: random.Random, n: int) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        state.returns()

    return one


def rate(one: Callable[[random.Random, int], None], seconds: float, seed: int) -> float:
    """Wall-clock games per second of ``one`` over about ``seconds``."""
    rng = random.Random(seed)
    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            one(rng, games)
            games += 1
    return games / (time.perf_counter() - t0)


def summary(rates: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(rates), 1),
        "min": round(min(rates), 1),
        "max": round(max(rates), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Random mariáš games (deal to settlement) per second through the public "
        "API, with OpenSpiel's Skat as the anchor in the same run. Prints a summary and, "
        "last, one JSON line."
    )
    parser.add_argument("--runs", type=int, default=5, help="runs per path (default 5)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per run (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    paths: dict[str, Callable[[random.Random, int], None]] = {
        "public_api": api_game,
        "search_playout": playout_game,
    }
    openspiel = openspiel_game_factory()
    if openspiel is not None:
        paths["openspiel_skat"] = openspiel
    rates: dict[str, list[float]] = {k: [] for k in paths}
    # Interleaved, so that a change in the machine's load hits every path alike.
    for i in range(args.runs):
        for name, one in paths.items():
            rates[name].append(rate(one, args.seconds, args.seed + i))
    figures = {name: summary(r) for name, r in rates.items()}
    load = os.getloadavg()[0]

    print(
        f"Random mariáš games, deal to settlement, one core, {args.runs} runs of {args.seconds:g} s"
    )
    titles = {
        "public_api": "public API (legal_actions/apply/outcome)",
        "search_playout": "search playout (in place, comparison)",
        "openspiel_skat": "anchor: OpenSpiel Skat (C++ via pybind)",
    }
    for name, f in figures.items():
        print(
            f"  {titles[name]:42s} median {f['median']:>9,.0f} games/s "
            f"(min {f['min']:,.0f}, max {f['max']:,.0f})"
        )
    ratio = None
    if "openspiel_skat" in figures:
        ratio = round(figures["public_api"]["median"] / figures["openspiel_skat"]["median"], 3)
        print(f"  public API / OpenSpiel Skat: {ratio:.3f}x")
    else:
        print("  anchor skipped: OpenSpiel is not installed (pip install open_spiel)")
    print(f"  load average at the end: {load:.2f}")
    print(
        json.dumps(
            {
                "bench": "marias_playouts",
                "runs": args.runs,
                "seconds": args.seconds,
                "games_per_s": figures,
                "public_api_over_openspiel": ratio,
                "load_average": round(load, 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
