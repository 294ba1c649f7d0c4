"""Duplicate match of two mariáš bots: ``--a`` against ``--b`` (default: strongest vs medium).

Every deal is played four times: once with three B bots (the baseline) and once with the A bot
in each seat and B bots in the other two. A's margin on a deal is its money minus B's money in
the same seat of the baseline, averaged over the three seats; the summary gives the mean margin
in money (tariff units) per deal and seat with a 95 % confidence interval. Bots only ever see
their own view.

A bot is a level (``easy medium hard strongest``) or a strategy (``heuristic``,
``sampling-search``, old aliases ``rule``/``search``), optionally with constructor options:
``sampling-search:iterations=8,bidding_factor=1``.

``--c`` plays a third bot in the same seats against the same B baseline: the paired
difference A − C per deal (the B baseline cancels) then compares A and C directly.

Besides the margin it prints, for the aktér of each contract kind (hra, sedma, sto, sto a
sedma, betl, durch, dvě sedmy), how often A (as aktér in its games) and B (baseline games)
played it, lost it and the mean aktér money; and A's think time per decision (CPU seconds,
only decisions with a choice), p50/p99/max, all and auction only.

    .venv/bin/python bench/marias_bots.py                      # a small run (< 1 minute)
    .venv/bin/python bench/marias_bots.py --a medium --b easy --deals 1000 --quiet

The last line of output is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from herna.games.marias import MariasState, new_game
from herna.games.marias.actions import Action
from herna.games.marias.bots import make_bot
from herna.games.marias.bots.base import Bot, BotRng
from herna.games.marias.contracts import Contract
from herna.games.marias.log import deal_actions, play_actions
from herna.games.marias.state import Phase


def contract_kind(c: Contract) -> str:
    if c in (Contract.G, Contract.BG):
        return "hra"
    if c in (Contract.C7, Contract.B7):
        return "sedma"
    if c in (Contract.C100, Contract.B100):
        return "sto"
    if c in (Contract.C107, Contract.B107):
        return "sto a sedma"
    if c == Contract.SMALL:
        return "betl"
    if c == Contract.BIG:
        return "durch"
    return "dvě sedmy"


KINDS = ("hra", "sedma", "sto", "sto a sedma", "betl", "durch", "dvě sedmy")


class Timed:
    """Wraps a bot and records the CPU and wall time of each decision that had a choice."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[tuple[bool, float, float]] = []  # (auction?, CPU s, wall s)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: BotRng) -> Action:
        cpu, wall = time.thread_time(), time.perf_counter()
        action = self.bot.choose(view, legal, rng)
        if len(legal) > 1:
            self.times.append(
                (
                    view["phase"] == "auction",
                    time.thread_time() - cpu,
                    time.perf_counter() - wall,
                )
            )
        return action


def parse_spec(spec: str) -> tuple[str, dict[str, object]]:
    """``name:key=value,...`` -> (name, options); values are ints, floats or names."""
    name, _, rest = spec.partition(":")
    options: dict[str, object] = {}
    for item in filter(None, rest.split(",")):
        key, _, raw = item.partition("=")
        value: object = raw
        for kind in (int, float):
            try:
                value = kind(raw)
                break
            except ValueError:
                pass
        options[key.strip()] = value
    return name, options


def build(spec: str) -> Bot:
    name, options = parse_spec(spec)
    return make_bot(name, **options)


def play_deal(bots: Sequence[Bot], deal_seed: int, dealer: int, bot_seed: int) -> MariasState:
    state = play_actions(new_game(dealer), deal_actions(random.Random(deal_seed)))
    rng = random.Random(bot_seed)
    while not state.is_terminal():
        seat = state.current_player()
        view = state.view(seat)
        state = state.apply(bots[seat].choose(view, state.legal_actions(), rng))
    return state


def _aktér(game: MariasState) -> dict[str, Any] | None:
    if game.phase != Phase.DONE or game.declarer < 0:
        return None
    money = game.settlement().money[game.declarer]
    return {"seat": game.declarer, "kind": contract_kind(game.contract), "money": money}


def run_deal(args: tuple[int, int, str, str, str | None]) -> dict[str, Any]:
    index, seed, spec_a, spec_b, spec_c = args
    deal_seed = seed * 1_000_003 + index
    dealer = index % 3
    b = build(spec_b)
    base = play_deal([b, b, b], deal_seed, dealer, deal_seed)
    base_money = base.settlement().money
    out: dict[str, Any] = {"deal": index, "baseline": base.contract.code, "b_aktér": _aktér(base)}
    for label, spec in (("a", spec_a), ("c", spec_c)):
        if spec is None:
            continue
        tested = Timed(build(spec))
        margins, games, aktér = [], [], []
        for seat in range(3):
            bots: list[Bot] = [b, b, b]
            bots[seat] = tested
            game = play_deal(bots, deal_seed, dealer, deal_seed * 7 + seat)
            margins.append(game.settlement().money[seat] - base_money[seat])
            games.append(game.contract.code)
            info = _aktér(game)
            if info is not None and info["seat"] == seat:
                aktér.append(info)
        out[label] = {
            "margin": sum(margins) / 3,
            "seat_margins": margins,
            "games": games,
            "aktér": aktér,
            "times": tested.times,
        }
    return out


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = statistics.mean(values) if n else 0.0
    half = 1.96 * statistics.stdev(values) / math.sqrt(n) if n > 1 else float("inf")
    return mean, mean - half, mean + half


