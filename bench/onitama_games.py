#!/usr/bin/env python3
"""Many simultaneous Onitama games over TCP loopback: moves per second (wall and per core),
the latency from MAKE_MOVE to MOVE_WAS_MADE, and the same figures of a bare relay measured in
the same run (the anchor).

The server (the real one, with records going to a SQLite file and spectator events on the
bus) runs in a child process; the main process runs 2 x --games "instant" bots that answer
their turn at once with a random legal move (after --think-ms, default 0). All bots log in,
get paired, and play game after game for --seconds; every MAKE_MOVE the bots send is timed
until its MOVE_WAS_MADE comes back.

The server process also reports, for the measuring window only, its CPU per move (so its
moves per core-second: what one core of this machine does when it does nothing else), the
time its garbage collector took and its event-loop lag (how late a 5 ms timer fires: how long
a message that has just arrived waits before the server gets to it).

The anchor, run before each server run with as many connections: a bare asyncio relay in its
own process that answers every line with one line to its sender and one to the sender's
partner, the least any server of this protocol does per move (same reads and writes, no
game). It reports the same figures, and the ratios printed are Herna's over the relay's from
the runs side by side: per core (moves per server-CPU-second) and wall (moves/s). --repeat N
interleaves N anchor and server runs and prints medians with min/max. --loop uvloop runs the
anchor, the server and the bots on uvloop alike (`pip install uvloop`; Herna serves on the
standard loop).

With no arguments: 200 games (400 connections) for 5 s. The issue's target is --full (1,000
games, 2,000 connections) with p99 < 50 ms. Mind Little's law: with instant bots every game
always has one move in flight, so mean latency = games / moves per second, and p99 < 50 ms at
1,000 games needs well over 20,000 moves/s. --sweep shows where the target holds (fewer
games, or bots that think). Other people share this machine: the load average is printed with
the figures. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.durability import descendants, tree_cpu
from herna.core.rng import SeededRng
from herna.games.onitama.board import SQUARE_NAMES
from herna.games.onitama.cards import CARD_NAMES, TARGETS
from herna.games.onitama.state import OnitamaState
from herna.protocols import onitama as proto
from herna.protocols.onitama import ClientGame


# -- the server process -------------------------------------------------------------------------
def use_loop(loop: str) -> None:
    """Run every later ``asyncio.run`` of this process on ``loop``: ``asyncio`` (the standard
    selector loop) or ``uvloop`` (libuv; ``pip install uvloop``). The anchor, the server and
    the bots of one bench run all use the same loop, so the ratio compares like with like."""
    if loop == "uvloop":
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    else:
        asyncio.set_event_loop_policy(None)


def server_main(
    conn: Connection,
    database: str | None,
    tuned_gc: bool = True,
    loop: str = "asyncio",
    workers: int = 0,
) -> None:
    """The server under test. Commands on ``conn``: ``"measure"`` starts the measuring
    window (CPU, moves, garbage collection and event-loop lag counted from then on),
    ``"stop"`` ends it and gets the report."""
    import gc
    import logging

    from herna.cli.serve import tune_gc
    from herna.hall.hall import Hall
    from herna.hall.records import RecordStore
    from herna.servers.onitama import OnitamaSettings, serve

    logging.basicConfig(level=logging.WARNING)

    async def main() -> None:
        store = RecordStore(database or "sqlite:///:memory:")
        hall = Hall(records=store)
        settings = OnitamaSettings(seed=1, reconnect_window=1.0)
        service = await serve(hall, "127.0.0.1", 0, settings, workers=workers)
        if tuned_gc:
            tune_gc()  # as `herna serve` does once its servers are up
        measuring = False
        gc_started = 0.0
        gc_seconds = 0.0
        lags: list[float] = []

        def gc_timer(phase: str, info: dict[str, int]) -> None:
            nonlocal gc_started, gc_seconds
            if phase == "start":
                gc_started = time.perf_counter()
            elif measuring:
                gc_seconds += time.perf_counter() - gc_started

        async def lag_probe() -> None:
            # How late a 5 ms timer fires = how long the loop was busy elsewhere = how long
            # a message that just arrived waits before the server reads it.
            while True:
                due = time.perf_counter() + LAG_PROBE
                await asyncio.sleep(LAG_PROBE)
                if measuring:
                    lags.append(time.perf_counter() - due)

        gc.callbacks.append(gc_timer)
        probe = asyncio.create_task(lag_probe())
        conn.send(service.port)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, conn.recv)  # "measure"
        measuring = True
        moves0 = service.hub.stats.moves
        tree = [os.getpid(), *descendants(os.getpid())]  # workers and records writers
        tree0 = tree_cpu(tree)
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        await loop.run_in_executor(None, conn.recv)  # "stop"
        measuring = False
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        tree1 = tree_cpu(tree)
        moves = service.hub.stats.moves - moves0
        probe.cancel()
        # The report goes before the shutdown (thousands of connections to close), once
        # every record of the run is committed.
        store.flush()
        conn.send(
            {
                "stats": dict(service.hub.stats.__dict__),
                "moves": moves,
                "records_written": store.written,
                "cpu_seconds": (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime),
                "tree_cpu_seconds": tree1 - tree0,
                "processes": len(tree),
                "events_published": hall.bus.published,
                "gc_seconds": gc_seconds,
                "loop_lag_ms": [x * 1000 for x in lags],
            }
        )
        await service.stop()
        store.close()

    use_loop(loop)
    asyncio.run(main())


LAG_PROBE = 0.005


# -- the bots -----------------------------------------------------------------------------------
class Measure:
    def __init__(self) -> None:
        self.recording = False
        self.stopping = False
        self.latencies: list[float] = []
        self.moves = 0
        self.games = 0
        self.started_games = 0
        self.invalid = 0
        self.errors = 0


class Bot(asyncio.BufferedProtocol):
    """An instant bot on a raw asyncio protocol (cheap enough for thousands)."""

    def __init__(
        self,
        name: str,
        measure: Measure,
        seed: int,
        think: float,
        ready: asyncio.Event,
        count: list[int],
        total: int,
    ) -> None:
        self.name = name
        self.measure = measure
        self.rng = SeededRng(seed)
        self.think = think
        self.game = ClientGame(name)
        self.buf = b""
        self.sent_at: float | None = None
        self.transport: asyncio.Transport | None = None
        self.ready = ready
        self.count = count
        self.total = total
        self.logged_in = False
        self._view = memoryview(bytearray(16384))

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def login(self) -> None:
        assert self.transport is not None
        self.transport.write(proto.login_line(self.name))

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._view

    def buffer_updated(self, nbytes: int) -> None:
        buf = self.buf + bytes(self._view[:nbytes])
        *lines, self.buf = buf.split(b"\n")
        m = self.measure
        for line in lines:
            msg = proto.parse_server(line)
            self.game.feed(msg)
            if isinstance(msg, proto.MoveWasMade) and self.sent_at is not None:
                if m.recording:
                    m.latencies.append(time.perf_counter() - self.sent_at)
                    m.moves += 1
                self.sent_at = None
            elif isinstance(msg, proto.StalemateCard) and self.sent_at is not None:
                self.sent_at = None
            elif isinstance(msg, proto.InvalidMove):
                m.invalid += 1
                self.sent_at = None
            elif isinstance(msg, proto.Start):
                m.started_games += 1
            elif isinstance(msg, proto.GameOver):
                self.sent_at = None
                if m.recording:
                    m.games += 1
            elif isinstance(msg, proto.LoginOk):
                self.logged_in = True
                self.count[0] += 1
                if self.count[0] == self.total:
                    self.ready.set()
            elif (
                isinstance(msg, proto.Error | proto.LoginFailed | proto.Garbage)
                and not m.stopping  # SERVER_SHUTDOWN at the end is expected
            ):
                m.errors += 1
        if self.game.my_turn() and self.sent_at is None and not m.stopping:
            if self.think > 0:
                self.sent_at = -1.0  # a move is on its way
                asyncio.get_running_loop().call_later(self.think, self.move)
            else:
                self.move()

    def move(self) -> None:
        state = self.game.state
        if state is None or not self.game.my_turn() or self.measure.stopping:
            self.sent_at = None
            return
        line = random_move_line(state, self.rng)
        assert self.transport is not None
        self.sent_at = time.perf_counter()
        self.transport.write(line)

    def connection_lost(self, exc: Exception | None) -> None:
        pass


def random_move_line(state: OnitamaState, rng: SeededRng) -> bytes:
    """A uniformly random legal action as a client line, straight from the bitboards (the
    bots must stay cheap: they share the machine with the server being measured)."""
    pieces, _masters, hands, _spare, side = state.raw()
    own = pieces[side]
    moves: list[tuple[int, int, int]] = []
    for card in hands[side]:
        table = TARGETS[side][card]
        bits = own
        while bits:
            low = bits & -bits
            bits ^= low
            frm = low.bit_length() - 1
            targets = table[frm] & ~own
            while targets:
                tbit = targets & -targets
                targets ^= tbit
                moves.append((card, frm, tbit.bit_length() - 1))
    if not moves:
        return f"STALEMATE|{CARD_NAMES[hands[side][0]]}\n".encode()
    card, frm, to = moves[rng.randint(0, len(moves) - 1)]
    return f"MAKE_MOVE|{CARD_NAMES[card]}|{SQUARE_NAMES[frm]}|{SQUARE_NAMES[to]}\n".encode()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_bots(
    port: int,
    games: int,
    seconds: float,
    warmup: float,
    think: float,
    server: Connection,
) -> tuple[Measure, float, float]:
    """Play until the end of the measuring window; returns the measure, its length and the
    bots' CPU seconds within it."""
    loop = asyncio.get_running_loop()
    measure = Measure()
    ready = asyncio.Event()
    count = [0]
    bots: list[Bot] = []
    total = 2 * games
    setup = time.perf_counter()

    async def connect(i: int) -> Bot:
        def factory() -> Bot:
            return Bot(f"b{i}", measure, i, think, ready, count, total)

        _, bot = await loop.create_connection(factory, "127.0.0.1", port)
        return bot

    for first in range(0, total, 250):
        bots += await asyncio.gather(*(connect(i) for i in range(first, min(total, first + 250))))
    for bot in bots:  # log in in order: the lobby pairs b0 with b1, b2 with b3 ...
        bot.login()
    await asyncio.wait_for(ready.wait(), 300)
    print(f"{total} connections logged in after {time.perf_counter() - setup:.1f} s")
    await asyncio.sleep(warmup)
    server.send("measure")
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    measure.recording = True
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    measure.recording = False
    elapsed = time.perf_counter() - start
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    server.send("stop")
    measure.stopping = True
    await asyncio.sleep(0.2)
    del bots
    cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    return measure, elapsed, cpu


