"""Onitama bot strength: each pairing plays every deal from both sides, Herna's rules engine
referees, and the bench prints wins with 95 % (Wilson) intervals and think times.

    python bench/onitama_strength.py                     # the default pairings, 10 deals each
    python bench/onitama_strength.py --deals 50 --only levels
    python bench/onitama_strength.py --external 'tangilj=/tmp/spar/tangilj-driver' --deals 50

Pairings: the engine at 100 ms per move against the old pure-Python alpha-beta (depth 3, and
a 100 ms budget); each level for people against the next one; and, with ``--external
NAME=COMMAND``, the engine against an outside program (a sparring partner run locally, never
needed by CI). An external program reads one position per line on stdin, in Herna's
position notation followed by the think time in milliseconds::

    bbBbb...............wwWww Ox,Boar,Horse,Elephant,Crab white 100

and answers one line: a move in Herna's notation (``Ox c1c2``) or ``pass CARD``. One
process serves all games of a pairing; it is sent end-of-file when they are over.
``bench/sparring/`` holds such drivers for two public engines (see its README.md). The
external side's label is NAME as given (say what it plays, e.g. ``tangilj-d7``); both sides'
think times are measured here, round trip included, under the same machine load.
"""

from __future__ import annotations

import argparse
import itertools
import math
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.onitama.bots import AlphaBetaBot, Strategy
from herna.games.onitama.cards import BLACK, WHITE
from herna.games.onitama.engine import LEVELS, EngineBot, warm_up
from herna.games.onitama.notation import format_position, parse_action
from herna.games.onitama.state import OnitamaState, PlayerAction

MAX_PLIES = 300
"""A game still going after this many plies counts as a draw (Onitama has no draw rule)."""


class ExternalEngine:
    """A program on the other end of a pipe (see the module doc). One process serves every
    game of a pairing: a JVM or a harness that warms up once does not pay it per game."""

    def __init__(self, name: str, command: str, budget: float) -> None:
        self.name = name
        self.budget = budget
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def choose(self, state: OnitamaState) -> PlayerAction:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{format_position(state)} {round(self.budget * 1000)}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if not answer:
            raise RuntimeError(f"{self.name} exited (code {self.proc.poll()}) on {state!r}")
        action = parse_action(answer)
        if action not in state.legal_actions():
            raise RuntimeError(f"{self.name} answered {answer!r}, not legal in {state!r}")
        return action

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@dataclass
class Side:
    label: str
    make: object  # Callable[[int], Strategy]
    thinks: list[float] = field(default_factory=list)
    shared: object = None
    """An external engine: one process for every game of the pairing (made on first use)."""


def external(name: str, command: str, budget: float) -> Side:
    side = Side(name, None)

    def make(_seed: int) -> ExternalEngine:
        if side.shared is None:
            side.shared = ExternalEngine(name, command, budget)
        return side.shared  # type: ignore[return-value]

    side.make = make
    return side


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def dealt(seed: int, rule: str) -> OnitamaState:
    rng = SeededRng(seed)
    state = OnitamaState.new(rule)  # type: ignore[arg-type]
    while state.current_player() == CHANCE:
        state = state.apply(rng.weighted(state.chance_outcomes()))
    return state


def play(white: Strategy, black: Strategy, seed: int, rule: str, times: tuple[list[float], ...]):
    state = dealt(seed, rule)
    chance = SeededRng(seed + 1)
    bots = (white, black)
    while not state.is_terminal() and state.ply < MAX_PLIES:
        player = state.current_player()
        if player == CHANCE:
            state = state.apply(chance.weighted(state.chance_outcomes()))
            continue
        start = time.perf_counter()
        action = bots[player].choose(state)
        times[player].append(time.perf_counter() - start)
        state = state.apply(action)
    return state


def pairing(a: Side, b: Side, deals: int, rule: str, first_seed: int) -> None:
    score = 0.0
    draws = 0
    started = time.perf_counter()
    for i in range(deals):
        seed = first_seed + i
        for a_color in (WHITE, BLACK):
            bot_a, bot_b = a.make(seed), b.make(seed + 7919)  # type: ignore[operator]
            white, black = (bot_a, bot_b) if a_color == WHITE else (bot_b, bot_a)
            times: tuple[list[float], list[float]] = ([], [])
            final = play(white, black, seed, rule, times)
            a.thinks.extend(times[a_color])
            b.thinks.extend(times[1 - a_color])
            if final.winner is None:
                draws += 1
                score += 0.5
            elif final.winner == a_color:
                score += 1
    for bot in (a.shared, b.shared):
        if isinstance(bot, ExternalEngine):
            bot.close()
    games = 2 * deals
    low, high = wilson(score, games)
    print(
        f"{a.label:>28} vs {b.label:<28} {score:5.1f}/{games} = {100 * score / games:5.1f} % "
        f"[95 % {100 * low:4.1f}-{100 * high:5.1f}]  draws {draws}  "
        f"({time.perf_counter() - started:.0f} s)"
    )
    for side in (a, b):
        if side.thinks:
            t = sorted(side.thinks)
            p50 = t[len(t) // 2]
            p99 = t[min(len(t) - 1, int(0.99 * len(t)))]
            print(
                f"{'':>30}{side.label}: think mean {1000 * statistics.fmean(t):6.1f} ms, "
                f"p50 {1000 * p50:6.1f} ms, p99 {1000 * p99:6.1f} ms, "
                f"max {1000 * t[-1]:6.1f} ms over {len(t)} moves"
            )
        side.thinks.clear()
    sys.stdout.flush()


def engine(level: str, budget: float | None = None) -> Side:
    label = f"engine {level}" + (f" {1000 * budget:.0f} ms" if budget else "")
    return Side(label, lambda seed: EngineBot(level, budget=budget, rng=SeededRng(seed)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10, help="deals per pairing (2 games each)")
    parser.add_argument("--budget", type=float, default=0.1, help="engine seconds per move")
    parser.add_argument("--rule", choices=("stalemate", "pass"), default="pass")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed")
    parser.add_argument(
        "--only", choices=("old", "levels", "external"), help="run only these pairings"
    )
    parser.add_argument(
        "--external",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="also play the engine against this program (see the module doc)",
    )
    parser.add_argument(
        "--level",
        action="append",
        choices=tuple(LEVELS),
        help="engine level(s) to play the external programs (default: strongest)",
    )
    args = parser.parse_args(argv)
    args.level = args.level or ["strongest"]
    print(f"JIT warm-up (compile or load from numba's cache): {warm_up():.2f} s")
    strongest = engine("strongest", args.budget)
    if args.only in (None, "old"):
        pairing(
            strongest,
            Side("alphabeta depth 3", lambda s: AlphaBetaBot(depth=3, rng=SeededRng(s))),
            args.deals,
            args.rule,
            args.seed,
        )
        pairing(
            strongest,
            Side(
                f"alphabeta {1000 * args.budget:.0f} ms",
                lambda s: AlphaBetaBot(budget=args.budget, now=time.monotonic, rng=SeededRng(s)),
            ),
            args.deals,
            args.rule,
            args.seed,
        )
    if args.only in (None, "levels"):
        names = list(LEVELS)
        for weaker, stronger in itertools.pairwise(names):
            pairing(engine(stronger), engine(weaker), args.deals, args.rule, args.seed)
    if args.only in (None, "external"):
        for spec in args.external:
            name, _, command = spec.partition("=")
            for level in args.level:
                pairing(
                    engine(level, args.budget if level == "strongest" else None),
                    external(name, command, args.budget),
                    args.deals,
                    args.rule,
                    args.seed,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
