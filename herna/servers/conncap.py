"""How many connections one address may hold open, on every TCP port of the hall.

One host opening tens of thousands of connections used up the process's file descriptors:
accepts failed for everybody, the database could not open a file. So every listening socket
of the hall (the game servers' ports and the web hall) asks :class:`ConnectionCap` before it
serves a new connection:

* **per address**: at most :data:`DEFAULT_PER_ADDRESS` connections from one IP address per
  port (``herna serve --max-connections-per-address``; 0: no cap);
* **in all**: the process keeps :data:`RESERVED_DESCRIPTORS` descriptors of its limit
  (``RLIMIT_NOFILE``) for the database, the journal, logs and outgoing connections, and
  refuses connections beyond the rest.

A connection over either cap is reset at once, before any protocol object exists for it
(the cheapest refusal there is); one warning per address and port per minute says so.
"""

from __future__ import annotations

import logging
import resource
import time
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_PER_ADDRESS = 256
"""Connections one address may hold on one port: far beyond a person's browser (a handful) or
a bot program's, far below what exhausts the descriptors."""

RESERVED_DESCRIPTORS = 256
"""Descriptors never handed to accepted connections (database, journal, logs, workers)."""

LOG_EVERY = 60.0
"""Seconds between two warnings about one address on one port."""


class _Budget:
    """Connections accepted by every cap of this process together."""

    def __init__(self) -> None:
        self.open = 0
        self.limit = 0
        self.measure()

    def measure(self) -> None:
        """Read the descriptor limit again (``herna serve`` raises it before its servers
        start)."""
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        unlimited = soft == resource.RLIM_INFINITY or soft <= 0
        self.limit = 1 << 30 if unlimited else max(16, soft - RESERVED_DESCRIPTORS)


BUDGET = _Budget()

_per_address = 0
"""No cap until :func:`configure` (``herna serve`` calls it before any server starts):
servers started directly by tests and benchmarks take thousands of clients from 127.0.0.1."""


def configure(per_address: int) -> None:
    """The per-address cap of every :class:`ConnectionCap` made from now on (0: none)."""
    global _per_address
    _per_address = max(0, per_address)
    BUDGET.measure()


class ConnectionCap:
    """The caps of one listening port (``name`` is how logs call it)."""

    def __init__(self, name: str, per_address: int | None = None) -> None:
        self.name = name
        self.per_address = _per_address if per_address is None else per_address
        self.by_address: dict[str, int] = {}
        self._open: dict[int, str] = {}
        """Address of each admitted transport, by ``id``: a connection is released once,
        whichever protocol object sees it close (the web hall's change at a WebSocket
        upgrade)."""
        self.refused = 0
        self._logged: dict[str, float] = {}

    def admit(self, transport: Any) -> bool:
        """Count a new connection, or reset it and return False when it is over a cap."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        held = self.by_address.get(address, 0)
        over_address = self.per_address > 0 and held >= self.per_address
        if over_address or BUDGET.open >= BUDGET.limit:
            self.refused += 1
            self._note(address, over_address)
            transport.abort()
            return False
        self.by_address[address] = held + 1
        self._open[id(transport)] = address
        BUDGET.open += 1
        return True

    def release(self, transport: Any) -> None:
        address = self._open.pop(id(transport), None)
        if address is None:
            return
        BUDGET.open -= 1
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]

    def _note(self, address: str, over_address: bool) -> None:
        now = time.monotonic()
        if now - self._logged.get(address, -LOG_EVERY) < LOG_EVERY:
            return
        if len(self._logged) > 10_000:
            self._logged = {a: t for a, t in self._logged.items() if now - t < LOG_EVERY}
        self._logged[address] = now
        if over_address:
            why = f"{address} holds {self.per_address} connections already"
        else:
            why = f"the process holds {BUDGET.open} connections, its descriptor budget"
        log.warning(
            "%s: refusing new connections from %s: %s (said once a minute per address)",
            self.name,
            address,
            why,
        )