# -- the anchor: a bare asyncio relay (bench/relay_anchor.py) ----------------------------------
def anchor_run(pairs: int, seconds: float, warmup: float, loop: str) -> dict[str, Any]:
    """One measuring window of the bare relay with ``2 * pairs`` connections, run as its own
    program (it imports nothing from Herna: the anchor does not change with Herna's code)."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "relay_anchor.py")
    args = ["--pairs", str(pairs), "--seconds", str(seconds), "--warmup", str(warmup)]
    proc = subprocess.run(
        [sys.executable, script, *args, "--loop", loop],
        capture_output=True,
        text=True,
        timeout=seconds + warmup + 300,
        check=True,
    )
    out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def print_anchor(run: dict[str, Any]) -> None:
    lat = run["latency_ms"]
    print(
        f"anchor (bare asyncio relay, no game): {run['moves_per_second']:,} moves/s, "
        f"p50 {lat['p50']} ms, p99 {lat['p99']} ms; relay {run['server_cpu_us_per_move']} µs "
        f"CPU per move = {run['moves_per_core_second']:,} moves per core-second; load average "
        f"{run['load_average'][0]} before, {run['load_average'][1]} after"
    )


def one_run(
    games: int,
    seconds: float,
    warmup: float,
    think_ms: float,
    records: bool,
    tuned_gc: bool,
    loop: str = "asyncio",
    workers: int = 0,
) -> dict[str, Any]:
    """One server process (and its ``workers`` game workers), 2 x ``games`` bots, one
    measuring window: the figures."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * games + 100
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        database = f"sqlite:///{tmp}/bench.db" if records else None
        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        server = ctx.Process(target=server_main, args=(child, database, tuned_gc, loop, workers))
        server.start()
        port = parent.recv()
        print(
            f"Onitama server on port {port}; {games} games, {2 * games} connections, "
            f"{seconds:g} s measured after {warmup:g} s warm-up, think {think_ms:g} ms"
        )
        use_loop(loop)
        measure, elapsed, bots_cpu = asyncio.run(
            run_bots(port, games, seconds, warmup, think_ms / 1000, parent)
        )
        load_after = os.getloadavg()[0]
        report: dict[str, Any] = parent.recv() if parent.poll(60) else {}
        server.join(30)
        if server.is_alive():
            server.terminate()
    lat = [x * 1000 for x in measure.latencies]
    lags = report.get("loop_lag_ms", [])
    server_moves = report.get("moves", 0)
    server_cpu = report.get("cpu_seconds", 0.0)
    if workers:
        # The serving process counts a worker's moves only when its game is over; the bots
        # count every one. The CPU is the whole tree: the front, the workers, the writers.
        server_moves = measure.moves
        server_cpu = report.get("tree_cpu_seconds", 0.0)
    return {
        "games": games,
        "connections": 2 * games,
        "think_ms": think_ms,
        "seconds": round(elapsed, 2),
        "moves": measure.moves,
        "moves_per_second": round(measure.moves / elapsed) if elapsed else 0,
        "games_finished": measure.games // 2,
        "latency_ms": {
            "mean": round(statistics.fmean(lat), 2) if lat else None,
            "p50": round(percentile(lat, 0.50), 2),
            "p90": round(percentile(lat, 0.90), 2),
            "p99": round(percentile(lat, 0.99), 2),
            "max": round(max(lat), 2) if lat else None,
        },
        "p99_under_50ms": bool(lat) and percentile(lat, 0.99) < 50.0,
        "server_loop_lag_ms": {
            "p50": round(percentile(lags, 0.50), 2),
            "p99": round(percentile(lags, 0.99), 2),
        },
        "invalid_moves": measure.invalid,
        "errors": measure.errors,
        "records_written": report.get("records_written"),
        "server_cpu_seconds": round(server_cpu, 2),
        "server_cpu_us_per_move": round(server_cpu / server_moves * 1e6, 1)
        if server_moves
        else None,
        "moves_per_core_second": round(server_moves / server_cpu) if server_cpu else None,
        "server_gc_seconds": round(report.get("gc_seconds", 0.0), 2),
        "server_gc": "herna serve" if tuned_gc else "default",
        "bots_cpu_seconds": round(bots_cpu, 2),
        "load_average": [round(load_before, 2), round(load_after, 2)],
        "workers": workers,
        "front_cpu_seconds": round(report.get("cpu_seconds", 0.0), 2),
    }


