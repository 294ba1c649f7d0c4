#!/usr/bin/env python3
"""Many simultaneous Onitama games over TCP loopback: moves per second and the latency from
MAKE_MOVE to MOVE_WAS_MADE.

The server (the real one, with records going to a SQLite file and spectator events on the
bus) runs in a child process; the main process runs 2 x --games "instant" bots that answer
their turn at once with a random legal move (after --think-ms, default 0). All bots log in,
get paired, and play game after game for --seconds; every MAKE_MOVE the bots send is timed
until its MOVE_WAS_MADE comes back.

With no arguments: 200 games (400 connections) for 8 s. The target is --games 1000 (2,000
connections) with p99 < 50 ms. Other people share this machine: the load average is
printed with the figures. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import resource
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from typing import Any

from herna.core.rng import SeededRng
from herna.games.onitama.board import SQUARE_NAMES
from herna.games.onitama.cards import CARD_NAMES, TARGETS
from herna.games.onitama.state import OnitamaState
from herna.protocols import onitama as proto
from herna.protocols.onitama import ClientGame


# -- the server process -------------------------------------------------------------------------
def server_main(conn: Connection, database: str | None) -> None:
    import logging

    from herna.hall.hall import Hall
    from herna.hall.records import RecordStore
    from herna.servers.onitama import OnitamaSettings, serve

    logging.basicConfig(level=logging.WARNING)

    async def main() -> None:
        store = RecordStore(database or "sqlite:///:memory:")
        hall = Hall(records=store)
        settings = OnitamaSettings(seed=1, reconnect_window=1.0)
        service = await serve(hall, "127.0.0.1", 0, settings)
        conn.send(service.port)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, conn.recv)  # "stop"
        stats = dict(service.hub.stats.__dict__)
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        published = hall.bus.published
        await service.stop()
        store.close()
        conn.send(
            {
                "stats": stats,
                "records_written": store.written,
                "cpu_seconds": cpu.ru_utime + cpu.ru_stime,
                "events_published": published,
            }
        )

    asyncio.run(main())


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
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

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
            elif isinstance(msg, proto.Error | proto.LoginFailed | proto.Garbage):
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
) -> tuple[Measure, float, list[Bot]]:
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
    measure.recording = True
    start = time.perf_counter()
    await asyncio.sleep(seconds)
    measure.recording = False
    elapsed = time.perf_counter() - start
    measure.stopping = True
    await asyncio.sleep(0.2)
    return measure, elapsed, bots


# -- the baseline: a bare asyncio relay ---------------------------------------------------------
def relay_main(conn: Connection) -> None:
    """No game at all: every line is answered with one line to its sender and one to the
    sender's partner, which is the least any server of this protocol does per move."""

    async def main() -> None:
        peers: list[Relay] = []
        reply = b"MOVE_WAS_MADE|Tiger|c1|c3\n"

        class Relay(asyncio.BufferedProtocol):
            def __init__(self) -> None:
                self.view = memoryview(bytearray(16384))
                self.index = len(peers)
                self.transport: asyncio.Transport | None = None
                peers.append(self)

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                assert isinstance(transport, asyncio.Transport)
                self.transport = transport

            def get_buffer(self, sizehint: int) -> memoryview:
                return self.view

            def buffer_updated(self, nbytes: int) -> None:
                bytes(self.view[:nbytes])
                partner = peers[self.index ^ 1]
                assert self.transport is not None and partner.transport is not None
                self.transport.write(reply)
                partner.transport.write(reply)

        server = await asyncio.get_running_loop().create_server(Relay, "127.0.0.1", 0, backlog=4096)
        conn.send(server.sockets[0].getsockname()[1])
        await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        server.close()
        conn.send(None)

    asyncio.run(main())


async def relay_clients(port: int, pairs: int, seconds: float) -> tuple[int, list[float]]:
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    recording = [False]

    class Player(asyncio.Protocol):
        def __init__(self) -> None:
            self.sent: float | None = None
            self.mover = False
            self.transport: asyncio.Transport | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            assert isinstance(transport, asyncio.Transport)
            self.transport = transport

        def data_received(self, data: bytes) -> None:
            for _ in range(data.count(b"\n")):
                if self.sent is not None:
                    if recording[0]:
                        latencies.append(time.perf_counter() - self.sent)
                    self.sent = None
                    if self.mover:
                        self.go()

        def go(self) -> None:
            assert self.transport is not None
            self.sent = time.perf_counter()
            self.transport.write(b"MAKE_MOVE|Tiger|c1|c3\n")

    players: list[Player] = []
    for _ in range(2 * pairs):
        _, player = await loop.create_connection(Player, "127.0.0.1", port)
        players.append(player)
    for player in players[::2]:
        player.mover = True
        player.go()
    await asyncio.sleep(1.0)
    recording[0] = True
    await asyncio.sleep(seconds)
    recording[0] = False
    for player in players:
        if player.transport is not None:
            player.transport.close()
    return len(latencies), latencies


