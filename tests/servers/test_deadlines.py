"""The login deadlines every TCP server keeps (herna/servers/deadlines.py)."""

from __future__ import annotations

from herna.core.clock import FakeClock
from herna.servers.deadlines import LoginDeadlines


def test_only_connections_still_waiting_expire_once() -> None:
    clock = FakeClock()
    expired: list[str] = []
    deadlines = LoginDeadlines(clock, 10.0, expired.append)
    for conn in ("silent", "logs-in", "leaves", "restarted"):
        deadlines.start(conn)
    clock.advance(5)
    deadlines.done("logs-in")
    deadlines.done("leaves")
    deadlines.done("leaves")  # idempotent
    deadlines.start("restarted")  # a new start replaces the old timer
    assert len(deadlines) == 2 and deadlines.waiting("silent")
    clock.advance(5.1)
    assert expired == ["silent"] and deadlines.expired == 1
    assert not deadlines.waiting("silent")
    clock.advance(5)
    assert expired == ["silent", "restarted"] and len(deadlines) == 0
    assert clock.pending() == 0


def test_no_limit_and_cancel_all() -> None:
    clock = FakeClock()
    expired: list[int] = []
    unlimited = LoginDeadlines(clock, 0.0, expired.append)
    unlimited.start(1)
    assert not unlimited.waiting(1) and clock.pending() == 0
    limited = LoginDeadlines(clock, 1.0, expired.append)
    limited.start(2)
    limited.start(3)
    limited.cancel_all()
    clock.advance(2)
    assert expired == [] and len(limited) == 0 and clock.pending() == 0