def print_run(run: dict[str, Any]) -> None:
    lat = run["latency_ms"]
    lag = run["server_loop_lag_ms"]
    verdict = "meets" if run["p99_under_50ms"] else "misses"
    print(
        f"moves: {run['moves']} in {run['seconds']:.1f} s = {run['moves_per_second']:,} moves/s; "
        f"games finished: {run['games_finished']}"
    )
    print(
        f"latency MAKE_MOVE -> MOVE_WAS_MADE: mean {lat['mean']} ms, p50 {lat['p50']} ms, "
        f"p90 {lat['p90']} ms, p99 {lat['p99']} ms, max {lat['max']} ms "
        f"({verdict} the p99 < 50 ms target)"
    )
    print(
        f"server: {run['server_cpu_seconds']} s CPU in the window = "
        f"{run['server_cpu_us_per_move']} µs per move ({run['server_gc_seconds']} s in garbage "
        f"collection, {run['server_gc']} settings); event-loop lag p50 {lag['p50']} ms, "
        f"p99 {lag['p99']} ms; bots {run['bots_cpu_seconds']} s CPU"
    )
    print(
        f"invalid moves {run['invalid_moves']}, errors {run['errors']}, records written "
        f"{run['records_written']}; load average {run['load_average'][0]} before, "
        f"{run['load_average'][1]} after, on {os.cpu_count()} CPUs (shared machine)"
    )