def baseline(pairs: int, seconds: float) -> dict[str, float]:
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    server = ctx.Process(target=relay_main, args=(child,))
    server.start()
    port = parent.recv()
    count, lat = asyncio.run(relay_clients(port, pairs, seconds))
    parent.send("stop")
    parent.recv()
    server.join(10)
    ms = [x * 1000 for x in lat]
    out = {
        "moves_per_second": round(count / seconds),
        "p50": round(percentile(ms, 0.5), 2),
        "p99": round(percentile(ms, 0.99), 2),
    }
    print(
        f"baseline (bare asyncio relay, no game): {out['moves_per_second']:,} moves/s, "
        f"p50 {out['p50']:.1f} ms, p99 {out['p99']:.1f} ms"
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Simultaneous Onitama games of instant bots over TCP loopback: moves/s "
        "and MAKE_MOVE -> MOVE_WAS_MADE latency percentiles."
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
        "--seconds", type=float, default=8.0, help="measuring time after the warm-up (default 8)"
    )
    parser.add_argument(
        "--warmup", type=float, default=2.0, help="seconds of play before measuring (default 2)"
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="bots wait this long before each move (default 0: instant)",
    )
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="first measure a bare asyncio relay (no game logic) with the same number of "
        "connections: the floor this machine allows right now",
    )
    parser.add_argument(
        "--no-records",
        action="store_true",
        help="keep records in an in-memory database instead of a SQLite file",
    )
    args = parser.parse_args(argv)
    games = 1000 if args.full else args.games
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * games + 100
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    base = baseline(games, args.seconds) if args.baseline else None
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        database = None if args.no_records else f"sqlite:///{tmp}/bench.db"
        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        server = ctx.Process(target=server_main, args=(child, database))
        server.start()
        port = parent.recv()
        print(
            f"Onitama server on port {port}; {games} games, {2 * games} connections, "
            f"{args.seconds:g} s measured after {args.warmup:g} s warm-up, think "
            f"{args.think_ms:g} ms"
        )
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        measure, elapsed, _bots = asyncio.run(
            run_bots(port, games, args.seconds, args.warmup, args.think_ms / 1000)
        )
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        load_after = os.getloadavg()[0]
        parent.send("stop")
        server_report: dict[str, Any] = parent.recv() if parent.poll(60) else {}
        server.join(30)
        if server.is_alive():
            server.terminate()
    lat = [x * 1000 for x in measure.latencies]
    moves_per_s = measure.moves / elapsed if elapsed else 0.0
    p50, p90, p99 = (percentile(lat, q) for q in (0.50, 0.90, 0.99))
    worst = max(lat) if lat else float("nan")
    mean = statistics.fmean(lat) if lat else float("nan")
    client_cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    ok = bool(lat) and p99 < 50.0
    print(
        f"moves: {measure.moves} in {elapsed:.1f} s = {moves_per_s:,.0f} moves/s; "
        f"games finished: {measure.games // 2}"
    )
    print(
        f"latency MAKE_MOVE -> MOVE_WAS_MADE: mean {mean:.1f} ms, p50 {p50:.1f} ms, "
        f"p90 {p90:.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms "
        f"({'meets' if ok else 'misses'} the p99 < 50 ms target)"
    )
    print(
        f"invalid moves {measure.invalid}, errors {measure.errors}; server: "
        f"{server_report.get('records_written', '?')} records written, "
        f"{server_report.get('cpu_seconds', 0):.1f} s CPU; bots {client_cpu:.1f} s CPU"
    )
    print(
        f"load average {load_before:.2f} before, {load_after:.2f} after, on "
        f"{os.cpu_count()} CPUs (the machine is shared; figures may be low)"
    )
    print(
        json.dumps(
            {
                "benchmark": "onitama_games",
                "games": games,
                "connections": 2 * games,
                "seconds": round(elapsed, 2),
                "think_ms": args.think_ms,
                "moves": measure.moves,
                "moves_per_second": round(moves_per_s),
                "games_finished": measure.games // 2,
                "latency_ms": {
                    "mean": round(mean, 2),
                    "p50": round(p50, 2),
                    "p90": round(p90, 2),
                    "p99": round(p99, 2),
                    "max": round(worst, 2),
                },
                "p99_under_50ms": ok,
                "invalid_moves": measure.invalid,
                "errors": measure.errors,
                "records_written": server_report.get("records_written"),
                "server_cpu_seconds": round(server_report.get("cpu_seconds", 0.0), 2),
                "bots_cpu_seconds": round(client_cpu, 2),
                "baseline_relay": base,
                "load_average": [round(load_before, 2), round(load_after, 2)],
                "cpus": os.cpu_count(),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
