"""Injected time. Servers and protocol cores ask a :class:`Clock`, never ``time`` directly,
so timeouts (Mia's 250 ms window, CGML deadlines, Onitama's reconnect window) are testable
with :class:`FakeClock` and exact under load.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Monotonic seconds."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        """Run ``callback`` after ``delay`` seconds; the handle cancels it."""
        ...


class MonotonicClock:
    """Real time, with timers on the running asyncio loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._loop = loop

    def now(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        loop = self._loop or asyncio.get_running_loop()
        return loop.call_later(max(0.0, delay), callback)


class _FakeTimer:
    __slots__ = ("callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that only moves when a test calls :meth:`advance`.

    >>> clock = FakeClock(); fired = []
    >>> _ = clock.call_later(0.25, lambda: fired.append(clock.now()))
    >>> clock.advance(0.2); fired
    []
    >>> clock.advance(0.1); fired
    [0.25]
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._timers: list[tuple[float, int, _FakeTimer]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        timer = _FakeTimer(self._now + max(0.0, delay), callback)
        heapq.heappush(self._timers, (timer.when, next(self._counter), timer))
        return timer

    def advance(self, seconds: float) -> None:
        """Move time forward, firing due timers in order (timers may schedule new ones)."""
        target = self._now + seconds
        while self._timers and self._timers[0][0] <= target:
            when, _, timer = heapq.heappop(self._timers)
            self._now = max(self._now, when)
            if not timer.cancelled:
                timer.callback()
        self._now = target

    def pending(self) -> int:
        return sum(1 for _, _, t in self._timers if not t.cancelled)
