#!/usr/bin/env python3
"""Which Mia bot scores best? A tournament of the reference strategies.

Default: 10,000 rounds through the pure rules engine (the same MiaRound the server runs, the
same bot code the UDP clients run), two players of each strategy, order shuffled every
round, seeded. With --udp the same tournament is played through a real Mia server over UDP
loopback (slower). Prints points per round for each strategy with a 95 % confidence
interval; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import tempfile
import time
from collections import defaultdict

from herna.core.game import CHANCE
from herna.core.rng import SeededRng
from herna.games.mia import Announce, MiaRound, Roll, See
from herna.games.mia.bots import STRATEGIES, MiaBot, RoundSummary, TurnView, make_bot


def engine_tournament(rounds: int, per_strategy: int, seed: int) -> dict[str, list[int]]:
    rng = SeededRng(seed)
    players = {
        f"{s}{i}": make_bot(s, random.Random(seed + i))
        for s in STRATEGIES
        for i in range(per_strategy)
    }
    results: dict[str, list[int]] = defaultdict(list)
    for _ in range(rounds):
        order = tuple(rng.shuffled(list(players)))
        state = MiaRound(order)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state = state.apply(rng.weighted(state.chance_outcomes()))
                continue
            name = state.current_name
            bot = players[name]
            view = TurnView(name, order, tuple((a.name, a.dice) for a in state.announcements))
            if state.phase == "turn":
                state = state.apply(Roll() if bot.decide(view) == "ROLL" else See())
            else:
                assert state.actual is not None
                state = state.apply(Announce(bot.announce(view, state.actual)))
        summary = RoundSummary(
            order,
            tuple((a.name, a.dice) for a in state.announcements),
            state.actual if state.revealed else None,
            state.losers,
            state.reason,
        )
        for bot in players.values():
            bot.round_over(summary)
        for name in order:
            results[strategy_of(name)].append(0 if name in state.losers else 1)
    return results


def strategy_of(name: str) -> str:
    return name.rstrip("0123456789")


async def udp_tournament(rounds: int, per_strategy: int) -> dict[str, list[int]]:
    import argparse as ap

    from herna.clients.mia import MiaClient, play
    from herna.hall.hall import Hall
    from herna.hall.records import RecordStore
    from herna.servers.mia import PLUGIN, MiaService

    with tempfile.TemporaryDirectory() as tmp:
        hall = Hall(records=RecordStore(f"sqlite:///{tmp}/t.db"))
        service = await PLUGIN.start(
            hall, ap.Namespace(host="127.0.0.1", mia_port=0, no_house_bots=True), {}
        )
        assert isinstance(service, MiaService)
        port = service.server.address[1]
        clients: list[tuple[MiaClient, MiaBot]] = []
        for s in STRATEGIES:
            for i in range(per_strategy):
                c = MiaClient("127.0.0.1", port, f"{s}{i}")
                await c.connect()
                await c.register()
                clients.append((c, make_bot(s, random.Random(i))))
        tasks = [asyncio.create_task(play(c, b)) for c, b in clients]
        while service.table.stats.rounds_played < rounds:
            await asyncio.sleep(0.2)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        hall.records.flush()
        results: dict[str, list[int]] = defaultdict(list)
        for m in hall.records.matches(game="mia", limit=rounds * 2):
            if m.status == "finished":
                for p in m.players:
                    results[strategy_of(p.name)].append(int(p.score))
        await service.stop()
        hall.records.close()
        return results


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--per-strategy", type=int, default=2, help="players per strategy")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--udp", action="store_true", help="play through a real UDP server")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.udp:
        results = asyncio.run(udp_tournament(args.rounds, args.per_strategy))
    else:
        results = engine_tournament(args.rounds, args.per_strategy, args.seed)
    elapsed = time.perf_counter() - start
    table = {}
    for strategy in STRATEGIES:
        xs = results[strategy]
        mean = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
        half = 1.96 * sd / math.sqrt(len(xs))
        table[strategy] = {
            "points_per_round": round(mean, 4),
            "ci95": round(half, 4),
            "player_rounds": len(xs),
        }
    ranking = sorted(table, key=lambda s: -table[s]["points_per_round"])
    mode = "UDP server" if args.udp else "rules engine"
    print(
        f"{args.rounds} rounds via the {mode}, {args.per_strategy} players per strategy, "
        f"{elapsed:.1f} s"
    )
    for s in ranking:
        t = table[s]
        print(f"  {s:12s} {t['points_per_round']:.4f} ± {t['ci95']:.4f} points per round")
    print(f"best: {ranking[0]}")
    print(
        json.dumps(
            {
                "benchmark": "mia_bots",
                "mode": mode,
                "rounds": args.rounds,
                "strategies": table,
                "best": ranking[0],
            }
        )
    )


if __name__ == "__main__":
    main()
