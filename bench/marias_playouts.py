"""Random mariáš games from the deal to the settlement, per second, through the public API.

The headline is what bots, servers and search run: the public
:class:`~herna.games.marias.state.MariasState` API driven exactly like the OpenSpiel anchor —
``is_chance_node()`` / ``chance_outcomes()`` + ``rng.randrange`` for the 32 deal steps,
``legal_actions()`` + ``rng.randrange`` + ``apply_action()`` (in place) for every move, until
``is_terminal()``, then ``returns()`` — in wall-clock games per second (one core), the
**median of several runs with their min and max**. There is no other, private fast path.

The anchor is OpenSpiel's Skat (``pip install open_spiel``; a 32-card, three-player
trick-taking game with an auction, C++ behind pybind) driven the same way from Python in the
same run. The ratio Herna/OpenSpiel is printed; without OpenSpiel installed the anchor is
skipped and said so.

A second figure, for comparison, drives the value-style API: ``apply()`` returns a new state
each step (what :class:`herna.hall.match.Match` and replays use), ``outcome()`` at the end.

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

from herna.games.marias import new_game


def api_game(rng: random.Random, n: int) -> None:
    """One random game through the public API, in place, as the anchor is driven."""
    state = new_game(n % 3)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    state.returns()


def value_game(rng: random.Random, n: int) -> None:
    """One random game through the value-style API: ``apply`` returns a new state."""
    state = new_game(n % 3)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state = state.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
    state.outcome()


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
        "value_api": value_game,
    }
    openspiel = openspiel_game_factory()
    if openspiel is not None:
        paths["openspiel_skat"] = openspiel
    rates: dict[str, list[float]] = {k: [] for k in paths}
    # Warm up: tables built on first use (e.g. the chance outcomes per cards left) are not
    # what a long-running server pays per game.
    for one in paths.values():
        warm = random.Random(0)
        for n in range(200):
            one(warm, n)
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
        "public_api": "public API (legal_actions/apply_action)",
        "value_api": "value-style API (apply: new states)",
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
