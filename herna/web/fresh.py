"""A value that a page shows, computed at most once per ``max_age`` and shared by every request
that asks meanwhile (issue 28: fifty people refreshing the home page must not each run the same
queries in the process that hosts the game servers)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from starlette.concurrency import run_in_threadpool

T = TypeVar("T")


class Fresh(Generic[T]):
    """``await fresh.get()``: the last value if it is younger than ``max_age`` seconds, else a
    new one from ``compute`` (run in a worker thread: it may query the database). Requests that
    come while it is being computed wait for that one computation instead of starting theirs."""

    def __init__(
        self,
        compute: Callable[[], T],
        max_age: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._compute = compute
        self.max_age = max_age
        self._clock = clock
        self._value: T | None = None
        self._at = -float("inf")
        self._pending: asyncio.Future[T] | None = None
        self.computed = 0
        """How many times ``compute`` ran (tests and benchmarks read it)."""
        self.generation = 0
        """Counts the values that differed from the one before: what a page's ``ETag`` is
        made of (:mod:`herna.web.conditional`), so that a page whose results are the same
        after a refresh is still the browser's copy."""

    async def get(self) -> T:
        if self._value is not None and self._clock() - self._at < self.max_age:
            return self._value
        if self._pending is None:
            self._pending = asyncio.ensure_future(self._refresh())
        # shield: one request that gives up (a closed page) must not cancel the others' value
        return await asyncio.shield(self._pending)

    async def _refresh(self) -> T:
        try:
            started = self._clock()
            value = await run_in_threadpool(self._compute)
            self.computed += 1
            if value != self._value:
                self.generation += 1
            self._value, self._at = value, started
            return value
        finally:
            self._pending = None
