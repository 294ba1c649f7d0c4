"""Benchmark: WebSocket spectators on a live Mia game.

Starts `herna serve --only mia,web` in this process (house bots playing as fast as they can,
a throwaway SQLite database) and measures the Mia server's rounds per second in alternating
phases without and with N WebSocket spectators watching the Mia table (B S B S ... B), so
that load from elsewhere on a shared machine hits both alike. The spectators run in a
separate process (their own CPU is not charged to the hall) and measure the delivery delay
of the events they receive: receive time minus the time the game server published the
event (coalescing in the web hall adds up to one frame interval to that). Every event a
spectator receives counts, including those a frame folds in without listing them (a frame
lists the newest ``frame_events``; the rest are counted at the frame's oldest publish time,
an upper bound).

Besides rounds/s it reports the event loop's CPU per round and the share of the loop's CPU
the web hall's live views took (folding, encoding, sending): on a busy machine rounds/s is
noisy, the CPU share much less so.

Prints a summary and, as the last line, one JSON object with the figures. The target is a
rounds/s drop of at most 10 % with 500 spectators.

``--web-process`` runs the web hall as its own ``herna serve --only web`` process on a
PostgreSQL database, fed by the game process over LISTEN/NOTIFY (docs/scaling.md), which is
how a hall with thousands of spectators is meant to run: then the drop is what the bridge
costs the game process plus what the two processes take from each other on a small machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Rounds/s of a live Mia game with and without WebSocket spectators, the "
        "web hall's share of the event loop's CPU, and the spectators' delivery delay "
        "(p50/p99). The defaults finish within a minute."
    )
    p.add_argument("--spectators", type=int, default=500, help="WebSocket spectators (500)")
    p.add_argument("--seconds", type=float, default=3.5, help="length of each phase (3.5)")
    p.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="phases with spectators, each between two without (3: B S B S B S B)",
    )
    p.add_argument(
        "--measure",
        type=int,
        default=100,
        help="spectators that parse every frame to measure delays (100; the rest only read)",
    )
    p.add_argument(
        "--interval", type=float, default=None, help="web hall --web-interval (default 0.1)"
    )
    p.add_argument(
        "--send-budget",
        type=float,
        default=None,
        help="web hall --web-send-budget: frames/s to all spectators together (the web "
        "hall's default: 500, or 10000 with --web-process)",
    )
    p.add_argument(
        "--web-process",
        action="store_true",
        help="run the web hall as its own `herna serve --only web` process, fed over "
        "PostgreSQL LISTEN/NOTIFY (docs/scaling.md); needs PostgreSQL: --database-url, or a "
        "throwaway server is started (Debian's postgresql)",
    )
    p.add_argument("--database-url", help="PostgreSQL URL for --web-process")
    p.add_argument(
        "--onitama",
        action="store_true",
        help="also run the Onitama server and time its moves with and without spectators "
        "(4 games of bots that think 50 ms, in a process of their own; bench/onitama_probe.py)",
    )
    p.add_argument("--worker", help=argparse.SUPPRESS)
    return p.parse_args(argv)


# -- the spectators' process --------------------------------------------------------------


def _quantile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 1)


class Watchers:
    """One phase of ``count`` spectators; the first ``measure`` of them time every event."""

    def __init__(self, url: str, count: int, measure: int) -> None:
        self.url, self.count, self.measure = url, count, measure
        self.delays: list[float] = []
        self.staleness: list[float] = []
        self.every: list[float] = []  # every event received, listed or skipped
        self.skipped = 0
        self.frames = self.failed = self.opened = 0
        self.all_open = asyncio.Event()

    def _counted(self) -> None:
        if self.opened + self.failed >= self.count:
            self.all_open.set()

    async def one(self, i: int) -> None:
        from websockets.asyncio.client import connect

        try:
            async with connect(self.url, max_size=None, compression=None, open_timeout=30) as ws:
                self.opened += 1
                self._counted()
                async for raw in ws:
                    self.frames += 1
                    if i >= self.measure:
                        continue
                    now = time.time()
                    frame = json.loads(raw)
                    if frame["type"] != "update":
                        continue
                    for table in frame["tables"]:
                        listed = [now - ev["ts"] for ev in table["events"]]
                        self.delays.extend(listed)
                        self.every.extend(listed)
                        skipped = int(table.get("skipped") or 0)
                        if skipped and table.get("since") is not None:
                            # Events folded into the frame but not listed: their publish
                            # times lie between "since" and the first listed event, so each
                            # is counted at the frame's oldest (an upper bound).
                            self.every.extend([now - table["since"]] * skipped)
                            self.skipped += skipped
                        if table.get("since") is not None:
                            self.staleness.append(now - table["since"])
        except asyncio.CancelledError:
            raise
        except Exception:
            self.failed += 1
            self._counted()

    def figures(self) -> dict[str, Any]:
        return {
            "connected": self.opened,
            "failed": self.failed,
            "frames": self.frames,
            "events_measured": len(self.delays),
            "delay_p50_ms": _quantile(self.delays, 0.5),
            "delay_p99_ms": _quantile(self.delays, 0.99),
            "delay_max_ms": _quantile(self.delays, 1.0),
            "staleness_p99_ms": _quantile(self.staleness, 0.99),
            "events_received": len(self.every),
            "events_skipped": self.skipped,
            "every_event_p50_ms": _quantile(self.every, 0.5),
            "every_event_p99_ms": _quantile(self.every, 0.99),
            "every_event_max_ms": _quantile(self.every, 1.0),
        }


async def spectators(url: str, count: int, measure: int) -> None:
    """Commands on stdin, one per line: CONNECT (open ``count`` spectators, answer
    ``READY n``, measure from then on), STOP (close them all, answer one JSON line of
    figures), EXIT."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        command = (await reader.readline()).decode().strip()
        if command != "CONNECT":
            return
        watchers = Watchers(url, count, measure)
        tasks = []
        for i in range(count):
            tasks.append(asyncio.create_task(watchers.one(i)))
            if i % 50 == 49:
                await asyncio.sleep(0.02)  # do not flood the listen backlog
        await asyncio.wait_for(watchers.all_open.wait(), 60)
        # Measure only once everybody watches (snapshots and connection set-up excluded).
        watchers.delays.clear()
        watchers.staleness.clear()
        watchers.every.clear()
        watchers.skipped = 0
        watchers.frames = 0
        print("READY", watchers.opened, flush=True)
        cpu, wall = time.process_time(), time.perf_counter()
        await reader.readline()  # STOP
        figures = watchers.figures()
        # What the spectators themselves took: on a small machine they share the cores with
        # the hall, and a spectator process short of CPU reads its frames late.
        figures["cores"] = (time.process_time() - cpu) / (time.perf_counter() - wall)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        print(json.dumps(figures), flush=True)


