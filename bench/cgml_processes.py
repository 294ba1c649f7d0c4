#!/usr/bin/env python3
"""CGML throughput with one and with several super game server processes (issue 16).

What users run: ``herna serve --only marias`` (login server, a super game server, a bot
server) and, for the multi-process phases, more ``herna serve --only marias --cgml-login
HOST:PORT`` processes, each a super game server that registers at the login server over the
seed's server port. All share one database (a throwaway SQLite file by default, or
``--database-url postgresql://...``). Tables of three instant bench bots (the light bots of
``bench/cgml_tables.py``, no think time) play in worker processes; finished deals are counted
by the bots (each ``<result>`` once per table) within the measured window.

Phases alternate (1 process, N processes, 1, N, ...) so that the machine's other load hits
both alike; the summary gives the median games/s of each and the ratio. On a machine with
C cores the bots need CPU too, so the ratio is bounded by what the servers can get.

    .venv/bin/python bench/cgml_processes.py                      # 1 vs 2, 2 rounds, ~2 min
    .venv/bin/python bench/cgml_processes.py --processes 3 --rounds 3 --tables 60

The last line is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cgml_tables import worker  # noqa: E402

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def serve(workdir: Path, db: str, log: Path, *options: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "herna.cli",
                "serve",
                "--only",
                "marias",
                "--no-house-bots",
                "--max-connections-per-address",  # every bench client comes from 127.0.0.1
                "0",
                "--database-url",
                db,
                "--cgml-bot-delay",
                "0",
                *options,
            ],
            cwd=workdir,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_for(log: Path, text: str, count: int = 1, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists() and log.read_text(errors="replace").count(text) >= count:
            return
        time.sleep(0.1)
    raise SystemExit(f"{text!r} did not appear in {log}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def phase(args: argparse.Namespace, processes: int, workdir: Path, db: str) -> dict[str, Any]:
    """One measured phase: a fresh login server process and ``processes`` super game
    servers in all; returns games/s and the servers' CPU."""
    login_port, server_port = free_port(), free_port()
    log = workdir / f"phase-{processes}-{time.time_ns()}.log"
    procs = [
        serve(
            workdir,
            db,
            log,
            "--cgml-login-port",
            str(login_port),
            "--cgml-login-server-port",
            str(server_port),
            "--cgml-game-port",
            str(free_port()),
        )
    ]
    for _ in range(processes - 1):
        procs.append(
            serve(
                workdir,
                db,
                log,
                "--cgml-login",
                f"{HOST}:{server_port}",
                "--cgml-game-port",
                str(free_port()),
            )
        )
    try:
        wait_for(log, "registered at the login server", processes)
        time.sleep(0.5)
        players = args.tables * 3
        now = time.time()
        window = (now + args.warmup, now + args.warmup + args.seconds)
        ctx = mp.get_context("spawn")
        out = ctx.Queue()
        shares = [
            players // args.workers + (w < players % args.workers) for w in range(args.workers)
        ]
        workers = [
            ctx.Process(target=worker, args=(w, login_port, n, 0.0, 1.0, window, out), daemon=True)
            for w, n in enumerate(shares)
            if n
        ]  # fmt: skip
        for w in workers:
            w.start()
        cpu0 = {p.pid: cpu_seconds(p.pid) for p in procs}
        time.sleep(max(0.0, window[0] - time.time()))
        cpu1 = {p.pid: cpu_seconds(p.pid) for p in procs}
        time.sleep(max(0.0, window[1] - time.time()))
        cpu2 = {p.pid: cpu_seconds(p.pid) for p in procs}
        del cpu0
    finally:
        for p in procs:
            stop(p)
    results = [out.get(True, 60) for _ in workers]
    for w in workers:
        w.join(10)
    deals = sum(r.get("results", 0) for r in results) / 3  # every member of a table sees it
    return {
        "processes": processes,
        "games_per_s": round(deals / args.seconds, 1),
        "server_cpu_cores": round(sum(cpu2[p] - cpu1[p] for p in cpu2) / args.seconds, 2),
        "aborts": sum(r["aborts"] for r in results),
        "errors": sum(r["errors"] for r in results),
    }


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children that are still running."""
    total = 0.0
    for p in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except FileNotFoundError:
        return []
    return [int(c) for c in text.split()]


def main() -> int:
    parser = argparse.ArgumentParser(
        description="CGML games/s with one super game server process and with several "
        "(herna serve --cgml-login), instant bots, phases interleaved; prints the ratio."
    )
    parser.add_argument("--processes", type=int, default=2, help="super game servers (2)")
    parser.add_argument("--tables", type=int, default=40, help="tables of three (40)")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds (10)")
    parser.add_argument("--warmup", type=float, default=4.0, help="seconds before measuring (4)")
    parser.add_argument("--rounds", type=int, default=2, help="pairs of phases (2)")
    parser.add_argument("--workers", type=int, default=2, help="bot processes (2)")
    parser.add_argument("--database-url", help="shared database (default: a temp SQLite file)")
    args = parser.parse_args()
    if args.processes < 2:
        parser.error("--processes must be at least 2")
    workdir = Path(tempfile.mkdtemp(prefix="herna-cgml-proc-"))
    db = args.database_url or f"sqlite:///{workdir / 'herna.db'}"
    runs: list[dict[str, Any]] = []
    for _ in range(args.rounds):
        for n in (1, args.processes):
            r = phase(args, n, workdir, db)
            runs.append(r)
            print(
                f"  {n} super game server process(es): {r['games_per_s']} games/s, servers use "
                f"{r['server_cpu_cores']} cores, aborts {r['aborts']}, errors {r['errors']}"
            )
    one = statistics.median(r["games_per_s"] for r in runs if r["processes"] == 1)
    many = statistics.median(r["games_per_s"] for r in runs if r["processes"] == args.processes)
    ratio = round(many / one, 2) if one else None
    load = os.getloadavg()[0]
    print(
        f"CGML tables ({args.tables}, instant bots): median {one} games/s with 1 process, "
        f"{many} with {args.processes}: {ratio}x; load average {load:.2f} on "
        f"{os.cpu_count()} CPUs"
    )
    print(
        json.dumps(
            {
                "benchmark": "cgml_processes",
                "tables": args.tables,
                "processes": args.processes,
                "median_games_per_s_one": one,
                "median_games_per_s_many": many,
                "ratio": ratio,
                "runs": runs,
                "load_average": round(load, 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
