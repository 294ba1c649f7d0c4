#!/usr/bin/env python3
"""What one Onitama move costs the server, without the network.

Drives the real :class:`~herna.servers.onitama.hub.OnitamaHub` (records to a SQLite file,
events on the bus) through in-memory peers: 2 x --games instant bots play game after game,
every MAKE_MOVE line goes to ``hub.receive`` exactly as the TCP transport would hand it over,
and only the CPU time inside ``hub.receive`` is counted (the wall clock inside it is printed
too: on a shared machine it also counts moments another process had the CPU). So the figure
is the server's own CPU per move (parsing, rules, match log, replies, spectator events,
records, pairing the next game), the part Herna's code decides; ``bench/onitama_games.py``
adds sockets and the event loop.

With no arguments: 200 games for about 5 s of server time. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import tempfile
import time
from typing import Any

from herna.cli.serve import tune_gc
from herna.core.rng import SeededRng
from herna.hall.hall import Hall
from herna.hall.records import RecordStore
from herna.protocols import onitama as proto
from herna.protocols.onitama import ClientGame
from herna.servers.onitama.hub import Client, OnitamaHub, OnitamaSettings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onitama_games import random_move_line


class MemoryPeer:
    """A connection held in memory: whatever the hub sends is kept for the bot to read."""

    kind = "bot"

    def __init__(self, name: str) -> None:
        self.name = name
        self.inbox: list[bytes] = []
        self.game = ClientGame(name)

    def send(self, data: bytes) -> None:
        self.inbox.append(data)

    def close(self) -> None:
        """Nothing to close: the bench drops the peer with its hub."""

    def describe(self) -> str:
        return self.name

    def read(self) -> None:
        for data in self.inbox:
            for line in data.splitlines():
                self.game.feed(proto.parse_server(line))
        self.inbox.clear()


async def run(
    games: int, seconds: float, spectators: int, database: str, tuned_gc: bool = True
) -> dict[str, Any]:
    store = RecordStore(database)
    hall = Hall(records=store)
    # The settings bench/onitama_games.py gives the server it measures.
    hub = OnitamaHub(
        hall.bus, hall.records, hall.clock, OnitamaSettings(seed=1, reconnect_window=1.0)
    )
    subs = [hall.bus.subscribe(limit=1 << 30) for _ in range(spectators)]
    peers: list[tuple[MemoryPeer, Client]] = []
    for i in range(2 * games):
        peer = MemoryPeer(f"b{i}")
        peers.append((peer, hub.connect(peer)))
    for peer, client in peers:
        hub.receive(client, proto.login_line(peer.name))
    if tuned_gc:
        tune_gc()  # as `herna serve` does once its servers are up
    rng = SeededRng(7)
    inside = 0.0
    inside_cpu = 0.0
    moves = 0
    calls = 0
    per_call: list[float] = []
    ending_cpu = 0.0
    endings = 0
    clock = time.perf_counter
    # CPU time of this thread: what the server's own getrusage figure counts (the wall
    # clock also counts the moments another process had the CPU on this shared machine).
    cpu = time.thread_time
    wall0 = clock()
    while inside_cpu < seconds:
        for peer, client in peers:
            peer.read()
            state = peer.game.state
            if state is None or not peer.game.my_turn():
                continue
            line = random_move_line(state, rng)
            finished = hub.stats.games_finished
            t0 = clock()
            c0 = cpu()
            hub.receive(client, line)
            dc = cpu() - c0
            inside += clock() - t0
            inside_cpu += dc
            calls += 1
            if hub.stats.games_finished != finished:
                # The game's last move: its end, its record and the players' next game.
                ending_cpu += dc
                endings += 1
            if calls % 16 == 0:
                per_call.append(dc)
        for sub in subs:
            sub.drain()
        moves = hub.stats.moves
        await asyncio.sleep(0)  # let the record store ship its batches
    wall = clock() - wall0
    stats = dict(hub.stats.__dict__)
    hub.shutdown()
    store.close()
    return {
        "moves": moves,
        "actions": calls,
        "games_finished": stats["games_finished"],
        "inside_seconds": inside,
        "inside_cpu_seconds": inside_cpu,
        "wall_seconds": wall,
        "per_call": per_call,
        "ending_cpu_seconds": ending_cpu,
        "endings": endings,
        "records_written": store.written,
        "events": hall.bus.published,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Server CPU per Onitama move without the network: the real hub, records "
        "and events, driven by in-memory instant bots."
    )
    parser.add_argument("--games", type=int, default=200, help="simultaneous games (200)")
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="server time to measure (default 5)"
    )
    parser.add_argument(
        "--spectators", type=int, default=0, help="bus subscriptions taking every event (0)"
    )
    parser.add_argument(
        "--default-gc",
        action="store_true",
        help="CPython's default garbage collector settings instead of herna serve's",
    )
    args = parser.parse_args(argv)
    gc.collect()
    with tempfile.TemporaryDirectory() as tmp:
        database = f"sqlite:///{tmp}/bench.db"
        out = asyncio.run(
            run(args.games, args.seconds, args.spectators, database, not args.default_gc)
        )
    us = out["inside_cpu_seconds"] / out["actions"] * 1e6
    wall_us = out["inside_seconds"] / out["actions"] * 1e6
    per_call = sorted(x * 1e6 for x in out["per_call"])
    p50 = per_call[len(per_call) // 2]
    p99 = per_call[min(len(per_call) - 1, int(0.99 * len(per_call)))]
    print(
        f"{args.games} games, {args.spectators} spectators: {out['actions']:,} actions "
        f"({out['moves']:,} moves, {out['games_finished']:,} games finished) in "
        f"{out['inside_cpu_seconds']:.2f} s of server CPU time"
    )
    print(
        f"server CPU per action: mean {us:.1f} µs, p50 {p50:.1f} µs, p99 {p99:.1f} µs "
        f"-> {1e6 / us:,.0f} actions/s on one core before sockets (wall clock inside the "
        f"hub: mean {wall_us:.1f} µs)"
    )
    between = (out["inside_cpu_seconds"] - out["ending_cpu_seconds"]) / max(
        1, out["actions"] - out["endings"]
    )
    ending = out["ending_cpu_seconds"] / max(1, out["endings"])
    share = out["ending_cpu_seconds"] / out["inside_cpu_seconds"]
    print(
        f"a move within a game: {between * 1e6:.1f} µs; a game's last move with its end, "
        f"record and the next game's start: {ending * 1e6:.0f} µs ({share:.0%} of the "
        "server's CPU)"
    )
    print(
        f"records written {out['records_written']}, events published {out['events']:,}; "
        f"load average {os.getloadavg()[0]:.2f} (shared machine)"
    )
    print(
        "anchor: none without sockets; bench/onitama_games.py measures the server with its "
        "sockets against a bare asyncio relay in the same run"
    )
    print(
        json.dumps(
            {
                "benchmark": "onitama_hub",
                "games": args.games,
                "spectators": args.spectators,
                "actions": out["actions"],
                "moves": out["moves"],
                "games_finished": out["games_finished"],
                "server_cpu_seconds": round(out["inside_cpu_seconds"], 3),
                "server_wall_seconds": round(out["inside_seconds"], 3),
                "us_per_action": round(us, 2),
                "wall_us_per_action": round(wall_us, 2),
                "us_p50": round(p50, 2),
                "us_p99": round(p99, 2),
                "us_within_game": round(between * 1e6, 2),
                "us_game_end_and_next_start": round(ending * 1e6, 1),
                "game_end_share": round(share, 3),
                "actions_per_second": round(1e6 / us),
                "records_written": out["records_written"],
                "gc": "default" if args.default_gc else "herna serve",
                "load_average": round(os.getloadavg()[0], 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
