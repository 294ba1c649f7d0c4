#!/usr/bin/env python3
"""The anchor of bench/onitama_games.py: a bare asyncio line relay and its clients, no game.

The relay, in its own process, answers every line with one line to its sender and one to the
sender's partner: the least any server of the Onitama line protocol does per move (the same
reads and writes, no game). One side of each pair of clients sends a move line as soon as the
reply to its previous one is back (an instant bot). The relay reports its CPU per move within
the measuring window; the clients report moves/s and latency percentiles.

This script imports nothing from Herna, so the anchor is the same whatever Herna's code is
(bench/onitama_games.py runs it as a separate program). The last line is one JSON object.

    .venv/bin/python bench/relay_anchor.py --pairs 200 --seconds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import resource
import sys
import time
from multiprocessing.connection import Connection
from typing import Any, cast


def use_loop(loop: str) -> None:
    """Run every later ``asyncio.run`` of this process on ``loop`` (``asyncio`` or
    ``uvloop``)."""
    if loop == "uvloop":
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    else:
        asyncio.set_event_loop_policy(None)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the anchor: a bare asyncio relay -----------------------------------------------------------
def relay_main(conn: Connection, loop: str = "asyncio") -> None:
    """The anchor: no game at all. Every line is answered with one line to its sender and one
    to the sender's partner, the least any server of this protocol does per move. Like the
    server it runs in its own process and reports its CPU and the lines it relayed within the
    measuring window (commands ``"measure"`` and ``"stop"`` on ``conn``)."""

    async def main() -> None:
        peers: list[Relay] = []
        reply = b"MOVE_WAS_MADE|Tiger|c1|c3\n"
        relayed = [0]

        class Relay(asyncio.BufferedProtocol):
            def __init__(self) -> None:
                self.view = memoryview(bytearray(16384))
                self.index = len(peers)
                self.transport: asyncio.Transport | None = None
                peers.append(self)

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                self.transport = cast(asyncio.Transport, transport)

            def get_buffer(self, sizehint: int) -> memoryview:
                return self.view

            def buffer_updated(self, nbytes: int) -> None:
                data = bytes(self.view[:nbytes])
                relayed[0] += data.count(b"\n")
                transport = self.transport
                if transport is None or transport.is_closing():
                    return
                transport.write(reply)
                # The partner may be gone already (the clients close one by one at the end).
                index = self.index ^ 1
                partner = peers[index].transport if index < len(peers) else None
                if partner is not None and not partner.is_closing():
                    partner.write(reply)

            def connection_lost(self, exc: Exception | None) -> None:
                self.transport = None

        loop = asyncio.get_running_loop()
        server = await loop.create_server(Relay, "127.0.0.1", 0, backlog=4096)
        conn.send(server.sockets[0].getsockname()[1])
        await loop.run_in_executor(None, conn.recv)  # "measure"
        moves0 = relayed[0]
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        await loop.run_in_executor(None, conn.recv)  # "stop"
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        moves = relayed[0] - moves0
        server.close()
        conn.send(
            {
                "moves": moves,
                "cpu_seconds": (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime),
            }
        )

    use_loop(loop)
    asyncio.run(main())


async def relay_clients(
    port: int, pairs: int, seconds: float, warmup: float, relay: Connection
) -> tuple[int, list[float], float]:
    """The relay's clients: one side of each pair sends a move line as soon as the reply to
    the previous one is back (an instant bot). Returns the moves, their latencies and the
    length of the measuring window."""
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    recording = [False]
    moves = [0]

    class Player(asyncio.Protocol):
        def __init__(self) -> None:
            self.sent: float | None = None
            self.mover = False
            self.transport: asyncio.Transport | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self.transport = cast(asyncio.Transport, transport)

        def data_received(self, data: bytes) -> None:
            for _ in range(data.count(b"\n")):
                if self.sent is not None:
                    if recording[0]:
                        latencies.append(time.perf_counter() - self.sent)
                        moves[0] += 1
                    self.sent = None
                    if self.mover:
                        self.go()

        def go(self) -> None:
            if self.transport is None or self.transport.is_closing():
                return
            self.sent = time.perf_counter()
            self.transport.write(b"MAKE_MOVE|Tiger|c1|c3\n")

    players: list[Player] = []
    for _ in range(2 * pairs):
        _, player = await loop.create_connection(Player, "127.0.0.1", port)
        players.append(player)
    for player in players[::2]:
        player.mover = True
        player.go()
    await asyncio.sleep(warmup)
    relay.send("measure")
    recording[0] = True
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    recording[0] = False
    elapsed = time.perf_counter() - start
    relay.send("stop")
    for player in players:
        player.mover = False
    for player in players:
        if player.transport is not None:
            player.transport.close()
    await asyncio.sleep(0.1)
    return moves[0], latencies, elapsed


def anchor_run(pairs: int, seconds: float, warmup: float, loop: str) -> dict[str, Any]:
    """One measuring window of the bare relay with ``2 * pairs`` connections."""
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    load_before = os.getloadavg()[0]
    server = ctx.Process(target=relay_main, args=(child, loop))
    server.start()
    port = parent.recv()
    use_loop(loop)
    count, lat, elapsed = asyncio.run(relay_clients(port, pairs, seconds, warmup, parent))
    report: dict[str, Any] = parent.recv() if parent.poll(60) else {}
    server.join(10)
    if server.is_alive():
        server.terminate()
    ms = [x * 1000 for x in lat]
    cpu = report.get("cpu_seconds", 0.0)
    relayed = report.get("moves", 0)
    return {
        "moves": count,
        "seconds": round(elapsed, 2),
        "moves_per_second": round(count / elapsed) if elapsed else 0,
        "latency_ms": {"p50": round(percentile(ms, 0.5), 2), "p99": round(percentile(ms, 0.99), 2)},
        "server_cpu_seconds": round(cpu, 2),
        "server_cpu_us_per_move": round(cpu / relayed * 1e6, 2) if relayed else None,
        "moves_per_core_second": round(relayed / cpu) if cpu else None,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200, help="client pairs (default 200)")
    parser.add_argument("--seconds", type=float, default=5.0, help="measuring window (5)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before it (2)")
    parser.add_argument("--loop", choices=("asyncio", "uvloop"), default="asyncio")
    args = parser.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 4 * args.pairs + 100
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    run = anchor_run(args.pairs, args.seconds, args.warmup, args.loop)
    print(json.dumps(run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
