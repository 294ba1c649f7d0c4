"""Onitama moves timed while something else loads a ``herna serve`` (bench/web_crowd.py,
bench/web_spectators.py): a few pairs of bots in a thread of their own play game after game on
the served Onitama port, each answering its turn after ``think`` seconds, and every
MAKE_MOVE is timed until its MOVE_WAS_MADE comes back. :meth:`OnitamaProbe.window` hands out
the latencies since the last call, so one probe measures "alone" and "with the crowd" in the
same server."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.onitama_games import Bot, Measure, percentile


class OnitamaProbe:
    def __init__(self, port: int, pairs: int = 4, think: float = 0.05) -> None:
        self.port = port
        self.pairs = pairs
        self.think = think
        self.measure = Measure()
        self._loop = asyncio.new_event_loop()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._ready = threading.Event()
        self._bots: list[Bot] = []

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._connect())
        self._ready.set()
        self._loop.run_forever()

    async def _connect(self) -> None:
        ready = asyncio.Event()
        count = [0]
        total = 2 * self.pairs
        for i in range(total):
            name = f"probe{i}"
            _, bot = await self._loop.create_connection(
                lambda name=name, i=i: Bot(name, self.measure, i, self.think, ready, count, total),
                "127.0.0.1",
                self.port,
            )
            self._bots.append(bot)
        for bot in self._bots:
            bot.login()
        await asyncio.wait_for(ready.wait(), 60)

    def __enter__(self) -> OnitamaProbe:
        self._thread.start()
        if not self._ready.wait(90):
            raise RuntimeError("the Onitama probe's bots did not log in")
        self.measure.recording = True
        return self

    def window(self) -> list[float]:
        """Move latencies (ms) since the last call (the probe's thread appends to the list it
        finds: swapping it is one assignment under the GIL)."""
        got, self.measure.latencies = self.measure.latencies, []
        return [1000 * x for x in got]

    def __exit__(self, *exc: object) -> None:
        self.measure.stopping = True
        for bot in self._bots:
            if bot.transport is not None:
                self._loop.call_soon_threadsafe(bot.transport.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


def summary(latencies: list[float]) -> tuple[float, float, int]:
    """p50 ms, p99 ms, moves."""
    return percentile(latencies, 0.5), percentile(latencies, 0.99), len(latencies)


__all__ = ["OnitamaProbe", "summary"]


def main() -> int:
    """``python bench/onitama_probe.py PORT``: the probe as a process of its own (so that its
    bots do not share a GIL with what is measured). Each line ``WINDOW`` on stdin is answered
    with one JSON line ``[p50 ms, p99 ms, moves]`` of the moves since the last; end of input
    ends it."""
    with OnitamaProbe(int(sys.argv[1])) as probe:
        print("READY", flush=True)
        for line in sys.stdin:
            if line.strip() == "WINDOW":
                print(json.dumps(summary(probe.window())), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
