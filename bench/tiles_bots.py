#!/usr/bin/env python3
"""Tile bots' strength and think times, per shipped rules file.

Pairings (``--pairings``, default all):

* ``search-goal`` — the search bot against the goal bot;
* ``easy-medium``, ``medium-hard``, ``hard-strongest`` — each level against the next;
* ``seats`` — seat balance: four equal bots (``--seat-bot``, default ``goal``) at the file's
  full table, the mean return of each seat.

A pairing is played heads-up at a two-seat table (the file's first two seats, as the web page
seats two players); the bots swap seats every game, so each sits in each seat equally. A game
counts as a win for the bot with the larger return and as half a win for each on equal
returns (a shared win or a draw). Wins are shown with Wilson 95 % intervals; think time is the
time of one ``choose`` call, p50 and p99 over every decision of that bot. Seat balance shows
each seat's mean return with a normal 95 % interval (seats are filled by one kind of bot, so
any difference is the game's). Chance draws and bots are seeded from ``--seed`` and the game
number, so a run is reproducible (think times aside). One process plays every game; other
people share this machine, so the load average is printed with the figures.

The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.tiles.actions import TilesCodec
from herna.games.tiles.bots import make_bot
from herna.games.tiles.engine import new_game
from herna.games.tiles.rules import Rules, load_rules, resolve_rules_path

FILES = ("labyrinth", "tsuro", "dungeon", "gold_rush")
PAIRINGS = {
    "search-goal": ("search", "goal"),
    "easy-medium": ("easy", "medium"),
    "medium-hard": ("medium", "hard"),
    "hard-strongest": ("hard", "strongest"),
}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (``wins`` may count draws as halves)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    m = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 1.0
    return (m, m - half, m + half)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table_rules(name: str, seats: int | None) -> Rules:
    """The shipped file ``name``, with only its first ``seats`` players when given."""
    data = json.loads(resolve_rules_path(name).read_text(encoding="utf-8"))
    if seats is not None:
        data["players"] = data["players"][:seats]
    return load_rules(data, name)


@dataclass
class Game:
    returns: tuple[float, ...]
    reason: str
    turns: int
    think: list[list[float]] = field(default_factory=list)


def play(rules: Rules, strategies: Sequence[str], seed: int) -> Game:
    """One game, ``strategies[i]`` in seat ``i``; chance and bots seeded from ``seed``."""
    codec = TilesCodec(rules.n)
    rng = SeededRng(seed)
    bots = [make_bot(s, rules, seed * 16 + i) for i, s in enumerate(strategies)]
    think: list[list[float]] = [[] for _ in strategies]
    state = new_game(rules)
    while not state.is_terminal():
        current = state.current_player()
        if current == CHANCE:
            state = state.apply(rng.weighted(state.chance_outcomes()))
            continue
        assert isinstance(current, int)
        actions = [codec.encode(a) for a in state.legal_actions()]
        view = state.view(current)
        started = time.perf_counter()
        picked = bots[current].choose(view, actions)
        think[current].append(time.perf_counter() - started)
        state = state.apply(codec.decode(dict(picked)))
    outcome = state.outcome()
    assert outcome is not None
    return Game(tuple(outcome.returns), outcome.reason, state.turn, think)


def pairing(name: str, a: str, b: str, games: int, seed: int) -> dict[str, Any]:
    per_file: dict[str, Any] = {}
    all_wins = 0.0
    all_games = 0
    think: dict[str, list[float]] = {a: [], b: []}
    for f, file_name in enumerate(FILES):
        rules = table_rules(file_name, 2)
        wins = draws = 0.0
        for g in range(games):
            seats = (a, b) if g % 2 == 0 else (b, a)
            game = play(rules, seats, seed + 1000 * f + g // 2)  # both seatings share a seed
            ra, rb = (game.returns[0], game.returns[1]) if g % 2 == 0 else game.returns[::-1]
            wins += 1.0 if ra > rb else 0.5 if ra == rb else 0.0
            draws += 1.0 if ra == rb else 0.0
            for seat, strategy in enumerate(seats):
                think[strategy].extend(game.think[seat])
        low, high = wilson(wins, games)
        per_file[file_name] = {"games": games, "wins": wins, "draws": draws, "rate": wins / games}
        per_file[file_name]["interval"] = [round(low, 3), round(high, 3)]
        print(
            f"  {name:15} {file_name:10} {a} won {wins:g} of {games} ({draws:g} drawn): "
            f"{wins / games:.2f} [{low:.2f}, {high:.2f}]",
            flush=True,
        )
        all_wins += wins
        all_games += games
    low, high = wilson(all_wins, all_games)
    print(
        f"  {name:15} {'all files':10} {a} won {all_wins:g} of {all_games}: "
        f"{all_wins / all_games:.2f} [{low:.2f}, {high:.2f}]"
    )
    times = {}
    for strategy, values in think.items():
        p50, p99 = percentile(values, 0.5) * 1000, percentile(values, 0.99) * 1000
        most = max(values, default=0.0) * 1000
        times[strategy] = {"decisions": len(values), "p50_ms": round(p50, 1)}
        times[strategy].update({"p99_ms": round(p99, 1), "max_ms": round(most, 1)})
        print(
            f"  {name:15} think {strategy:9} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  "
            f"max {most:6.1f} ms ({len(values)} decisions)"
        )
    return {
        "a": a,
        "b": b,
        "files": per_file,
        "wins": all_wins,
        "games": all_games,
        "rate": round(all_wins / all_games, 3),
        "interval": [round(low, 3), round(high, 3)],
        "think": times,
    }


def seat_balance(bot: str, games: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f, file_name in enumerate(FILES):
        rules = table_rules(file_name, None)
        seats = len(rules.players)
        returns: list[list[float]] = [[] for _ in range(seats)]
        reasons: dict[str, int] = {}
        for g in range(games):
            game = play(rules, [bot] * seats, seed + 5000 + 1000 * f + g)
            for i in range(seats):
                returns[i].append(game.returns[i])
            reasons[game.reason] = reasons.get(game.reason, 0) + 1
        row = []
        for values in returns:
            m, low, high = mean_interval(values)
            row.append({"mean": round(m, 3), "interval": [round(low, 3), round(high, 3)]})
        out[file_name] = {"games": games, "seats": row, "reasons": reasons}
        shown = "  ".join(
            f"seat {i} {r['mean']:.2f} [{r['interval'][0]:.2f}, {r['interval'][1]:.2f}]"
            for i, r in enumerate(row)
        )
        print(f"  seats {bot} {file_name:10} {shown}  ({games} games)", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per pairing and file")
    parser.add_argument(
        "--seat-games", type=int, default=None, help="games per file for seat balance"
    )
    parser.add_argument("--seat-bot", default="goal", help="the bot of the seat balance")
    parser.add_argument(
        "--pairings",
        default=",".join([*PAIRINGS, "seats"]),
        help="comma-separated: " + ", ".join([*PAIRINGS, "seats"]),
    )
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args(argv)
    wanted = [p.strip() for p in args.pairings.split(",") if p.strip()]
    unknown = [p for p in wanted if p not in PAIRINGS and p != "seats"]
    if unknown:
        parser.error(f"unknown pairing(s): {', '.join(unknown)}")
    print(f"tile bots: {args.games} games per pairing and file; load {os.getloadavg()[0]:.2f}")
    started = time.perf_counter()
    result: dict[str, Any] = {"games": args.games, "seed": args.seed}
    for name in wanted:
        if name == "seats":
            seat_games = args.seat_games or args.games
            result["seats"] = seat_balance(args.seat_bot, seat_games, args.seed)
        else:
            a, b = PAIRINGS[name]
            result[name] = pairing(name, a, b, args.games, args.seed)
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["load"] = round(os.getloadavg()[0], 2)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
