"""Balance reports played in worker processes, for ``herna rules balance`` and the web hall's
``/tools/balance`` page.

A report's games are cut into batches of seeds; each batch is played by
:func:`herna.games.tiles.balance.play_games` in a process of a ``spawn`` pool (one per core by
default: the games are pure Python, so threads would share one core), and each finished batch
is counted as progress. Game ``i`` always has seed ``seed + i``, so a report is the same
whatever the number of processes.

The web hall keeps one :class:`BalancePool` for every report it runs (workers started on the
first one, niced so that game servers go first) and awaits batches with
:meth:`BalancePool.report_async`: the event loop only collects results. The uploaded rules
file is checked in the pool too, with the same checks and size limits as ``herna rules
check`` (:func:`herna.games.tiles.rules.check_rules_text`): a big file takes seconds to check.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing as mp
import os
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from herna.core.processes import background_worker
from herna.games.tiles.balance import BalanceReport, GameSummary, play_batch, summarize
from herna.games.tiles.engine import DEFAULT_MAX_ROUNDS
from herna.games.tiles.rules import RulesReport, check_rules_text

log = logging.getLogger("herna.tiles")

Progress = Callable[[int, int], None]
"""Called with (games played, games in all) after each batch."""
AsyncProgress = Callable[[int, int], Awaitable[None]]
"""The same, awaited (a web page's progress is a message sent)."""

MAX_BATCH = 20
"""Most games in one batch: a batch is the unit of progress (and of lost work on a cancel)."""


def batches(games: int, workers: int, seed: int = 0) -> list[list[int]]:
    """The seeds ``seed .. seed + games - 1`` in batches: about eight per worker so that
    progress moves and the last batches keep every worker busy, at most :data:`MAX_BATCH`.

    >>> batches(5, 2)
    [[0], [1], [2], [3], [4]]
    >>> [len(b) for b in batches(100, 1)]
    [12, 12, 12, 12, 12, 12, 12, 12, 4]
    """
    size = max(1, min(MAX_BATCH, -(-games // (8 * max(1, workers)))))
    return [list(range(seed + i, seed + min(games, i + size))) for i in range(0, games, size)]


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


@dataclass(frozen=True)
class BalanceJob:
    """What a report plays: ``games`` games of the checked rules ``data`` (as parsed from
    JSON; ``players`` seats) by house bots of ``level``, game i with seed ``seed + i``."""

    data: Any
    players: int
    games: int
    level: str
    seed: int = 0
    max_rounds: int = DEFAULT_MAX_ROUNDS
    interval: str = "wilson"
    name: str = ""

    def summary(self, futures: Sequence[Future[list[GameSummary]]]) -> BalanceReport:
        """The report over the batches' games, in seed order."""
        games = [g for f in futures for g in f.result()]
        return summarize(games, self.players, self.name, self.level, self.interval)


class BalancePool:
    """Worker processes that play the games of balance reports (started on first use)."""

    def __init__(self, workers: int | None = None, nice: int = 0, start: str = "spawn") -> None:
        self.workers = workers or default_workers()
        self.nice = nice
        self.start = start
        """How workers start: ``spawn`` (a fresh interpreter: safe beside the web hall's
        threads) or ``fork`` (at once: a command line's single thread)."""
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=mp.get_context(self.start),
                initializer=background_worker,
                initargs=(os.getpid(), self.nice),
            )
        return self._pool

    def _submit(self, job: BalanceJob) -> list[Future[list[GameSummary]]]:
        pool = self.pool()
        return [
            pool.submit(play_batch, job.data, job.level, batch, job.max_rounds)
            for batch in batches(job.games, self.workers, job.seed)
        ]

    def report(self, job: BalanceJob, progress: Progress | None = None) -> BalanceReport:
        """Play the games of ``job`` and sum them up (blocking)."""
        futures = self._submit(job)
        pending: set[Future[list[GameSummary]]] = set(futures)
        done = 0
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    done += len(future.result())
                if progress is not None:
                    progress(done, job.games)
        except BaseException:  # Ctrl-C, or a batch failed: drop the batches not begun
            for f in futures:
                f.cancel()
            raise
        return job.summary(futures)

    async def check_async(self, text: str, name: str) -> RulesReport:
        """``text`` checked as ``herna rules check`` checks a file, in a worker."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool(), check_rules_text, text, name)

    async def report_async(
        self, job: BalanceJob, progress: AsyncProgress | None = None
    ) -> BalanceReport:
        """As :meth:`report`, awaiting the workers; cancelling it drops the batches not begun."""
        futures = self._submit(job)
        waiting = [asyncio.wrap_future(f) for f in futures]
        try:
            done = 0
            for next_one in asyncio.as_completed(waiting):
                done += len(await next_one)
                if progress is not None:
                    await progress(done, job.games)
        except BaseException:
            for f in futures:
                f.cancel()
            raise
        return job.summary(futures)

    def close(self, wait: bool = False) -> None:
        """Stop the workers; ``wait`` for them to exit (a command line about to exit must,
        or the interpreter's exit handler writes to the closed pool)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None
