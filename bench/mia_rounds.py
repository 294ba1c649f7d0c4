#!/usr/bin/env python3
"""Mia server throughput and reaction latency over UDP loopback.

Starts `herna serve --only mia` in its own process, registers N instant bots (one tight
epoll loop in this process) and lets them play for S seconds. Prints rounds/s, the server's
reaction latency (client send → the server message it triggers: ROLL → ROLLED,
ANNOUNCE → ANNOUNCED, SEE → PLAYER WANTS TO SEE / PLAYER LOST) at p50/p99, and every loss
for a timeout or invalid turn (instant bots never cause one, so each is the server's fault).
The bots are mixed, as real fields are: a third are "honest" (announce what they rolled
when it beats the last announcement, lie one step above otherwise, see when the last
announcement is 6,1 or higher), a third are "liars" (always announce one step above the last
announcement, whatever they rolled) and a third are "doubters" (see whenever the last
announcement is 5,5 or higher, otherwise play honestly). ``--strategy honest`` runs only
honest bots (the figures before this bench mixed them). The server runs at its default log
level (INFO), as ``herna serve`` does for users; ``--server-log-level WARNING`` gives the
quieter figure.

It also prints the CPU time per round of the server, of its record writer process and of
the bots, and the CPU time the virtual machine's host stole during the run: on a shared VM
steal is what makes runs differ most, so compare runs with little of it.

With no arguments it runs 10, 50 and 500 bots for 8 s each (under a minute in all).
``--repeat N`` runs each bot count N times and prints the median rounds/s and its range;
``--root DIR`` runs the Herna of another checkout (say, an older commit unpacked with
``git archive``) with this same harness, to compare the two on the same machine:

    python bench/mia_rounds.py --bots 10 500 --repeat 5 --root /tmp/old
    python bench/mia_rounds.py --bots 10 500 --repeat 5

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import selectors
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERNA = [sys.executable, "-m", "herna.cli"]

ORDER = [(h, lo) for h in range(3, 7) for lo in range(1, h)] + [(d, d) for d in range(1, 7)]
ORDER.append((2, 1))
RANK = {f"{h},{lo}": i for i, (h, lo) in enumerate(ORDER)}
BY_RANK = [f"{h},{lo}" for (h, lo) in ORDER]


STRATEGIES = ("honest", "liar", "doubter")
SEE_FROM = {"honest": RANK["6,1"], "liar": len(BY_RANK), "doubter": RANK["5,5"]}
"""The lowest last announcement at which a bot of each strategy sees rather than rolls (a
liar never sees)."""


@dataclass
class Bot:
    name: str
    sock: socket.socket
    strategy: str = "honest"
    last_rank: int = -1
    pending: dict[bytes, float] = field(default_factory=dict)


@dataclass
class Figures:
    rounds: int = 0
    latencies: list[float] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)
    received: int = 0
    server_cpu: float = 0.0
    harness_cpu: float = 0.0
    writer_cpu: float = 0.0
    steal: float = 0.0
    last_round: int = 0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    port: int, log_level: str | None, db: str, extra: list[str], root: Path = ROOT
) -> subprocess.Popen[bytes]:
    cmd = [
        *HERNA,
        "serve",
        "--only",
        "mia",
        "--no-house-bots",
        "--mia-port",
        str(port),
        "--database-url",
        db,
        *(["--log-level", log_level] if log_level else []),
        *extra,
    ]
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.Popen(
        cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_until_serving(port)
    return proc


def wait_until_serving(port: int, timeout: float = 30.0) -> None:
    """Register a probe name until the server answers, then unregister it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.settimeout(0.2)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            probe.sendto(b"REGISTER_SPECTATOR;bench-probe", ("127.0.0.1", port))
            try:
                if probe.recv(512) == b"REGISTERED":
                    probe.sendto(b"UNREGISTER", ("127.0.0.1", port))
                    return
            except OSError:
                continue
    raise SystemExit(f"the Mia server on port {port} did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def writer_cpu_seconds(pid: int) -> float:
    """CPU seconds of the server's child processes (the record writer)."""
    total = 0.0
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            with contextlib.suppress(OSError):
                total += cpu_seconds(int(child))
    return total


def stored_rounds(db: Path) -> int:
    """Rows in the matches table (read-only, beside the running server)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return int(conn.execute("SELECT count(*) FROM matches").fetchone()[0])


def steal_jiffies() -> int:
    """CPU time stolen from this virtual machine by its host so far (Linux /proc/stat)."""
    return int(Path("/proc/stat").read_text().split("\n", 1)[0].split()[8])


def react(bot: Bot, data: bytes, figures: Figures, measure_from: float, counter: Bot) -> None:
    """An instant bot's answer to one server datagram; records the reaction latencies."""
    sock = bot.sock
    t = time.perf_counter()
    measuring = t >= measure_from
    figures.received += 1
    head = data[:6]
    if head == b"ROUND ":
        if data.startswith(b"ROUND STARTING;"):
            sock.send(b"JOIN;" + data[15:])
        elif data.startswith(b"ROUND STARTED"):
            bot.last_rank = -1
            if bot is counter:
                figures.last_round = int(data.split(b";")[1])
    elif head == b"YOUR T":
        token = data[10:]
        if bot.last_rank < 0 or bot.last_rank < SEE_FROM[bot.strategy]:
            sock.send(b"ROLL;" + token)
            bot.pending[b"ROLLED"] = t
        else:
            sock.send(b"SEE;" + token)
            bot.pending[b"SEE"] = t
    elif head == b"ROLLED":
        sent = bot.pending.pop(b"ROLLED", None)
        if sent is not None and measuring:
            figures.latencies.append(t - sent)
        _, dice, token = data.decode().split(";")
        rank = RANK[dice]
        if bot.strategy == "liar" and bot.last_rank >= 0:
            rank = bot.last_rank  # one step above the last announcement, whatever was rolled
        if rank <= bot.last_rank:
            rank = bot.last_rank + 1 if bot.last_rank + 1 < len(BY_RANK) - 1 else bot.last_rank
        sock.send(f"ANNOUNCE;{BY_RANK[rank]};".encode() + token.encode())
        bot.pending[b"ANNOUNCED"] = time.perf_counter()
    elif head == b"ANNOUN":
        _, name, dice = data.decode().split(";")
        bot.last_rank = RANK.get(dice, bot.last_rank)
        if name == bot.name:
            sent = bot.pending.pop(b"ANNOUNCED", None)
            if sent is not None and measuring:
                figures.latencies.append(t - sent)
    elif head == b"PLAYER":
        sent = bot.pending.pop(b"SEE", None)
        if sent is not None and measuring:
            figures.latencies.append(t - sent)
        if bot is counter and data.startswith(b"PLAYER LOST;") and measuring:
            figures.rounds += 1
            reason = data.decode().rsplit(";", 1)[1]
            figures.reasons[reason] = figures.reasons.get(reason, 0) + 1


def play(
    port: int, n: int, seconds: float, server_pid: int, mix: tuple[str, ...], warmup: float = 1.0
) -> Figures:
    server = ("127.0.0.1", port)
    sel = selectors.DefaultSelector()
    bots = []
    for i in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        s.bind(("127.0.0.1", 0))
        s.connect(server)
        s.setblocking(False)
        bot = Bot(f"b{i}", s, mix[i % len(mix)])
        bots.append(bot)
        sel.register(s, selectors.EVENT_READ, bot)
        s.send(f"REGISTER;{bot.name}".encode())
    figures = Figures()
    start = time.perf_counter()
    measure_from = start + warmup
    deadline = measure_from + seconds
    counter = bots[0]
    measuring_cpu = False
    while True:
        now = time.perf_counter()
        if now >= deadline:
            break
        if not measuring_cpu and now >= measure_from:
            measuring_cpu = True
            server_cpu = cpu_seconds(server_pid)
            writer_cpu = writer_cpu_seconds(server_pid)
            steal = steal_jiffies()
            own_cpu = time.process_time()
        for key, _ in sel.select(0.2):
            bot: Bot = key.data
            sock = bot.sock
            # One datagram per readiness report: the selector is level-triggered, so a socket
            # with more waiting is reported again, and no recv is wasted on an empty socket.
            try:
                data = sock.recv(65536)
            except OSError:  # incl. BlockingIOError
                continue
            react(bot, data, figures, measure_from, counter)
    figures.server_cpu = cpu_seconds(server_pid) - server_cpu
    figures.harness_cpu = time.process_time() - own_cpu
    figures.writer_cpu = writer_cpu_seconds(server_pid) - writer_cpu
    figures.steal = (steal_jiffies() - steal) / os.sysconf("SC_CLK_TCK")
    for bot in bots:
        with contextlib.suppress(OSError):
            bot.sock.send(b"UNREGISTER")
        bot.sock.close()
    return figures


def scenario(
    n: int,
    seconds: float,
    log_level: str | None,
    extra: list[str],
    root: Path = ROOT,
    mix: tuple[str, ...] = STRATEGIES,
) -> dict[str, object]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, log_level, f"sqlite:///{tmp}/bench.db", extra, root)
        try:
            figures = play(port, n, seconds, proc.pid, mix)
            # Rounds played but not yet in the database when the run ends: work the record
            # writer still owes (a writer that falls behind looks cheap in a short run).
            behind = figures.last_round - stored_rounds(Path(tmp) / "bench.db")
        finally:
            proc.terminate()
            proc.wait(10)
    lat = sorted(figures.latencies)

    def p(q):
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

    def per_round(cpu: float) -> float | None:
        return round(cpu * 1000 / figures.rounds, 3) if figures.rounds else None

    timeouts = {
        r: c
        for r, c in figures.reasons.items()
        if r in ("DID_NOT_TAKE_TURN", "DID_NOT_ANNOUNCE", "INVALID_TURN")
    }
    return {
        "bots": n,
        "seconds": seconds,
        "rounds": figures.rounds,
        "rounds_per_s": round(figures.rounds / seconds, 1),
        "reaction_p50_ms": round(p(0.50), 3),
        "reaction_p99_ms": round(p(0.99), 3),
        "reaction_mean_ms": round(statistics.fmean(lat) * 1000, 3) if lat else None,
        "samples": len(lat),
        "timeout_or_invalid_losses": sum(timeouts.values()),
        "server_cpu_ms_per_round": per_round(figures.server_cpu),
        "harness_cpu_ms_per_round": per_round(figures.harness_cpu),
        "writer_cpu_ms_per_round": per_round(figures.writer_cpu),
        "rounds_not_yet_stored_at_end": behind,
        "cpu_stolen_by_host_s": round(figures.steal, 2),
        "loss_reasons": figures.reasons,
        "server_log_level": log_level or "default (INFO)",
        "bot_strategies": list(mix),
        "server_args": extra,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--bots",
        type=int,
        nargs="*",
        default=[10, 50, 500],
        help="bot counts to run (default 10 50 500)",
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="measured seconds per run")
    parser.add_argument(
        "--server-log-level",
        default=None,
        help="server log level (default: herna serve's own default, INFO)",
    )
    parser.add_argument(
        "--strategy",
        choices=("mixed", *STRATEGIES),
        default="mixed",
        help="bot strategies: mixed (default: honest, liar and doubter in turn) or one of them",
    )
    parser.add_argument(
        "--server-args",
        default="",
        help="more options for `herna serve`, e.g. '--mia-answer-window 0.5' (one string)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per bot count (default 1)")
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="the Herna checkout to run (default this one)"
    )
    args = parser.parse_args()
    results = []
    summary = []
    for n in args.bots:
        rates = []
        for _ in range(args.repeat):
            mix = STRATEGIES if args.strategy == "mixed" else (args.strategy,)
            r = scenario(
                n, args.seconds, args.server_log_level, args.server_args.split(), args.root, mix
            )
            results.append(r)
            rates.append(float(r["rounds_per_s"]))  # type: ignore[arg-type]
            report(r)
        if args.repeat > 1:
            summary.append(
                {
                    "bots": n,
                    "runs": len(rates),
                    "rounds_per_s_median": round(statistics.median(rates), 1),
                    "rounds_per_s_min": min(rates),
                    "rounds_per_s_max": max(rates),
                }
            )
            print(
                f"{n:4d} bots, {len(rates)} runs: median {statistics.median(rates):.1f} "
                f"rounds/s (range {min(rates):.1f}-{max(rates):.1f})"
            )
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    print(
        json.dumps(
            {"benchmark": "mia_rounds", "root": str(args.root), "summary": summary, "runs": results}
        )
    )


def report(r: dict[str, object]) -> None:
    """One run's line."""
    print(
        f"{r['bots']:4d} bots: {r['rounds_per_s']:7.1f} rounds/s, reaction p50 "
        f"{r['reaction_p50_ms']:.3f} ms p99 {r['reaction_p99_ms']:.3f} ms, "
        f"timeout/invalid losses: {r['timeout_or_invalid_losses']} "
        f"({r['rounds']} rounds in {r['seconds']:g} s); CPU per round: server "
        f"{r['server_cpu_ms_per_round']} ms, record writer {r['writer_cpu_ms_per_round']} ms, "
        f"bots {r['harness_cpu_ms_per_round']} ms; CPU stolen by the host "
        f"{r['cpu_stolen_by_host_s']} s; rounds not yet stored at the end "
        f"{r['rounds_not_yet_stored_at_end']}"
    )


if __name__ == "__main__":
    main()
