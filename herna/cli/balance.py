"""``herna rules balance``: a tile-game rules file played by house bots in worker processes,
and a report for its designer (herna/games/tiles/balance.py says what is measured)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from herna.cli import GameCommands
from herna.games.tiles.balance import ENDING_WORDS, BalanceReport
from herna.games.tiles.bots import DEFAULT_LEVEL, STRATEGIES
from herna.games.tiles.engine import DEFAULT_MAX_ROUNDS
from herna.games.tiles.rules import check_rules_file, resolve_rules_path, shipped_rules
from herna.servers.tiles.balance import BalanceJob, BalancePool, default_workers

DEFAULT_GAMES = 200


def register(commands: GameCommands) -> None:
    shipped = ", ".join(sorted(shipped_rules()))
    p = commands.rules.add_parser(
        "balance",
        help="play a rules file between house bots and report its balance",
        description="Check a tile-game rules file as 'herna rules check' does, then play it "
        "many times between house bots of one level (every seat the same bot) in worker "
        "processes, and report: each seat's share of the games won with its 95 % interval "
        "(and a warning when a seat wins more or less than a fair share), how games ended "
        "(one winner, shared, stalled, round limit), their length in turns, and how often "
        "each goal was reached. The measures follow Ludii's game metrics (AdvantageP1, "
        "Balance, Completion, Drawishness, Duration, Decisiveness). Game i has seed "
        f"SEED+i: the same command gives the same report. FILE may be a shipped name ({shipped}).",
    )
    p.add_argument("file", metavar="FILE", help="rules file or shipped name")
    p.add_argument(
        "--games", type=int, default=DEFAULT_GAMES, help=f"games to play (default {DEFAULT_GAMES})"
    )
    p.add_argument(
        "--level",
        choices=STRATEGIES,
        default=DEFAULT_LEVEL,
        help=f"the house bots at every seat (default {DEFAULT_LEVEL}; 'random' is quickest)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help=f"worker processes (default one per core: {default_workers()})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument(
        "--max-rounds",
        type=int,
        default=DEFAULT_MAX_ROUNDS,
        help=f"stop a game after this many rounds (default {DEFAULT_MAX_ROUNDS})",
    )
    p.add_argument(
        "--exact",
        action="store_true",
        help="exact (Clopper-Pearson) intervals instead of Wilson's: wider, for few games",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run_balance)


def run_balance(args: argparse.Namespace) -> int:
    if args.games < 1 or args.max_rounds < 1 or (args.workers is not None and args.workers < 1):
        print("--games, --max-rounds and --workers must be at least 1", file=sys.stderr)
        return 2
    path = resolve_rules_path(args.file)
    checked = check_rules_file(path)
    if checked.rules is None:
        for problem in checked.problems:
            print(f"{path}: {problem}", file=sys.stderr)
        print(f"{path}: invalid ({len(checked.errors)} error(s)); nothing played", file=sys.stderr)
        return 1
    data = json.loads(path.read_text(encoding="utf-8-sig"))
    pool = BalancePool(args.workers, start="fork")
    err = Console(stderr=True)
    start = time.perf_counter()
    try:
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            TimeRemainingColumn(),
            console=err,
            disable=args.quiet,
            transient=True,
        ) as bar:
            task = bar.add_task(f"{path.stem}, {args.level} bots", total=args.games)
            job = BalanceJob(
                data,
                players=len(checked.rules.players),
                games=args.games,
                level=args.level,
                seed=args.seed,
                max_rounds=args.max_rounds,
                interval="exact" if args.exact else "wilson",
                name=path.stem,
            )
            report = pool.report(job, lambda done, total: bar.update(task, completed=done))
    finally:
        pool.close(wait=True)
    seconds = time.perf_counter() - start
    if args.json:
        out = report.to_json()
        out["seconds"] = round(seconds, 3)
        out["workers"] = pool.workers
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print("\n".join(report_lines(report)))
        print(f"({report.games} games in {seconds:.1f} s by {pool.workers} worker processes)")
    return 0


def _pct(x: float) -> str:
    return f"{100 * x:4.0f} %"


def report_lines(report: BalanceReport) -> list[str]:
    """The report in words, for the terminal."""
    n = report.games
    kind = "exact" if report.interval == "exact" else "Wilson"
    lines = [
        f"Balance of {report.rules}: {n} games, every seat played by {report.level} house bots.",
        "",
        f"Games won by each seat, with a 95 % interval ({kind}); a fair share is "
        f"{100 * report.fair:.0f} %:",
    ]
    for s in report.seats:
        mark = {"more": "  ▲ more than a fair share", "less": "  ▼ less than a fair share"}
        lines.append(
            f"  seat {s.seat + 1}: {s.wins:5d} won {_pct(s.rate)}  [{100 * s.low:3.0f} % to "
            f"{100 * s.high:3.0f} %]"
            + (f"  ({s.shared} shared)" if s.shared else "")
            + mark.get(s.unfair, "")
        )
    lines += ["", "How the games ended:"]
    for ending, games in report.endings.items():
        lines.append(f"  {ENDING_WORDS[ending]:40s} {games:5d}  {_pct(games / n)}")
    lines.append("  why: " + "; ".join(f"{r} ({g})" for r, g in report.reasons.items()))
    j = report.to_json()["length"]
    lines += [
        "",
        f"Length in turns (one player's turn each): shortest {j['min']}, median "
        f"{j['median']:g}, average {j['mean']:.1f}, longest {j['max']}",
    ]
    top = max((g for _, _, g in report.histogram), default=1) or 1
    for lo, hi, games in report.histogram:
        label = f"{lo}" if lo == hi else f"{lo}–{hi}"
        lines.append(f"  {label:>9s} {'█' * round(30 * games / top):30s} {games}")
    if report.goals:
        lines += ["", "Goals reached (times reached / times a seat had the goal):"]
        for g in report.goals:
            share = g.reached / g.had if g.had else 0.0
            lines.append(f"  {g.words:45s} {g.reached:5d} / {g.had:<5d} {_pct(share)}")
    lines += ["", "Measures (after Ludii's game metrics):"]
    for m in report.measures:
        lines.append(f"  {m.name + ':':32s} {m.text}   [Ludii: {m.ludii}]")
    if report.warnings:
        lines += ["", *(f"Warning: {w}" for w in report.warnings)]
    else:
        lines += ["", "No seat wins more or less than a fair share (at 95 %)."]
    return lines
