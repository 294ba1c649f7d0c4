"""The in-process event bus: every server publishes game events here; spectators (the
terminal watcher, the web hall) subscribe.

Publishing never blocks and never waits for a subscriber: each subscription has a bounded
queue, and a subscriber that falls behind is *dropped* (its ``dropped`` flag is set and it
stops receiving) so that a slow browser can never slow a game server down.

Versions
--------
The bus of the process that hosts a table numbers the table's events: ``version`` 1, 2, 3 …
within a ``stream`` (this bus's random id and the table's incarnation here). Every other
process sees the same numbers: the PostgreSQL bridge (:mod:`herna.hall.bridge`) carries them
and a bus never renumbers an event that has them, and events of a table that runs in a game
worker are numbered by the front's bus, which forwards them in order. So any live process can
tell a browser which events it missed (:mod:`herna.web.live`), whichever process numbered
them. A table the bus has not seen for :data:`STREAMS` other tables starts a new stream: a
browser holding the old one gets a fresh snapshot, never wrong events.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

_seq = itertools.count(1)

STREAMS = 20_000
"""Tables whose numbering a bus keeps (the least recently published are forgotten first)."""


class GameEvent:
    """One thing that happened at a table, as spectators may see it (never hidden info).

    ``game`` is ``"mia"``, ``"marias"``, ``"onitama"`` or ``"tiles"``; ``table`` identifies the
    match/round/table within that game's server; ``kind`` is a short verb
    (``"round_started"``, ``"move"``, ``"game_over"``); ``data`` is JSON-ready.

    ``stream`` and ``version`` are the table's numbering (module doc), set when the event is
    first published; ``seq`` counts every event this process made and means nothing
    elsewhere.

    Read-only once published (many subscribers share it). A plain class with slots, not a
    frozen dataclass: a busy Onitama server makes one per move, and the frozen dataclass's
    ``__init__`` cost five times as much.
    """

    __slots__ = ("data", "game", "kind", "seq", "stream", "table", "ts", "version")

    def __init__(
        self,
        game: str,
        table: str,
        kind: str,
        data: dict[str, Any],
        ts: float | None = None,
        seq: int | None = None,
        stream: str = "",
        version: int = 0,
    ) -> None:
        self.game = game
        self.table = table
        self.kind = kind
        self.data = data
        self.ts = time.time() if ts is None else ts
        self.seq = _seq.__next__() if seq is None else seq
        self.stream = stream
        self.version = version

    def __repr__(self) -> str:
        return (
            f"GameEvent({self.game!r}, {self.table!r}, {self.kind!r}, seq={self.seq}, "
            f"stream={self.stream!r}, version={self.version})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "table": self.table,
            "kind": self.kind,
            "data": self.data,
            "ts": self.ts,
            "seq": self.seq,
        }


EventFilter = Callable[[GameEvent], bool]


class Subscription:
    """A bounded mailbox of events. Iterate with ``async for`` or poll with :meth:`drain`."""

    def __init__(self, bus: EventBus, limit: int, accept: EventFilter | None) -> None:
        self._bus = bus
        self._queue: deque[GameEvent] = deque()
        self._limit = limit
        self._accept = accept
        self._waiter: asyncio.Event | None = None
        self.dropped = False
        self.closed = False

    def _offer(self, event: GameEvent) -> None:
        if self.closed or (self._accept is not None and not self._accept(event)):
            return
        if len(self._queue) >= self._limit:
            # Too slow: drop the subscriber rather than buffer without bound.
            self.dropped = True
            self.close()
            return
        self._queue.append(event)
        if self._waiter is not None:
            self._waiter.set()

    def drain(self) -> list[GameEvent]:
        """All queued events, oldest first (non-blocking)."""
        out = list(self._queue)
        self._queue.clear()
        return out

    async def get(self) -> GameEvent | None:
        """Next event, or None once the subscription is closed or dropped."""
        while not self._queue:
            if self.closed:
                return None
            if self._waiter is None:
                self._waiter = asyncio.Event()
            self._waiter.clear()
            await self._waiter.wait()
        return self._queue.popleft()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> GameEvent:
        event = await self.get()
        if event is None:
            raise StopAsyncIteration
        return event

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._bus._remove(self)
            if self._waiter is not None:
                self._waiter.set()


class EventBus:
    """Fan-out of :class:`GameEvent` to subscriptions; also keeps a short recent history."""

    def __init__(self, history: int = 1000) -> None:
        self._subscriptions: list[Subscription] = []
        self.recent: deque[GameEvent] = deque(maxlen=history)
        self.published = 0
        self.id = secrets.token_hex(4)
        """This bus's part of the streams it numbers (module doc)."""
        self._streams: OrderedDict[tuple[str, str], list[Any]] = OrderedDict()
        """(game, table) -> [stream, newest version] of the tables this bus numbers."""
        self._incarnations = itertools.count(1)

    def publish(self, event: GameEvent) -> None:
        """Number ``event`` unless it is numbered already (relayed from another process),
        then offer it to every subscription."""
        if not event.version:
            self._number(event)
        self.published += 1
        self.recent.append(event)
        if self._subscriptions:
            for sub in list(self._subscriptions):
                sub._offer(event)

    def _number(self, event: GameEvent) -> None:
        key = (event.game, event.table)
        streams = self._streams
        entry = streams.get(key)
        if entry is None:
            entry = streams[key] = [f"{self.id}.{next(self._incarnations)}", 0]
            if len(streams) > STREAMS:
                streams.popitem(last=False)
        else:
            streams.move_to_end(key)
        entry[1] += 1
        # Read-only for everyone else; the bus that publishes an event first numbers it.
        event.stream = entry[0]
        event.version = entry[1]

    def emit(self, game: str, table: str, kind: str, **data: Any) -> GameEvent:
        """Build and publish an event in one call."""
        event = GameEvent(game, table, kind, data)
        self.publish(event)
        return event

    def subscribe(self, accept: EventFilter | None = None, limit: int = 10_000) -> Subscription:
        sub = Subscription(self, limit, accept)
        self._subscriptions.append(sub)
        return sub

    @property
    def subscriber_count(self) -> int:
        return len(self._subscriptions)

    def _remove(self, sub: Subscription) -> None:
        if sub in self._subscriptions:
            self._subscriptions.remove(sub)