def breakdown(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        money = [r["money"] for r in rows if r["kind"] == kind]
        if money:
            out[kind] = {
                "count": len(money),
                "lost": sum(1 for m in money if m < 0),
                "mean": round(statistics.mean(money), 2),
            }
    return out


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def think(times: Sequence[Sequence[Any]]) -> dict[str, float]:
    """Mean, p50, p99 and max in ms of CPU time per decision, all and auction only, and the
    wall-clock p99 (the machine is shared, so wall time also measures the load)."""
    out: dict[str, float] = {}
    for label, rows in (("all", times), ("auction", [t for t in times if t[0]])):
        values = [t[1] for t in rows]
        if values:
            out[f"{label}_n"] = len(values)
            out[f"{label}_mean_ms"] = round(1000 * statistics.mean(values), 1)
            out[f"{label}_p50_ms"] = round(1000 * percentile(values, 0.5), 1)
            out[f"{label}_p99_ms"] = round(1000 * percentile(values, 0.99), 1)
            out[f"{label}_max_ms"] = round(1000 * max(values), 1)
            walls = [t[2] for t in rows if len(t) > 2]
            if walls:
                out[f"{label}_wall_p99_ms"] = round(1000 * percentile(walls, 0.99), 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Duplicate match of two mariáš bots (A against a field of B): each deal "
        "is played from every seat; prints A's margin in money per deal and seat with a 95%% "
        "confidence interval, a per-contract breakdown, A's think times, and a JSON line last."
    )
    parser.add_argument("--a", default="strongest", help="the tested bot (default strongest)")
    parser.add_argument("--b", default="medium", help="the field (default medium)")
    parser.add_argument("--c", default=None, help="a second tested bot, paired with A")
    parser.add_argument("--deals", type=int, default=6, help="number of deals (default 6)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the deals")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--start", type=int, default=0, help="first deal index (to resume)")
    parser.add_argument(
        "--progress", type=Path, default=None, help="append one JSON line per deal to this file"
    )
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    parser.add_argument(
        "--summarize",
        type=Path,
        default=None,
        help="play nothing: print the summary of the deals in this --progress file (a run "
        "stopped early, or several runs' files joined); give the same --a/--b/--c",
    )
    args = parser.parse_args(argv)

    jobs = [
        (i, args.seed, args.a, args.b, args.c) for i in range(args.start, args.start + args.deals)
    ]
    results: list[dict[str, Any]] = []
    wall = time.perf_counter()
    cpu = time.process_time()
    out = args.progress.open("a") if args.progress else None

    def record(r: dict[str, Any]) -> None:
        results.append(r)
        if out is not None:
            out.write(json.dumps(r) + "\n")
            out.flush()
        if not args.quiet:
            line = f"deal {r['deal']:4d}  A {r['a']['margin']:+7.2f}"
            if "c" in r:
                line += f"  C {r['c']['margin']:+7.2f}"
            print(
                f"{line}  baseline {r['baseline']:5s}  A's games {' '.join(r['a']['games'])}",
                flush=True,
            )

    if args.summarize is not None:
        results.extend(json.loads(line) for line in args.summarize.open() if line.strip())
    elif args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for r in pool.map(run_deal, jobs):
                record(r)
    else:
        for job in jobs:
            record(run_deal(job))
    if out is not None:
        out.close()
    elapsed = time.perf_counter() - wall
    n = len(results)
    summary: dict[str, Any] = {
        "bench": "marias_bots",
        "a": args.a,
        "b": args.b,
        "c": args.c,
        "deals": n,
        "seed": args.seed,
        "start": args.start,
    }
    mean, low, high = interval([r["a"]["margin"] for r in results])
    print(
        f"\n{n} deals x 4 games (duplicate seating), A = {args.a}, B = {args.b}: A's margin "
        f"{mean:+.3f} money per deal and seat, 95% CI [{low:+.3f}, {high:+.3f}]"
    )
    summary.update(margin=round(mean, 4), ci95=[round(low, 4), round(high, 4)])
    if args.c is not None:
        cmean, clow, chigh = interval([r["c"]["margin"] for r in results])
        dmean, dlow, dhigh = interval([r["a"]["margin"] - r["c"]["margin"] for r in results])
        print(
            f"C = {args.c}: margin {cmean:+.3f} [{clow:+.3f}, {chigh:+.3f}]; paired A - C "
            f"{dmean:+.3f} per deal and seat, 95% CI [{dlow:+.3f}, {dhigh:+.3f}]"
        )
        summary.update(
            c_margin=round(cmean, 4),
            c_ci95=[round(clow, 4), round(chigh, 4)],
            a_minus_c=round(dmean, 4),
            a_minus_c_ci95=[round(dlow, 4), round(dhigh, 4)],
        )
    tables = {
        "A": breakdown([x for r in results for x in r["a"]["aktér"]]),
        "B": breakdown([r["b_aktér"] for r in results if r["b_aktér"]]),
    }
    if args.c is not None:
        tables["C"] = breakdown([x for r in results for x in r["c"]["aktér"]])
    print("\naktér results per contract kind (count, lost, mean aktér money):")
    for who, table in tables.items():
        cells = [f"{k} {v['count']:.0f}/{v['lost']:.0f}/{v['mean']:+.1f}" for k, v in table.items()]
        print(f"  {who}: " + ", ".join(cells))
    summary["aktér"] = tables
    times = {"A": think([t for r in results for t in r["a"]["times"]])}
    if args.c is not None:
        times["C"] = think([t for r in results for t in r["c"]["times"]])
    print("\nthink time per decision with a choice (ms of CPU; wall p99 too):")
    for who, t in times.items():
        print(f"  {who}: " + ", ".join(f"{k} {v}" for k, v in t.items()))
    summary["think"] = times
    summary["wall_seconds"] = round(elapsed, 1)
    summary["cpu_seconds"] = round(time.process_time() - cpu, 1)
    print(
        f"\n{elapsed:.1f} s wall, {summary['cpu_seconds']} s CPU in this process "
        "(the machine is shared: wall times vary)."
    )
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
