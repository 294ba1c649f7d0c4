"""Many CGML tables at once: a login server and a super game server in this process, tables
of three bots over loopback in worker processes.

Every bot logs in at the login server as an active player, joins its group at the super game
server and plays game after game. Bots "think" ``--think`` seconds per answer (default 0.5 s,
uniform in 0.5-1.5 times that), like a quick player; with no think time every table asks at
once and the figure measures a saturated server instead of a hall. Figures:

* finished games per second (server side, in the measuring window after a warm-up);
* reaction latency: from a bot sending an answer (bid, discard, game, flek, card) to the
  server's next message arriving at that bot (the info broadcast). Measured by the clients,
  so it includes their own scheduling delay: an upper bound of the server's reaction time;
* the server's own handling time per answer (parse to the last write queued), p99;
* timeout aborts and errors (both must be 0).

The servers run with the garbage-collector tuning of ``herna serve`` (``tune_gc``), as users
run them. The bench bots bid nothing (the forhont plays a plain game), lay two low cards, keep every
flek and play a random legal card (legality from the rules engine's ``legal_play_mask``): a
cheap load generator, so the clients do not eat the CPU the server is measured with.

    .venv/bin/python bench/cgml_tables.py                  # 300 tables, about 50 s
    .venv/bin/python bench/cgml_tables.py --tables 50 --duration 10 --think 0.1

The machine is shared with other people's work; figures vary with its load (the load average
is printed). The last line of output is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from herna.cli.serve import tune_gc
from herna.clients.cgml import CgmlClient, CgmlClientError, login
from herna.core.clock import MonotonicClock
from herna.games.marias.cards import ACE, SUIT_MASK, TEN, mask_of
from herna.games.marias.state import legal_play_mask
from herna.hall.events import EventBus
from herna.hall.records import RecordStore
from herna.protocols.cgml import messages as m
from herna.protocols.cgml.lobby import LobbySettings
from herna.protocols.cgml.player import Decision, PlayerTracker, to_cgml_card
from herna.servers.cgml.gameserver import SuperGameServer
from herna.servers.cgml.login import LoginServer
from herna.servers.cgml.seats import GroupSettings

HOST = "127.0.0.1"


# -- the bench bot ------------------------------------------------------------------------------


def own_state(t: PlayerTracker) -> tuple[int, tuple[int, ...], int, int]:
    """(hand mask, current trick, trumps, order) from what the tracker saw, no shadow deal."""
    hand = set(t.dealt) | set(t.talon)
    if t.discard:
        hand -= set(t.discard)
    plays: list[int] = []
    trumps, order = -1, 0
    for p in t.public:
        action = p.action
        if action is None:
            continue
        name = type(action).__name__
        if name == "GameType":
            trumps = -1 if action.trumps is None else action.trumps  # type: ignore[union-attr]
            order = 0 if action.contract.has_trumps else 1  # type: ignore[union-attr]
        elif name == "Play":
            card = action.card  # type: ignore[union-attr]
            plays.append(card)
            if p.seat == t.seat:
                hand.discard(card)
    trick = tuple(plays[len(plays) - len(plays) % 3 :])
    return mask_of(hand), trick, trumps, order


def light_answer(t: PlayerTracker, d: Decision, rng: random.Random) -> m.Message:
    if d.kind == "licite":
        return m.LiciteAnswer("NO" if d.asked else "PASS")
    hand, trick, trumps, order = own_state(t)
    cards = [c for c in range(32) if hand >> c & 1]
    if d.kind == "discard":
        low = sorted((c for c in cards if c & 7 not in (TEN, ACE)), key=lambda c: c & 7)
        return m.PlayCardCards((to_cgml_card(low[0]), to_cgml_card(low[1])), "hand", "talon")
    if d.kind == "gametype":
        counts = [(bin(hand & SUIT_MASK[s]).count("1"), s) for s in (1, 2, 3)]
        suit = max(counts)[1]
        return m.GameTypeAnswer(d.asked or "G", m.Trumf("RBGA"[suit]))
    if d.kind == "flek":
        return m.FlekAnswer(m.parse_flek(d.asked or "1"))
    legal = legal_play_mask(hand, trick, trumps, order)
    options = [c for c in cards if legal >> c & 1]
    return m.PlayCardCards((to_cgml_card(rng.choice(options)),))


async def bench_player(
    wid: int,
    i: int,
    players: int,
    port: int,
    think: float,
    stagger: float,
    window: tuple[float, float],
    stats: dict[str, Any],
) -> None:
    rng = random.Random(wid * 100_003 + i)
    me = m.PlayerRef(f"w{wid}p{i}", f"bench-{wid}-{i}", "bot")
    start, end = window
    # Tables start spread over the stagger time (by threes), so their games do not all end
    # in the same second as they would if every table started at once.
    await asyncio.sleep(stagger * (i // 3 * 3) / max(1, players))
    while time.time() < end:
        try:
            complete = await login(HOST, port, me)
            host, gport = complete.url.rsplit(":", 1)
            client = await CgmlClient.connect(host, int(gport))
        except (CgmlClientError, OSError):
            return
        tracker = PlayerTracker(complete.playerid or me.id or "")
        async with client:
            await client.send(m.NewGroupAnswer(True, complete.group, complete.game, me))
            sent_at: float | None = None
            while True:
                try:
                    message = await client.recv()
                except (CgmlClientError, OSError):
                    break
                now = time.time()
                if message is None:
                    break
                if sent_at is not None:
                    if start <= sent_at <= end:
                        stats["samples"].append(now - sent_at)
                    sent_at = None
                decision = tracker.feed(message)
                if isinstance(message, m.Result):
                    if start <= now <= end:
                        stats["results"] = stats.get("results", 0) + 1
                elif isinstance(message, m.Abort):
                    stats["aborts"] += 1
                elif isinstance(message, m.Error):
                    stats["errors"] += 1
                if decision is None:
                    continue
                if decision.kind == "newgame":
                    answer: m.Message = tracker.newgame_answer(True)
                else:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    answer = light_answer(tracker, decision, rng)
                try:
                    await client.send(answer)
                except (CgmlClientError, OSError):
                    break
                tracker.sent(decision)
                if decision.kind != "newgame":
                    sent_at = time.time()


def worker(
    wid: int,
    port: int,
    players: int,
    think: float,
    stagger: float,
    window: tuple[float, float],
    out: Any,
) -> None:
    stats: dict[str, Any] = {"samples": [], "aborts": 0, "errors": 0}

    async def run() -> None:
        await asyncio.gather(
            *(
                bench_player(wid, i, players, port, think, stagger, window, stats)
                for i in range(players)
            )
        )

    if os.environ.get("HERNA_BENCH_PROFILE"):
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(asyncio.run, run())
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    else:
        asyncio.run(run())
    out.put(stats)


# -- the servers --------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run_bench(args: argparse.Namespace) -> dict[str, Any]:
    clock = MonotonicClock()
    db = Path(tempfile.mkdtemp(prefix="herna-bench-")) / "cgml.db"
    records = RecordStore(f"sqlite:///{db}")
    bus = EventBus()
    login_server = LoginServer(clock, LobbySettings(fill_wait=1.0))
    await login_server.start(HOST, 0, 0)
    settings = GroupSettings(bot_timeout=args.timeout, join_timeout=60.0)
    sgs = SuperGameServer(clock, settings, bus=bus, records=None if args.no_records else records)
    await sgs.start(HOST, 0, HOST, login_server.server_address[1])
    await asyncio.wait_for(sgs.registered.wait(), 10)
    while not login_server.snapshot()["game_servers"]:
        await asyncio.sleep(0.01)
    tune_gc()  # as `herna serve` does once it has started: what users run

    players = args.tables * 3
    now = time.time()
    window = (now + args.warmup, now + args.warmup + args.duration)
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    shares = [
        players // args.workers + (1 if w < players % args.workers else 0)
        for w in range(args.workers)
    ]
    procs = [
        ctx.Process(
            target=worker,
            args=(w, login_server.player_address[1], n, args.think, args.stagger, window, out),
            daemon=True,
        )
        for w, n in enumerate(shares)
        if n
    ]
    for p in procs:
        p.start()
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    games_at_start = 0
    while time.time() < window[0]:
        await asyncio.sleep(0.1)
        games_at_start = sgs.games_finished
    sgs.reactions.clear()
    cpu_start = resource.getrusage(resource.RUSAGE_SELF)
    max_groups = 0
    lags: list[float] = []
    loop = asyncio.get_running_loop()
    while time.time() < window[1]:
        # How late the server's event loop runs a timer: its queueing delay.
        due = loop.time() + 0.05
        await asyncio.sleep(0.05)
        lags.append(max(0.0, loop.time() - due))
        max_groups = max(max_groups, len(sgs.groups))
    cpu_end = resource.getrusage(resource.RUSAGE_SELF)
    games = sgs.games_finished - games_at_start
    server_times = list(sgs.reactions)
    # Stop: the server ends every group, the bots log off.
    await sgs.stop()
    await login_server.stop()
    results = [await loop.run_in_executor(None, out.get, True, 60) for _ in procs]
    for p in procs:
        p.join(timeout=10)
    records.close()
    samples = [s for r in results for s in r["samples"]]
    server_cpu = (cpu_end.ru_utime + cpu_end.ru_stime) - (cpu_start.ru_utime + cpu_start.ru_stime)
    del cpu0
    return {
        "tables": args.tables,
        "connections": players,
        "groups_max": max_groups,
        "think_s": args.think,
        "duration_s": args.duration,
        "games": games,
        "games_per_s": round(games / args.duration, 2),
        "answers": len(samples),
        "latency_p50_ms": round(percentile(samples, 0.50) * 1000, 2),
        "latency_p99_ms": round(percentile(samples, 0.99) * 1000, 2),
        "latency_max_ms": round(max(samples, default=0.0) * 1000, 2),
        "server_handling_p99_ms": round(percentile(server_times, 0.99) * 1000, 3),
        "server_loop_lag_p99_ms": round(percentile(lags, 0.99) * 1000, 2),
        "server_cpu_share": round(server_cpu / args.duration, 2),
        "aborts": sum(r["aborts"] for r in results),
        "errors": sum(r["errors"] for r in results),
        "load_avg": round(os.getloadavg()[0], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Many CGML tables of three bots over loopback: finished games/s and p99 "
        "reaction latency (target: 300 tables, p99 < 100 ms, no timeout aborts).",
    )
    parser.add_argument("--tables", type=int, default=300, help="tables of three (default 300)")
    parser.add_argument(
        "--think", type=float, default=0.5, help="mean seconds a bot thinks per answer (0.5)"
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=10.0,
        help="seconds over which the tables start, so games do not all end together (10)",
    )
    parser.add_argument("--warmup", type=float, default=12.0, help="seconds before measuring (12)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured (30)")
    parser.add_argument(
        "--workers", type=int, default=2, help="client processes running the bots (2)"
    )
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="server answer timeout in seconds (30)"
    )
    parser.add_argument(
        "--no-records", action="store_true", help="do not record games (to see their cost)"
    )
    args = parser.parse_args()
    figures = asyncio.run(run_bench(args))
    print(
        f"CGML tables: {figures['tables']} tables ({figures['connections']} connections), "
        f"bots think {args.think} s per answer on average"
    )
    print(
        f"  measured {args.duration:.0f} s after {args.warmup:.0f} s warm-up: "
        f"{figures['games']} games finished = {figures['games_per_s']} games/s"
    )
    print(
        f"  reaction latency over {figures['answers']} answers: p50 "
        f"{figures['latency_p50_ms']} ms, p99 {figures['latency_p99_ms']} ms, max "
        f"{figures['latency_max_ms']} ms (client-measured)"
    )
    print(
        f"  server: handling p99 {figures['server_handling_p99_ms']} ms, event-loop lag p99 "
        f"{figures['server_loop_lag_p99_ms']} ms, CPU {figures['server_cpu_share']:.0%} of one "
        "core"
    )
    print(
        f"  timeout aborts {figures['aborts']}, errors {figures['errors']}; load average "
        f"{figures['load_avg']} (the machine is shared: figures vary with its load)"
    )
    target = figures["latency_p99_ms"] < 100 and figures["aborts"] == 0
    print(f"  target (p99 < 100 ms, no aborts) {'met' if target else 'NOT met'}")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
