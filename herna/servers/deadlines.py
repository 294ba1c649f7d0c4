"""Login deadlines: the time each new connection of a server has to identify itself.

Without one, a hostile client could open thousands of connections, say nothing and hold the
server's file descriptors forever. Every TCP server of Herna (Onitama, tiles, the CGML login
and super game servers) keeps one :class:`LoginDeadlines`: it calls :meth:`~LoginDeadlines.start`
when a connection is made and :meth:`~LoginDeadlines.done` once the connection has logged in
or is gone. The timers run on the server's injected :class:`~herna.core.clock.Clock` (tests
use ``FakeClock.advance()``); on expiry the server's ``expire`` callback tells the peer in
the protocol's own terms (``LOGIN_TIMEOUT``) and closes that connection, nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from herna.core.clock import Clock, TimerHandle

DEFAULT_LOGIN_TIMEOUT = 60.0
"""Seconds a new connection has to log in (``--<server>-login-timeout``)."""

LOGIN_TIMEOUT = "LOGIN_TIMEOUT"
"""The error code every server sends on expiry (a Herna extension in every protocol)."""

K = TypeVar("K", bound=Hashable)


class LoginDeadlines(Generic[K]):
    """One timer per connection that has not logged in yet; ``timeout`` <= 0: no limit."""

    def __init__(self, clock: Clock, timeout: float, expire: Callable[[K], None]) -> None:
        self.clock = clock
        self.timeout = timeout
        self.expire = expire
        """Called with a connection whose time ran out (it is no longer waiting by then)."""
        self.expired = 0
        """Connections whose time ran out so far."""
        self._timers: dict[K, TimerHandle] = {}

    def start(self, conn: K) -> None:
        """Give ``conn`` :attr:`timeout` seconds from now to log in."""
        if self.timeout <= 0:
            return
        self.done(conn)
        self._timers[conn] = self.clock.call_later(self.timeout, lambda: self._run_out(conn))

    def waiting(self, conn: K) -> bool:
        """Whether ``conn`` still has to log in (always False without a limit)."""
        return conn in self._timers

    def done(self, conn: K) -> None:
        """``conn`` logged in or is gone: forget its deadline (idempotent)."""
        timer = self._timers.pop(conn, None)
        if timer is not None:
            timer.cancel()

    def cancel_all(self) -> None:
        """The server stops: no deadline may fire after it."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def __len__(self) -> int:
        return len(self._timers)

    def _run_out(self, conn: K) -> None:
        if self._timers.pop(conn, None) is None:
            return
        self.expired += 1
        self.expire(conn)
