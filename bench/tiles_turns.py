#!/usr/bin/env python3
"""Tile engine speed: random legal turns per second, and the time to validate a rules file.

Plays random games of a rules file (default: the Labyrinth example) for --seconds: every
player decision is a uniformly random legal action, chance events come from a seeded RNG, a
finished game is followed by a new one. A "turn" is one player's whole turn (for Labyrinth a
push and a move); "actions" counts every player decision. Then each shipped rules file is
validated --repeat times (JSON parse, schema and cross-field checks) and the median is shown.

With no arguments it runs for about 10 s. Other people share this machine: the load average
is printed with the figures. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.engine import new_game
from herna.games.tiles.rules import (
    check_rules_file,
    load_rules_file,
    resolve_rules_path,
    shipped_rules,
)


def play(rules_ref: str, seconds: float, seed: int) -> dict[str, float]:
    rules = load_rules_file(resolve_rules_path(rules_ref))
    rng = SeededRng(seed)
    turns = actions = chance = games = 0
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    while time.perf_counter() < deadline:
        state = new_game(rules)
        while not state.is_terminal() and time.perf_counter() < deadline:
            if state.current_player() == CHANCE:
                state = state.apply(rng.weighted(state.chance_outcomes()))
                chance += 1
            else:
                before = state.turn
                state = state.apply(rng.choice(state.legal_actions()))
                actions += 1
                turns += state.turn - before
        if state.is_terminal():
            games += 1
    elapsed = time.perf_counter() - started
    return {
        "seconds": round(elapsed, 3),
        "turns": turns,
        "actions": actions,
        "chance_events": chance,
        "games_finished": games,
        "turns_per_second": round(turns / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
    }


def validate(paths: dict[str, Path], repeat: int) -> dict[str, float]:
    out = {}
    for name, path in sorted(paths.items()):
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            report = check_rules_file(path)
            times.append(time.perf_counter() - t)
            assert report.ok, report.problems
        out[name] = round(statistics.median(times) * 1000, 3)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--rules",
        default="labyrinth",
        help="rules file or shipped name to play (default labyrinth)",
    )
    parser.add_argument(
        "--seconds", type=float, default=8.0, help="how long to play random games (default 8)"
    )
    parser.add_argument(
        "--repeat", type=int, default=50, help="validations of each shipped rules file (default 50)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    args = parser.parse_args(argv)

    load = os.getloadavg()[0]
    t = time.perf_counter()
    check_rules_file(shipped_rules()["labyrinth"])  # first call loads the JSON Schema
    first_ms = round((time.perf_counter() - t) * 1000, 3)
    played = play(args.rules, args.seconds, args.seed)
    validation = validate(shipped_rules(), args.repeat)
    print(
        f"tile engine, random play of {args.rules} for {played['seconds']} s "
        f"(load average {load:.2f} on {os.cpu_count()} CPUs, shared machine):"
    )
    print(
        f"  {played['turns_per_second']:>10.1f} turns/s   ({played['turns']} turns, "
        f"{played['games_finished']} games finished)"
    )
    print(
        f"  {played['actions_per_second']:>10.1f} player actions/s ({played['actions']}), "
        f"plus {played['chance_events']} chance events"
    )
    print(
        f"validating a rules file (median of {args.repeat}; the first call, which loads the "
        f"schema, took {first_ms} ms):"
    )
    for name, ms in validation.items():
        print(f"  {name:<12} {ms:>8.3f} ms")
    print(
        json.dumps(
            {
                "bench": "tiles_turns",
                "rules": args.rules,
                "load_average": load,
                **played,
                "first_validation_ms": first_ms,
                "validation_ms": validation,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
