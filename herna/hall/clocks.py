"""A person's decision on the clock: the hall's one mechanism for people's clocks.

Every game server that seats people asks the same thing of a decision (issue 13, "Leaving,
clocks and stand-ins"): the person has ``move`` seconds; when they run out the person is
*late* and gets ``grace`` seconds more (the same grace a dropped connection gets) in which an
answer still counts; when those run out too the decision has *expired* and the server lets a
stand-in decide (mariáš, tiles) or the opponent win or claim the game (Onitama). A
:class:`DecisionClock` is that sequence for one decision at a time, on the server's injected
:class:`~herna.core.clock.Clock` (so tests drive it with a ``FakeClock``). What "late" and
"expired" mean for a game stays with its server, through the two callbacks:

* Onitama: ``servers/onitama/clocks.py`` (``OVERTIME``, then the win or ``CLAIMABLE``);
* tiles: ``servers/tiles/returns.py`` (``TIME_UP``, then a stand-in until ``back``);
* mariáš in the browser: ``clients/marias_seat.py`` (the page's countdown, then a stand-in
  until "Back to my seat").

>>> from herna.core.clock import FakeClock
>>> clock, said = FakeClock(), []
>>> d = DecisionClock(clock, 10, 5, lambda: said.append("late"), lambda: said.append("gone"))
>>> d.start(); clock.advance(9); (d.late, d.left())
(False, 1.0)
>>> clock.advance(1); (said, d.late, d.left())
(['late'], True, 5.0)
>>> clock.advance(5); (said, d.running)
(['late', 'gone'], False)
>>> d.start(); clock.advance(3); d.stop(); clock.advance(100); said
['late', 'gone']
"""

from __future__ import annotations

from collections.abc import Callable

from herna.core.clock import Clock, TimerHandle


class DecisionClock:
    """``move`` seconds, then ``grace`` more (late), then expired (see the module doc)."""

    def __init__(
        self,
        clock: Clock,
        move: float,
        grace: float,
        on_late: Callable[[], None],
        on_expired: Callable[[], None],
    ) -> None:
        self.clock = clock
        self.move = move
        """Seconds for the decision (0 or less: no clock; :meth:`start` does nothing)."""
        self.grace = grace
        self.on_late = on_late
        self.on_expired = on_expired
        self.late = False
        """The move time is over: the grace period runs."""
        self.deadline: float | None = None
        """When the running period (move time or grace) ends, on ``clock``."""
        self._timer: TimerHandle | None = None

    @property
    def running(self) -> bool:
        return self._timer is not None

    def start(self) -> None:
        """A new decision: the move time starts (any earlier one is forgotten)."""
        self.stop()
        if self.move <= 0:
            return
        self.deadline = self.clock.now() + self.move
        self._timer = self.clock.call_later(self.move, self._late)

    def stop(self) -> None:
        """The decision was made (or is no longer asked): no more callbacks."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.late = False
        self.deadline = None

    def left(self) -> float | None:
        """Seconds left in the running period; None when no decision is on the clock."""
        if self.deadline is None or self._timer is None:
            return None
        return max(self.deadline - self.clock.now(), 0.0)

    def _late(self) -> None:
        self.late = True
        self.deadline = self.clock.now() + max(self.grace, 0.0)
        self._timer = self.clock.call_later(max(self.grace, 0.0), self._expired)
        self.on_late()

    def _expired(self) -> None:
        self._timer = None
        self.deadline = None
        self.on_expired()


__all__ = ["DecisionClock"]
