"""``herna match``: two bot programs (or house bots) play paired games on Herna's own servers.

The command starts the game's server in-process on free 127.0.0.1 ports, starts the programs
with the contract of ``docs/match.md``, decides the pairings and deals (the same deal or
opening both ways) and counts what the server decides; statistics in
:mod:`herna.hall.stats`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.live import Live
from rich.text import Text

from herna.core.rng import SeedSource
from herna.games.tiles.rules import load_rules_file, shipped_rules
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.hall.stats import mean_interval

from .entrants import EntrantSpec, MatchError, parse_entrant
from .marias import HOUSE_STRATEGIES as MARIAS_STRATEGIES
from .marias import run_marias
from .onitama import HOUSE_STRATEGIES as ONITAMA_STRATEGIES
from .onitama import MatchOptions, run_onitama
from .tally import FORFEIT_KINDS, Sprt, Tally, fmt_elo
from .tiles import HOUSE_STRATEGIES as TILES_STRATEGIES
from .tiles import run_tiles

GAMES = ("onitama", "marias", "tiles")
HOUSE_STRATEGIES = {
    "onitama": ONITAMA_STRATEGIES,
    "marias": MARIAS_STRATEGIES,
    "tiles": TILES_STRATEGIES,
}


def _sprt(text: str) -> Sprt:
    try:
        elo0, elo1 = (float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected ELO0,ELO1 (two numbers, e.g. 0,10), not {text!r}"
        ) from None
    if elo1 <= elo0:
        raise argparse.ArgumentTypeError("ELO1 must be larger than ELO0")
    return Sprt(elo0, elo1)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "match",
        help="play an engine match between two bot programs (or house bots)",
        description="Start GAME's server on a free 127.0.0.1 port and two bot programs that "
        "connect to it, play --games games in pairs (the same opening twice, the programs in "
        "swapped seats) and print a live progress line and the result: wins/draws/losses, "
        "the score difference with its 95 % interval and an Elo estimate from the pair "
        "counts (pentanomial). A program is run with HERNA_HOST, HERNA_PORT, HERNA_NAME, "
        "HERNA_TOKEN and HERNA_GAME in its environment; {host}, {port}, {name} and {game} in "
        "its command line are replaced by the same values; a command starting with 'herna' "
        "runs this Herna. 'house:STRATEGY[:DEPTH]' is one of Herna's own bots, in-process. "
        "A bot that crashes, stalls, runs out of time or plays an illegal move loses that "
        "game (counted by kind) and is restarted if needed; the match goes on. Mariáš plays "
        "duplicate deals: each deal twice with the same cards, A alone in a seat against two "
        "copies of B, then B alone in that seat against two A's (the seat rotates), and "
        "prints the money difference per deal with its 95 % interval. Tiles play one seed "
        "both ways, A in the even seats and then in the odd ones (copies of a program fill "
        "a side's seats); the side whose seats return more wins. See docs/match.md.",
        epilog="example: herna match onitama house:alphabeta:2 "
        "'herna bot onitama --strategy random --host {host} --port {port} --name {name}' "
        "--games 100 --sprt 0,50",
    )
    p.add_argument("game", metavar="GAME", choices=GAMES, help="the game: " + ", ".join(GAMES))
    p.add_argument(
        "cmd_a", metavar="CMD_A", help="side A: a command line (quoted) or house:STRATEGY"
    )
    p.add_argument(
        "cmd_b", metavar="CMD_B", help="side B: a command line (quoted) or house:STRATEGY"
    )
    p.add_argument(
        "--games",
        type=_positive,
        default=100,
        help="games to play (default 100; an odd number is rounded up to whole pairs)",
    )
    p.add_argument(
        "--concurrency",
        type=_positive,
        default=1,
        metavar="K",
        help="games at the same time, each on its own server with its own copy of each "
        "program (default 1)",
    )
    p.add_argument(
        "--sprt",
        type=_sprt,
        metavar="ELO0,ELO1",
        help="stop early once the sequential probability ratio test decides between "
        "H0: A is ELO0 stronger and H1: A is ELO1 stronger (alpha = beta = 0.05, LLR bounds "
        "about -2.94 and +2.94; no decision before 10 pairs); the LLR is printed as it goes",
    )
    p.add_argument(
        "--seed",
        type=int,
        help="derive every opening from this number, to repeat a match (default: a seed from "
        "the secrets module, printed with the result)",
    )
    p.add_argument(
        "--game-clock",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="thinking time per side for a whole game; a side that uses it up loses "
        "(forfeit 'time'; default 60, 0: no clock)",
    )
    p.add_argument(
        "--stall",
        type=float,
        default=15.0,
        metavar="SECONDS",
        help="a program that does not move for this long is killed, loses the game "
        "(forfeit 'stall') and is started again (default 15, 0: never)",
    )
    p.add_argument(
        "--start-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="stop the match with an error when the two sides are not both logged in this "
        "long after a game is due (default 30)",
    )
    p.add_argument(
        "--log-dir",
        type=Path,
        metavar="DIR",
        help="keep each program's output here as A-1.log, B-1.log … (default: a temporary "
        "directory, removed afterwards)",
    )
    p.add_argument(
        "--rules",
        default="labyrinth",
        choices=sorted(shipped_rules()),
        help="tiles: the shipped rules file every game plays, with all its seats (default "
        "labyrinth); {rules} in a command line is replaced by it",
    )
    p.add_argument("--json", type=Path, metavar="FILE", help="also write the result as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False, soft_wrap=True)
    try:
        strategies = HOUSE_STRATEGIES[args.game]
        specs = {
            "A": parse_entrant("A", args.cmd_a.replace("{rules}", args.rules), strategies),
            "B": parse_entrant("B", args.cmd_b.replace("{rules}", args.rules), strategies),
        }
    except MatchError as exc:
        console.print(f"herna match: {exc}", style="red")
        return 1
    seed = args.seed if args.seed is not None else SeedSource().next_seed()
    tally = Tally(planned_pairs=(args.games + 1) // 2, sprt=args.sprt)
    with tempfile.TemporaryDirectory(prefix="herna-match-") as temp:
        log_dir = args.log_dir or Path(temp)
        log_dir.mkdir(parents=True, exist_ok=True)
        options = MatchOptions(
            pairs=tally.planned_pairs,
            concurrency=args.concurrency,
            seed=seed,
            stall=args.stall,
            game_clock=args.game_clock,
            start_timeout=args.start_timeout,
            log_dir=log_dir,
        )
        started = time.monotonic()
        error: str | None = None
        # The live line only where someone watches; a pipe or log gets the report alone.
        live = Live(Text(tally.progress()), console=console, refresh_per_second=4)

        def show() -> None:
            if console.is_terminal:
                live.update(Text(tally.progress()))

        try:
            if console.is_terminal:
                live.start()
            asyncio.run(play(args.game, Path(temp), specs, options, tally, show, args.rules))
        except MatchError as exc:
            error = str(exc)
        finally:
            if console.is_terminal:
                show()
                live.stop()
        elapsed = time.monotonic() - started
    if error is not None:
        console.print(f"herna match: {error}", style="red")
        return 1
    report(console, args, specs_text(args), seed, tally, elapsed)
    if args.json is not None:
        summary = tally.summary()
        summary.update(
            game=args.game, seed=seed, seconds=elapsed, games_per_second=tally.games / elapsed
        )
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


def specs_text(args: argparse.Namespace) -> dict[str, str]:
    return {"A": args.cmd_a, "B": args.cmd_b}


async def play(
    game: str,
    workdir: Path,
    specs: dict[str, EntrantSpec],
    options: MatchOptions,
    tally: Tally,
    on_game: Callable[[], None],
    rules: str = "labyrinth",
) -> None:
    records = RecordStore(f"sqlite:///{workdir / 'match.db'}")
    hall = Hall(records=records)
    try:
        if game == "tiles":
            seats = len(load_rules_file(shipped_rules()[rules]).players)
            await run_tiles(hall, specs, options, tally, on_game, rules, seats)
        elif game == "marias":
            await run_marias(hall, specs, options, tally, on_game)
        else:
            await run_onitama(hall, specs, options, tally, on_game)
    finally:
        await hall.stop()
        records.close()


def report(
    console: Console,
    args: argparse.Namespace,
    sides: dict[str, str],
    seed: int,
    tally: Tally,
    elapsed: float,
) -> None:
    est = tally.penta.estimate()
    rate = tally.games / elapsed if elapsed > 0 else 0.0
    console.print(
        f"herna match {args.game}: {_count(tally.games, 'game')}, "
        f"{_count(tally.penta.pairs, 'pair')} in "
        f"{elapsed:.1f} s ({rate:.2f} games/s, concurrency {args.concurrency}), seed {seed}"
    )
    for label in ("A", "B"):
        console.print(f"  {label}  {sides[label]}")
    console.print(f"  A wins {tally.wins['A']}, draws {tally.draws}, B wins {tally.wins['B']}")
    for label in ("A", "B"):
        kinds = tally.forfeits[label]
        console.print(
            f"  forfeits of {label}: " + ", ".join(f"{k} {kinds[k]}" for k in FORFEIT_KINDS)
        )
    if tally.pair_money:
        mean, margin = mean_interval(tally.pair_money)
        console.print(
            f"  money of A minus B per duplicate deal (the same cards, the same seat): "
            f"{mean:+.2f} ± {margin:.2f} units (95 %, {len(tally.pair_money)} deals)"
        )
    ll, ld, dd, dw, ww = tally.penta.counts
    console.print(f"  pairs by A's points (0, 1/2, 1, 3/2, 2 of 2): {ll} {ld} {dd} {dw} {ww}")
    console.print(
        f"  score of A {est.score:.3f} per game [{est.score_low:.3f}, {est.score_high:.3f}]; "
        f"difference A-B {est.difference:+.3f} ± {est.difference_margin:.3f} per game (95 %)"
    )
    if est.score_low == est.score_high:
        # Every pair scored the same (a clean sweep, say): the normal approximation has no
        # spread to build an interval from.
        console.print(
            f"  Elo of A over B {fmt_elo(est.elo)} (every pair scored the same: no interval)"
        )
    else:
        console.print(
            f"  Elo of A over B {fmt_elo(est.elo)} "
            f"[{fmt_elo(est.elo_low)}, {fmt_elo(est.elo_high)}] (95 %)"
        )
    if tally.sprt is not None:
        low, high = tally.sprt.bounds
        verdict = {
            "H1": f"H1 accepted: A is at least {tally.sprt.elo1:g} Elo stronger",
            "H0": f"H0 accepted: A is at most {tally.sprt.elo0:g} Elo stronger",
            None: "no decision yet",
        }[tally.verdict]
        console.print(
            f"  SPRT elo0 {tally.sprt.elo0:g}, elo1 {tally.sprt.elo1:g}: LLR {tally.llr():+.2f} "
            f"(bounds {low:+.2f}, {high:+.2f}): {verdict}"
        )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