SWEEP = [(100, 0.0), (250, 0.0), (500, 0.0), (1000, 0.0), (1000, 100.0), (1000, 250.0)]
"""(games, think ms) of ``--sweep``: where the p99 target holds on this machine."""


def spread(values: list[float]) -> dict[str, float]:
    """Median, min and max of one figure over the repeated runs."""
    return {
        "median": round(statistics.median(values), 2),
        "min": round(min(values), 2),
        "max": round(max(values), 2),
    }


def fmt_spread(s: dict[str, float], unit: str = "", digits: int = 0) -> str:
    def f(x: float) -> str:
        return f"{x:,.{digits}f}"

    if s["min"] == s["max"]:
        return f"{f(s['median'])}{unit}"
    return f"{f(s['median'])}{unit} ({f(s['min'])}–{f(s['max'])})"


def summarize(
    games: int, runs: list[dict[str, Any]], anchors: list[dict[str, Any]]
) -> dict[str, Any]:
    """Medians with min/max over the repeats, and the ratios to the anchor run beside each
    server run (per core: moves per CPU-second of each server process; wall: moves/s)."""
    out: dict[str, Any] = {
        "games": games,
        "repeats": len(runs),
        "moves_per_second": spread([r["moves_per_second"] for r in runs]),
        "moves_per_core_second": spread([r["moves_per_core_second"] or 0 for r in runs]),
        "server_cpu_us_per_move": spread([r["server_cpu_us_per_move"] or 0 for r in runs]),
        "p50_ms": spread([r["latency_ms"]["p50"] for r in runs]),
        "p99_ms": spread([r["latency_ms"]["p99"] for r in runs]),
        "p99_under_50ms": statistics.median([r["latency_ms"]["p99"] for r in runs]) < 50.0,
    }
    if anchors:
        out["anchor"] = {
            "moves_per_second": spread([a["moves_per_second"] for a in anchors]),
            "moves_per_core_second": spread([a["moves_per_core_second"] or 0 for a in anchors]),
            "server_cpu_us_per_move": spread([a["server_cpu_us_per_move"] or 0 for a in anchors]),
            "p50_ms": spread([a["latency_ms"]["p50"] for a in anchors]),
            "p99_ms": spread([a["latency_ms"]["p99"] for a in anchors]),
        }
        out["ratio_per_core"] = spread(
            [
                (r["moves_per_core_second"] or 0) / a["moves_per_core_second"]
                for r, a in zip(runs, anchors, strict=True)
                if a["moves_per_core_second"]
            ]
        )
        out["ratio_wall"] = spread(
            [
                r["moves_per_second"] / a["moves_per_second"]
                for r, a in zip(runs, anchors, strict=True)
                if a["moves_per_second"]
            ]
        )
    return out


