"""Browser mariáš seats without browsers: what the web hall's relay costs.

Starts `herna serve --only marias` (bots without delay, no house tables) on free ports and runs
``--seats`` :class:`~herna.clients.marias_seat.SeatRelay` seats at once, each at its own table
with two house bots, with a stand-in answering every question (as after a page closed) and the
page state computed after every server message (what the web hall does for an open page).
Reports deals per second, the time one state takes to compute (the relay's own work per
message) and the size of a state frame.

    PYTHONPATH=. .venv/bin/python bench/marias_browser_seats.py               # 1 seat, 10 deals
    PYTHONPATH=. .venv/bin/python bench/marias_browser_seats.py --seats 5 --deals 10

The last line of output is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from herna.cli.serve import embedded_args, start_hall, tune_gc
from herna.clients.marias_seat import SeatRelay
from herna.protocols.cgml.messages import PlayerRef


def serve_args(tmp: Path) -> argparse.Namespace:
    return embedded_args(
        "marias",
        f"sqlite:///{tmp / 'bench.db'}",
        cgml_bot_delay=0.0,
        cgml_house_tables=0,
        cgml_fill_wait=0.05,
    )


async def run(seats: int, deals: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        hall = await start_hall(serve_args(Path(tmp)), {})
        tune_gc()  # as `herna serve` does once it has started: what users run
        try:
            service: Any = hall.service("marias")
            for _ in range(200):
                snap = service.login.lobby.snapshot()
                if snap["game_servers"] and snap["bot_servers"]:
                    break
                await asyncio.sleep(0.02)
            host, port = service.login.player_address[:2]
            timings: list[float] = []
            sizes: list[int] = []
            relays: list[SeatRelay] = []

            def watch(relay: SeatRelay) -> None:
                started = time.perf_counter()
                frame = json.dumps(relay.state(), ensure_ascii=False)
                timings.append(time.perf_counter() - started)
                sizes.append(len(frame.encode("utf-8")))

            for i in range(seats):
                relay = SeatRelay(
                    host,
                    port,
                    PlayerRef(f"bench-{i}", f"bench-{i}", "human"),
                    (PlayerRef("house-heuristic-bot"), PlayerRef("house-heuristic-bot")),
                )
                relay.on_change = lambda r=relay: watch(r)  # type: ignore[misc]
                relay.set_stand_in(True)
                relays.append(relay)
            started = time.perf_counter()
            for relay in relays:
                relay.start()
            while min(r.deals for r in relays) < deals:
                await asyncio.sleep(0.05)
            elapsed = time.perf_counter() - started
            for relay in relays:
                await relay.stop()
        finally:
            await hall.stop()
            hall.records.close()
    total = sum(r.deals for r in relays)
    return {
        "seats": seats,
        "deals": total,
        "seconds": round(elapsed, 2),
        "deals_per_second": round(total / elapsed, 2),
        "states": len(timings),
        "state_ms_median": round(statistics.median(timings) * 1000, 3),
        "state_ms_p95": round(sorted(timings)[int(len(timings) * 0.95)] * 1000, 3),
        "state_bytes_median": int(statistics.median(sizes)),
        "state_bytes_max": max(sizes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=1)
    parser.add_argument("--deals", type=int, default=10, help="deals per seat")
    args = parser.parse_args()
    figures = asyncio.run(run(args.seats, args.deals))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