# -- the hall -----------------------------------------------------------------------------


@dataclass
class Phase:
    spectators: int
    rounds_per_s: float
    cpu_ms_per_round: float
    web_share_percent: float
    web_cores: float = 0.0
    onitama: list[float] | None = None
    """p50 ms, p99 ms and the number of the Onitama moves timed (``--onitama``)."""


class Probe:
    """bench/onitama_probe.py in a process of its own, asked for a window at a time."""

    def __init__(self, port: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("onitama_probe.py")), str(port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "READY":
            raise RuntimeError("the Onitama probe did not start")

    async def window(self) -> list[float]:
        def ask() -> list[float]:
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write("WINDOW\n")
            self.proc.stdin.flush()
            said: list[float] = json.loads(self.proc.stdout.readline())
            return said

        return await asyncio.to_thread(ask)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(15)


async def measure(
    mia: Any, web: Any, seconds: float, spectators: int, probe: Probe | None = None
) -> Phase:
    """Rounds per second over ``seconds``; the event loop's CPU milliseconds per round (the
    hall's own cost); the share of the loop's CPU the live views took; with ``probe``, the
    Onitama moves' latency meanwhile."""
    if probe is not None:
        await probe.window()  # (the moves before this phase are not its)
    start_rounds = mia.snapshot()["rounds_played"]
    start, cpu = time.perf_counter(), time.thread_time()
    web_cpu = web.snapshot()["cpu_seconds"]
    await asyncio.sleep(seconds)
    done = mia.snapshot()["rounds_played"] - start_rounds
    used = time.thread_time() - cpu
    web_used = web.snapshot()["cpu_seconds"] - web_cpu
    elapsed = time.perf_counter() - start
    phase = Phase(
        spectators,
        done / elapsed,
        used * 1000 / done if done else 0.0,
        web_used / used * 100 if used else 0.0,
        web_used / elapsed,
        await probe.window() if probe is not None else None,
    )
    print(
        f"  {spectators:4d} spectators: {phase.rounds_per_s:7.1f} rounds/s, "
        f"{phase.cpu_ms_per_round:.2f} ms loop CPU/round, live views "
        f"{phase.web_share_percent:4.1f} % of the loop's CPU",
        flush=True,
    )
    return phase


async def readline(proc: asyncio.subprocess.Process, timeout: float) -> str:
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), timeout)
    return line.decode().strip()