def print_summary(s: dict[str, Any], loop: str) -> None:
    n = s["repeats"]
    head = f"{s['games']} games, median of {n} runs (min–max)" if n > 1 else f"{s['games']} games"
    print(f"\n== {head}; event loop {loop} for anchor, server and bots ==")
    print(
        f"Herna server: {fmt_spread(s['moves_per_second'])} moves/s wall, "
        f"{fmt_spread(s['moves_per_core_second'])} moves/s per core "
        f"({fmt_spread(s['server_cpu_us_per_move'], ' µs', 1)} CPU per move), "
        f"p50 {fmt_spread(s['p50_ms'], ' ms', 1)}, p99 {fmt_spread(s['p99_ms'], ' ms', 1)}"
    )
    anchor = s.get("anchor")
    if anchor is not None:
        print(
            f"anchor relay: {fmt_spread(anchor['moves_per_second'])} moves/s wall, "
            f"{fmt_spread(anchor['moves_per_core_second'])} moves/s per core "
            f"({fmt_spread(anchor['server_cpu_us_per_move'], ' µs', 1)} CPU per move), "
            f"p50 {fmt_spread(anchor['p50_ms'], ' ms', 1)}, "
            f"p99 {fmt_spread(anchor['p99_ms'], ' ms', 1)}"
        )
        print(
            f"ratio to the anchor: {fmt_spread(s['ratio_per_core'], '×', 2)} per core "
            f"(target ≥ 0.6×), {fmt_spread(s['ratio_wall'], '×', 2)} wall moves/s"
        )
    print(f"load average now {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (shared machine)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Simultaneous Onitama games of instant bots over TCP loopback: moves/s "
        "(wall and per core), MAKE_MOVE -> MOVE_WAS_MADE latency percentiles, and the same "
        "figures of a bare asyncio relay measured in the same run (the anchor)."
    )
    parser.add_argument(
        "--games",
        type=int,
        default=200,
        help="simultaneous games, two connections each (default 200)",
    )
    parser.add_argument(
        "--full", action="store_true", help="the target run: 1,000 games (2,000 connections)"
    )
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="measuring time after the warm-up (default 5)"
    )
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="seconds of play before measuring (default 2)"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="anchor and server runs, interleaved; figures are medians with min/max (default 1)",
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="bots wait this long before each move (default 0: instant)",
    )
    parser.add_argument(
        "--loop",
        choices=("asyncio", "uvloop"),
        default="asyncio",
        help="event loop of the anchor, the server and the bots alike (default asyncio, what "
        "`herna serve` runs; uvloop needs `pip install uvloop`)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="game worker processes (herna serve --workers N; default 0: every game in the "
        "serving process). With workers the server's CPU is that of its whole process tree",
    )
    parser.add_argument(
        "--no-anchor",
        action="store_true",
        help="skip the bare asyncio relay (measured before each server run by default)",
    )
    parser.add_argument(
        "--baseline", action="store_true", help=argparse.SUPPRESS
    )  # the anchor used to be optional; it runs by default now
    parser.add_argument(
        "--no-records",
        action="store_true",
        help="keep records in an in-memory database instead of a SQLite file",
    )
    parser.add_argument(
        "--default-gc",
        action="store_true",
        help="run the server with CPython's default garbage collector settings instead of "
        "the tuning `herna serve` applies (for before/after comparisons)",
    )
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="run "
        + ", ".join(f"{g} games think {t:g} ms" for g, t in SWEEP)
        + " (--seconds each) and print one line per run",
    )
    args = parser.parse_args(argv)
    games = 1000 if args.full else args.games
    configs = SWEEP if args.sweep else [(games, args.think_ms)]
    summaries = []
    for n, think in configs:
        runs: list[dict[str, Any]] = []
        anchors: list[dict[str, Any]] = []
        for _ in range(max(1, args.repeat)):
            if not args.no_anchor:
                anchor = anchor_run(n, args.seconds, args.warmup, args.loop)
                print_anchor(anchor)
                anchors.append(anchor)
            run = one_run(
                n,
                args.seconds,
                args.warmup,
                think,
                not args.no_records,
                not args.default_gc,
                args.loop,
                args.workers,
            )
            print_run(run)
            runs.append(run)
        summary = summarize(n, runs, anchors)
        summary["think_ms"] = think
        summary["loop"] = args.loop
        print_summary(summary, args.loop)
        summaries.append({"summary": summary, "runs": runs, "anchor_runs": anchors})
    if args.sweep:
        print("\n games  think   moves/s  per core   p50 ms   p99 ms  server µs/move  ratio/core")
        for item in summaries:
            s = item["summary"]
            ratio = s.get("ratio_per_core", {}).get("median", float("nan"))
            print(
                f"{s['games']:6} {s['think_ms']:6g} {s['moves_per_second']['median']:9,.0f} "
                f"{s['moves_per_core_second']['median']:9,.0f} {s['p50_ms']['median']:8} "
                f"{s['p99_ms']['median']:8} {s['server_cpu_us_per_move']['median']:15} "
                f"{ratio:11.2f}"
            )
    out: dict[str, Any] = {"benchmark": "onitama_games", "cpus": os.cpu_count()}
    if len(summaries) == 1:
        out.update(summaries[0])
    else:
        out["configs"] = summaries
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