async def command(proc: asyncio.subprocess.Process, text: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(text.encode() + b"\n")
    await proc.stdin.drain()


class WebProcess:
    """The web hall as its own process (``--web-process``): what :func:`measure` reads of it."""

    def __init__(self, proc: subprocess.Popen[bytes], port: int, args: argparse.Namespace) -> None:
        from herna.web.live import LiveSettings

        self.proc, self.port = proc, port
        defaults = LiveSettings.live_tier()  # a web hall alone in its process
        self.settings = LiveSettings(
            interval=defaults.interval if args.interval is None else args.interval,
            send_budget=defaults.send_budget if args.send_budget is None else args.send_budget,
        )

    def endpoints(self) -> list[str]:
        return [f"http://127.0.0.1:{self.port}/"]

    def snapshot(self) -> dict[str, Any]:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return {"cpu_seconds": cpu, "dropped_clients": None}


def start_web_process(database_url: str, args: argparse.Namespace, tmp: str) -> WebProcess:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    cmd = [sys.executable, "-m", "herna.cli", "serve", "--only", "web", "--web-port", str(port),
           "--database-url", database_url, "--log-level", "WARNING",
           "--max-connections-per-address", "0",  # every spectator comes from 127.0.0.1
           "--web-max-spectators", str(max(2000, args.spectators + 100))]  # fmt: skip
    if args.interval is not None:
        cmd += ["--web-interval", str(args.interval)]
    if args.send_budget is not None:
        cmd += ["--web-send-budget", str(args.send_budget)]
    proc = subprocess.Popen(cmd, cwd=tmp, env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return WebProcess(proc, port, args)
        time.sleep(0.1)
    raise SystemExit("the web process did not start")


async def main(args: argparse.Namespace) -> dict[str, Any]:
    if not args.web_process:
        return await run_hall(args, None)
    if args.database_url:
        return await run_hall(args, args.database_url)
    from tests.postgres import postgres_server

    with postgres_server() as url:
        return await run_hall(args, url)


async def run_hall(args: argparse.Namespace, postgres: str | None) -> dict[str, Any]:
    from herna.cli.serve import start_hall, tune_gc

    tmp = tempfile.mkdtemp(prefix="herna-bench-web-")
    serve_args = argparse.Namespace(
        only=("mia" if postgres else "mia,web") + (",onitama" if args.onitama else ""),
        onitama_port=0,
        host=None,
        database_url=postgres or f"sqlite:///{tmp}/herna.db",
        no_house_bots=None,
        log_level=None,
        log_format=None,
        config=None,
        mia_port=0,
        mia_house_round_pause=0.0,  # the house bots play as fast as they can
        web_max_spectators=max(2000, args.spectators + 100),
        max_connections_per_address=0,  # every spectator comes from 127.0.0.1
        web_port=0,
        web_interval=args.interval,
        web_send_budget=args.send_budget,
    )
    hall = await start_hall(serve_args, {})
    tune_gc()  # as `herna serve` does once it has started: what users run
    proc = None
    probe: Probe | None = None
    web_process = start_web_process(postgres, args, tmp) if postgres else None
    try:
        if args.onitama:
            onitama = hall.service("onitama")
            assert onitama is not None
            # (off the loop: the hall on this loop must answer the probe's logins meanwhile)
            port = int(onitama.endpoints()[0].rsplit(":", 1)[1])
            probe = await asyncio.to_thread(Probe, port)
        mia = hall.service("mia")
        web: Any = web_process or hall.service("web")
        assert mia is not None and web is not None
        url = web.endpoints()[0].replace("http://", "ws://") + "ws/live?game=mia"
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--worker",
            url,
            "--spectators",
            str(args.spectators),
            "--measure",
            str(args.measure),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        await asyncio.sleep(1.5)  # warm up: bots registered, rounds flowing
        print(f"Mia + web hall running; web on {web.endpoints()[0]}", flush=True)
        without: list[Phase] = []
        with_: list[Phase] = []
        results: list[dict[str, Any]] = []
        for i in range(2 * args.repeat + 1):
            if i % 2 == 0:
                without.append(await measure(mia, web, args.seconds, 0, probe))
                continue
            await command(proc, "CONNECT")
            ready = await readline(proc, 90)
            connected = int(ready.split()[1]) if ready.startswith("READY") else 0
            with_.append(await measure(mia, web, args.seconds, connected, probe))
            await command(proc, "STOP")
            results.append(json.loads(await readline(proc, 60)))
            await asyncio.sleep(0.5)  # let the closed connections go
        hub = web.snapshot()
        base = statistics.median(p.rounds_per_s for p in without)
        during = statistics.median(p.rounds_per_s for p in with_)
        drop = (base - during) / base * 100 if base else 0.0
        cpu_base = statistics.median(p.cpu_ms_per_round for p in without)
        cpu_during = statistics.median(p.cpu_ms_per_round for p in with_)
        share_base = statistics.median(p.web_share_percent for p in without)
        share_during = statistics.median(p.web_share_percent for p in with_)

        def worst(key: str) -> float | None:
            values = [r[key] for r in results if r.get(key) is not None]
            return max(values) if values else None

        spectators = min(r["connected"] for r in results)
        settings = web.settings if web_process else web.hub.settings
        return {
            "bench": "web_spectators",
            "spectators": spectators,
            "phase_seconds": args.seconds,
            "repeat": args.repeat,
            "send_budget": settings.send_budget,
            "interval_s": settings.interval_for(spectators),
            "rounds_per_s_without": [round(p.rounds_per_s, 1) for p in without],
            "rounds_per_s_with": [round(p.rounds_per_s, 1) for p in with_],
            "rounds_per_s_median_without": round(base, 1),
            "rounds_per_s_median_with": round(during, 1),
            "drop_percent": round(drop, 1),
            "target_drop_percent": 10.0,
            "ok": drop <= 10.0,
            "loop_cpu_ms_per_round_without": round(cpu_base, 3),
            "loop_cpu_ms_per_round_with": round(cpu_during, 3),
            "web_cpu_share_without_percent": round(share_base, 2),
            "web_cpu_share_with_percent": round(share_during, 2),
            "dropped_clients": hub["dropped_clients"],
            "web_process": bool(web_process),
            "web_cores_with": round(statistics.median(p.web_cores for p in with_), 2),
            "spectator_process_cores": round(statistics.median(r["cores"] for r in results), 2),
            "failed_connections": sum(r["failed"] for r in results),
            "frames_received": sum(r["frames"] for r in results),
            "events_measured": sum(r["events_measured"] for r in results),
            "delay_p50_ms": worst("delay_p50_ms"),
            "delay_p99_ms": worst("delay_p99_ms"),
            "delay_max_ms": worst("delay_max_ms"),
            "staleness_p99_ms": worst("staleness_p99_ms"),
            "events_received": sum(r["events_received"] for r in results),
            "events_skipped": sum(r["events_skipped"] for r in results),
            "every_event_p50_ms": worst("every_event_p50_ms"),
            "every_event_p99_ms": worst("every_event_p99_ms"),
            "every_event_max_ms": worst("every_event_max_ms"),
            "onitama_without": [p.onitama for p in without if p.onitama is not None],
            "onitama_with": [p.onitama for p in with_ if p.onitama is not None],
            "cpus": os.cpu_count(),
            "load_avg_1m": round(os.getloadavg()[0], 2),
        }
    finally:
        if probe is not None:
            probe.close()
        if proc is not None and proc.returncode is None:
            await command(proc, "EXIT")
            await proc.wait()
        if web_process is not None:
            web_process.proc.terminate()
            web_process.proc.wait(30)
        await hall.stop()
        hall.records.close()


def run() -> int:
    args = parse_args()
    if args.worker:
        asyncio.run(spectators(args.worker, args.spectators, args.measure))
        return 0
    f = asyncio.run(main(args))
    print(
        f"Delivery delay to {f['spectators']} spectators: p50 {f['delay_p50_ms']} ms, "
        f"p99 {f['delay_p99_ms']} ms of {f['events_measured']} listed events on "
        f"{min(args.measure, f['spectators'])} of them; p99 {f['staleness_p99_ms']} ms for the "
        f"oldest event coalesced into a frame (one frame every {f['interval_s']:.2f} s each: "
        f"{f['send_budget']:.0f} frames/s for all)."
    )
    print(
        f"Staleness of every event received ({f['events_received']} events, "
        f"{f['events_skipped']} of them folded into frames without being listed and counted "
        f"at their frame's oldest event): p50 {f['every_event_p50_ms']} ms, "
        f"p99 {f['every_event_p99_ms']} ms, max {f['every_event_max_ms']} ms."
    )
    if f["web_process"]:
        cost = (
            f"The web hall ran as its own process, fed over PostgreSQL LISTEN/NOTIFY, and "
            f"used {f['web_cores_with']} cores with spectators."
        )
    else:
        cost = (
            f"The live views took {f['web_cpu_share_with_percent']} % of the event loop's CPU "
            f"with spectators, {f['web_cpu_share_without_percent']} % without."
        )
    cost += (
        f" The spectators' own process used {f['spectator_process_cores']} cores (on this "
        "machine, beside the hall)."
    )
    print(
        f"Rounds/s (median) {f['rounds_per_s_median_without']} without, "
        f"{f['rounds_per_s_median_with']} with spectators: drop {f['drop_percent']} % "
        f"(target ≤ 10 %: {'OK' if f['ok'] else 'OVER'}). {cost} Load average "
        f"{f['load_avg_1m']} on {f['cpus']} CPUs: the machine is shared, figures vary "
        "between runs."
    )
    if f["onitama_with"]:
        # p50/p99 of each phase: the median phase's, and the worst p99 of all
        def said(phases: list[list[float]]) -> str:
            p50 = statistics.median(p[0] for p in phases)
            return f"p50 {p50:.1f} ms, p99 up to {max(p[1] for p in phases):.1f} ms"

        print(
            f"Onitama moves (4 games of bots thinking 50 ms): without spectators "
            f"{said(f['onitama_without'])}; with {f['spectators']} spectators "
            f"{said(f['onitama_with'])}."
        )
    print(json.dumps(f))
    return 0


if __name__ == "__main__":
    sys.exit(run())
